"""The projection's columns, declared once (analytics/columns.py, analytics/ddl.py): the tables
DuckDB makes from the declaration are the declared ones, and the typed rows the fold writes for
``sessions`` and ``session_players`` (and a decision's context) name the declared columns."""

from __future__ import annotations

import types
import typing

import pytest

from analytics.columns import FACT_TABLES, KINDS, PLAYER_SESSION_SUMMARY, SESSION_PLAYERS, SESSIONS
from analytics.context import DecisionContext
from analytics.ddl import BASE_TYPES, Table, table
from analytics.lake import PARTITIONED
from analytics.rows import DECISION_CONTEXT, PlayerRow, SessionRow
from analytics.tables import TABLES, connect


def _nullable(hint: object) -> bool:
    return typing.get_origin(hint) in (typing.Union, types.UnionType) and type(None) in (
        typing.get_args(hint)
    )


@pytest.mark.parametrize(
    ("row", "declared"), [(SessionRow, SESSIONS), (PlayerRow, SESSION_PLAYERS)]
)
def test_the_typed_rows_are_the_declared_columns(row: type, declared: Table) -> None:
    hints = typing.get_type_hints(row)
    assert tuple(hints) == declared.names
    assert {n for n, h in hints.items() if _nullable(h)} == {
        c.name for c in declared.columns if c.nullable
    }


def test_a_decisions_context_is_its_declared_columns() -> None:
    assert tuple(typing.get_type_hints(DecisionContext)) == DECISION_CONTEXT


def test_every_fact_column_has_a_meaning_and_a_known_type() -> None:
    kinds = {k.name for k in KINDS}
    for t in (*FACT_TABLES.values(), PLAYER_SESSION_SUMMARY):
        assert t.comment, t.name
        for c in t.columns:
            assert c.comment, f"{t.name}.{c.name}"  # issue 20: no column without a meaning
            assert c.sql_type in BASE_TYPES | kinds, f"{t.name}.{c.name}"
    assert set(PARTITIONED) == set(FACT_TABLES) - {"hand_categories"}
    assert all(FACT_TABLES[name].order == order for name, order in PARTITIONED.items())


def test_duckdb_makes_the_declared_tables() -> None:
    con = connect(None)
    for t in TABLES.values():
        got = con.execute(
            "SELECT column_name, data_type, is_nullable, comment FROM duckdb_columns() "
            "WHERE table_name = $t AND schema_name = 'main' ORDER BY column_index",
            {"t": t.name},
        ).fetchall()
        kinds = {k.name: f"ENUM({', '.join(repr(x) for x in k.labels)})" for k in KINDS}
        assert got == [
            (c.name, kinds.get(c.sql_type, c.sql_type), c.nullable, c.comment) for c in t.columns
        ]
        comment = con.execute(
            "SELECT comment FROM duckdb_tables() WHERE table_name = $t", {"t": t.name}
        ).fetchall()
        assert comment == [(t.comment,)]


@pytest.mark.parametrize(
    "columns",
    [
        {"pot_t BIGINT NOT NULL": None, "pot_t INTEGER": None},  # one name twice
        {"pot_t BIGINT NULL": None},  # not a constraint of the declaration
        {"pot_t": None},  # no type
    ],
)
def test_a_column_line_of_another_form_is_refused(columns: dict[str, str | None]) -> None:
    with pytest.raises(ValueError):
        table("t", None, columns)
