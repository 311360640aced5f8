"""Reads the shipped solution into memory ahead of a review (the dashboard's warm-up)."""

from __future__ import annotations

from solver import shipped
from solver.review import ABSTRACTION
from solver.solution import ITERATIONS, available, subgame

__all__ = ["preload"]


def preload() -> int:
    """Every shipped betting game read (its hash checked) and its reaches and values computed for
    both players (what :meth:`solver.solution.Subgame.ev` asks); the number of games read."""
    n = 0
    for e in shipped.manifest().get("files", {}).values():
        seen, dead = (bool(e["seen"][0]), bool(e["seen"][1])), float(e["dead"])
        if available(ABSTRACTION, seen, dead, ITERATIONS, 0):
            g = subgame(ABSTRACTION, seen, dead, ITERATIONS, 0)
            for player in (0, 1):
                g._cache(player)  # the reaches and values ev() reads
            n += 1
    return n
