"""Issue 38.2: a player's own remembered cards grade that player's seen decisions, for that player
only. A heads-up deal recorded with only the cards shown (no showdown: the log never learns A's
hand): A's bet after looking is "no reference: the hand is not known" until A's note gives the
hand; B's decisions never use A's note."""

from __future__ import annotations

import json

import pytest
from threes_helpers import threes_deal

from events.codec import read_events
from events.model import AnyEvent
from solver.review import review
from timeline.core import Timeline


def _log() -> list[AnyEvent]:
    lines = [
        {"type": "session_started", "session": "real", "seats": ["A", "B"], "cards": "shown"},
        {"type": "dealer_chosen", "player": "B"},
        {"type": "shuffled"},
        {"type": "dealt"},
        {"type": "looked", "player": "A"},
        {"type": "looked", "player": "B"},
        {"type": "bet", "player": "A", "level": 1},
        {"type": "folded", "player": "B"},
    ]
    return [e for _, e in read_events(json.dumps(x) for x in lines)]


@pytest.mark.slow
def test_the_note_grades_only_its_player_and_is_marked() -> None:
    steps = Timeline.of(_log()).steps
    plain = review(steps).rows
    bet = next(r for r in plain if r.action == "bet 1")
    fold = next(r for r in plain if r.action == "fold")
    assert bet.ev_loss is None and bet.grade == "no reference: the hand is not known"
    assert fold.ev_loss is None and fold.grade == "no reference: the hand is not known"

    noted = review(steps, remembered=("A", {1: ("3c", "3d", "3h")})).rows
    bet_n = next(r for r in noted if r.action == "bet 1")
    fold_n = next(r for r in noted if r.action == "fold")
    assert bet_n.from_note and bet_n.ev_loss is not None and bet_n.ev_loss >= 0
    # B's fold is B's: A's note never grades it
    assert (fold_n.ev_loss, fold_n.grade, fold_n.from_note) == (fold.ev_loss, fold.grade, False)

    # a note for another deal, or B's note used for A's decision: nothing changes
    other = review(steps, remembered=("A", {2: ("3c", "3d", "3h")})).rows
    assert [r.grade for r in other] == [r.grade for r in plain]
    b_note = review(steps, remembered=("B", {1: ("2c", "7d", "9h")})).rows
    assert next(r for r in b_note if r.action == "bet 1").grade == bet.grade


@pytest.mark.slow
def test_the_noted_cards_are_what_is_graded() -> None:
    steps = Timeline.of(_log()).steps
    # a prial of threes and a 7-high grade A's bet differently: the note is what is graded
    strong = review(steps, remembered=("A", {1: ("3c", "3d", "3h")})).rows
    weak = review(steps, remembered=("A", {1: ("2c", "4d", "7h")})).rows
    s = next(r for r in strong if r.action == "bet 1")
    w = next(r for r in weak if r.action == "bet 1")
    assert s.options != w.options


@pytest.mark.slow
def test_a_hand_the_log_knows_is_never_replaced_by_a_note() -> None:
    """Every card recorded: A's note (other cards) changes none of A's rows."""
    ev = threes_deal(
        "all", {"type": "bet", "player": "A", "level": 1}, {"type": "folded", "player": "B"}
    )
    steps = Timeline.of(ev).steps
    plain = review(steps).rows
    noted = review(steps, remembered=("A", {1: ("2c", "4d", "7h")})).rows
    assert any(r.ev_loss is not None for r in plain)
    assert noted == plain and not any(r.from_note for r in noted)
