"""The projection's tables: opening a DuckDB projection, creating or recreating its tables, its
checkpoint and the sessions it left out.

The tables are :data:`TABLES`, of version :data:`SCHEMA_VERSION`: the facts declared in
:mod:`analytics.columns` and the bookkeeping declared here (:data:`META`, :data:`CHECKPOINT`),
with the views of ``analytics/sql/schema.sql``. A projection of another version is rebuilt empty
(:func:`ensure_schema`), and filled again by the projector (:mod:`analytics.projector`).
"""

from __future__ import annotations

from collections import Counter
from contextlib import suppress
from functools import cache
from itertools import combinations
from typing import Any

import duckdb

from analytics.columns import (
    DEALS,
    DECISIONS,
    EVENTS,
    HAND_CATEGORIES,
    KINDS,
    PLAYER_DEALS,
    PLAYER_SESSION_SUMMARY,
    SESSION_PLAYERS,
    SESSIONS,
)
from analytics.ddl import Table, table
from analytics.prior_rows import LUCK_HISTORY
from analytics.sqlfiles import query
from analytics.summaries import SUMMARIES
from engine.hands import category_of_strength, strength_codes

__all__ = [
    "CHECKPOINT",
    "META",
    "SCHEMA_VERSION",
    "SKIPPED",
    "SKIPPED_DDL",
    "TABLES",
    "checkpoint",
    "connect",
    "drop_schema",
    "ensure_schema",
    "quietly_rolled_back",
    "schema_sql",
    "skipped",
]

# 20: luck_t at three, four, six and seven players (those forests refitted with priors);
# 19: luck_t at two and five players (their forests refitted with priors, docs/luck.md)
# 18: luck_history (each player's earlier sessions: the luck terms' priors, analytics/priors.py)
# 15: the summaries (analytics/summaries.py: player_totals, player_seated, night_totals,
# night_rule_sets, night_player_nets; the Players page at league scale)
# 14: luck_t of a partly fresh deal of 6+ players: its sampled orders drawn by numpy
# (analytics/luck_orders.py); deals.end_seq, end_type (the drill-down reads no event)
# 13: sessions' open_min/open_max/raise_max (the season's nights)
# 12: luck_t of partly fresh deals (issue 37: the exact term, docs/luck.md)
# 11: register_names (issue 35: the register's merges and renames); 10: ...
# 9: luck_t, adjusted_net_t (docs/luck.md); 8: decisions; 7: player_key, table_key (one name,
# one player); 6: started, month
SCHEMA_VERSION = "20"
"""Bumped whenever the tables or the facts change; an older projection is rebuilt."""

_SCHEMA = "schema.sql"

META = table("meta", None, {"key VARCHAR PRIMARY KEY": None, "value VARCHAR NOT NULL": None})
"""The projection's own settings: ``schema_version`` (:data:`SCHEMA_VERSION`)."""
CHECKPOINT = table(
    "checkpoint",
    "The last global position applied; written in the same transaction as the rows.",
    {
        "id INTEGER PRIMARY KEY": None,
        "position BIGINT NOT NULL": None,
        "events BIGINT NOT NULL": None,
    },
)
REGISTER_NAMES = table(
    "register_names",
    "The club register's name of each player key a merge or a rename made (log/register.py); "
    "player_names shows it before any spelling seated.",
    {"player_key VARCHAR PRIMARY KEY": None, "player VARCHAR NOT NULL": None},
)
TABLES: dict[str, Table] = {
    t.name: t
    for t in (
        META,
        CHECKPOINT,
        EVENTS,
        DEALS,
        PLAYER_DEALS,
        DECISIONS,
        PLAYER_SESSION_SUMMARY,
        SESSIONS,
        SESSION_PLAYERS,
        HAND_CATEGORIES,
        REGISTER_NAMES,
        LUCK_HISTORY,
        *SUMMARIES,
    )
}
"""The tables of :data:`SCHEMA_VERSION`, in the order they are made (dropped in the same order)."""


def schema_sql(name: str) -> str:
    """The statement ``name`` of ``schema.sql``."""
    return query(_SCHEMA, name).sql


@cache
def _create_sql() -> str:
    """The types, the tables with their comments, and the views of :data:`SCHEMA_VERSION`."""
    made = [k.create_sql for k in KINDS] + [t.create_sql for t in TABLES.values()]
    comments = [t.comment_sql for t in TABLES.values() if t.comment_sql]
    return "\n".join([*made, schema_sql("create_views"), *comments])


