"""A spot of the decision explorer: which decisions it picks, by their context, and its text form.

A :class:`Spot` picks decisions of the ``decisions`` table by the context the engine saw before
each (players in, the deciding player blind or seen, opponents blind and seen, a level band, a pot
band, the hand category); its text form is ``key=value`` pairs joined by commas (see
:mod:`analytics.spots`). The grid of biggest differences and of the cube is made of the spots of
:func:`grid_spot`: its bands are :data:`LEVEL_BANDS` and :data:`POT_BANDS`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from engine.hands import Category
from events.errors import PlainError

__all__ = ["ACTIONS", "LEVEL_BANDS", "POT_BANDS", "Range", "Spot", "SpotError", "grid_spot"]

ACTIONS = ("look", "bet", "see", "fold", "concede", "retain", "keep", "throw")
"""The actions of a decision (the ``decisions.action`` column), in the order shown."""

LEVEL_BANDS = ((0, 0), (1, 2), (3, 5), (6, 10), (11, None))
"""The level bands of biggest differences, whole stake units (0: no bet yet; RULES 5.5)."""

POT_BANDS = ((0, 10), (10, 20), (20, 40), (40, 80), (80, None))
"""The pot bands of biggest differences, stake units: each from its first edge (included) to the
next (excluded)."""


class SpotError(PlainError, ValueError):
    """A spot, group, action or player the explorer cannot take: one line naming what and why."""

    rule_name = "SPOT"


# --- the spot ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Range:
    """``low`` to ``high`` (``None``: no bound). Whole numbers both included; a pot band
    (``upper_open``) includes ``low`` and not ``high``."""

    low: Fraction | None = None
    high: Fraction | None = None
    upper_open: bool = False

    @classmethod
    def parse(cls, text: str, *, what: str, whole: bool = True) -> Range:
        t = text.strip()
        m = re.fullmatch(r"([^+\-]+)(?:(\+)|-([^+\-]+))?", t)
        if m is None:
            raise SpotError(f"{what}={text!r}: give N, A-B or A+")
        low = _number(m.group(1), what, whole)
        if m.group(2):
            return cls(low, None, not whole)
        if m.group(3) is None:
            if not whole:
                raise SpotError(f"{what}={text!r}: a pot is a band, A-B (A <= pot < B) or A+")
            return cls(low, low)
        high = _number(m.group(3), what, whole)
        if high < low or (not whole and high == low):
            raise SpotError(f"{what}={text!r}: the band's end is below its start")
        return cls(low, high, not whole)

    def __str__(self) -> str:
        lo = _text(self.low if self.low is not None else Fraction(0))
        if self.high is None:
            return f"{lo}+"
        if self.high == self.low and not self.upper_open:
            return lo
        return f"{lo}-{_text(self.high)}"

    def bounds(self) -> tuple[int | None, int | None]:
        """Whole bounds for SQL (``None``: none)."""
        return (
            None if self.low is None else int(self.low),
            None if self.high is None else int(self.high),
        )


def _number(text: str, what: str, whole: bool) -> Fraction:
    try:
        value = Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        raise SpotError(f"{what}: {text.strip()!r} is not a number") from None
    if value < 0 or (whole and value.denominator != 1):
        kind = "a whole number, 0 or more" if whole else "an amount, 0 or more"
        raise SpotError(f"{what}: {text.strip()!r} is not {kind}")
    return value


def _text(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else str(value)


_HANDS = {c.label: c.label for c in sorted(Category, reverse=True)}  # best first
_KEYS = ("players", "actor", "opp_blind", "opp_seen", "level", "pot", "hand")


@dataclass(frozen=True, slots=True)
class Spot:
    """A spot: the decisions whose context matches every field given (``None``: any).

    ``players``: players still in before the decision (the deciding one included);
    ``actor``: ``"blind"`` or ``"seen"`` (RULES 5.1); ``opp_blind``/``opp_seen``: opponents
    still in and blind / seen; ``level``: the level before the decision (whole units, 0 before
    the first bet, RULES 5.5); ``pot``: the pot before the decision (stake units, a band);
    ``hand``: the player's hand category (RULES 2.2, e.g. ``"pair"``), only where the log knows
    it (every card recorded, or shown at a showdown). Text form: see the module's doc."""

    players: Range | None = None
    actor: str | None = None
    opp_blind: Range | None = None
    opp_seen: Range | None = None
    level: Range | None = None
    pot: Range | None = None
    hand: str | None = None

    @classmethod
    def parse(cls, text: str | None) -> Spot:
        """The spot of ``key=value`` pairs joined by commas (``""`` or ``any``: every decision).
        Raises :class:`SpotError` naming the pair it cannot read."""
        out: dict[str, Any] = {}
        for part in (text or "").split(","):
            part = part.strip()
            if not part or part == "any":
                continue
            name, eq, value = part.partition("=")
            name, value = name.strip().replace("-", "_"), value.strip()
            if not eq or name not in _KEYS:
                keys = ", ".join(_KEYS)
                raise SpotError(f"{part!r} is not a spot's key=value (keys: {keys})")
            if name in out:
                raise SpotError(f"{name} is given twice")
            if value == "any":
                continue
            if name == "actor":
                if value not in ("blind", "seen"):
                    raise SpotError(f"actor={value!r}: blind or seen (RULES 5.1)")
                out[name] = value
            elif name == "hand":
                label = re.sub(r"[-_\s]+", " ", value.lower())
                if label not in _HANDS:
                    raise SpotError(f"hand={value!r}: one of {', '.join(_HANDS)} (RULES 2.2)")
                out[name] = label
            else:
                out[name] = Range.parse(value, what=name, whole=name != "pot")
        return cls(**out)

    def __str__(self) -> str:
        parts = []
        for name in _KEYS:
            value = getattr(self, name)
            if value is not None:
                parts.append(f"{name}={value}")
        return ",".join(parts)

    def words(self) -> str:
        """The spot in words, e.g. ``"seen, 1 opponent blind, level 3-5, pot 10-20"``."""
        out = []
        if self.players is not None:
            out.append(f"{self.players} players in")
        if self.actor is not None:
            out.append(self.actor)
        for r, what in ((self.opp_blind, "blind"), (self.opp_seen, "seen")):
            if r is not None:
                many = r.high is None or r.high != 1 or r.low != 1
                out.append(f"{r} opponent{'s' if many else ''} {what}")
        if self.level is not None:
            out.append("no bet yet" if str(self.level) == "0" else f"level {self.level}")
        if self.pot is not None:
            out.append(f"pot {self.pot}")
        if self.hand is not None:
            out.append(f"holding a {self.hand}")
        return ", ".join(out) or "every decision"

    def params(self) -> dict[str, Any]:
        """The spot's bound parameters of ``spots.sql`` (``spot_filter``)."""
        p: dict[str, Any] = {}
        for name, prefix in (
            ("players", "players"),
            ("opp_blind", "ob"),
            ("opp_seen", "os"),
            ("level", "level"),
        ):
            r = getattr(self, name)
            p[f"{prefix}_lo"], p[f"{prefix}_hi"] = (None, None) if r is None else r.bounds()
        p["actor_seen"] = None if self.actor is None else self.actor == "seen"
        pot = self.pot or Range()
        for edge, value in (("lo", pot.low), ("hi", pot.high)):
            p[f"pot_{edge}_num"] = None if value is None else value.numerator
            p[f"pot_{edge}_den"] = None if value is None else value.denominator
        p["hand"] = self.hand
        return p


# --- the grid ---------------------------------------------------------------------------------


def _band(bands: Sequence[tuple[int, int | None]], k: int, *, pot: bool) -> Range:
    lo, hi = bands[k]
    if pot:
        return Range(Fraction(lo), None if hi is None else Fraction(hi), True)
    return Range(Fraction(lo), None if hi is None else Fraction(hi))


def grid_spot(actor_seen: bool, ob: int, os_: int, level_band: int, pot_band: int) -> Spot:
    """The spot of one cell of the grid: the actor blind or seen, opponents blind and seen
    (0, 1, 2, 3 or more), the level band and the pot band (indices into the bands)."""

    def opp(n: int) -> Range:
        return Range(Fraction(n), None) if n >= 3 else Range(Fraction(n), Fraction(n))

    return Spot(
        actor="seen" if actor_seen else "blind",
        opp_blind=opp(ob),
        opp_seen=opp(os_),
        level=_band(LEVEL_BANDS, level_band, pot=False),
        pot=_band(POT_BANDS, pot_band, pot=True),
    )
