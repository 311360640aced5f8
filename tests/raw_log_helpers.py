"""A session log written by hand as FORMAT.md dicts (derived events left out, as on import): the
builders of the rules' tests (``tests/engine/test_rules.py`` and the engine's other tests), shared
with the tests that feed such a log to the CLI (``tests/cli/``). They import only events."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from events.cards import FULL_PACK

Raw = dict[str, Any]


ALL_CARDS = [str(c) for c in FULL_PACK]


def start(
    seats: str = "ABC",
    dealer: str = "C",
    cards: str = "shown",
    rules: Raw | None = None,
    order: Sequence[str] | None = None,
) -> list[Raw]:
    """session_started, dealer_chosen and the first shuffle (with ``order`` when given)."""
    s: Raw = {"type": "session_started", "session": "t", "seats": list(seats), "cards": cards}
    if rules is not None:
        s["rules"] = rules
    sh: Raw = {"type": "shuffled"}
    if order is not None:
        sh["order"] = list(order)
    return [s, {"type": "dealer_chosen", "player": dealer}, sh]


def dealt(hands: dict[str, str] | None = None) -> Raw:
    e: Raw = {"type": "dealt"}
    if hands is not None:
        e["hands"] = {p: h.split() for p, h in hands.items()}
    return e


def look(p: str, hand: str | None = None) -> Raw:
    e: Raw = {"type": "looked", "player": p}
    if hand is not None:
        e["hand"] = hand
    return e


def bet(p: str, level: int | str, paid: int | str | None = None) -> Raw:
    e: Raw = {"type": "bet", "player": p, "level": level}
    if paid is not None:
        e["paid"] = paid
    return e


def fold(p: str) -> Raw:
    return {"type": "folded", "player": p}


def saw(p: str, paid: int | str | None = None) -> Raw:
    e: Raw = {"type": "saw", "player": p}
    if paid is not None:
        e["paid"] = paid
    return e


def show(p: str, cards: str) -> Raw:
    return {"type": "shown", "player": p, "cards": cards.split()}


def concede(p: str) -> Raw:
    return {"type": "conceded", "player": p}


def retain(p: str, hand: str | None = None) -> Raw:
    e: Raw = {"type": "retained", "player": p}
    if hand is not None:
        e["hand"] = hand
    return e


def kept(p: str) -> Raw:
    return {"type": "kept", "player": p}


def thrown(p: str) -> Raw:
    return {"type": "thrown", "player": p}


def pack_for(seats: str, dealer: str, hands: dict[str, str]) -> list[str]:
    """A pack order (top first) whose deal by ``dealer`` gives each player ``hands`` (RULES 3.4:
    one card a round, starting on the dealer's left); the other cards follow in code order."""
    n, d = len(seats), seats.index(dealer)
    order = [seats[(d + 1 + k) % n] for k in range(n)]
    top = [hands[p].split()[r] for r in range(3) for p in order]
    return top + [c for c in ALL_CARDS if c not in top]


def all_seen(seats: str) -> list[Raw]:
    return [look(p) for p in seats]


CARRY = [*start("ABC", "C"), dealt(), look("B"), look("C"), bet("A", 1), fold("B"), fold("C")]
"""Blind A survives deal 1 (dealer C); the pot of 3 + 1/2 is carried."""
