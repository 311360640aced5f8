"""The analyst's API: the facts as DuckDB relations that become pandas, Polars or Arrow.

::

    from analytics import api

    src = api.open_facts("brag.duckdb")          # the projection file, or a lake folder
    deals = api.load_player_deals(src, table="Top table")
    deals.df()   # pandas      deals.pl()   # Polars      deals.to_arrow_table()   # Arrow
    api.dictionary(src).df()                     # every column: unit, RULES section, count

A *source* is the DuckDB projection (``brag analytics refresh`` writes it beside the store, e.g.
``brag.duckdb``; opened read-only) or a folder written by ``brag export --parquet DIR`` (read
with ``hive_partitioning``, no Bragbook needed to read it elsewhere). Every ``load_*`` function
takes the same filters (``None``: all): ``session``, ``table`` (``session_started.table``, the
column ``table_name``), ``month`` (``YYYY-MM`` of the session's recorded start) and, where rows
have one, ``player``. A table or a player is found as the project keys names (case, spacing and
look-alike letters aside: ``events.text.normal``); a name that matches none is a ``ValueError``
naming those there are.

Money stays exact: columns ending in ``_t`` are whole ticks, ``amount_t / den`` stake units
(RULES 1.2); :func:`stake_units` turns one into a :class:`~fractions.Fraction`. Relations are
lazy: nothing is read until they are converted or shown.
"""

from __future__ import annotations

import inspect
import os
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import duckdb

__all__ = [
    "Facts",
    "dictionary",
    "load_deals",
    "load_decisions",
    "load_events",
    "load_player_deals",
    "load_player_stats",
    "load_sessions",
    "open_facts",
    "stake_units",
]

_TABLES = ("events", "deals", "player_deals", "decisions", "sessions", "session_players")


@dataclass(frozen=True)
class Facts:
    """An open source of facts: a DuckDB connection with one view per table (``player_deals``,
    ``deals``, ``decisions``, ``sessions``, ``events``, ``session_players``, ``player_stats``,
    ``dictionary``), the fact tables each holding the session's ``table_name`` and ``month``."""

    con: duckdb.DuckDBPyConnection
    where: str

    def sql(self, query: str, params: dict[str, Any] | None = None) -> duckdb.DuckDBPyRelation:
        """Any SELECT over the views, as a relation (parameters bound, ``$name``)."""
        return self.con.sql(query, params=params)


def open_facts(source: str | os.PathLike[str] | Facts | None = None) -> Facts:
    """The facts of a projection file or a lake folder (``None``: ``$BRAG_ANALYTICS``, else the
    projection beside ``$BRAG_DB``, else ``./brag.duckdb``). Raises ``FileNotFoundError`` when
    there is nothing at that path."""
    if isinstance(source, Facts):
        return source
    if source is None:
        from analytics.sources import default_projection
        from log.open import resolve_url

        source = os.environ.get("BRAG_ANALYTICS") or default_projection(resolve_url(None))
    path = os.fspath(source)
    if not os.path.exists(path):
        raise FileNotFoundError(f"no projection file or lake folder at {path}")
    con = duckdb.connect()
    if os.path.isdir(path):
        _lake_views(con, path)
    else:
        _projection_views(con, path)
    return Facts(con, path)


def _lake_views(con: duckdb.DuckDBPyConnection, path: str) -> None:
    """The views of a lake folder (``brag export --parquet``)."""
    for t in _TABLES:
        if not os.path.isdir(os.path.join(path, t)):
            continue  # a lake exported before the table existed (decisions)
        glob = _lit(os.path.join(path, t, "**", "*.parquet"))
        read = f"read_parquet({glob}, hive_partitioning = true, hive_types_autocast = false)"
        cols = [r[0] for r in con.execute(f"DESCRIBE SELECT * FROM {read}").fetchall()]
        # An export made before issue 20 partitions by "table": read as table_name.
        old = "table" in cols and "table_name" not in cols
        select = 'SELECT * EXCLUDE ("table"), "table" AS table_name' if old else "SELECT *"
        con.execute(f"CREATE VIEW {t} AS {select} FROM {read}")
    for t, view in (("player_stats", "player_stats"), ("_dictionary", "dictionary")):
        con.execute(
            f"CREATE VIEW {view} AS SELECT * FROM "
            f"read_parquet({_lit(os.path.join(path, t, 'data.parquet'))})"
        )


