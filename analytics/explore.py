"""The projection for other tools: its schema, read-only SQL, and Parquet files.

- :func:`schema` lists the tables and their documented columns (``COMMENT ON`` in schema.sql),
  for an Explore page.
- :func:`run_readonly` runs one user-written ``SELECT`` (nothing else is accepted) and returns at
  most ``limit`` rows. It does not sandbox table functions that read files; a page open to
  untrusted users should query a connection from ``connect(path, read_only=True)``, which also
  turns DuckDB's external access off.
- Parquet for other tools is :mod:`analytics.lake` (``brag analytics export --parquet DIR``).
"""

from __future__ import annotations

from typing import Any

import duckdb

__all__ = ["FACT_TABLES", "ReadOnlyError", "run_readonly", "schema"]

FACT_TABLES: dict[str, str] = {
    "events": "position",
    "deals": "session, deal",
    "player_deals": "session, deal, seat",
    "sessions": "session",
    "session_players": "session, seat",
    "hand_categories": "rank",
}
"""The fact tables of the Explore page's schema, each with its row order."""


class ReadOnlyError(ValueError):
    """SQL that is not a single SELECT."""


def schema(con: duckdb.DuckDBPyConnection) -> list[dict[str, Any]]:
    """``[{"table", "comment", "rows", "columns": [{"name", "type", "comment"}]}]`` for the
    projection's tables (the checkpoint and meta tables left out)."""
    out: list[dict[str, Any]] = []
    for table in FACT_TABLES:
        found = con.execute(
            "SELECT comment FROM duckdb_tables() WHERE table_name = $t AND schema_name = 'main'",
            {"t": table},
        ).fetchall()
        if not found:
            continue
        tc = found[0]
        cols = con.execute(
            "SELECT column_name, data_type, comment FROM duckdb_columns() "
            "WHERE table_name = $t AND schema_name = 'main' ORDER BY column_index",
            {"t": table},
        ).fetchall()
        count = con.execute(f"SELECT count(*) FROM {table}").fetchall()  # a name of ours
        out.append(
            {
                "table": table,
                "comment": tc[0],
                "rows": int(count[0][0]),
                "columns": [{"name": n, "type": t, "comment": c} for n, t, c in cols],
            }
        )
    return out


def run_readonly(
    con: duckdb.DuckDBPyConnection,
    sql: str,
    params: dict[str, Any] | list[Any] | None = None,
    *,
    limit: int = 10_000,
) -> tuple[list[str], list[tuple[Any, ...]]]:
    """Runs one ``SELECT`` (or ``EXPLAIN``) and returns ``(column names, rows)``, at most
    ``limit`` rows. Raises :class:`ReadOnlyError` for anything else and ``duckdb.Error`` for a
    query DuckDB refuses."""
    statements = duckdb.extract_statements(sql)
    if len(statements) != 1:
        raise ReadOnlyError(f"one SELECT statement, please (got {len(statements)})")
    kind = statements[0].type
    if kind not in (duckdb.StatementType.SELECT, duckdb.StatementType.EXPLAIN):
        raise ReadOnlyError(f"only SELECT is allowed here, not {kind.name}")
    cur = con.cursor()
    try:
        cur.begin()
        res = cur.execute(sql, params) if params else cur.execute(sql)
        names = [d[0] for d in res.description or ()]
        rows = res.fetchmany(limit)
        cur.rollback()
    finally:
        cur.close()
    return names, rows
