"""The SQL of the analytics: ``analytics/sql/*.sql`` files, one query per ``-- name:`` block.

A block starts at a line ``-- name: NAME`` and runs to the next one. Comment lines inside a block
document the query once, for the command line, the dashboard and the tests:

- ``-- about: TEXT`` says what the query answers (several lines join);
- ``-- col: NAME | UNIT | RULES | DEFINITION | COUNT`` documents one output column: its unit, the
  RULES section it rests on (may be empty), its definition and, for a rate or an average, the
  column holding the count it is taken over.

Parameters are always bound (``$name``), never formatted into the text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from importlib.resources import files

__all__ = ["Column", "Query", "load", "query"]

_NAME = re.compile(r"^--\s*name:\s*(\w+)\s*$")
_ABOUT = re.compile(r"^--\s*about:\s*(.*)$")
_COL = re.compile(r"^--\s*col:\s*(.*)$")


@dataclass(frozen=True, slots=True)
class Column:
    """The documentation of one output column."""

    name: str
    unit: str
    rules: str
    definition: str
    count: str | None = None


@dataclass(frozen=True, slots=True)
class Query:
    name: str
    sql: str
    about: str = ""
    columns: tuple[Column, ...] = field(default=())

    def column(self, name: str) -> Column | None:
        return next((c for c in self.columns if c.name == name), None)


def _parse(text: str) -> dict[str, Query]:
    out: dict[str, Query] = {}
    name: str | None = None
    lines: list[str] = []
    about: list[str] = []
    cols: list[Column] = []

    def close() -> None:
        if name is not None:
            sql = "\n".join(lines).strip()
            out[name] = Query(name, sql, " ".join(about).strip(), tuple(cols))

    for line in text.splitlines():
        m = _NAME.match(line)
        if m:
            close()
            name, lines, about, cols = m.group(1), [], [], []
            continue
        if name is None:
            continue
        if m := _ABOUT.match(line):
            about.append(m.group(1).strip())
        elif m := _COL.match(line):
            parts = [p.strip() for p in m.group(1).split("|")]
            parts += [""] * (5 - len(parts))
            cols.append(Column(parts[0], parts[1], parts[2], parts[3], parts[4] or None))
        lines.append(line)
    close()
    return out


@cache
def load(filename: str) -> dict[str, Query]:
    """The queries of ``analytics/sql/FILENAME`` by name (read once per process)."""
    text = files("analytics").joinpath("sql", filename).read_text(encoding="utf-8")
    return _parse(text)


def query(filename: str, name: str) -> Query:
    """One named query; ``KeyError`` naming the file if there is none."""
    queries = load(filename)
    try:
        return queries[name]
    except KeyError:
        raise KeyError(f"no query {name!r} in analytics/sql/{filename}") from None
