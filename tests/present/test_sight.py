"""Issue 33.1, the one rule of what a device may receive (:mod:`present.sight`): until the session
ends, every deal dealt since the last shuffle (RULES 3.2) goes to any device but the organiser's
unlocked one as a spectator saw it (RULES 3.5), whether it is in play, finished, between deals or
withdrawn by an Undo; a card shown and withdrawn is face down and untold; the deals before the
last shuffle open, and every deal opens when the session ends (RULES 1.4). A three-player
session recorded in a memory store with every card and the pack's order."""

from __future__ import annotations

import pytest

from engine.legal import legal_actions
from events.model import (
    AnyEvent,
    Bet,
    DealerChosen,
    Rules,
    SessionStarted,
    Shuffled,
    Voided,
    is_derived,
)
from log.open import open_store
from log.service import EventStore
from log.steps import in_force
from present.narrate import pretty_card
from present.replay import SPECTATOR, Replay
from present.sight import guarded_from, guards, names_a_card, sight_for

S = "sight"
PACK = [r + s for s in "shdc" for r in "23456789TJQKA"]
FIRST = ["Qs", "2c", "3d", "Qh", "5c", "8d", "Qd", "9c", "Jd"]  # deal 1: Bob's prial of queens
SECOND = ["Kh", "Js", "Td", "7s", "9h", "8s", "4d", "6c", "5h", "Kc", "9s", "Jh", "Qc", "9d"]


def _order(first: list[str]) -> tuple[str, ...]:
    return (*first, *(c for c in PACK if c not in first))


def _act(store: EventStore, kind: str, level: int | None = None) -> None:
    acts = [a for a in legal_actions(store.state(S)) if a.kind == kind]
    acts = [
        a for a in acts if level is None or (isinstance(a.event, Bet) and a.event.level == level)
    ]
    _put(store, acts[0].event)


def _put(store: EventStore, e: AnyEvent) -> None:
    store.append(S, [e], expected_seq=store.last_seq(S))


def _undo(store: EventStore) -> None:
    events = store.events(S)
    _put(store, Voided(seq=max(k for k in in_force(events) if not is_derived(events[k])) + 1))


@pytest.fixture
def store() -> EventStore:
    """Deal 1 won by a prial at the showdown, the pack shuffled (RULES 3.2), deal 2 dealt; the
    third pot resolved ends the session."""
    s = open_store("memory://")
    rules = Rules(pots=3, blind_play=False)
    _put(s, SessionStarted(session=S, seats=("Ann", "Bob", "Cy"), cards="all", rules=rules))
    _put(s, DealerChosen(player="Ann"))
    _put(s, Shuffled(order=_order(FIRST)))
    for kind, level in [("dealt", None), ("bet", 1), ("folded", None), ("saw", None)]:
        _act(s, kind, level)
    _act(s, "shown")
    _act(s, "shown")
    _put(s, Shuffled(order=_order(SECOND)))
    _act(s, "dealt")
    return s


def _face_up(rp: Replay, deal: int, viewer: str | None = None) -> set[str]:
    sight = sight_for(rp, deal, viewer)
    return {
        c
        for k in sight.indices
        for seat in sight.view(k).seats
        for h in seat.hands
        for c in h.face_up
    }


def test_deals_since_the_last_shuffle_are_a_spectators_and_earlier_ones_open(
    store: EventStore,
) -> None:
    rp = Replay.of(store.events(S))
    assert guarded_from(rp) == 2 and rp.live_deal == 2
    assert not guards(rp, 1) and guards(rp, 2) and not guards(rp, 2, organiser=True)
    assert _face_up(rp, 1) == set(FIRST)  # deal 1 opened by the shuffle: Cy's folded hand too
    for viewer in (None, "Everyone", "Ann", "Spectator", "nobody"):
        assert _face_up(rp, 2, viewer) == set(), viewer
        assert sight_for(rp, 2, viewer).viewer == SPECTATOR
    organiser = sight_for(rp, 2, organiser=True)
    up = {c for s in organiser.view(rp.slice(2).start).seats for h in s.hands for c in h.face_up}
    assert up == set(SECOND[:9])


def test_an_undone_deal_between_deals_stays_a_spectators(store: EventStore) -> None:
    """The issue's case: after an Undo of the deal no deal is in play, and the recorded view
    still holds the withdrawn deal, which the pack deals again."""
    _undo(store)
    rp = Replay.of(store.events(S), recorded=True)
    assert rp.live_deal is None and rp.final.deals == 1
    assert [s.deal for s in rp.slices][-1] == 2  # the withdrawn deal, in the recorded view
    assert not _face_up(rp, 2) & set(SECOND[:9])  # (after the Undo: deal 1's table, shown)
    assert "dealt since the last shuffle" in sight_for(rp, 2).note


def test_a_finished_deal_between_deals_stays_a_spectators(store: EventStore) -> None:
    _act(store, "bet", 1)
    _act(store, "folded")
    _act(store, "folded")  # deal 2 won uncontested; no deal in play, nothing shown
    rp = Replay.of(store.events(S))
    assert rp.live_deal is None and not rp.final.finished
    assert _face_up(rp, 2) == set() and _face_up(rp, 2, "Cy") == set()


def test_a_card_shown_then_withdrawn_is_face_down_and_untold(store: EventStore) -> None:
    _act(store, "bet", 1)
    _act(store, "folded")
    _act(store, "saw")
    _act(store, "shown")  # the player seen shows first (RULES 5.8)
    _act(store, "shown")  # the other shows, and the pot is won...
    _undo(store)  # ...withdrawn: the showdown waits again
    rp = Replay.of(store.events(S), recorded=True)
    seen = rp.final.players[rp.final.opponent or 0]
    other = next(p for p in rp.final.players if p.name != seen.name and not p.folded)
    hand = set(other.hands[0].texts() or ())
    sight = sight_for(rp, 2)
    said = " ".join(sight.label(k).text for k in sight.indices)
    assert not hand & _face_up(rp, 2)
    assert not any(pretty_card(c) in said for c in hand), said
    assert "shows their cards (withdrawn)" in said and "Correction: step" in said
    assert set(seen.hands[0].texts() or ()) <= _face_up(rp, 2)  # shown in force: public
    everything = sight_for(rp, 2, organiser=True)
    told = " ".join(everything.label(k).text for k in everything.indices)
    assert all(pretty_card(c) in told for c in hand)


def test_every_deal_opens_when_the_session_ends(store: EventStore) -> None:
    for _ in range(2):  # deals 2 and 3 won uncontested: the third pot ends it (RULES 1.4)
        rp = Replay.of(store.events(S))
        assert not rp.final.finished and _face_up(rp, rp.final.deals) == set()
        _act(store, "bet", 1)
        _act(store, "folded")
        _act(store, "folded")
        if not store.state(S).finished:
            _act(store, "dealt")
    rp = Replay.of(store.events(S))
    assert rp.final.finished and guarded_from(rp) is None
    assert _face_up(rp, 2) == set(SECOND[:9])


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("Cy had Kh", True),
        ("cy had KH!", True),
        ("Q♠ and more", True),
        ("a 10♦", True),
        ("10s", True),
        ("As I said", True),
        ("should have folded", False),
        ("KhK", False),
        ("level 10", False),
    ],
)
def test_a_note_names_a_card_in_any_spelling(text: str, named: bool) -> None:
    assert names_a_card(text) is named