def _projection_views(con: duckdb.DuckDBPyConnection, path: str) -> None:
    """The views of a projection file (attached read-only), each fact table with its session's
    ``table_name`` and ``month``."""
    con.execute(f"ATTACH {_lit(path)} AS projection (READ_ONLY)")
    for t in _TABLES:
        if t == "sessions":
            con.execute("CREATE VIEW sessions AS SELECT * FROM projection.sessions")
            continue
        have = {
            r[0]
            for r in con.execute(
                "SELECT column_name FROM duckdb_columns() WHERE database_name = 'projection' "
                "AND table_name = $t",
                {"t": t},
            ).fetchall()
        }
        extra = "".join(f", s.{c}" for c in ("table_name", "month") if c not in have)
        con.execute(
            f"CREATE VIEW {t} AS SELECT f.*{extra} "
            f"FROM projection.{t} f JOIN projection.sessions s USING (session)"
        )
    _derived_views(con, path)


def _derived_views(con: duckdb.DuckDBPyConnection, path: str) -> None:
    """``player_stats`` and ``dictionary`` of a projection file, as the lake writes them."""
    from analytics import queries
    from analytics.lake import (
        DICTIONARY_COLUMNS,
        dictionary_rows,
        rows_relation,
        stat_type,
        stats_columns,
    )

    ro = duckdb.connect(path, read_only=True)
    try:
        stats = queries.public_rows("player_stats", queries.player_stats(ro))
        docs = dictionary_rows(ro)
    finally:
        ro.close()
    rows_relation(con, "player_stats", stats, {k: stat_type(k) for k in stats_columns()})
    rows_relation(con, "dictionary", docs, dict.fromkeys(DICTIONARY_COLUMNS, "VARCHAR"))


