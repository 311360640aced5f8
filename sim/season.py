"""The bundled club season: autumn 2026 at a club's Thursday and Friday card nights.

A roster of ten members (the first ten of :data:`sim.names.NAMES`, two of each style), each with
their own habit of coming along (:data:`ROSTER`). On each club night from :data:`FIRST_NIGHT` the
members who turn up sit down at one table, or at two when eight or more come; a night with fewer
than four is no card night. Thursday's tables are the Top table and the Window table, Friday's the
Top table and the Back room. Each table plays one or two sessions of 4 to 7 players, one after the
other. The Top table has a dealer who records every card (``cards: "all"``, the shuffles with their
order); at the other tables the organiser records only what is shown (``cards: "shown"``). The
season ends after :data:`SESSIONS` sessions.

``brag simulate --season --seed 2026 --out data/season`` writes it; same seed, same bytes.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import date, datetime, timedelta
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
        NAMES[:10], (0.9, 0.8, 0.75, 0.7, 0.85, 0.6, 0.65, 0.8, 0.55, 0.7), strict=True
    )
)
"""``(name, style, chance of coming on a club night)`` for the ten members."""

_TABLES: Final = {3: ("Top table", "Window table"), 4: ("Top table", "Back room")}
_RECORDS_ALL: Final = "Top table"


def _slug(table: str) -> str:
    return table.lower().split()[0]


def season(seed: int | str = 2026, sessions: int = SESSIONS) -> Iterator[list[AnyEvent]]:
    """The season's session logs in order of play (see the module doc)."""
    rng = random.Random(f"{seed}/season")
    made = 0
    for night in club_nights(FIRST_NIGHT):
        here = [(name, style) for name, style, p in ROSTER if rng.random() < p]
        if len(here) < 4:
            continue
        rng.shuffle(here)
        n_tables = 2 if len(here) >= 8 else 1
        groups = [here[k::n_tables] for k in range(n_tables)]
        for table, group in zip(_TABLES[night.weekday()], groups, strict=False):
            start: datetime = local(night, datetime.min.time().replace(hour=19, minute=30))
            start += timedelta(minutes=rng.randint(0, 20))
            for k in range(1, rng.choice((1, 2, 2)) + 1):
                if made >= sessions:
                    return
                seats = tuple(rng.sample(group, len(group)))  # a new seating each session
                cards: Cards = "all" if table == _RECORDS_ALL else "shown"
                spec = SessionSpec(
                    session=f"{night.isoformat()}-{_slug(table)}-{k}",
                    seats=seats,
                    seed=f"{seed}/{night.isoformat()}/{table}/{k}",
                    cards=cards,
                    table=table,
                    start=start,
                )
                events = simulate(spec)
                made += 1
                yield events
                end = events[-1].at
                assert end is not None
                start = end + timedelta(minutes=rng.randint(10, 25))
