"""Two logs of two stores and what a projection holds (shared by tests/cli/test_projection_owner.py
and tests/test_projection_owner_on_the_page.py): events layer."""

from __future__ import annotations

from pathlib import Path

import duckdb

from events.codec import read_file

ROOT = Path(__file__).resolve().parents[1]
A_LOG = ROOT / "data" / "examples" / "card_example.jsonl"
B_LOG = ROOT / "data" / "season" / "2026-09-24-top-1.jsonl"


def seated(path: Path) -> set[str]:
    """The players the log seats (its session_started), read from the log itself."""
    _, first = read_file(str(path))[0]
    return {str(s) for s in first.seats}  # type: ignore[union-attr]


def session_of(path: Path) -> str:
    _, first = read_file(str(path))[0]
    return str(first.session)  # type: ignore[union-attr]


def projected_sessions(path: Path) -> set[str]:
    with duckdb.connect(str(path), read_only=True) as con:
        return {r[0] for r in con.execute("SELECT session FROM sessions").fetchall()}