def _lit(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


_NAMED = {"table": "table_name", "player": "player"}
"""Filters on a name, and their column: matched as the project keys names (one normal form, one
name: ``events.text.normal``), so ``table="top TABLE"`` finds the sessions at ``Top table``."""


def _spellings(facts: Facts, view: str, column: str, value: str) -> list[str]:
    """The spellings in ``view.column`` of the name ``value`` (same normal form); raises
    ``ValueError`` naming what is there when none matches."""
    from events.text import normal

    found = [
        str(r[0])
        for r in facts.con.execute(
            f'SELECT DISTINCT "{column}" FROM {view} WHERE "{column}" IS NOT NULL ORDER BY 1'
        ).fetchall()
    ]
    want = normal(value)
    same = [f for f in found if normal(f) == want]
    if not same:
        known = ", ".join(found[:20]) + (", ..." if len(found) > 20 else "") or "none"
        kind = "table" if column == "table_name" else column
        raise ValueError(f"no {kind} {value!r} in {facts.where} ({kind}s: {known})")
    return same


def _load(
    source: str | os.PathLike[str] | Facts | None,
    view: str,
    filters: dict[str, Any],
) -> duckdb.DuckDBPyRelation:
    facts = open_facts(source)
    rel = facts.con.table(view)
    names = set(rel.columns)
    params: dict[str, Any] = {}
    conds: list[str] = []
    for key, value in filters.items():
        if value is None:
            continue
        column = _NAMED.get(key, key)
        if column not in names:
            raise ValueError(f"{view} has no column {column!r} to filter on")
        if key in _NAMED:
            conds.append(f'"{column}" IN (SELECT unnest(${key}::VARCHAR[]))')
            params[key] = _spellings(facts, view, column, value)
        else:
            conds.append(f'"{column}" = ${key}')
            params[key] = value
    if not conds:
        return rel
    return facts.con.sql(f"SELECT * FROM {view} WHERE {' AND '.join(conds)}", params=params)


Source = str | os.PathLike[str] | Facts | None
"""A projection file, a lake folder, facts already open, or ``None`` (see :func:`open_facts`)."""
Loader = Callable[..., duckdb.DuckDBPyRelation]


def _loader(view: str, keys: tuple[str, ...], doc: str) -> Loader:
    """``load_VIEW(source=None, *, KEY=None...)``: the rows of ``view``, filtered on each key
    given (an equality, bound as a parameter); the one body of every ``load_*`` below."""

    def load(source: Source = None, **filters: str | None) -> duckdb.DuckDBPyRelation:
        unknown = sorted(set(filters) - set(keys))
        if unknown:
            raise TypeError(f"load_{view}() got an unexpected keyword argument {unknown[0]!r}")
        return _load(source, view, filters)

    load.__name__ = load.__qualname__ = f"load_{view}"
    load.__doc__ = doc
    kw = inspect.Parameter.KEYWORD_ONLY
    signature = inspect.Signature(
        [
            inspect.Parameter("source", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None),
            *(inspect.Parameter(k, kw, default=None, annotation="str | None") for k in keys),
        ],
        return_annotation="duckdb.DuckDBPyRelation",
    )
    setattr(load, "__signature__", signature)  # noqa: B010 - help() shows the keys
    return load


load_player_deals = _loader(
    "player_deals",
    ("session", "table", "month", "player"),
    """One row per player per ended deal (RULES 3.4, 5): first action blind or seen (RULES 5.1),
    bets, raises, see chances and whether they saw (RULES 5.7), role at a showdown (RULES 5.8),
    ``paid_t``/``won_t``/``net_t`` in ticks of ``den``; plus ``table_name`` and ``month``.""",
)
load_decisions = _loader(
    "decisions",
    ("session", "table", "month", "player", "action"),
    """One row per recorded decision in force (``action``: look, bet, see, fold, concede, retain,
    keep, throw) with its context before it as the engine saw it: players in, blind and seen
    (RULES 5.1), the level (RULES 5.5), ``pot_t``, ``see_cost_t`` (RULES 5.7), the legal
    ``options`` with their costs, ``hand_category`` where the log knows it (RULES 2.2), and what
    followed (``net_t`` in the deal, ``won``); ``step`` links to the Replay page; money in ticks
    of ``den``; plus ``table_name`` and ``month``.""",
)
load_deals = _loader(
    "deals",
    ("session", "table", "month"),
    """One row per ended deal: dealer, pot (``pot_t``, RULES 4.1, 5.9), how it ended (won or
    carried, RULES 5.6, 5.9, 6.1), the showdown's payer and seen player (RULES 5.8).""",
)
load_sessions = _loader(
    "sessions",
    ("table", "month"),
    """One row per session: table, cards mode, players, deals, resolved and carried pots,
    finished (RULES 1.4), recorded start.""",
)
load_events = _loader(
    "events",
    ("session", "table", "month", "player"),
    """One row per stored event (FORMAT.md type, seq, deal, player, level, amount in ticks).""",
)
load_player_stats = _loader(
    "player_stats",
    ("player",),
    """``brag stats`` over all sessions: each rate beside the count it is taken over, money as
    exact FORMAT.md amount text (``"-17/2"``).""",
)


def dictionary(source: str | os.PathLike[str] | Facts | None = None) -> duckdb.DuckDBPyRelation:
    """Every column of the facts: ``table``, ``column``, ``type``, ``unit``, ``rules`` (the RULES
    section), ``definition`` and ``count`` (the column a rate or average is taken over)."""
    return open_facts(source).con.table("dictionary")


def stake_units(ticks: int, den: int) -> Fraction:
    """An amount in ticks as exact stake units (RULES 1.2): ``Fraction(ticks, den)``."""
    return Fraction(int(ticks), int(den))
