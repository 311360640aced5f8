"""The season (issue 36 item 7): the club nights between two dates, ranked by a formula the club
chooses, two formulas side by side.

A *season* is every night (:mod:`service.night`: the sessions started on one calendar date, in
each log's own offset) from ``start`` to ``end`` inclusive. Each night gives every player who
played it one result, their net over its sessions (RULES 1.5, the engine's fold, exact; a name
merged in the club's register counts as its player). A formula turns the results into a score:

- ``total``: the sum of the player's night nets;
- ``best:N`` / ``best:N:M`` (also written ``best N`` / ``best N of M``): the sum of the player's N
  best night nets among the last M nights of the season (all of them without M). A night the
  player missed is no result (it is not a 0), so a player with fewer than N results counts all
  they have; a player with no result among the last M scores 0;
- ``points`` / ``points:10-8-6``: each night the players are placed by net, highest first, and
  place k earns the k-th number of the table (:data:`POINTS`, 10-8-6-5-4-3-2-1 by default; a
  place past the table earns 0). Players on an equal net share the places they cover: each gets
  the sum of those places' points divided by how many they are, exactly (a Fraction: two level
  first share 10 + 8, 9 each).

The standings are ordered by, in turn (:data:`TIE_BREAKERS`): the score, highest first; the net
over the season, highest first; fewer nights played first (the same result in fewer nights); the
name (case-insensitive, only to list them: players equal on the first three share the place, "1,
2, 2, 4").

A season is ``provisional`` while any of its nights is (:attr:`service.night.Night.state`), else
``final``. Every season carries what it was made from, so two copies can be told apart: the
rules' name of its sessions (:func:`service.report.rules_name`, as the night's report names
them: FORMAT.md ``rules`` as the engine's state holds them) and ``position``, the store's last
global position when it was read (:meth:`log.service.EventStore.last_position`).

:class:`SeasonCache` reads seasons through the nights it keeps, each by what it was made from
(:func:`night_key`: its sessions' sums, the register's version, its facts beside the log):
an appended event (a correction, a new pot), a merge or a night finalised makes that night anew
on the next read, so a correction republishes the standings on the next read.
"""

from __future__ import annotations

import re
import threading
from calendar import monthrange
from collections import OrderedDict
from collections.abc import Hashable, Iterable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from fractions import Fraction
from itertools import pairwise
from typing import TYPE_CHECKING, Any

from log.night_facts import facts_of
from log.register import register_of
from service.season_nights import (
    NightResult,
    NightSums,
    Projected,
    State,
    made_nights,
    night_sums,
    result_of,
)

if TYPE_CHECKING:
    from log.service import EventStore

__all__ = [
    "POINTS",
    "TIE_BREAKERS",
    "Best",
    "Formula",
    "NightResult",
    "Points",
    "Ranking",
    "Season",
    "SeasonCache",
    "SeasonRefused",
    "SeasonStanding",
    "Term",
    "Total",
    "night_key",
    "night_points",
    "parse_formula",
    "rank",
    "result_of",
    "season_of",
    "season_state",
    "term_of",
    "terms_between",
]

POINTS: tuple[int, ...] = (10, 8, 6, 5, 4, 3, 2, 1)
"""The default points by place of ``points``: 1st 10, 2nd 8, 3rd 6, then 5 down to 1; 0 after."""

TIE_BREAKERS: tuple[str, ...] = ("score", "net", "fewer nights", "name")
"""The order the standings are sorted by (see the module); the name only lists, never places."""


class SeasonRefused(ValueError):
    """A season that cannot be given (no session in the dates, dates reversed, a formula not
    understood); ``str()`` is one line naming why."""


@dataclass(frozen=True, slots=True)
class Total:
    """``total``: the sum of the player's night nets."""

    @property
    def name(self) -> str:
        return "total"

    def scores(self, nights: Sequence[NightResult]) -> dict[str, Fraction]:
        out: dict[str, Fraction] = {}
        for night in nights:
            for p, net in night.nets.items():
                out[p] = out.get(p, Fraction(0)) + net
        return out


