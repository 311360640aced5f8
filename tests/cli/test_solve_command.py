"""``brag solve`` and ``brag review`` (issue 38): the JSON shapes, the coverage, and one-line
refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from brag.cli import main

SEASON = Path(__file__).resolve().parents[2] / "data" / "season"


def test_solve_json_names_the_game_its_abstraction_and_its_figures(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("BRAG_SOLVER_CACHE", str(tmp_path))
    capsys.readouterr()
    assert main(["solve", "--iterations", "3", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert set(got) >= {
        "game",
        "abstraction",
        "iterations",
        "game_value",
        "exploitability",
        "hash",
        "seconds",
    }
    assert got["iterations"] == 3 and len(got["hash"]) == 64
    assert got["exploitability"] > 0.001  # three iterations are far from the equilibrium
    assert got["abstraction"]["buckets"] == 100
    assert len(list(tmp_path.glob("*.npz"))) == 4  # the four betting games, cached
    assert main(["solve", "--iterations", "3", "--json"]) == 0  # read back: the same hash
    assert json.loads(capsys.readouterr().out)["hash"] == got["hash"]


def test_solve_refuses_no_iterations(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["solve", "--iterations", "0"])
    assert str(stop.value) == "brag: --iterations must be at least 1, not 0"


def test_review_json_rows_and_coverage(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "club.db")
    assert main(["import", "--db", db, str(SEASON / "2026-09-24-top-1.jsonl")]) == 0
    capsys.readouterr()
    assert main(["review", "2026-09-24-top-1", "--deal", "1", "--db", db, "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    rows, cov = got["rows"], got["coverage"]
    assert rows and cov["decisions"] == len(rows)
    assert cov["covered"] == sum(r["ev_loss"] is not None for r in rows)
    for r in rows:
        assert set(r) >= {"step", "player", "action", "best", "ev_loss", "grade"}
    with pytest.raises(SystemExit) as stop:
        main(["review", "2026-09-24-top-1", "--deal", "99", "--db", db])
    assert "there is no deal 99" in str(stop.value)
