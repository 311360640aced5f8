"""The projection for other tools: its schema, read-only SQL, and Parquet files.

- :func:`schema` lists the tables and their documented columns (``COMMENT ON``, ``columns.py``),
  for an Explore page.
- :func:`run_readonly` runs one user-written ``SELECT`` (nothing else is accepted) and returns at
  most ``limit`` rows. It does not sandbox table functions that read files; a page open to
  untrusted users should query a connection from ``connect(path, read_only=True)``, which also
  turns DuckDB's external access off.
- :func:`run_limited` is what a page shared by many visitors runs (the dashboard's Explore): each
  query in a database of its own that attaches a file nobody writes (a snapshot of the
  projection) read-only, so queries run side by side, each with a wall-clock limit
  (interrupted), a memory limit, capped spill files, and a result capped in rows and in bytes
  (:class:`Limits`, ``BRAG_EXPLORE_*``); DuckDB's refusal is one line (:class:`QueryError`).
  It names none of DuckDB's own tables, views or settings (:func:`refuse_system`), so no server
  path, folder or setting is shown (issue 33, class 5).
- Parquet for other tools is :mod:`analytics.lake` (``brag analytics export --parquet DIR``).
"""

from __future__ import annotations

import os
import re
import tempfile
import threading
from dataclasses import dataclass
from typing import Any

import duckdb

from analytics.columns import FACT_TABLES
from events.errors import PlainError

__all__ = [
    "SPILL_PREFIX",
    "SYSTEM",
    "LimitReached",
    "Limited",
    "Limits",
    "QueryError",
    "ReadOnlyError",
    "one_line",
    "refuse_system",
    "run_limited",
    "run_readonly",
    "schema",
    "scrubbed",
    "without_paths",
]

SPILL_PREFIX = "brag-explore-"
"""A query's spill folder in the system's temporary folder: ``brag-explore-<pid>-<random>``
(what a killed server left is removed by the next one: :mod:`dashboard.stats.projection`)."""


SYSTEM = re.compile(
    r"""(?ix)(?<![\w$])(
        (?:duckdb|pragma|pg)_\w*                   # DuckDB's catalog: databases (paths), settings
      | current_setting | getenv | which_secret    # a setting's value, the environment, secrets
      | (?:query|query_table|glob)(?=\s*\()        # SQL run from a string; file names
    )(?![\w$])"""
)
"""What Explore's SQL may not name (any case, quoted or not, as a function, a table or a view):
DuckDB's own catalog and settings (``duckdb_databases()``, ``duckdb_settings()``,
``pragma_database_list``, ``pg_settings``, ``current_setting('temp_directory')``: the server's
paths, folders and settings) and the functions that run SQL written as a string
(``query('...')``, which would hide a name from this check)."""


_PATH = re.compile(r"(?<![\w.:/~])/(?:[^\s\"'/,;()]+/)+[^\s\"'/,;()]*")


def without_paths(text: str) -> str:
    """``text`` (DuckDB's words for an analyst's query) without the server's file paths: the
    snapshot, the spill folder, ``~/.duckdb/extensions``... each shown as ``…`` (a visitor
    learns nothing of the machine). Division (``1/0``) and web addresses stay.

    >>> without_paths('IO Error: Cannot open file "/root/.duckdb/x/json.duckdb_extension"')
    'IO Error: Cannot open file "…"'
    """
    return _PATH.sub("…", text)


class ReadOnlyError(PlainError, ValueError):
    """SQL that is not a single SELECT."""

    rule_name = "SQL"


def refuse_system(sql: str) -> None:
    """Raises :class:`ReadOnlyError` naming the first of :data:`SYSTEM` in ``sql`` (issue 33,
    class 5: Explore shows no server path, setting or folder)."""
    found = SYSTEM.search(sql)
    if found:
        raise ReadOnlyError(
            f"Explore reads the statistics' tables only, not DuckDB's own ({found.group(1)}): "
            "the server's files and settings are not shown"
        )


