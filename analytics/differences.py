"""Biggest differences (HM3's Leak Explorer idea): where one player's action shares stray from the
winning players', spot by spot on the grid (:func:`differences`), and as text
(:func:`difference_rows`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import duckdb

from analytics.cube import Cube
from analytics.intervals import newcombe
from analytics.spot import ACTIONS, Spot, grid_spot
from analytics.sqlfiles import query
from analytics.winners import MIN_DEALS, player_key, scope_params, winning_players
from present.numbers import share

__all__ = ["Difference", "difference_rows", "differences"]

_SPOTS = "spots.sql"


@dataclass(frozen=True, slots=True)
class Difference:
    """One spot where the player strays from the winning players (see :func:`differences`)."""

    spot: Spot
    action: str
    player_count: int
    player_total: int
    winners_count: int
    winners_total: int
    weight: float
    diff: float
    low: float
    high: float
    score: float

    @property
    def player_share(self) -> float:
        return self.player_count / self.player_total

    @property
    def winners_share(self) -> float:
        return self.winners_count / self.winners_total


def differences(
    con: duckdb.DuckDBPyConnection,
    player: str,
    *,
    table: str | None = None,
    cards: str | None = None,
    min_deals: int = MIN_DEALS,
    top: int | None = 20,
    cube: Cube | None = None,
) -> list[Difference]:
    """Biggest differences (HM3's Leak Explorer idea): the player's spots, on the grid (actor
    blind or seen; opponents blind 0, 1, 2, 3+; opponents seen 0, 1, 2, 3+; the level bands
    :data:`LEVEL_BANDS`; the pot bands :data:`POT_BANDS`), ranked by how far the player's action
    shares stray from the winning players' (other than the player), weighted by how often the
    spot comes up. Read from ``cube`` (one is built from ``con`` when none is given).

    In a spot ``s``, for each action ``a`` either took: ``d = p_player - p_winners`` with its
    Newcombe 95% interval ``[low, high]`` (:func:`newcombe`). The spot's weight ``w`` is its
    share of the player's decisions. The score is ``100 * w * gap``, ``gap`` the distance from 0
    to the interval (0 when the interval holds 0: a difference that could be chance scores
    nothing): *of every 100 of the player's decisions, at least this many are made differently
    from the winning players here* (at 95%). Each spot is listed once, under its action with the
    highest score (ties: the larger ``|d|``), best first; spots the winning players never met are
    left out (nothing to compare). ``diff``, ``low`` and ``high`` are in share points (-1 to 1).
    Raises :class:`SpotError` for a player the statistics do not know."""
    pk = player_key(con, player)
    cube = cube if cube is not None else Cube(con)
    named = winning_players(con, table=table, cards=cards, min_deals=min_deals, cube=cube)
    params = scope_params(table, cards) | {
        "player_key": pk,
        "winners": [w for w in named if w != pk],
    }
    grid = _grid_counts(cube, params)
    mine_all = sum(c[0] for counts in grid.values() for c in counts.values())
    out: list[Difference] = []
    for spot_key, counts in grid.items():
        best = _most_different(spot_key, counts, mine_all)
        if best is not None:
            out.append(best)
    out.sort(key=lambda x: (-x.score, -x.weight * abs(x.diff), str(x.spot)))
    return out if top is None else out[:top]


def _grid_counts(
    cube: Cube, params: dict[str, Any]
) -> dict[tuple[Any, ...], dict[str, tuple[int, int]]]:
    """Per cell of the grid (actor seen, opponents blind, seen, level band, pot band): per action,
    the player's decisions and the winning players'."""
    grid: dict[tuple[Any, ...], dict[str, tuple[int, int]]] = {}
    for seen, ob, os_, lb, pb, action, mine, theirs in (
        cube.cursor().execute(query(_SPOTS, "cube_grid").sql, params).fetchall()
    ):
        counts = grid.setdefault((bool(seen), ob, os_, lb, pb), {})
        had = counts.get(action, (0, 0))
        counts[action] = (had[0] + int(mine or 0), had[1] + int(theirs or 0))
    return grid


def _most_different(
    spot_key: tuple[Any, ...], counts: dict[str, tuple[int, int]], mine_all: int
) -> Difference | None:
    """The spot's action of the highest score (ties: the larger ``|d|``), or ``None`` when the
    player or the winning players never met the spot."""
    n_p = sum(c[0] for c in counts.values())
    n_w = sum(c[1] for c in counts.values())
    if not n_p or not n_w:
        return None
    w = n_p / mine_all
    best: Difference | None = None
    for action in (a for a in ACTIONS if a in counts):
        k_p, k_w = counts[action]
        d, lo, hi = newcombe(k_p, n_p, k_w, n_w)
        gap = max(lo, -hi, 0.0)
        cand = Difference(
            grid_spot(*spot_key), action, k_p, n_p, k_w, n_w, w, d, lo, hi, 100 * w * gap
        )
        if best is None or (cand.score, abs(d)) > (best.score, abs(best.diff)):
            best = cand
    return best


def difference_rows(found: Sequence[Difference]) -> list[dict[str, str]]:
    """Biggest differences as text: the spot, the action, both shares with their counts, the
    difference with its 95% interval (share points), how often the spot comes up, the score."""
    return [
        {
            "spot": d.spot.words(),
            "action": d.action,
            "player": f"{share(d.player_share)} of {d.player_total}",
            "winners": f"{share(d.winners_share)} of {d.winners_total}",
            "difference": f"{100 * d.diff:+.1f} ({100 * d.low:+.1f} to {100 * d.high:+.1f})",
            "comes up": share(d.weight),
            "score": f"{d.score:.2f}",
        }
        for d in found
    ]