@dataclass(frozen=True, slots=True)
class Best:
    """``best:N[:M]``: the sum of the player's ``n`` best night nets among the last ``m`` nights
    (all with ``m`` None); a missed night is no result."""

    n: int
    m: int | None = None

    @property
    def name(self) -> str:
        return f"best:{self.n}" if self.m is None else f"best:{self.n}:{self.m}"

    def scores(self, nights: Sequence[NightResult]) -> dict[str, Fraction]:
        window = nights if self.m is None else nights[max(0, len(nights) - self.m) :]
        results: dict[str, list[Fraction]] = {p: [] for night in nights for p in night.nets}
        for night in window:
            for p, net in night.nets.items():
                results[p].append(net)
        return {
            p: sum(sorted(got, reverse=True)[: self.n], Fraction(0)) for p, got in results.items()
        }


@dataclass(frozen=True, slots=True)
class Points:
    """``points[:a-b-c...]``: points by place each night (``table``; :data:`POINTS` by default),
    equal nets sharing their places' points exactly (:func:`night_points`)."""

    table: tuple[int, ...] = POINTS

    @property
    def name(self) -> str:
        return "points" if self.table == POINTS else "points:" + "-".join(map(str, self.table))

    def scores(self, nights: Sequence[NightResult]) -> dict[str, Fraction]:
        out: dict[str, Fraction] = {}
        for night in nights:
            for p, pts in night_points(night.nets, self.table).items():
                out[p] = out.get(p, Fraction(0)) + pts
        return out


Formula = Total | Best | Points

_BEST = re.compile(r"best\s*[: ]\s*(\d{1,4})(?:\s*(?::|\sof\s)\s*(\d{1,4}))?")
_POINTS = re.compile(r"points(?::(\d{1,4}(?:-\d{1,4}){0,49}))?")


def parse_formula(text: str) -> Formula:
    """The formula written ``text``: ``total``, ``best:N``, ``best:N:M``, ``best N``, ``best N of
    M``, ``points`` or ``points:10-8-6`` (case and outer spaces ignored). Raises
    :class:`SeasonRefused` naming what is wrong.

    >>> parse_formula("best 3 of 5").name, parse_formula("points").name
    ('best:3:5', 'points')
    """
    t = " ".join(text.strip().lower().split())
    if t == "total":
        return Total()
    if m := _BEST.fullmatch(t):
        n, of = int(m.group(1)), None if m.group(2) is None else int(m.group(2))
        if n < 1 or (of is not None and of < n):
            raise SeasonRefused(f"formula {text!r}: best N of M needs 1 <= N <= M")
        return Best(n, of)
    if m := _POINTS.fullmatch(t):
        if m.group(1) is None:
            return Points()
        table = tuple(int(x) for x in m.group(1).split("-"))
        if any(a < b for a, b in pairwise(table)):
            raise SeasonRefused(f"formula {text!r}: points by place must not rise (10-8-6)")
        return Points(table)
    raise SeasonRefused(
        f"formula {text!r} is not one of total, best:N[:M] (best N of M), points[:10-8-6...]"
    )


def night_points(
    nets: Mapping[str, Fraction], table: Sequence[int] = POINTS
) -> dict[str, Fraction]:
    """Each player's points for one night (player -> net): placed by net, highest first; the
    players on one net covering places ``k..k+t-1`` (1-based) each get the sum of ``table``'s
    points for those places divided by ``t`` (a place past the table: 0), exactly.

    >>> from fractions import Fraction as F
    >>> night_points({"A": F(5), "B": F(5), "C": F(-10)}, (10, 8, 6))
    {'A': Fraction(9, 1), 'B': Fraction(9, 1), 'C': Fraction(6, 1)}
    """
    by_net: dict[Fraction, list[str]] = {}
    for p, net in nets.items():
        by_net.setdefault(net, []).append(p)
    out: dict[str, Fraction] = {}
    place = 0
    for net in sorted(by_net, reverse=True):
        group = by_net[net]
        pts = sum(table[place : place + len(group)], 0)
        for p in group:
            out[p] = Fraction(pts, len(group))
        place += len(group)
    return out


