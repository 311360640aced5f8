"""Simulated players and sessions: realistic logs from the first minute.

Another module gets simulated sessions with::

    from sim import simulate_session
    events = simulate_session(seed=7, players=5, cards="shown")   # list[AnyEvent], envelope filled

or, for many: :func:`sim.batch.generate` (what ``brag simulate`` runs). The styles are in
:mod:`sim.players`, the driver in :mod:`sim.table`, names and tables in :mod:`sim.names`, club
nights and times in :mod:`sim.clock`, the bundled club season in :mod:`sim.season`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import datetime

from events.model import AnyEvent, Rules
from sim.names import NAMES, STYLE_OF, TABLES
from sim.players import STYLES, Player, View
from sim.table import Cards, SessionSpec, finish, play, simulate

__all__ = [
    "NAMES",
    "STYLES",
    "STYLE_OF",
    "TABLES",
    "Cards",
    "Player",
    "SessionSpec",
    "View",
    "finish",
    "play",
    "simulate",
    "simulate_session",
]


def simulate_session(
    seed: int | str,
    players: int | Sequence[str] | Sequence[tuple[str, str]] = 4,
    cards: Cards = "all",
    *,
    session: str | None = None,
    table: str | None = None,
    start: datetime | None = None,
    rules: Rules | None = None,
) -> list[AnyEvent]:
    """One complete simulated session as a FORMAT.md event stream (derived events and envelope in).

    ``players``: a number of players (names and their styles drawn from :data:`NAMES`), a list of
    names (styles from :data:`STYLE_OF`, ``loose`` for unknown names) or ``(name, style)`` pairs,
    clockwise. Same arguments, same events."""
    rng = random.Random(f"{seed}/seats")
    if isinstance(players, int):
        seats = tuple(rng.sample(NAMES, players))
    else:
        seats = tuple(
            (p, STYLE_OF.get(p, "loose")) if isinstance(p, str) else (p[0], p[1]) for p in players
        )
    spec = SessionSpec(
        session=session or f"sim-{seed}",
        seats=seats,
        seed=seed,
        cards=cards,
        table=table,
        start=start,
        rules=rules,
    )
    return simulate(spec)
