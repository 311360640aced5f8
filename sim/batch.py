"""Many simulated sessions at once: what ``brag simulate`` runs.

:func:`generate` yields finished session logs one after another. Session ``k`` (from 1) of seed
``S`` is called ``sim-S-kkkk``; its players (a number drawn from the range, names and styles drawn
from :data:`sim.names.NAMES`) and its play depend only on ``S`` and ``k``; its table and start time
come from a :class:`~sim.clock.Schedule` of club nights (Thursday and Friday evenings from
:data:`FIRST_NIGHT`, three tables), which follows the sessions' own lengths. Same arguments, same
logs, byte for byte.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import date, datetime
from typing import Final

from events.model import AnyEvent, Dealt, Shuffled
from sim.clock import Schedule
from sim.names import NAMES, TABLES
from sim.table import Cards, SessionSpec, simulate

__all__ = ["FIRST_NIGHT", "deal_chunks", "end_time", "generate", "parse_players"]

FIRST_NIGHT: Final = date(2026, 9, 3)
"""The first club night of ``brag simulate`` (a Thursday)."""


def parse_players(text: str) -> tuple[int, int]:
    """``"5"`` → ``(5, 5)``, ``"2-10"`` → ``(2, 10)``; ValueError outside RULES 1.3's 2 to 10."""
    lo_text, sep, hi_text = text.partition("-")
    try:
        lo = int(lo_text)
        hi = int(hi_text) if sep else lo
    except ValueError:
        raise ValueError(f"players is a number or a range such as 2-10, not {text!r}") from None
    if not 2 <= lo <= hi <= 10:
        raise ValueError(f"RULES 1.3: a session seats 2 to 10 players, not {text!r}")
    return lo, hi


def end_time(events: list[AnyEvent]) -> datetime | None:
    """The ``at`` of the last event."""
    return events[-1].at if events else None


def generate(
    seed: int | str,
    sessions: int,
    players: tuple[int, int] = (2, 10),
    cards: Cards = "all",
    *,
    first_night: date = FIRST_NIGHT,
    tables: tuple[str, ...] = TABLES,
) -> Iterator[list[AnyEvent]]:
    """``sessions`` finished logs (see the module doc)."""
    schedule = Schedule(first_night, tables, random.Random(f"{seed}/schedule"))
    for k in range(1, sessions + 1):
        rng = random.Random(f"{seed}/session/{k}")
        n = rng.randint(*players)
        seats = tuple(rng.sample(NAMES, n))
        table, start = schedule.next()
        spec = SessionSpec(
            session=f"sim-{seed}-{k:04d}",
            seats=seats,
            seed=f"{seed}/{k}",
            cards=cards,
            table=table,
            start=start,
        )
        events = simulate(spec)
        end = end_time(events)
        assert end is not None
        schedule.done(table, end)
        yield events


def deal_chunks(events: list[AnyEvent]) -> Iterator[list[AnyEvent]]:
    """The stream cut into deals, for one store append each: a chunk ends where the next deal
    (its ``shuffled``, if any, then its ``dealt``) begins; the session's set-up goes with the
    first deal."""
    chunk: list[AnyEvent] = []
    started = False
    for k, e in enumerate(events):
        begins = isinstance(e, Dealt) or (
            isinstance(e, Shuffled) and k + 1 < len(events) and isinstance(events[k + 1], Dealt)
        )
        if (
            begins
            and started
            and not (isinstance(e, Dealt) and isinstance(events[k - 1], Shuffled))
        ):
            yield chunk
            chunk = []
        if isinstance(e, Dealt):
            started = True
        chunk.append(e)
    if chunk:
        yield chunk
