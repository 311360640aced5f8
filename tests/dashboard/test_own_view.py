"""Issue 21.4, a player's own remembered cards in their own view: in a session that records only
the cards shown (a real table), the three cards a player entered for a deal are drawn face up in
that player's own view from the step they looked (RULES 5.1), with odds taken from them and
marked "from your note"; never in everyone's view, another player's, or a spectator's of a deal
still in play. The session is simulated heads-up with only the shown cards recorded (seed
``mine``): in its deal 2 Sue looks at step 5 and folds at step 6, and nobody shows."""

from __future__ import annotations

import html
import json
import re
from itertools import combinations

import pytest

from dashboard.replay.frames import deal_frames
from engine.hands import strength
from events.cards import card
from present.narrate import pretty_card
from present.replay import FROM_NOTE, Replay, table_view
from present.sight import sight_for
from sim import simulate_session

CARD = re.compile(r'data-card=\\?"([2-9TJQKA][cdhs])')
SUE = ("Ks", "Kh", "2c")  # what Sue remembers holding in deal 2: a pair of kings
NOTE = ("Sue", SUE)


@pytest.fixture(scope="module")
def rp() -> Replay:
    replay = Replay.of(simulate_session(seed="mine", players=2, cards="shown"))
    assert replay.final.cards_mode == "shown" and replay.seats == ("Sue", "Dave")
    return replay


def _cards_in(data: object) -> set[str]:
    """The cards of :data:`SUE` anywhere in ``data`` (as sent, JSON): face up in a picture, or
    printed (``K♠``) in an odds line, a sentence or the note."""
    text = json.dumps(data, ensure_ascii=False)
    return {c for c in SUE if c in CARD.findall(text) or pretty_card(c) in text}


def _looked(rp: Replay, deal: int, player: str) -> int:
    """The step (1-based) at which ``player`` has looked in ``deal``, read from the states."""
    sl = rp.slice(deal)
    for k in range(sl.start, sl.stop):
        p = next(p for p in rp.states[k].players if p.name == player)
        if p.seen:
            return k - sl.start + 1
    raise AssertionError(f"{player} never looks in deal {deal}")


def test_the_players_noted_cards_show_in_their_own_view_from_their_look(rp: Replay) -> None:
    data = deal_frames(sight_for(rp, 2, "Sue"), noted=NOTE)
    look = _looked(rp, 2, "Sue")
    assert look == 5
    for f in data["frames"]:
        shown = set(CARD.findall(f["svg"]))
        assert shown == (set(SUE) if f["step"] >= look else set()), f["step"]
        marked = f"Sue's cards {FROM_NOTE}" in html.unescape(f["svg"])  # whose note
        assert marked == (f["step"] >= look), f["step"]
    assert FROM_NOTE in data["note"] and "K♠ K♥ 2♣" in data["note"]
    # without the note the same view has no card of Sue's at all (the log does not know them)
    assert _cards_in(deal_frames(sight_for(rp, 2, "Sue"))) == set()


def test_the_odds_from_the_note_are_the_counts_of_every_hand_the_other_may_hold(
    rp: Replay,
) -> None:
    """At the step Sue looks, Dave's three cards may be any 3 of the 49 others: the odds line
    gives the counts of an enumeration made here with the ranking alone (RULES 2)."""
    frame = deal_frames(sight_for(rp, 2, "Sue"), noted=NOTE)["frames"][4]
    mine = strength(card(c) for c in SUE)
    rest = [c for c in (r + s for r in "23456789TJQKA" for s in "cdhs") if c not in SUE]
    others = [strength(card(c) for c in three) for three in combinations(rest, 3)]
    best = sum(1 for o in others if o < mine)
    tied = sum(1 for o in others if o == mine)
    beaten = sum(1 for o in others if o > mine)
    assert len(others) == 18_424 and tied == 3  # K♦ K♣ and a two of another suit
    (line,) = frame["odds"]
    assert line.startswith(f"Sue K♠ K♥ 2♣ ({FROM_NOTE}): best of the hands still in"), line
    (exact,) = frame["odds_exact"]
    for count in (best, tied, beaten):
        assert f"{count:,}/18,424" in exact, exact
    assert frame["odds_none"] == ""


def test_without_a_note_the_players_view_says_where_to_enter_their_cards(rp: Replay) -> None:
    frames = deal_frames(sight_for(rp, 2, "Sue"), own=True)["frames"]
    assert all(f["odds"] == [] for f in frames)
    assert frames[4]["odds_none"].endswith(
        "Sue's own cards, as remembered: My sessions, Your cards."
    )
    # issue 21: another browser (Dave's) viewing as Sue is not invited to enter Sue's cards
    other = deal_frames(sight_for(rp, 2, "Sue"))["frames"][4]["odds_none"]
    assert other.startswith("No odds yet: at a real table") and "My sessions" not in other
    assert "My sessions" not in deal_frames(sight_for(rp, 2, None))["frames"][4]["odds_none"]


def test_no_other_view_draws_the_noted_cards(rp: Replay) -> None:
    for viewer in (None, "Everyone", "Dave"):
        data = deal_frames(sight_for(rp, 2, viewer), noted=NOTE)
        assert _cards_in(data) == set(), viewer
        assert FROM_NOTE not in json.dumps(data), viewer
    sl = rp.slice(2)
    for k in range(sl.start, sl.stop):  # the table as Dave knows it: Sue's hand face down
        view = table_view(rp.states[k], "Dave", noted=NOTE)
        assert all(c is None for c in view.seat("Sue").hands[0].cards)
        assert not any(h.noted for s in view.seats for h in s.hands)


def test_a_deal_in_play_is_a_spectators_even_with_a_note(rp: Replay) -> None:
    """A visitor's device sees a deal still in play as a spectator (RULES 3.5): the note changes
    nothing there, however the view is asked for."""
    sl = rp.slice(2)
    live = Replay.of(list(rp.events[: sl.start + 5]))  # deal 2 cut after Sue looks
    assert live.live_deal == 2
    data = deal_frames(sight_for(live, 2, "Sue"), noted=NOTE)
    assert data["view"] == "" and _cards_in(data) == set()
    assert data["note"].startswith("Deal 2 is still in play")
