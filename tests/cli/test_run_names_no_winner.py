"""Issue 35, item 5: ``brag run`` (``make run``) prints the sessions at start-up without naming a
winner, as the dashboard names none until asked; ``--results`` names them. ``brag sessions``,
asked for the sessions, keeps its winners column."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from brag.cli import main
from log.open import open_store

ROOT = Path(__file__).resolve().parents[2]
SEASON = ROOT / "data" / "season"
LOGS = ("2026-09-24-top-1", "2026-09-24-window-1")


@pytest.fixture
def season(tmp_path: Path) -> Path:
    folder = tmp_path / "season"
    folder.mkdir()
    for name in LOGS:
        shutil.copy(SEASON / f"{name}.jsonl", folder / f"{name}.jsonl")
    return folder


def _winners(db: str) -> dict[str, tuple[str, ...]]:
    with open_store(db) as store:
        return {i.session: tuple(i.winners) for i in store.sessions()}


def _rows(out: str) -> dict[str, str]:
    """Each session's row of the printed table (its line, by session id)."""
    return {
        line.split("│")[1].strip(): line
        for line in out.splitlines()
        if line.startswith("│") and line.split("│")[1].strip() in LOGS
    }


def test_run_names_no_winner_unless_asked(
    tmp_path: Path,
    season: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("COLUMNS", "250")  # one table, not split
    db = str(tmp_path / "club.db")
    assert main(["run", "--no-serve", "--db", db, "--data", str(season)]) == 0
    out = capsys.readouterr().out
    winners = _winners(db)
    assert all(winners[s] for s in LOGS)  # both finished, each with a winner
    rows = _rows(out)
    assert set(rows) == set(LOGS)
    header = next(line for line in out.splitlines() if "session" in line and "players" in line)
    assert "winners" not in header
    for s in LOGS:  # the row names the players (the winner among them), not who won
        cells = [c.strip() for c in rows[s].split("│")[1:-1]]
        assert cells[-1].split(", ")[0] and ", ".join(winners[s]) not in cells[:-1]
        assert len(cells) == 7
    assert "winners hidden: brag run --results names them" in out

    assert main(["run", "--no-serve", "--db", db, "--data", str(season), "--results"]) == 0
    out = capsys.readouterr().out
    header = next(line for line in out.splitlines() if "session" in line and "players" in line)
    assert "winners" in header
    rows = _rows(out)
    for s in LOGS:
        cells = [c.strip() for c in rows[s].split("│")[1:-1]]
        assert len(cells) == 8 and cells[6] == ", ".join(winners[s])
    assert "winners hidden" not in out


def test_sessions_asked_for_keep_their_winners(
    tmp_path: Path,
    season: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("COLUMNS", "250")
    db = str(tmp_path / "club.db")
    assert main(["import", "--db", db, *(str(p) for p in sorted(season.glob("*.jsonl")))]) == 0
    capsys.readouterr()
    assert main(["sessions", "--db", db]) == 0
    out = capsys.readouterr().out
    rows = _rows(out)
    winners = _winners(db)
    for s in LOGS:
        assert [c.strip() for c in rows[s].split("│")[1:-1]][6] == ", ".join(winners[s])