def scrubbed(rows: list[tuple[Any, ...]], hidden: tuple[str, ...]) -> list[tuple[Any, ...]]:
    """``rows`` with every text value holding one of the ``hidden`` strings (the server's
    folders) shown with it as ``…``: a second guard behind :func:`refuse_system`."""
    keep = [h for h in hidden if h and len(h) > 1]
    if not keep:
        return rows

    def one(v: Any) -> Any:
        if not isinstance(v, str):
            return v
        for h in keep:
            v = v.replace(h, "…")
        return v

    return [tuple(one(v) for v in row) for row in rows]


class LimitReached(PlainError, ValueError):
    """A query stopped by one of :class:`Limits`; the message names the limit and its setting."""

    rule_name = "LIMIT"


@dataclass(frozen=True, slots=True)
class Limits:
    """What one Explore query may take (environment: ``BRAG_EXPLORE_SECONDS``,
    ``BRAG_EXPLORE_MEMORY``, ``BRAG_EXPLORE_SPILL``, ``BRAG_EXPLORE_ROWS``,
    ``BRAG_EXPLORE_BYTES``)."""

    seconds: float = 10.0
    """Wall-clock time, then the query is interrupted."""
    memory: str = "256MB"
    """DuckDB's ``memory_limit`` for the query's database."""
    spill: str = "256MB"
    """DuckDB's ``max_temp_directory_size``: spill files beyond it fail the query."""
    rows: int = 10_000
    """Rows returned at most (the query is wrapped in a LIMIT)."""
    bytes: int = 8 << 20
    """Bytes of result at most (the values as text); the rows after are cut."""

    @classmethod
    def from_env(cls) -> Limits:
        e = os.environ.get
        d = cls()
        return cls(
            seconds=float(e("BRAG_EXPLORE_SECONDS") or d.seconds),
            memory=e("BRAG_EXPLORE_MEMORY") or d.memory,
            spill=e("BRAG_EXPLORE_SPILL") or d.spill,
            rows=int(e("BRAG_EXPLORE_ROWS") or d.rows),
            bytes=int(e("BRAG_EXPLORE_BYTES") or d.bytes),
        )


@dataclass(frozen=True, slots=True)
class Limited:
    """The result of :func:`run_limited`: column names, rows, and ``cut``: why rows after these
    are missing (the row or byte cap, e.g. ``"Explore shows at most 10,000 rows
    (BRAG_EXPLORE_ROWS)"``), else ``None``."""

    columns: list[str]
    rows: list[tuple[Any, ...]]
    cut: str | None = None


def schema(con: duckdb.DuckDBPyConnection) -> list[dict[str, Any]]:
    """``[{"table", "comment", "rows", "columns": [{"name", "type", "comment"}]}]`` for the
    projection's fact tables (:data:`analytics.columns.FACT_TABLES`, in their order; the
    checkpoint and meta tables left out)."""
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


def _size(row: tuple[Any, ...]) -> int:
    return sum(len(v) if isinstance(v, str | bytes) else 16 for v in row) + 16


def one_line(err: BaseException) -> str:
    """DuckDB's words for an analyst's query as one line: its first paragraph (a binder's
    candidates joined with ``; ``), without the query it quotes back (``LINE 1: ...`` and its
    caret), the advice to the server's operator after it, or the server's file paths
    (:func:`without_paths`).

    >>> one_line(RuntimeError('Parser Error: syntax error at or near "FORM"\\n\\nLINE 1: '
    ...                       'SELECT 1 FORM x\\n                 ^'))
    'Parser Error: syntax error at or near "FORM"'
    """
    kept: list[str] = []
    for line in str(err).strip().splitlines():
        text = line.strip()
        if not text or (text.startswith("LINE ") and ":" in text):
            break  # the query quoted back with its caret, or DuckDB's advice to the server
        kept.append(text)
    return without_paths("; ".join(kept) or type(err).__name__)


class QueryError(PlainError, ValueError):
    """SQL that DuckDB refuses or cannot run (a syntax error, an unknown column, file access),
    said in one line (:func:`one_line`)."""

    rule_name = "SQL"


