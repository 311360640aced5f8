"""What the rules modules share: the refusal, tuple updates and amount checks (no rule here).

Money is in ticks (see :mod:`engine.state`); refusals are :class:`~events.errors.RuleViolation`
carrying the RULES section.
"""

from __future__ import annotations

from fractions import Fraction

from engine.state import PlayerState, State, replace
from events.amounts import format_amount
from events.errors import RuleViolation

__all__ = [
    "add",
    "amount_ticks",
    "check_paid",
    "fmt",
    "next_active",
    "pays",
    "set_player",
    "viol",
]


def viol(rule: str, message: str, player: str | None = None) -> RuleViolation:
    """The refusal of RULES ``rule``, worded for a person."""
    return RuleViolation(rule, message, player=player)


def next_active(players: tuple[PlayerState, ...], start: int) -> int:
    """The next seat clockwise from ``start`` still in the deal (RULES 5.2)."""
    n = len(players)
    i = (start + 1) % n
    while players[i].folded:
        i = (i + 1) % n
    return i


def set_player(players: tuple[PlayerState, ...], i: int, p: PlayerState) -> tuple[PlayerState, ...]:
    """``players`` with seat ``i`` replaced by ``p``."""
    out = list(players)
    out[i] = p
    return tuple(out)


def add(values: tuple[int, ...], i: int, x: int) -> tuple[int, ...]:
    """``values`` with ``x`` added at ``i``."""
    out = list(values)
    out[i] += x
    return tuple(out)


def pays(p: PlayerState, ticks: int) -> PlayerState:
    """``p`` after one more bet of ``ticks`` (``paid`` in ticks of the session's scale, ``bets``
    counted), through the engine's one writer of frozen records, :func:`engine.state.replace`."""
    return replace(p, paid=p.paid + ticks, bets=p.bets + 1)


def amount_ticks(value: Fraction, scale: int) -> int | None:
    """``value`` in ticks of ``1 / scale``, or ``None`` when it is not a whole number of them."""
    t = value * scale
    return t.numerator if t.denominator == 1 else None


def check_paid(state: State, given: Fraction | None, ticks: int, rule: str, who: str) -> None:
    """A payment the log states (``paid``) must be what the rules charge (``ticks``)."""
    if given is not None and given * state.scale != ticks:
        raise viol(
            rule,
            f"{who} pays {fmt(Fraction(ticks, state.scale))}, not {fmt(given)}",
            who,
        )


def fmt(x: Fraction) -> str:
    """An exact amount as an error message writes it: ``3`` or ``7/2`` (FORMAT.md "Amounts")."""
    return str(format_amount(x))
