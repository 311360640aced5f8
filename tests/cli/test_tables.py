"""brag.tables: a table given as one row of stacked lines renders byte for byte as its rows."""

from __future__ import annotations

import io

import pytest

from brag.console import console
from brag.tables import _table, fitted_tables

HEADERS = [("session", "left"), ("player", "left"), ("net", "right"), ("won", "right")]
ROWS = [
    ["2026-10-01-top-1", "Jean", "12½", "yes"],
    ["2026-10-01-top-1", "漢字 Bev", "-3", ""],
    ["s\x1b[2J", "Tony\u202e", "", "no"],
    ["", "", "0", ""],
]


def _render(tables: list[object], width: int, tty: bool) -> str:
    out = io.StringIO()
    c = console(file=out, width=width, force_terminal=tty, color_system="standard" if tty else None)
    for t in tables:
        c.print(t)
    return out.getvalue()


@pytest.mark.parametrize("width", [160, 60, 30, 12])
@pytest.mark.parametrize("tty", [False, True])
def test_stacked_rows_render_as_rows(width: int, tty: bool) -> None:
    c = console(file=io.StringIO(), width=width)
    fast = fitted_tables(c, "Sessions", HEADERS, ROWS, keys=2)
    slow = [
        _table(t.title, HEADERS[:2] + [(col.header, col.justify) for col in t.columns[2:]],
               [r[:2] + [r[i] for i, h in enumerate(HEADERS) if (h[0], h[1]) in
                         {(col.header, col.justify) for col in t.columns[2:]}] for r in ROWS])
        for t in fast
    ]  # fmt: skip
    assert _render(fast, width, tty) == _render(slow, width, tty)
    if width >= 60:  # the escape shown, never sent
        assert "\\x1b[2J" in _render(fast, width, tty)


def test_stacked_only_when_it_fits() -> None:
    assert len(_table("", HEADERS, ROWS, fit=200).rows) == 1
    assert len(_table("", HEADERS, ROWS, fit=20).rows) == len(ROWS)
    assert len(_table("", HEADERS, ROWS).rows) == len(ROWS)