@dataclass(frozen=True, slots=True)
class SeasonStanding:
    """One player's line under one formula: ``place`` (1-based; equal on score, net and nights:
    the same place), ``score`` (the formula's, exact), ``net`` (stake units over every night of
    the season) and ``nights`` (nights played)."""

    player: str
    place: int
    score: Fraction
    net: Fraction
    nights: int


@dataclass(frozen=True, slots=True)
class Ranking:
    """The standings of one formula (its canonical ``formula`` text), first place first."""

    formula: str
    standings: tuple[SeasonStanding, ...]


def _order(name: str) -> tuple[str, str]:
    return (name.casefold(), name)


def rank(nights: Sequence[NightResult], formula: Formula) -> Ranking:
    """The standings of ``nights`` (oldest first) under ``formula``, in the order of
    :data:`TIE_BREAKERS`."""
    scores = formula.scores(nights)
    net: dict[str, Fraction] = {}
    played: dict[str, int] = {}
    for night in nights:
        for p, v in night.nets.items():
            net[p] = net.get(p, Fraction(0)) + v
            played[p] = played.get(p, 0) + 1
    rows = sorted(net, key=lambda p: (-scores.get(p, Fraction(0)), -net[p], played[p], *_order(p)))
    out: list[SeasonStanding] = []
    for i, p in enumerate(rows):
        row = SeasonStanding(p, i + 1, scores.get(p, Fraction(0)), net[p], played[p])
        if out and (out[-1].score, out[-1].net, out[-1].nights) == (row.score, net[p], played[p]):
            row = replace(row, place=out[-1].place)  # equal but for the name: one place
        out.append(row)
    return Ranking(formula.name, tuple(out))


def season_state(nights: Iterable[NightResult]) -> State:
    """``provisional`` while any night is, else ``final`` (an empty season is ``final``)."""
    return "provisional" if any(n.state != "final" for n in nights) else "final"


@dataclass(frozen=True, slots=True)
class Season:
    """The season from ``start`` to ``end`` (inclusive dates): its ``nights`` (oldest first),
    ``state``, the store's ``position`` it was read at, the rules' names of its sessions
    (sorted; one name when every session played the same) and one :class:`Ranking` per formula
    asked, in the order asked."""

    start: date
    end: date
    nights: tuple[NightResult, ...]
    state: State
    position: int
    rules: tuple[str, ...]
    rankings: tuple[Ranking, ...] = field(default=())


NightMemo = MutableMapping[Hashable, NightResult]
"""Night results kept by what they were made from (:func:`night_key`; :func:`season_of`'s
``memo``)."""


def night_key(store: EventStore, day: date, sums: NightSums, register: int) -> Hashable:
    """What the night of ``day`` is made from: the store, its sessions' ``sums`` (how many, the
    sum of their last seqs, the highest last position: an append, a correction too, moves one,
    :meth:`store.port.Recorder.night_sums`), the register's version (a merge or a rename moves
    a name's nets) and the position of the night's last fact kept beside the log
    (:func:`log.night_facts.facts_of`: a night finalised or reopened). One small query."""
    return (store.store_id, day, sums, register, facts_of(store, day).last)


