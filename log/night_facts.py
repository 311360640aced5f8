"""A club night's facts folded (issue 36 items 1, 4 and 5): who is present, the seats, the
night's stake, whether the night is final, and the flags on its deals with their resolution.
Pure: :func:`night_facts` takes the facts :mod:`store.night` keeps (oldest first) and gives one
:class:`NightFacts`; :func:`facts_of` reads them from a store.

- check-in: a player is present after a ``present`` not followed by an ``absent`` (names matched
  by their :func:`events.text.normal` form, shown as last checked in);
- seats: each table's latest ``seat`` fact (a player seated at a later table leaves the earlier);
- stake: the latest ``stake`` fact (money per stake unit, exact; and the house limit);
- state: ``final`` from a ``final`` fact not undone by a later ``reopen``; ``provisional``
  otherwise. ``final_at`` is the log position the director finalised (the standings of the
  events up to it), ``final_fact`` the final fact's own position;
- flags: each ``flag`` is ``open`` until a ``dismiss`` or ``corrected`` names it (its reason
  kept); a flag may be raised on a final night too (a player sees it in the published
  results); ``corrected_after_final``: the flags marked ``corrected`` after the final fact in
  force (the night stays final and says it was corrected).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import date
from fractions import Fraction
from typing import Any, Literal

from events.text import normal
from store.night import NightFact

__all__ = ["Flag", "NightFacts", "Stake", "facts_of", "night_facts", "value_of"]


@dataclass(frozen=True, slots=True)
class Stake:
    """The club's money per stake unit (exact, > 0) and the house ``limit`` on the stake per
    game (``None``: none set), set by the fact at ``position``."""

    money: Fraction
    limit: Fraction | None
    position: int


@dataclass(frozen=True, slots=True)
class Flag:
    """A flag on ``deal`` (and ``step``, a label such as ``"7a"``; ``None``: the whole deal) of
    ``session``, raised by ``by`` for ``reason`` (the fact at ``position``). ``status``:
    ``open``, ``dismissed`` or ``corrected``; a resolved flag keeps the ``resolution`` (its
    reason), ``resolved_by`` and the resolving fact's ``resolved_at`` position. ``seen``: the
    log's last event position when it was raised (a correction stored after it answers it)."""

    position: int
    session: str
    deal: int
    step: str | None
    reason: str
    by: str
    status: Literal["open", "dismissed", "corrected"] = "open"
    resolution: str | None = None
    resolved_by: str | None = None
    resolved_at: int | None = None
    seen: int = 0


@dataclass(frozen=True, slots=True)
class NightFacts:
    """The facts of one night folded (see the module docstring); ``last`` is the last fact's
    position (0: none)."""

    present: tuple[str, ...] = ()
    seats: tuple[tuple[str, tuple[str, ...]], ...] = ()
    stake: Stake | None = None
    state: Literal["provisional", "final"] = "provisional"
    final_at: int | None = None
    final_fact: int | None = None
    finalised_by: str | None = None
    flags: tuple[Flag, ...] = ()
    corrected_after_final: tuple[Flag, ...] = ()
    last: int = 0

    @property
    def open_flags(self) -> tuple[Flag, ...]:
        return tuple(f for f in self.flags if f.status == "open")

    def flag(self, position: int) -> Flag | None:
        """The flag raised by the fact at ``position`` (``None``: no flag there)."""
        return next((f for f in self.flags if f.position == position), None)


def value_of(fact: NightFact) -> dict[str, Any]:
    """A fact's ``value`` read back (a JSON object; ``{}`` for anything else)."""
    try:
        got = json.loads(fact.value)
    except ValueError:
        return {}
    return got if isinstance(got, dict) else {}


def _fraction(text: Any) -> Fraction | None:
    try:
        return None if text is None else Fraction(str(text))
    except (ValueError, ZeroDivisionError):
        return None


class _Fold:
    def __init__(self) -> None:
        self.present: dict[str, str] = {}
        self.seats: dict[str, tuple[str, ...]] = {}
        self.stake: Stake | None = None
        self.final: NightFact | None = None
        self.flags: dict[int, Flag] = {}

    def seat(self, f: NightFact, v: dict[str, Any]) -> None:
        table = str(v.get("table", f.subject))
        players = tuple(str(p) for p in v.get("players", ()))
        keys = {normal(p) for p in players}
        for t, ps in list(self.seats.items()):
            self.seats[t] = tuple(p for p in ps if normal(p) not in keys)
        self.seats.pop(table, None)
        self.seats[table] = players

    def resolve(self, f: NightFact, v: dict[str, Any]) -> None:
        flag = self.flags.get(f.undoes or 0)
        if flag is None or flag.status != "open":
            return
        status: Literal["dismissed", "corrected"] = (
            "dismissed" if f.kind == "dismiss" else "corrected"
        )
        reason = str(v.get("reason", ""))
        self.flags[flag.position] = replace(
            flag, status=status, resolution=reason, resolved_by=f.by, resolved_at=f.position
        )

    def add(self, f: NightFact) -> None:
        v = value_of(f)
        if f.kind == "present":
            self.present[normal(f.subject)] = f.subject
        elif f.kind == "absent":
            self.present.pop(normal(f.subject), None)
        elif f.kind == "seat":
            self.seat(f, v)
        elif f.kind == "stake":
            money = _fraction(v.get("stake"))
            if money is not None and money > 0:
                self.stake = Stake(money, _fraction(v.get("limit")), f.position)
        elif f.kind == "final":
            self.final = f
        elif f.kind == "reopen":
            if self.final is not None and f.undoes == self.final.position:
                self.final = None
        elif f.kind == "flag":
            step = v.get("step")
            self.flags[f.position] = Flag(
                f.position, f.subject, int(v.get("deal", 0)),
                None if step is None else str(step), str(v.get("reason", "")), f.by,
                seen=int(v.get("seen", 0)),
            )  # fmt: skip
        else:  # dismiss, corrected
            self.resolve(f, v)


def night_facts(facts: Iterable[NightFact]) -> NightFacts:
    """The night's ``facts`` (one night of one club, oldest first) folded: :class:`NightFacts`."""
    fold = _Fold()
    last = 0
    for f in facts:
        fold.add(f)
        last = max(last, f.position)
    final = fold.final
    at = None if final is None else value_of(final).get("position")
    flags = tuple(fold.flags.values())
    since = None if final is None else final.position
    after = tuple(
        f for f in flags
        if since is not None and f.status == "corrected" and (f.resolved_at or 0) > since
    )  # fmt: skip
    return NightFacts(
        present=tuple(fold.present.values()),
        seats=tuple(fold.seats.items()),
        stake=fold.stake,
        state="provisional" if final is None else "final",
        final_at=None if at is None else int(at),
        final_fact=None if final is None else final.position,
        finalised_by=None if final is None else final.by,
        flags=flags,
        corrected_after_final=after,
        last=last,
    )


def facts_of(recorder: Any, day: date, club: str = "") -> NightFacts:
    """The facts of the night of ``day`` of ``club`` in the store ``recorder`` (a store or an
    :class:`log.EventStore`), folded."""
    inner = getattr(recorder, "recorder", recorder)
    return night_facts(inner.night_facts(day.isoformat(), club))
