"""Issue 15, from a club to a league: the examples kept apart, parallel rebuild, the lake export,
the analyst API and drill-down."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from brag.cli import main

ROOT = Path(__file__).resolve().parents[1]
SEASON = ROOT / "data" / "season"
EXAMPLES = ROOT / "data" / "examples"


def _sessions(db: str, capsys: pytest.CaptureFixture[str]) -> list[dict[str, object]]:
    capsys.readouterr()
    assert main(["sessions", "--db", db, "--json"]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_run_keeps_the_rule_cards_examples_out_of_the_club_store(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "club.db")
    assert main(["run", "--no-serve", "--db", db]) == 0
    listed = _sessions(db, capsys)
    assert len(listed) == len(list(SEASON.glob("*.jsonl"))) == 40
    players = {p for s in listed for p in s["players"]}  # type: ignore[attr-defined]
    assert players.isdisjoint({"A", "B", "C", "D", "E"})
    # The first session listed is the season's first night, not an example dated by its import.
    assert listed[0]["session"] == "2026-09-24-top-1"
    # Asked for explicitly, the examples join (RULES 5.10's card example among them).
    assert main(["run", "--no-serve", "--examples", "--db", db]) == 0
    ids = {s["session"] for s in _sessions(db, capsys)}
    assert len(ids) == 43
    assert {"card-example"} <= ids
