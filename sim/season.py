"""The bundled club season: autumn 2026 at a club's Thursday and Friday card nights.

A roster of ten members (the first ten of :data:`sim.names.NAMES`, two of each style), each with
their own habit of coming along (:data:`ROSTER`). On each club night from :data:`FIRST_NIGHT` the
members who turn up sit down at one table, or at two when eight or more come; a night with fewer
than four is no card night. On Thursdays they play at the Top table (and the Window table), on
Fridays in the Back room (and at the Top table). Each table plays one to three sessions of 4 to 7
players, one after the other; between two sessions a player may go home early or a member who
stayed away may turn up late. On Thursdays the Top table's dealer records every card
(``cards: "all"``, the shuffles with their order); at the other tables the organiser records only
what is shown (``cards: "shown"``). The season ends after :data:`SESSIONS` sessions.

``brag simulate --season --seed 2026 --out data/season`` writes it; same seed, same bytes.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import date, datetime, timedelta
from itertools import islice
from typing import Final

from events.model import AnyEvent
from sim.clock import club_nights, local
from sim.names import NAMES
from sim.table import Cards, SessionSpec, simulate

__all__ = ["FIRST_NIGHT", "ROSTER", "SESSIONS", "season"]

FIRST_NIGHT: Final = date(2026, 9, 24)
"""The season's first night, a Thursday."""
SESSIONS: Final = 40
ROSTER: Final[tuple[tuple[str, str, float], ...]] = tuple(
    (name, style, attend)
    for (name, style), attend in zip(
        NAMES[:10], (0.85, 0.75, 0.7, 0.6, 0.8, 0.5, 0.6, 0.75, 0.45, 0.65), strict=True
    )
)
"""``(name, style, chance of coming on a club night)`` for the ten members."""

_TABLES: Final = {3: ("Top table", "Window table"), 4: ("Back room", "Top table")}
_RECORDS_ALL: Final = (3, "Top table")
"""Thursday's Top table, where the dealer records every card."""


def _slug(table: str) -> str:
    return table.lower().split()[0]


def season(seed: int | str = 2026, sessions: int = SESSIONS) -> Iterator[list[AnyEvent]]:
    """The season's session logs in order of play (see the module doc)."""
    rng = random.Random(f"{seed}/season")
    # The sessions are played one by one as they are asked for: the season stops after
    # ``sessions`` without playing another.
    yield from islice(_nights(rng, seed), max(sessions, 0))


Member = tuple[str, str]
"""``(name, style)``."""


def _nights(rng: random.Random, seed: int | str) -> Iterator[list[AnyEvent]]:
    """Every session of every club night, for ever: who comes, at which tables."""
    for night in club_nights(FIRST_NIGHT):
        came = [rng.random() < p for _, _, p in ROSTER]
        here = [(name, style) for (name, style, _), c in zip(ROSTER, came, strict=True) if c]
        away = [(name, style) for (name, style, _), c in zip(ROSTER, came, strict=True) if not c]
        if len(here) < 4:
            continue
        rng.shuffle(here)
        n_tables = 2 if len(here) >= 8 else 1
        groups = [here[k::n_tables] for k in range(n_tables)]
        for table, group in zip(_TABLES[night.weekday()], groups, strict=False):
            yield from _table_night(rng, seed, night, table, group, away)


def _table_night(
    rng: random.Random,
    seed: int | str,
    night: date,
    table: str,
    group: list[Member],
    away: list[Member],
) -> Iterator[list[AnyEvent]]:
    """One table's one to three sessions of a night, one after the other."""
    start: datetime = local(night, datetime.min.time().replace(hour=19, minute=30))
    start += timedelta(minutes=rng.randint(0, 20))
    for k in range(1, rng.choice((1, 2, 2, 3)) + 1):
        if k > 1:
            group = _regrouped(rng, group, away)
        seats = tuple(rng.sample(group, len(group)))  # a new seating each session
        cards: Cards = "all" if (night.weekday(), table) == _RECORDS_ALL else "shown"
        spec = SessionSpec(
            session=f"{night.isoformat()}-{_slug(table)}-{k}",
            seats=seats,
            seed=f"{seed}/{night.isoformat()}/{table}/{k}",
            cards=cards,
            table=table,
            start=start,
        )
        events = simulate(spec)
        yield events
        end = events[-1].at
        assert end is not None
        start = end + timedelta(minutes=rng.randint(10, 25))


def _regrouped(rng: random.Random, group: list[Member], away: list[Member]) -> list[Member]:
    """Between sessions someone may go home early, or a latecomer sit in."""
    latecomers = [m for m in away if m not in group]
    if len(group) > 4 and rng.random() < 0.35:
        leaver = rng.choice(group)
        return [m for m in group if m != leaver]
    if len(group) < 7 and latecomers and rng.random() < 0.35:
        return [*group, rng.choice(latecomers)]
    return group
