"""The projection as a data lake: Hive-partitioned Parquet that plain DuckDB, Polars or Spark read
with no Bragbook installed (``brag export --parquet DIR``).

Layout of ``DIR``::

    events/table_name=Top%20table/month=2026-09/part_<uuid>.parquet (one folder per table)
    deals/…  player_deals/…  decisions/…  sessions/…  session_players/…   (same partitions)
    hand_categories/data.parquet                                   (RULES 2.8, not partitioned)
    player_stats/data.parquet      brag stats over all sessions, money as exact amount text
    _dictionary/data.parquet       every column: table, column, type, unit, RULES, definition,
                                   count it is taken over (what ``analytics show --describe`` says)
    _bragbook_export.json          which sessions are written, at which position, at which
                                   version of the players' register (the next export's
                                   bookkeeping: a merge or its undo writes everything again)

The partitions are the session's ``table_name`` (``session_started.table``) and ``month``
(``YYYY-MM`` of its recorded start, in its own offset); a session without a table or without a
time is in ``__HIVE_DEFAULT_PARTITION__`` (read back as NULL), as Hive and Spark write a NULL.
Partition values are URL-escaped by DuckDB (``Top%20table``) and read back as written. Money
columns stay integers of ticks beside their ``den`` (``amount / den`` stake units, exact).

Exports written before issue 20 (manifest version 1) name the table partition ``table``, an SQL
keyword every reader had to quote; :func:`analytics.api.open_facts` reads them as
``table_name``, and exporting into such a folder writes it again in full with the new name.

Incremental: a second export into the same ``DIR`` appends files for the sessions not written yet
and rewrites only the small unpartitioned tables. When a session already written has changed
since (more events, a void), appending would duplicate its rows: the partitioned tables are then
written again in full, and the report says so.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from dataclasses import dataclass
from typing import Any

import duckdb

from analytics.columns import FACT_TABLES, HAND_CATEGORIES
from analytics.register import recorded_version

__all__ = [
    "DICTIONARY_COLUMNS",
    "MANIFEST",
    "MANIFEST_VERSION",
    "PARTITIONED",
    "PARTITION_COLUMNS",
    "LakeReport",
    "dictionary_rows",
    "export_lake",
    "rows_relation",
    "stat_type",
    "stats_columns",
]

PARTITIONED: dict[str, str] = {t.name: t.order for t in FACT_TABLES.values() if t.partitioned}
"""The fact tables written by partition (:data:`analytics.columns.FACT_TABLES`), each with its
row order within a file."""

MANIFEST = "_bragbook_export.json"
MANIFEST_VERSION = 2
"""2: the table partition is ``table_name`` (1: ``table``)."""
PARTITION_COLUMNS = ("table_name", "month")
"""The partition columns of every partitioned table, from the session's row in ``sessions``."""
DICTIONARY_COLUMNS = ("table", "column", "type", "unit", "rules", "definition", "count")
_RULES = re.compile(r"RULES \d+(?:\.\d+)?(?:(?:, | and )\d+(?:\.\d+)?)*")


@dataclass(frozen=True, slots=True)
class LakeReport:
    """What an export did: sessions written now, sessions already there, whether the
    partitioned tables were written in full, and the folder of each table."""

    new_sessions: int
    kept_sessions: int
    full: bool
    tables: dict[str, str]


def _unit(table: str, column: str, kind: str, comment: str | None) -> str:
    """The unit of a fact column, from its name and type."""
    if column.endswith("_t"):
        return "ticks (1/den stake units)"
    if column == "den":
        return "ticks per stake unit"
    if column in ("session", "player", "dealer", "payer", "seen_player", "winner", "carried_by"):
        return "name" if column != "session" else "session id"
    if kind == "BOOLEAN":
        return "yes/no"
    if kind.startswith("ENUM"):
        return "kind: " + kind[len("ENUM(") : -1].replace("'", "")
    if column in ("position", "end_position"):
        return "store position"
    if kind in ("INTEGER", "BIGINT") and column not in (
        "seq",
        "end_seq",
        "step",
        "deal",
        "seat",
        "rank",
    ):
        return "stake units" if column in ("level", "final_level", "bet_level") else "count"
    return "text" if kind == "VARCHAR" else kind.lower()