def season_of(
    store: EventStore,
    start: date,
    end: date,
    formulas: Sequence[Formula] = (Total(),),
    *,
    memo: NightMemo | None = None,
    projected: Projected | None = None,
) -> Season:
    """The season of ``store`` from ``start`` to ``end``: every date with a session started
    (:attr:`store.records.SessionInfo.started`, in its own offset) made a night
    (:func:`service.night.night_of`), ranked by each of ``formulas``. ``position`` is read
    first, so the season holds at least the events up to it. With ``memo``, a night made from
    what it was made from before (:func:`night_key`) is taken from it, not folded again: after
    an append, a merge or a night finalised, only the nights it touched are made anew. With
    ``projected`` (the projection's parts, :data:`service.season_nights.Projected`), the nights
    made anew are summed from what the projection folded of their sessions up to the store's
    last seq, the others folded (the same result: :mod:`service.season_nights`). Raises
    :class:`SeasonRefused` when ``start`` is after ``end`` or no session started between
    them."""
    if start > end:
        raise SeasonRefused(f"the season's first date {start} is after its last {end}")
    position = store.last_position()
    register = register_of(store).version
    sums = night_sums(store, start, end)
    if not sums:
        raise SeasonRefused(
            f"no session started from {start.isoformat()} to {end.isoformat()} (see brag sessions)"
        )
    keys = {}
    kept: dict[date, NightResult] = {}
    if memo is not None:
        for day, made_of in sums.items():
            keys[day] = night_key(store, day, made_of, register)
            if (found := memo.get(keys[day])) is not None:
                kept[day] = found
    made = made_nights(store, {d: v for d, v in sums.items() if d not in kept}, projected)
    if memo is not None:
        for day, result in made.items():
            memo[keys[day]] = result
    nights = [kept.get(day) or made[day] for day in sorted(sums)]
    rules = tuple(sorted({r for n in nights for r in n.rules}))
    rankings = tuple(rank(nights, f) for f in formulas)
    return Season(start, end, tuple(nights), season_state(nights), position, rules, rankings)


class _Nights(OrderedDict[Hashable, NightResult]):
    """The night results a :class:`SeasonCache` keeps, the ``size`` latest made or used."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size
        self.made = 0

    def get(self, key: Hashable, default: Any = None) -> Any:
        found = super().get(key, default)
        if found is not None:
            self.move_to_end(key)
        return found

    def __setitem__(self, key: Hashable, value: NightResult) -> None:
        super().__setitem__(key, value)
        self.made += 1
        while len(self) > self.size:
            self.popitem(last=False)


class SeasonCache:
    """Seasons read through the ``nights`` latest night results (:func:`season_of`'s
    ``memo``): a read asks the store its position, the register's version, the listing of the
    dates and each night's facts (small queries), folds again only the nights whose
    :func:`night_key` moved (none when nothing did) and ranks them anew (a few rows a night).
    So a correction, a merge or a night finalised shows on the next read. Thread-safe (a
    server's sessions share one)."""

    def __init__(self, nights: int = 512) -> None:
        self._nights = _Nights(nights)
        self._lock = threading.Lock()

    @property
    def folded(self) -> int:
        """How many nights were made (folded, not found kept): what the tests count."""
        return self._nights.made

    def season(
        self,
        store: EventStore,
        start: date,
        end: date,
        formulas: Sequence[Formula] = (Total(),),
        projected: Projected | None = None,
    ) -> Season:
        """:func:`season_of` with the nights kept (and the projection's parts, if given)."""
        with self._lock:  # one season made at a time: the nights' memo is shared
            return season_of(store, start, end, formulas, memo=self._nights, projected=projected)


# --- named seasons: the club's terms ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Term:
    """A named season: ``name`` (``"Autumn 2026"``) from ``start`` to ``end``, inclusive."""

    name: str
    start: date
    end: date


_TERMS: tuple[tuple[str, int, int], ...] = (("Spring", 1, 4), ("Summer", 5, 8), ("Autumn", 9, 12))
"""The club's three terms a year, as its seasons: (name, first month, last month)."""


def term_of(day: date) -> Term:
    """The named season ``day`` falls in: Spring (January to April), Summer (May to August) or
    Autumn (September to December) of its year.

    >>> term_of(date(2026, 10, 8))
    Term(name='Autumn 2026', start=datetime.date(2026, 9, 1), end=datetime.date(2026, 12, 31))
    """
    for name, first, last in _TERMS:
        if first <= day.month <= last:
            end = date(day.year, last, monthrange(day.year, last)[1])
            return Term(f"{name} {day.year}", date(day.year, first, 1), end)
    raise AssertionError(day)  # every month is in a term


def terms_between(first: date, last: date) -> tuple[Term, ...]:
    """The named seasons from the one holding ``first`` to the one holding ``last``, newest
    first (a picker's order: this season, then the ones before)."""
    out = [term_of(first)]
    while out[-1].end < last:
        out.append(term_of(date.fromordinal(out[-1].end.toordinal() + 1)))
    return tuple(reversed(out))
