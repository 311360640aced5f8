"""The cube of the decision explorer: a projection's decisions counted once per cell of the spot
grid, in an in-memory DuckDB database (:class:`Cube`)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import duckdb

from analytics.queries import common_den
from analytics.spot import LEVEL_BANDS, POT_BANDS, Range, Spot
from analytics.sqlfiles import query

__all__ = ["Cube", "OffGrid"]

_SPOTS = "spots.sql"


def _edges() -> dict[str, int | None]:
    """The grid's band edges as ``cube_build`` binds them."""
    out: dict[str, int | None] = {f"level_{k}": LEVEL_BANDS[k][1] for k in (1, 2, 3)}
    return out | {f"pot_{k}": POT_BANDS[k][0] for k in (1, 2, 3, 4)}


class OffGrid(Exception):
    """A spot's range that does not fall on the cube's lines."""


def _capped(r: Range | None, cap: int) -> tuple[int | None, int | None]:
    """A whole range over a column whose value ``cap`` means "cap or more"."""
    if r is None:
        return None, None
    lo, hi = r.bounds()
    if hi is None and (lo or 0) <= cap:
        return lo, None
    if hi is not None and hi < cap:
        return lo, hi
    raise OffGrid


def _banded(r: Range | None, bands: Sequence[tuple[int, int | None]]) -> tuple[int | None, ...]:
    """A range as the indices of the bands it covers exactly."""
    if r is None:
        return None, None
    starts = [Fraction(b[0]) for b in bands]
    ends = [None if b[1] is None else Fraction(b[1]) for b in bands]
    if r.low not in starts or r.high not in ends:
        raise OffGrid
    return starts.index(r.low or Fraction(0)), ends.index(r.high)


class Cube:
    """The decisions of a projection counted once per cell of the spot grid (``spots.sql``
    ``cube_build``: actor, opponents blind and seen, players in, level band, pot band, hand
    category, cards mode, table, player, action; with the sums of the nets and of their squares)
    and the players' deals and nets per table and cards mode (``cube_players``), held in an
    in-memory DuckDB database: a spot on the grid's lines, the winning players and biggest
    differences are then answered from a few thousand rows instead of every decision (one cube
    per version of the projection: the dashboard keeps it until the projection moves on).
    The answers are the same as from the decisions (tests/test_spots.py)."""

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        self.db = duckdb.connect()
        self.den = common_den(con)
        for table, sql, params in (
            ("cube", query(_SPOTS, "cube_build").sql, _edges()),
            ("players", query(_SPOTS, "cube_players").sql, {}),
            ("names", "SELECT player_key, player FROM player_names", {}),
        ):
            rows = con.sql(sql, params=params).to_arrow_table()  # pyarrow: Streamlit needs it too
            self.db.register("brag_rows", rows)
            self.db.execute(f"CREATE TABLE {table} AS SELECT * FROM brag_rows")
            self.db.unregister("brag_rows")
        self.names = {str(k): str(v) for k, v in self.db.execute("FROM names").fetchall()}

    def cursor(self) -> duckdb.DuckDBPyConnection:
        """A connection of its own to the cube (one per thread: DuckDB's rule)."""
        return self.db.cursor()

    def params(self, spot: Spot) -> dict[str, Any] | None:
        """The spot's bound parameters of ``cube_filter``, or ``None`` when the spot is not on
        the grid's lines (a level or pot not on the bands' edges, a count of opponents past 2
        but for "3 or more", players in past 6 but for "7 or more")."""
        try:
            out: dict[str, Any] = {"actor_seen": None if spot.actor is None else
                                   spot.actor == "seen", "hand": spot.hand}  # fmt: skip
            for name, r, cap in (("ob", spot.opp_blind, 3), ("os", spot.opp_seen, 3),
                                 ("pin", spot.players, 7)):  # fmt: skip
                out[f"{name}_lo"], out[f"{name}_hi"] = _capped(r, cap)
            out["lb_lo"], out["lb_hi"] = _banded(spot.level, LEVEL_BANDS)
            out["pb_lo"], out["pb_hi"] = _banded(spot.pot, POT_BANDS)
        except OffGrid:
            return None
        return out
