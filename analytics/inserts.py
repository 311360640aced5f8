"""The projector's inserts: a batch's rows written into a projection table, as a list of
parameters or, for long batches when ``pyarrow`` is installed, as one Arrow table."""

from __future__ import annotations

import importlib.util
from functools import cache
from typing import Any

import duckdb

from analytics.tables import TABLES

__all__ = ["ARROW_MIN_ROWS", "Inserter"]

_HAS_ARROW = importlib.util.find_spec("pyarrow") is not None
"""Optional: Arrow makes the inserts ten times faster (bench and test extras); imported by the
first insert that uses it (:func:`_arrow`: slower to import than a ``brag stats`` that applies
nothing takes in all)."""


@cache
def _arrow() -> Any:
    import pyarrow  # type: ignore[import-untyped,unused-ignore]  # optional, untyped where installed

    return pyarrow


ARROW_MIN_ROWS = 2_000
"""Arrow is used for batches at least this long (its first use imports pandas, about a second,
which only a long catch-up pays back); once used, for every later batch (ten times cheaper)."""

_ARROW_TYPES = {"BIGINT": "int64", "INTEGER": "int32", "VARCHAR": "string", "BOOLEAN": "bool_"}


class Inserter:
    """Writes rows into the projection's tables; ``arrow``: use Arrow (``None``: when installed)."""

    def __init__(self, arrow: bool | None = None) -> None:
        self.arrow = _HAS_ARROW if arrow is None else arrow and _HAS_ARROW
        self._types: dict[str, dict[str, Any]] = {}

    def insert(
        self, con: duckdb.DuckDBPyConnection, name: str, columns: dict[str, list[Any]]
    ) -> None:
        """Appends ``columns`` (each column's values, in the table's order) to table ``name``."""
        table = TABLES[name]
        if not self.arrow or (len(columns["session"]) < ARROW_MIN_ROWS and not self._types):
            con.execute(table.insert_sql, columns)
            return
        pa = _arrow()
        types = self._types.get(name)
        if types is None:
            types = {  # an ENUM column is written as text; DuckDB casts it on insert
                c.name: getattr(pa, _ARROW_TYPES.get(c.sql_type, "string"))() for c in table.columns
            }
            self._types[name] = types
        rows = pa.table({k: pa.array(v, type=types[k]) for k, v in columns.items()})
        con.register("brag_rows", rows)
        try:
            con.execute(table.insert_arrow_sql)
        finally:
            con.unregister("brag_rows")
