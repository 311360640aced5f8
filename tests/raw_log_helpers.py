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

# --- whole deals at a table, by the dealing order (RULES 3.1, 3.4): the pack's tests ---


def order_of(seats: str, dealer: str) -> str:
    """RULES 3.4: the players in the order they are dealt to and act, from the dealer's left."""
    d = seats.index(dealer)
    return "".join(seats[(d + 1 + k) % len(seats)] for k in range(len(seats)))


def quiet(seats: str, dealer: str) -> list[Raw]:
    """A deal no card of which is shown: all look, the first to act bets, the others fold."""
    first, *others = list(order_of(seats, dealer))
    return [dealt(), *[look(p) for p in seats], bet(first, 1), *[fold(p) for p in others]]


def dealers(seats: str, first: str, deals: int) -> list[str]:
    """RULES 3.1: the dealer of each deal from the first, moving left."""
    d = seats.index(first)
    return [seats[(d + k) % len(seats)] for k in range(deals)]


def showdown(seats: str, dealer: str, shower: str, cards: str) -> list[Raw]:
    """A deal that ends in a showdown between the first two to act, where ``shower`` (one of
    them, the one seen) shows ``cards`` and the payer concedes: all look, the others fold."""
    a, b, *others = list(order_of(seats, dealer))
    out = [dealt(), *[look(p) for p in seats], bet(a, 1)]
    folds = [fold(p) for p in others]
    if shower == a:  # b sees a
        out += [bet(b, 1), *folds, bet(a, 1), saw(b)] if others else [saw(b)]
    else:  # a sees b
        out += [bet(b, 1), *folds, saw(a)]
    return [*out, show(shower, cards), concede(b if shower == a else a)]


def four_players_until(deal: int) -> tuple[list[Raw], list[str]]:
    """A, B, C, D (D deals first): B shows Qs 7h 2d at deal 1's showdown (A concedes), then
    quiet deals up to (not including) ``deal``; the log and every deal's dealer."""
    ds = dealers("ABCD", "D", deal)
    log = [*start("ABCD", "D"), *showdown("ABCD", "D", "B", "Qs 7h 2d")]
    for d in ds[1 : deal - 1]:
        log += quiet("ABCD", d)
    return log, ds
