"""Who an answer of the decision explorer is about: its scope (a table, a cards mode), the player
examined, and the club's winning players (:func:`winning_players`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import duckdb

from analytics.queries import common_den, key
from analytics.spot import SpotError
from analytics.sqlfiles import query

if TYPE_CHECKING:
    from analytics.cube import Cube

__all__ = ["GROUPS", "MIN_DEALS", "player_key", "scope_params", "winning_players"]

_SPOTS = "spots.sql"

GROUPS = ("player", "field", "winners")
"""The groups an answer sets side by side (see the module's doc)."""

MIN_DEALS = 100
"""A winning player has at least this many ended deals in the scope (and a net above zero)."""


def scope_params(table: str | None, cards: str | None) -> dict[str, Any]:
    """The scope's bound parameters (``table_key``, ``cards``); :class:`SpotError` for a cards
    mode that is neither ``all`` nor ``shown``."""
    if cards is not None and cards not in ("all", "shown"):
        raise SpotError(f"cards={cards!r}: all or shown (the session's record of cards)")
    return {"table_key": key(table), "cards": cards}


def player_key(con: duckdb.DuckDBPyConnection, player: str | None) -> str | None:
    """The player's key (``None`` for no player); :class:`SpotError` for a player the
    statistics do not know."""
    k = key(player)
    found = "SELECT 1 FROM session_players WHERE player_key = ? LIMIT 1"
    if k is not None and not con.execute(found, [k]).fetchone():
        from events.text import inert
        from log.near import nearest

        names = [str(r[0]) for r in con.execute("SELECT player FROM player_names").fetchall()]
        offer = nearest(str(player), names)
        hint = f"; did you mean {inert(offer)}?" if offer else ""
        raise SpotError(f"no player named {inert(str(player))}{hint}")
    return k


def winning_players(
    con: duckdb.DuckDBPyConnection,
    *,
    table: str | None = None,
    cards: str | None = None,
    min_deals: int = MIN_DEALS,
    cube: Cube | None = None,
) -> dict[str, str]:
    """The club's winning players over the scope, best net first: their key (the name's normal
    form, :func:`analytics.queries.key`) to their name. A winning player's total net over their
    ended deals is above zero (RULES 1.5), over at least ``min_deals`` deals. From ``cube``'s
    players table when given (the same figures, without reading the summary again)."""
    params = {**scope_params(table, cards), "min_deals": min_deals}
    if cube is not None:
        cur = cube.cursor()
        rows = cur.execute(query(_SPOTS, "cube_winners").sql, params | {"den": cube.den}).fetchall()
        return {str(r[0]): cube.names.get(str(r[0]), str(r[0])) for r in rows}
    params["den"] = common_den(con)
    rows = con.execute(query(_SPOTS, "winning_players").sql, params).fetchall()
    return {str(r[0]): str(r[1]) for r in rows}
