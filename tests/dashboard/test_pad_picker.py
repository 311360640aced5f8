"""The Record page's card picker at a ``cards: "shown"`` table (issue 32, item 4): the cards the
tracked pack cannot put in the showing player's hand (RULES 3.3,
:func:`engine.legal.possible_cards`) are greyed out with the engine's reason as their title; the
52 keys never move."""

from __future__ import annotations

from typing import Any

from dashboard.record import pad_rows, recorder
from dashboard.record.pad_doc import PadCard, state_document, status_line
from engine.fold import verify_events
from engine.state import Phase, State
from events.codec import parse_raw

Raw = dict[str, Any]


def _log() -> list[Raw]:
    """A, B, C, D (D deals first): B shows Qs 7h 2d at deal 1's showdown (A sees B, concedes);
    deal 2 (dealer A): B bets, the others fold; deal 3 (dealer B): C bets, D bets, A and B fold,
    C bets again and D sees C: C, the one seen, is to show."""
    looks = [{"type": "looked", "player": p} for p in "ABCD"]

    def bet(p: str) -> Raw:
        return {"type": "bet", "player": p, "level": 1}

    def fold(p: str) -> Raw:
        return {"type": "folded", "player": p}

    start = {"type": "session_started", "session": "t", "seats": list("ABCD"), "cards": "shown"}
    deal1 = [*looks, bet("A"), bet("B"), fold("C"), fold("D"), {"type": "saw", "player": "A"}]
    shown = [{"type": "shown", "player": "B", "cards": ["Qs", "7h", "2d"]}]
    deal2 = [*looks, bet("B"), fold("C"), fold("D"), fold("A")]
    deal3 = [*looks, bet("C"), bet("D"), fold("A"), fold("B"), bet("C")]
    return [
        start,
        {"type": "dealer_chosen", "player": "D"},
        {"type": "shuffled"},
        {"type": "dealt"},
        *deal1,
        *shown,
        {"type": "conceded", "player": "A"},
        {"type": "dealt"},
        *deal2,
        {"type": "dealt"},
        *deal3,
        {"type": "saw", "player": "D"},
    ]


def _state(log: list[Raw]) -> State:
    return verify_events((n, parse_raw(e, line=n)) for n, e in enumerate(log, start=1))


def _picker(state: State) -> list[PadCard]:
    doc = state_document("t", state, last="", undo=None, redo=None, budget=0)
    (key,) = [k for k in doc["keys"].values() if "cards" in k]
    return key["cards"]["pack"]


def test_the_cards_the_pack_rules_out_are_greyed_with_the_reason() -> None:
    log = _log()
    deal1 = _picker(_state(log[: log.index({"type": "conceded", "player": "A"}) - 1]))
    deal3 = _picker(_state(log))
    assert [c["code"] for c in deal3] == [c["code"] for c in deal1]  # no key moves
    assert len(deal3) == 52 and all(c["free"] for c in deal1)
    grey = {c["code"]: c["why"] for c in deal3 if not c["free"]}
    assert set(grey) == {"Qs", "7h", "2d"}
    assert grey["Qs"] == (
        "RULES 3.3: Q♠ went under the pack at deal 1's showdown; with 4 players it cannot come "
        "round before deal 5, so C cannot hold it"
    )
    assert all(c["why"] == "" for c in deal3 if c["free"])


def test_free_cards_for_the_player_follow_the_engine() -> None:
    state = _state(_log())
    free = recorder.free_cards(state, "C")
    assert len(free) == 49 and "Qs" not in free and "Ks" in free
    assert len(recorder.free_cards(state)) == 52  # without a player: only this showdown's cards


def test_the_show_key_has_its_row_to_itself_at_a_shown_table() -> None:
    """At a ``shown`` table one ``shown`` at a time needs cards (RULES 5.8: a card each when both
    are blind), so its key takes the whole row and names the cards picked (issue 35, item 1); a
    table recording every card keeps its three show places."""
    state = _state(_log())
    doc = state_document("t", state, last="", undo=None, redo=None, budget=0)
    assert doc["grid"][-2] == ["show"]
    assert [s for s, k in doc["keys"].items() if "cards" in k] == ["show"]
    assert doc["keys"]["show"]["cards"]["count"] == 3
    assert pad_rows.pad_grid(4, state.rules, "all")[-2] == ["show", "show-1", "show-2"]
    blind = [
        {"type": "session_started", "session": "b", "seats": list("ABCD"), "cards": "shown"},
        {"type": "dealer_chosen", "player": "D"},
        {"type": "shuffled"},
        {"type": "dealt"},
        *[{"type": "bet", "player": p, "level": 1} for p in "AB"],
        *[{"type": "folded", "player": p} for p in "CD"],
        {"type": "saw", "player": "A"},
        {"type": "shown", "player": "B", "cards": ["Ah"]},
    ]
    keys = state_document("b", _state(blind), last="", undo=None, redo=None, budget=0)["keys"]
    (show,) = [k for k in keys.values() if "cards" in k]
    assert show["label"] == "A shows a card" and show["cards"]["count"] == 1
    why = {c["code"]: c["why"] for c in show["cards"]["pack"] if not c["free"]}
    assert why == {"Ah": "RULES 3.4: A♥ is already shown by B"}


def test_the_status_line_at_a_showdown_names_no_one_to_act() -> None:
    """At a showdown nobody bets (RULES 5.8): the pad's first line says "Showdown", not "C to act
    (seen)" (issue 35), and the line before the see still names who acts."""
    log = _log()
    assert _state(log).phase is Phase.SHOWDOWN
    assert status_line(_state(log)) == "Showdown · pot 9 · level 1"
    assert status_line(_state(log[:-1])) == "D to act (seen) · pot 7 · level 1"
