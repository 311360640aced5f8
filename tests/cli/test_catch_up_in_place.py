"""A catch-up writes the projection file itself in ONE DuckDB transaction (issue 34, item 4):
nothing is copied or renamed (the file keeps its inode), and a catch-up that fails midway,
after some batches' rows were written, leaves the projection at its old checkpoint with its old
rows (DuckDB rolls the transaction back); the next catch-up then equals a rebuild. A session
whose rows the projection refuses is still left out and named, the others projected, inside the
one transaction."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import duckdb
import pytest

import analytics.projector
import analytics.tables
from analytics.building import caught_up, current_checkpoint
from analytics.projector import Projector
from brag.cli import main
from log.open import open_store

ROOT = Path(__file__).resolve().parents[2]
SEASON = sorted(str(p) for p in (ROOT / "data" / "season").glob("*.jsonl"))
TABLES = ("events", "deals", "player_deals", "player_session_summary", "sessions", "checkpoint")


def _rows(path: str) -> dict[str, list[tuple[Any, ...]]]:
    con = duckdb.connect(path, read_only=True)
    try:
        return {t: sorted(con.execute(f"SELECT * FROM {t}").fetchall(), key=repr) for t in TABLES}
    finally:
        con.close()


@pytest.fixture
def behind(tmp_path: Path) -> tuple[str, str]:
    """A store of two sessions whose projection has caught up with the first only."""
    db, path = str(tmp_path / "brag.db"), str(tmp_path / "brag.duckdb")
    assert main(["import", "--db", db, SEASON[0]]) == 0
    assert main(["analytics", "refresh", "--db", db]) == 0
    assert main(["import", "--db", db, SEASON[1]]) == 0
    return db, path


def test_a_catch_up_failing_midway_leaves_the_old_checkpoint_and_rows(
    behind: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db, path = behind
    before, rows, inode = current_checkpoint(path), _rows(path), os.stat(path).st_ino
    store = open_store(db, readonly=True)
    assert before is not None and before < store.last_position()
    step = Projector._write_checkpoint
    seen: list[int] = []

    def failing(self: Projector, *args: Any) -> None:
        seen.append(args[0])
        if len(seen) == 3:  # two batches' rows and checkpoints written, a third's rows too
            raise RuntimeError("the projector failed here")
        step(self, *args)

    monkeypatch.setattr(Projector, "_write_checkpoint", failing)
    with pytest.raises(RuntimeError, match="failed here"):
        caught_up(path, db, lambda con: Projector(store, con, batch_size=40).refresh())
    assert len(seen) == 3 and seen[0] > before
    assert current_checkpoint(path) == before
    assert _rows(path) == rows
    assert os.stat(path).st_ino == inode
    assert sorted(p for p in os.listdir(os.path.dirname(path)) if "duckdb" in p) == ["brag.duckdb"]
    monkeypatch.setattr(Projector, "_write_checkpoint", step)
    report, note = caught_up(path, db, lambda con: Projector(store, con, batch_size=40).refresh())
    assert note is None and report.batches > 3
    assert os.stat(path).st_ino == inode  # written in place, not replaced
    assert current_checkpoint(path) == store.last_position()
    fresh = str(Path(path).with_name("fresh.duckdb"))
    con = analytics.tables.connect(fresh)
    analytics.projector.rebuild(store, con)
    con.close()
    assert _rows(path) == _rows(fresh)
    store.close()


def test_a_session_refused_inside_the_one_transaction_is_left_out_and_named(
    behind: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db, path = behind
    assert main(["import", "--db", db, SEASON[2]]) == 0
    store = open_store(db, readonly=True)
    refused = store.read_all(after=current_checkpoint(path) or 0, limit=1)[0].session
    insert = Projector._insert

    def refusing(self: Projector, table: str, columns: dict[str, list[Any]]) -> None:
        if table == "deals" and refused in columns["session"]:
            raise duckdb.ConversionException("a value out of range")
        insert(self, table, columns)

    monkeypatch.setattr(Projector, "_insert", refusing)
    report, _ = caught_up(path, db, lambda con: Projector(store, con, batch_size=40).refresh())
    assert [s for s, _ in report.skipped] == [refused]
    assert current_checkpoint(path) == store.last_position()
    con = analytics.tables.connect(path)
    try:
        assert [r[0] for r in analytics.projector.skipped(con)] == [refused]
        count = "SELECT count(DISTINCT session) FROM deals WHERE session <> $s"
        assert con.execute(count, {"s": refused}).fetchone() == (2,)
        count = "SELECT count(*) FROM deals WHERE session = $s"
        assert con.execute(count, {"s": refused}).fetchone() == (0,)
    finally:
        con.close()
    store.close()