def run_limited(path: str, sql: str, limits: Limits | None = None) -> Limited:
    """Runs one user-written ``SELECT`` (or ``EXPLAIN``) on its own read-only view of the DuckDB
    file ``path``, which no one may be writing (give it a snapshot), within ``limits``.

    Each query has a database of its own (an in-memory DuckDB that attaches ``path`` read-only),
    so queries run side by side, each with the same limits, and none waits on or breaks
    another: external access off (no file or network table functions), one thread,
    ``memory_limit`` and ``max_temp_directory_size`` set, spill files in a private temporary
    folder; a timer interrupts the query after ``limits.seconds``. Rows are fetched in chunks
    until the row or byte cap: ``Limited.cut`` then says so. The query runs as written (no
    wrapper of ours), so an error names only what the analyst wrote. Raises
    :class:`ReadOnlyError` for anything but one SELECT, :class:`LimitReached` (time, memory,
    spill) naming the limit, :class:`QueryError` (one line) for SQL DuckDB refuses."""
    lim = limits or Limits.from_env()
    try:
        statements = duckdb.extract_statements(sql)
    except duckdb.Error as err:
        raise QueryError(one_line(err)) from None
    if len(statements) != 1:
        raise ReadOnlyError(f"one SELECT statement, please (got {len(statements)})")
    stmt = statements[0]
    if stmt.type not in (duckdb.StatementType.SELECT, duckdb.StatementType.EXPLAIN):
        raise ReadOnlyError(f"only SELECT is allowed here, not {stmt.type.name}")
    query = stmt.query.strip().rstrip(";").strip()
    refuse_system(query)
    with tempfile.TemporaryDirectory(prefix=f"{SPILL_PREFIX}{os.getpid()}-") as spill:
        con = _own_database(path, lim, spill)
        timer = threading.Timer(lim.seconds, con.interrupt)
        timer.start()
        try:
            got = _fetched(con.execute(query), lim)
            hidden = (os.path.dirname(os.path.abspath(path)), spill, tempfile.gettempdir())
            return Limited(got.columns, scrubbed(got.rows, hidden), got.cut)
        except duckdb.InterruptException:
            raise LimitReached(
                f"stopped after {lim.seconds:g} s, Explore's time limit (BRAG_EXPLORE_SECONDS)"
            ) from None
        except duckdb.OutOfMemoryException as err:
            raise LimitReached(
                f"stopped: the query needs more than Explore's memory ({lim.memory}, "
                f"BRAG_EXPLORE_MEMORY) and spill space ({lim.spill}, BRAG_EXPLORE_SPILL): "
                f"{one_line(err)}"
            ) from None
        except duckdb.Error as err:
            raise QueryError(one_line(err)) from None
        finally:
            timer.cancel()
            con.close()


def _own_database(path: str, lim: Limits, spill: str) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB of its own (DuckDB shares one database among the connections a process
    opens to one file, with one configuration: a query's limits would be everyone's, and a
    second configuration is refused) with ``path`` attached read-only as its default schema,
    then external access turned off."""
    con = duckdb.connect(
        ":memory:",
        config={
            "threads": 1,
            "memory_limit": lim.memory,
            "max_temp_directory_size": lim.spill,
            "temp_directory": spill,
            "autoinstall_known_extensions": False,
            "autoload_known_extensions": False,
        },
    )
    try:
        quoted = path.replace("'", "''")
        con.execute(f"ATTACH '{quoted}' AS projection (READ_ONLY)")
        con.execute("USE projection")
        con.execute("SET enable_external_access = false")
        con.execute("SET lock_configuration = true")
    except BaseException:
        con.close()
        raise
    return con


def _fetched(res: duckdb.DuckDBPyConnection, lim: Limits) -> Limited:
    """The rows of ``res`` up to the row and byte caps (``Limited.cut`` says which cut them)."""
    names = [d[0] for d in res.description or ()]
    rows: list[tuple[Any, ...]] = []
    size = 0
    while True:
        chunk = res.fetchmany(256)
        if not chunk:
            return Limited(names, rows)
        for row in chunk:
            size += _size(row)
            if len(rows) >= lim.rows:
                return Limited(
                    names, rows, f"Explore shows at most {lim.rows:,} rows (BRAG_EXPLORE_ROWS)"
                )
            if size > lim.bytes:
                return Limited(
                    names,
                    rows,
                    f"the result is larger than {lim.bytes:,} bytes (BRAG_EXPLORE_BYTES)",
                )
            rows.append(row)
