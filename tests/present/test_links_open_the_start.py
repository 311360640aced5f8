"""Issue 35, item 5 and the plurals: a link to a deal or step a session does not have opens its
start, never its end, with one line saying what it lacks (:func:`present.positions.opened`); a
count is printed with its word in the right number (:func:`present.numbers.count_of`); a deal
a visitor gets as a spectator is captioned only when that hides a card the log knows
(:func:`present.sight.sight_for`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from live_helpers import cut_in_deal

from engine.fold import complete
from events.codec import read_file
from present.numbers import count_of, plural
from present.replay import Replay
from present.sight import guards, sight_for
from sim import simulate_session

ROOT = Path(__file__).resolve().parents[2]
LOG = ROOT / "data" / "season" / "2026-09-24-top-1.jsonl"  # 8 deals, finished


@pytest.fixture(scope="module")
def rp() -> Replay:
    return Replay.of([s.event for s in complete(read_file(str(LOG)))])


def test_the_plural_of_one_two_and_none() -> None:
    assert [plural(n, "deal") for n in (1, 2, 0)] == ["deal", "deals", "deals"]
    assert [count_of(n, "session") for n in (1, 2, 0)] == ["1 session", "2 sessions", "0 sessions"]
    assert count_of(1, "batch", "batches") == "1 batch"
    assert count_of(2, "batch", "batches") == "2 batches"
    assert count_of(12_345, "event") == "12,345 events"


def test_a_real_place_opens_there_without_a_line(rp: Replay) -> None:
    assert rp.opened(None, None) == (rp.position(1, 1), "")
    assert rp.opened("3", "7") == (rp.position(3, 7), "")
    assert rp.opened("3", None) == (rp.position(3, 1), "")
    assert rp.opened(None, "5") == (rp.position(1, 5), "")


@pytest.mark.parametrize("deal", ["42", "9", "-1", "abc", ""])
def test_a_deal_the_session_lacks_opens_the_start(rp: Replay, deal: str) -> None:
    pos, line = rp.opened(deal, "999")
    assert (pos.deal, pos.step) == (1, 1)  # the start, not deal 8's end
    assert line == f"This session has no deal {deal}: it has 8 deals. Showing the start."


@pytest.mark.parametrize("step", ["999", "0", "-4", "7a", "x"])
def test_a_step_the_deal_lacks_opens_its_first_step(rp: Replay, step: str) -> None:
    pos, line = rp.opened("3", step)
    assert (pos.deal, pos.step) == (3, 1)
    last = rp.label(rp.position(3, 10**6)).step
    assert line == f"Deal 3 has no step {step}: it has {last} steps. Showing its first step."


def test_the_line_quotes_a_long_value_cut(rp: Replay) -> None:
    _, line = rp.opened("9" * 40, None)
    assert line.startswith("This session has no deal 9999999999999999999…: it has 8 deals.")


def test_a_live_session_has_no_deal_yet() -> None:
    live = Replay.of(cut_in_deal(simulate_session(seed="live", players=4, cards="all"), 2, 3))
    pos, line = live.opened("3", "1")
    assert (pos.deal, pos.step) == (1, 1)
    assert line == "This session has no deal 3 yet: it has 2 deals so far. Showing the start."


@pytest.mark.parametrize("cards", ["all", "shown"])
def test_a_spectators_deal_is_captioned_only_when_it_hides_a_card(cards: str) -> None:
    """At a table that records only the cards shown, a deal in play drawn as a spectator saw it
    hides nothing the log knows: no caption about the pack (but for a player's view asked for,
    which waits); at an all-cards table it hides the hands, and says so."""
    events = cut_in_deal(simulate_session(seed="live", players=4, cards=cards), 2, 6)
    rp = Replay.of(events)
    assert guards(rp, 2) and guards(rp, 1)
    for deal in (1, 2):
        note = sight_for(rp, deal).note
        assert (note != "") == (cards == "all"), (deal, note)
    viewed = sight_for(rp, 2, rp.seats[0]).note
    assert viewed.startswith(f"Deal 2 is still in play: viewing as {rp.seats[0]} waits")
