"""The statistics as ``brag stats``, ``brag leaderboard`` and ``brag analytics show`` print them:
a table that fits the terminal (each cell by :func:`present.stat_cells.stat_cell`), or JSON or
CSV of the documented columns, money exact as FORMAT.md writes it (``"9"``, ``"-17/2"``)."""

from __future__ import annotations

import csv
import json
import os
import sys
from typing import Any

from analytics.queries import columns, public_rows
from brag.console import console
from brag.tables import fitted_tables
from present.stat_cells import stat_cell

__all__ = ["FORMATS", "ROW_KEYS", "print_rows", "public", "scope", "wide_console"]

FORMATS = ("table", "json", "csv")

ROW_KEYS: dict[str, list[str]] = {
    "leaderboard": ["session", "player"],
    "decisions": ["player", "action"],
}
"""The columns that name a row and lead every part of a split table (default: the first)."""


def public(name: str, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The statistic's documented columns, money as FORMAT.md text
    (:func:`analytics.queries.public_rows`)."""
    return public_rows(name, rows)


def scope(session: str | None, table: str | None, player: str | None = None) -> str:
    """``session S``, ``all sessions, table T``...: what a filtered statistic covers."""
    where = f"session {session}" if session else "all sessions"
    if table is not None:
        where += f", table {table}"
    return where + (f", {player}" if player else "")


def wide_console() -> Any:
    """A rich console; wide when the output is a file or a pipe (rich would assume 80 columns)."""
    width = None if sys.stdout.isatty() else int(os.environ.get("COLUMNS") or 200)
    return console(width=width)


def print_rows(
    name: str,
    rows: list[dict[str, Any]],
    fmt: str,
    title: str,
    empty: str = "(no ended deals yet)",
) -> None:
    """The rows of the statistic ``name`` in the format ``fmt`` (:data:`FORMATS`); a table
    titled ``title``, with ``empty`` below it when there are none."""
    shown = public(name, rows)
    if fmt != "table":
        print_data(shown, fmt)
        return
    console = wide_console()
    headers, cells, keys = _layout(name, shown)
    for table in fitted_tables(console, title, headers, cells, keys=keys):
        console.print(table)
    if not shown:
        print(empty)


def print_data(rows: list[dict[str, Any]], fmt: str) -> None:
    """``rows`` as JSON (one array) or CSV (a header, then a line a row; nothing for none)."""
    if fmt == "json":
        print(json.dumps(rows, ensure_ascii=False, indent=1))
        return
    if fmt == "csv" and rows:
        w = csv.DictWriter(sys.stdout, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)


def _layout(
    name: str, rows: list[dict[str, Any]]
) -> tuple[list[tuple[str, str]], list[list[str]], int]:
    """The table of the public ``rows`` of ``name``: its headers (text, justify), its cells and
    how many columns lead each part of it."""
    shown = [c.name for c in columns(name)]
    lead = ROW_KEYS.get(name, shown[:1])
    shown = [*lead, *(k for k in shown if k not in lead)]
    if name == "player_stats" and 0 < len(rows) <= 6:
        # Few players: one column each, one line per statistic.
        headers = [("statistic", "left")] + [(str(r["player"]), "right") for r in rows]
        cells = [[k.replace("_", " "), *(stat_cell(r, k) for r in rows)] for k in shown[1:]]
        return headers, cells, len(lead)
    headers = [
        (k.replace("_", " "), "left" if k in ("player", "session", "category", "kind") else "right")
        for k in shown
    ]
    return headers, [[stat_cell(r, k) for k in shown] for r in rows], len(lead)
