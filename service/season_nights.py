"""The season's nights made anew (:func:`service.season.season_of`): each folded from the store
(:func:`service.night.night_of`), or, given the projection (:data:`Projected`,
:func:`analytics.season_parts.season_parts`), summed from what the projection folded of its
sessions up to the store's last seq, the rest folded from the store. The two give the same
:class:`~service.season.NightResult` (the same events folded by the same engine); the second
reads a league's season of 100,000 sessions in DuckDB instead of folding each one again (issue
37 item 5).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from typing import TYPE_CHECKING, Literal

from log.night_facts import facts_of
from log.register import register_of
from service.night import Night, night_of
from service.report import rules_name
from store.records import SessionFilter

if TYPE_CHECKING:
    from analytics.season_parts import NightPart, Parts
    from log.service import EventStore

State = Literal["provisional", "final"]
"""A night's or a season's state: provisional while a session is not over or the night is not
finalised (:attr:`service.night.Night.state`)."""


@dataclass(frozen=True, slots=True)
class NightResult:
    """One night of a season: ``day``, each player's ``nets`` over its sessions (stake units,
    exact), its ``state`` and the rules' names of its sessions (:func:`rules_name`, sorted)."""

    day: date
    nets: Mapping[str, Fraction]
    state: State
    rules: tuple[str, ...] = ()


def result_of(night: Night, rules: Iterable[str] = ()) -> NightResult:
    """A night's result for the season: each standing's net, the night's state."""
    return NightResult(
        night.day,
        {r.player: r.net for r in night.standings},
        night.state,
        tuple(sorted(set(rules))),
    )


__all__ = [
    "NightResult",
    "NightSums",
    "Projected",
    "State",
    "listing",
    "made_nights",
    "night_sums",
    "result_of",
]

NightSums = tuple[int, int, int]
"""A night's sessions as the store counts them: how many, the sum of their last seqs, the
highest last position (:meth:`store.port.Recorder.night_sums`): any event stored in the night
moves it."""

Projected = Callable[
    [Mapping[date, NightSums], Callable[[Sequence[date]], Sequence[tuple[str, date, int]]]],
    "Parts | None",
]
"""The projection's parts of some nights (:func:`analytics.season_parts.season_parts` on an open
projection): given the store's sums by night and the store's listing of nights (:func:`listing`),
or ``None`` when there is no projection to read (none built, another schema): then every night
is folded."""


def night_sums(store: EventStore, start: date, end: date) -> dict[date, NightSums]:
    """The store's :data:`NightSums` of each date from ``start`` to ``end`` with a session
    started (in its own offset): one query of the catalogue, or the sessions listed."""
    if store.recorder.catalogued:
        return {d: (n, q, p) for d, n, q, p in store.recorder.night_sums(start, end)}
    out: dict[date, NightSums] = {}
    for i in store.sessions(order="oldest", where=SessionFilter(dates=(start, end))):
        if i.started is not None:
            n, q, p = out.get(i.started.date(), (0, 0, 0))
            out[i.started.date()] = (n + 1, q + i.last_seq, max(p, i.last_position))
    return out


def listing(store: EventStore, days: Iterable[date]) -> list[tuple[str, date, int]]:
    """The sessions started on each of ``days``: ``(session, date, last seq)``, oldest first."""
    out: list[tuple[str, date, int]] = []
    for d in days:
        if store.recorder.catalogued:
            out += store.recorder.days(d, d)
        else:
            out += [
                (i.session, d, i.last_seq)
                for i in store.sessions(order="oldest", where=SessionFilter(dates=(d, d)))
            ]
    return out


def folded(store: EventStore, day: date) -> NightResult:
    """The night of ``day`` folded from the store: each session's state by the engine."""
    night = night_of(store, day)
    names = [rules_name(store.state(s.session).rules) for s in night.sessions]
    return result_of(night, names)


def made_nights(
    store: EventStore, sums: Mapping[date, NightSums], projected: Projected | None = None
) -> dict[date, NightResult]:
    """The nights of ``sums`` made anew: from ``projected``'s parts where it has them, the
    sessions it has not folded up to the store's last seq folded from the store; else each
    night folded (:func:`folded`)."""
    parts = None
    if projected is not None and sums:
        parts = projected(sums, lambda days: listing(store, days))
    if parts is None:
        return {d: folded(store, d) for d in sums}
    resolve = register_of(store).resolve
    out = {}
    for d in sums:
        part = parts.nights.get(d)
        if part is None:  # none of its sessions projected at its last seq
            out[d] = folded(store, d)
        else:
            out[d] = _summed(store, d, part, parts.unprojected.get(d, ()), resolve)
    return out


def _summed(
    store: EventStore,
    day: date,
    part: NightPart,
    rest: Iterable[str],
    resolve: Callable[[str], str],
) -> NightResult:
    """The night of ``day`` from the projection's ``part`` and the sessions of ``rest`` folded
    from the store: each name's nets summed under the register's name (``resolve``, as
    :func:`service.night.standings_of`), provisional while a session is not over (RULES 1.4),
    else as its facts say (:func:`service.night.night_of`)."""
    nets: dict[str, Fraction] = {}
    going = part.going > 0
    rules = {rules_name(r) for r in part.rules}
    recorded = list(part.nets.items())
    for session in rest:
        state = store.state(session)
        recorded += state.nets.items()
        going = going or not state.finished
        rules.add(rules_name(state.rules))
    for name, amount in recorded:
        player = resolve(name)
        nets[player] = nets.get(player, Fraction(0)) + amount
    now = "provisional" if going else facts_of(store, day).state
    return NightResult(day, nets, now, tuple(sorted(rules)))