_PARTITION_DOC = {
    "table_name": "the session's table (session_started.table); NULL when none was recorded.",
    "month": "YYYY-MM of the session's recorded start; NULL for a log without times.",
}


def dictionary_rows(con: duckdb.DuckDBPyConnection) -> list[dict[str, Any]]:
    """Every exported column documented: the fact tables' ``COMMENT ON`` text (``columns.py``) with
    the RULES sections it cites, and ``player_stats`` as ``brag analytics show player_stats
    --describe`` gives it (unit, RULES, the count each rate or average is taken over)."""
    from analytics.explore import schema
    from analytics.queries import columns

    out: list[dict[str, Any]] = []
    for t in schema(con):  # the fact tables
        cols = list(t["columns"])
        if t["table"] in PARTITIONED:
            have = {c["name"] for c in cols}
            cols += [
                {"name": name, "type": "VARCHAR", "comment": "Partition: " + _PARTITION_DOC[name]}
                for name in PARTITION_COLUMNS
                if name not in have
            ]
        for c in cols:
            comment = c["comment"] or ""
            found = _RULES.search(comment)
            out.append(
                {
                    "table": t["table"],
                    "column": c["name"],
                    "type": c["type"],
                    "unit": _unit(t["table"], c["name"], c["type"], comment),
                    "rules": found.group(0) if found else None,
                    "definition": comment or None,
                    "count": None,
                }
            )
    for col in columns("player_stats"):
        out.append(
            {
                "table": "player_stats",
                "column": col.name,
                "type": stat_type(col.name),
                "unit": col.unit,
                "rules": col.rules or None,
                "definition": col.definition,
                "count": col.count,
            }
        )
    return out


def _manifest(directory: str) -> dict[str, int]:
    """The sessions written in ``directory`` and their last positions; none for a folder of an
    older layout (its partitions are written again in full, with the new names)."""
    try:
        with open(os.path.join(directory, MANIFEST), encoding="utf-8") as f:
            data = json.load(f)
        if data.get("version") != MANIFEST_VERSION:
            return {}
        return {str(k): int(v) for k, v in data.get("sessions", {}).items()}
    except FileNotFoundError:
        return {}
    except (ValueError, AttributeError, TypeError):
        return {}  # unreadable bookkeeping: write everything again


def _manifest_register(directory: str) -> int:
    """The register's version (:mod:`analytics.register`) the lake in ``directory`` was
    written at (0: none, or an export made before the register)."""
    try:
        with open(os.path.join(directory, MANIFEST), encoding="utf-8") as f:
            return int(json.load(f).get("register", 0))
    except (OSError, ValueError, AttributeError, TypeError):
        return 0


def _write_json(path: str, data: Any) -> None:
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(data, f, ensure_ascii=False, indent=1, sort_keys=True)
    os.replace(tmp, path)


def _flat(rel: duckdb.DuckDBPyRelation, folder: str) -> None:
    os.makedirs(folder, exist_ok=True)
    rel.write_parquet(os.path.join(folder, "data.parquet"))


def _quoted(path: str) -> str:
    return "'" + path.replace("'", "''") + "'"


