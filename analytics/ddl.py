"""A declared table and the SQL made from it: ``CREATE``, ``COMMENT ON``, ``DROP`` and the inserts.

:mod:`analytics.columns` declares the projection's tables with :func:`table`, each column once,
as its line of ``CREATE TABLE`` and its comment::

    "pot_t BIGINT NOT NULL": "The pot when the deal ended, carried-in pot included, in ticks.",

that is the column's name, its DuckDB type (one of :data:`BASE_TYPES` or an ``ENUM`` declared as a
:class:`Kind`) and its constraint (``NOT NULL``, ``PRIMARY KEY`` or none: NULL allowed). Every
statement on the table is made from that declaration, so the tables, the comments Explore and the
lake's ``_dictionary`` show, the inserts and the rows the fold writes
(:mod:`analytics.rows`) name the same columns in the same order.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property

__all__ = ["BASE_TYPES", "Column", "Kind", "Table", "names", "table"]

BASE_TYPES = frozenset({"VARCHAR", "INTEGER", "BIGINT", "BOOLEAN"})
"""The DuckDB types a column may have besides a :class:`Kind`."""

_LINE = re.compile(r"([a-z_][a-z0-9_]*) ([A-Za-z_]+)(?: (NOT NULL|PRIMARY KEY))?")


def _quoted(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


@dataclass(frozen=True, slots=True)
class Kind:
    """A few-valued text type: a DuckDB ``ENUM``, stored and compared as a small integer, read as
    text (``labels`` in their order)."""

    name: str
    labels: tuple[str, ...]

    @property
    def create_sql(self) -> str:
        return f"CREATE TYPE {self.name} AS ENUM ({', '.join(map(_quoted, self.labels))});"

    @property
    def drop_sql(self) -> str:
        return f"DROP TYPE IF EXISTS {self.name};"


@dataclass(frozen=True, slots=True)
class Column:
    """One declared column: ``sql_type`` is DuckDB's (a base type or a :class:`Kind`'s name),
    ``constraint`` ``"NOT NULL"``, ``"PRIMARY KEY"`` or ``""`` (NULL allowed); ``comment`` is
    its ``COMMENT ON`` text (``None``: none)."""

    name: str
    sql_type: str
    constraint: str
    comment: str | None

    @property
    def nullable(self) -> bool:
        return not self.constraint

    @property
    def ddl(self) -> str:
        """The column's line of ``CREATE TABLE`` (without the comma)."""
        return " ".join(p for p in (self.name, self.sql_type, self.constraint) if p)


@dataclass(frozen=True)
class Table:
    """One declared table (:func:`table`).

    ``order``: the row order of a fact table, the ones Explore lists and the lake writes
    (``""``: not a fact table); ``partitioned``: the lake writes it by the session's table and
    month (else as one file); ``key``: a ``PRIMARY KEY`` over several columns."""

    name: str
    comment: str | None
    columns: tuple[Column, ...]
    order: str = ""
    partitioned: bool = False
    key: str = ""

    @cached_property
    def names(self) -> tuple[str, ...]:
        """The column names in their order: the order of the rows the fold writes."""
        return tuple(c.name for c in self.columns)

    @property
    def create_sql(self) -> str:
        lines = [c.ddl for c in self.columns] + ([f"PRIMARY KEY ({self.key})"] if self.key else [])
        body = ",\n    ".join(lines)
        return f"CREATE TABLE IF NOT EXISTS {self.name} (\n    {body}\n);"

    @property
    def comment_sql(self) -> str:
        """``COMMENT ON`` the table and each of its columns that has a comment."""
        out = [f"COMMENT ON TABLE {self.name} IS {_quoted(self.comment)};"] if self.comment else []
        out += [
            f"COMMENT ON COLUMN {self.name}.{c.name} IS {_quoted(c.comment)};"
            for c in self.columns
            if c.comment is not None
        ]
        return "\n".join(out)

    @property
    def drop_sql(self) -> str:
        return f"DROP TABLE IF EXISTS {self.name};"

    @cached_property
    def insert_sql(self) -> str:
        """Inserts rows given column by column: each column a list bound as ``$name``."""
        values = ", ".join(f"unnest(${c.name}::{c.sql_type}[])" for c in self.columns)
        return f"INSERT INTO {self.name}\nSELECT {values};"

    @property
    def insert_arrow_sql(self) -> str:
        """Inserts the rows of an Arrow table registered as ``brag_rows``, by column name."""
        return f"INSERT INTO {self.name} BY NAME SELECT * FROM brag_rows;"


def _column(line: str, comment: str | None) -> Column:
    found = _LINE.fullmatch(line)
    if found is None:
        raise ValueError(f"not a column line (name TYPE [NOT NULL | PRIMARY KEY]): {line!r}")
    name, sql_type, constraint = found.groups()
    return Column(name, sql_type, constraint or "", comment)


def names(columns: Mapping[str, str | None]) -> tuple[str, ...]:
    """The names of declared columns (a group of a table's, as :func:`table` takes them)."""
    return tuple(_column(line, None).name for line in columns)


def table(
    name: str,
    comment: str | None,
    columns: Mapping[str, str | None],
    *,
    order: str = "",
    partitioned: bool = False,
    key: str = "",
) -> Table:
    """The table ``name`` of ``columns`` (each ``"name TYPE [NOT NULL | PRIMARY KEY]"`` -> its
    comment or ``None``, in the table's order). Raises ``ValueError`` for a line of another form
    or a name declared twice."""
    cols = tuple(_column(line, text) for line, text in columns.items())
    seen = [c.name for c in cols]
    if len(set(seen)) != len(seen):
        raise ValueError(f"{name}: a column declared twice in {seen}")
    return Table(name, comment, cols, order, partitioned, key)