@cache
def _drop_sql() -> str:
    dropped = [t.drop_sql for t in TABLES.values()] + [k.drop_sql for k in KINDS]
    return "\n".join([schema_sql("drop_views"), *dropped])


def connect(path: str | None = None, *, read_only: bool = False) -> duckdb.DuckDBPyConnection:
    """A DuckDB connection to the projection at ``path`` (``None``: in memory), tables created.

    ``read_only`` opens an existing file for reading only, with DuckDB's external access off (for
    user-written SQL; no other process may hold the file for writing meanwhile)."""
    if read_only:  # for user-written SQL: no file access beyond the projection itself
        return duckdb.connect(
            path or ":memory:", read_only=True, config={"enable_external_access": False}
        )
    con = duckdb.connect(path or ":memory:")
    if not read_only:
        ensure_schema(con)
    return con


def quietly_rolled_back(con: duckdb.DuckDBPyConnection) -> None:
    """Rolls back ``con``'s transaction, if DuckDB still has one: a failed write (a full disk)
    may have ended it already, and "cannot rollback - no transaction is active" must not hide
    the error that did."""
    with suppress(duckdb.Error):
        con.rollback()


def _hand_categories() -> dict[str, list[Any]]:
    """The ``hand_categories`` rows (RULES 2: each category and how many of the 22,100 hands are
    in it), column by column: fresh lists of the values counted once per process."""
    return {k: list(v) for k, v in _hand_category_counts().items()}


@cache
def _hand_category_counts() -> dict[str, tuple[Any, ...]]:
    counts: Counter[int] = Counter(
        category_of_strength(strength_codes(a, b, c)) for a, b, c in combinations(range(52), 3)
    )
    cats = sorted(counts)
    return {
        "category": tuple(category_of_strength(c << 12).label for c in cats),
        "rank": tuple(int(c) for c in cats),
        "hands": tuple(counts[c] for c in cats),
    }


def ensure_schema(con: duckdb.DuckDBPyConnection) -> bool:
    """Creates the tables if missing; rebuilds them empty if they are of another version.

    Returns True when the projection was (re)created empty."""
    con.execute(META.create_sql)
    con.execute(SKIPPED_DDL)
    found = con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchall()
    row = found[0] if found else None
    if row is not None and row[0] == SCHEMA_VERSION:
        return False
    con.begin()
    try:
        if row is not None:
            con.execute(_drop_sql())
        con.execute(_create_sql())
        con.execute(HAND_CATEGORIES.insert_sql, _hand_categories())
        con.execute(
            "INSERT OR REPLACE INTO meta VALUES ('schema_version', $v)", {"v": SCHEMA_VERSION}
        )
        con.commit()
    except BaseException:
        quietly_rolled_back(con)
        raise
    return True


def drop_schema(con: duckdb.DuckDBPyConnection) -> None:
    """Drops every table of the projection (``brag analytics refresh --rebuild``)."""
    con.execute(_drop_sql())
    con.execute(SKIPPED.drop_sql)


SKIPPED = table(
    "skipped_sessions",
    None,
    {
        "session VARCHAR PRIMARY KEY": None,
        "position BIGINT NOT NULL": None,
        "reason VARCHAR NOT NULL": None,
    },
)
SKIPPED_DDL = SKIPPED.create_sql
"""Sessions the projector could not take: none of their events is projected (the statistics of
every other session are); ``position`` is the first event refused, ``reason`` one line."""


def skipped(con: duckdb.DuckDBPyConnection) -> list[tuple[str, int, str]]:
    """``(session, position, reason)`` of every session left out of the projection."""
    con.execute(SKIPPED_DDL)
    rows = con.execute("SELECT session, position, reason FROM skipped_sessions ORDER BY position")
    return [(str(s), int(p), str(r)) for s, p, r in rows.fetchall()]


def checkpoint(con: duckdb.DuckDBPyConnection) -> tuple[int, int]:
    """``(position, events)``: the last global position applied and how many events so far."""
    rows = con.execute(schema_sql("read_checkpoint")).fetchall()
    return (int(rows[0][0]), int(rows[0][1])) if rows else (0, 0)