def export_lake(con: duckdb.DuckDBPyConnection, directory: str) -> LakeReport:
    """Writes (or extends) the lake in ``directory`` from the projection ``con`` (see the module
    doc); returns what was done. Raises ``OSError`` for a folder that cannot be written."""
    from analytics import queries

    os.makedirs(directory, exist_ok=True)
    written = _manifest(directory)
    now = {
        str(s): int(p)
        for s, p in con.execute("SELECT session, last_position FROM sessions").fetchall()
    }
    changed = [s for s, p in written.items() if now.get(s) != p]
    register = recorded_version(con)  # a merge or its undo re-keyed written rows: all again
    full = bool(changed) or not written or _manifest_register(directory) != register
    new = sorted(now) if full else sorted(set(now) - set(written))
    tables: dict[str, str] = {}
    cur = con.cursor()
    try:
        cur.execute("CREATE TEMP TABLE brag_lake_new (session VARCHAR PRIMARY KEY)")
        if new:
            cur.execute("INSERT INTO brag_lake_new SELECT unnest($s::VARCHAR[])", {"s": new})
        for table, order in PARTITIONED.items():
            folder = os.path.join(directory, table)
            tables[table] = folder
            if full:
                shutil.rmtree(folder, ignore_errors=True)
            if not new:
                os.makedirs(folder, exist_ok=True)
                continue
            # Our own table names; the partition values are data, escaped by DuckDB.
            cur.execute(
                f"COPY ({_partitioned_select(cur, table, order)}) TO {_quoted(folder)} "
                f"(FORMAT parquet, PARTITION_BY ({', '.join(PARTITION_COLUMNS)}), "
                "FILENAME_PATTERN 'part_{uuid}'" + ("" if full else ", APPEND") + ")"
            )
        cur.execute("DROP TABLE brag_lake_new")
        hc = os.path.join(directory, "hand_categories")
        _flat(cur.sql(f"SELECT * FROM {HAND_CATEGORIES.name} ORDER BY {HAND_CATEGORIES.order}"), hc)
        tables["hand_categories"] = hc
        stats = queries.public_rows("player_stats", queries.player_stats(con))
        ps = os.path.join(directory, "player_stats")
        types = {k: stat_type(k) for k in stats_columns()}
        _flat(rows_relation(cur, "brag_lake_stats", stats, types), ps)
        tables["player_stats"] = ps
        dic = os.path.join(directory, "_dictionary")
        types = dict.fromkeys(DICTIONARY_COLUMNS, "VARCHAR")
        _flat(rows_relation(cur, "brag_lake_dictionary", dictionary_rows(con), types), dic)
        tables["_dictionary"] = dic
    finally:
        cur.close()
    manifest = {"version": MANIFEST_VERSION, "sessions": now, "register": register}
    _write_json(os.path.join(directory, MANIFEST), manifest)
    return LakeReport(len(new), len(now) - len(new), full, tables)


def _partitioned_select(cur: duckdb.DuckDBPyConnection, table: str, order: str) -> str:
    """The new sessions' rows of ``table`` with the partition columns: the table's own where it
    has them (``sessions``), else its session's."""
    have = {
        r[0]
        for r in cur.execute(
            "SELECT column_name FROM duckdb_columns() WHERE table_name = $t "
            "AND schema_name = 'main' AND database_name = current_database()",
            {"t": table},
        ).fetchall()
    }
    extra = "".join(f", s.{c}" for c in PARTITION_COLUMNS if c not in have)
    join = " JOIN sessions s USING (session)" if extra else ""
    return (
        f"SELECT f.*{extra} FROM {table} f{join} "
        f"WHERE f.session IN (SELECT session FROM brag_lake_new) ORDER BY {order}"
    )


def stat_type(name: str) -> str:
    """The Parquet type of a ``player_stats`` column as :func:`queries.public_rows` gives it:
    money as exact amount text, rates and averages as doubles, counts as integers."""
    from analytics.queries import columns

    col = next((c for c in columns("player_stats") if c.name == name), None)
    if col is None:  # a count beside a rate (blind_rate_n)
        return "BIGINT"
    if name == "player" or col.unit.startswith("stake units"):
        return "VARCHAR"
    if col.unit.startswith("share") or " per " in col.unit:
        return "DOUBLE"
    return "BIGINT"


def stats_columns() -> list[str]:
    from analytics.queries import columns

    keys: list[str] = []
    for c in columns("player_stats"):
        keys.append(c.name)
        if c.count and c.count.endswith("_n") and c.count not in keys:
            keys.append(c.count)
    return keys


def rows_relation(
    cur: duckdb.DuckDBPyConnection, name: str, rows: list[dict[str, Any]], types: dict[str, str]
) -> duckdb.DuckDBPyRelation:
    """Rows of dicts as a temporary DuckDB table ``name`` with the columns and types given."""
    cols = ", ".join(f'"{k}" {t}' for k, t in types.items())
    cur.execute(f"CREATE OR REPLACE TEMP TABLE {name} ({cols})")
    if rows:
        marks = ", ".join("?" * len(types))
        cur.executemany(
            f"INSERT INTO {name} VALUES ({marks})", [[r.get(k) for k in types] for r in rows]
        )
    return cur.table(name)
