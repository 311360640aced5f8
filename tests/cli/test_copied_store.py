"""A copy of a store file is told apart from its original once they diverge (issue 33, class 4):
``cp a.db b.db`` keeps the store's id, but each checkpoint of the statistics records the store's
event it stands at (``analytics.owner.mark``), so statistics refreshed from ``a.db`` are never
read as ``b.db``'s once the two logs differ: refused in one line naming both stores (a file the
user named), rebuilt (``b.db``'s default file). While the copy has not diverged its statistics
are still taken."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import duckdb
import pytest

from brag.cli import main
from events.codec import read_file

ROOT = Path(__file__).resolve().parents[2]
FIRST = ROOT / "data" / "examples" / "card_example.jsonl"
SECOND = ROOT / "data" / "season" / "2026-09-24-top-1.jsonl"
THIRD = ROOT / "data" / "season" / "2026-10-01-top-1.jsonl"


def _session(log: Path) -> str:
    return str(read_file(str(log))[0][1].session)  # type: ignore[union-attr]


def _sessions_listed(argv: list[str], capsys: pytest.CaptureFixture[str]) -> set[str]:
    capsys.readouterr()
    assert main(["leaderboard", *argv, "--format", "json"]) == 0
    return {r["session"] for r in json.loads(capsys.readouterr().out)}


def _refused(argv: list[str]) -> str:
    with pytest.raises(SystemExit) as caught:
        main(argv)
    text = str(caught.value.code)
    assert "\n" not in text and text  # one line
    return text


@pytest.fixture
def copied(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, Path, Path]:
    """``a.db`` holding one session, copied to ``b.db``; then ``a.db`` gains another session and
    its statistics (``a.duckdb``) are refreshed from it."""
    a, b, proj = tmp_path / "a.db", tmp_path / "b.db", tmp_path / "a.duckdb"
    assert main(["import", "--db", str(a), str(FIRST)]) == 0
    shutil.copyfile(a, b)  # cp a.db b.db (the store closed: no WAL left)
    assert not (tmp_path / "a.db-wal").exists()
    assert main(["import", "--db", str(a), str(SECOND)]) == 0
    listed = _sessions_listed(["--db", str(a), "--analytics", str(proj)], capsys)
    assert listed == {_session(FIRST), _session(SECOND)}
    return a, b, proj


def test_statistics_of_the_original_are_not_read_as_the_copys(
    copied: tuple[Path, Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    a, b, proj = copied
    before = proj.read_bytes()
    for argv in (
        ["leaderboard", "--db", str(b), "--analytics", str(proj)],
        ["leaderboard", "--db", str(b), "--analytics", str(proj), "--no-refresh"],
        ["stats", "--db", str(b), "--analytics", str(proj)],
        ["analytics", "refresh", "--db", str(b), "--analytics", str(proj)],
    ):
        said = _refused(argv)
        assert f"belongs to the store {a}" in said and f"{b} has that id but another log" in said
        assert "a copy that has diverged" in said and "--rebuild" in said
    assert proj.read_bytes() == before  # left as it was
    # the copy diverges further with a session of its own: still refused
    assert main(["import", "--db", str(b), str(THIRD)]) == 0
    said = _refused(["leaderboard", "--db", str(b), "--analytics", str(proj)])
    assert "a copy that has diverged" in said and str(a) in said and str(b) in said
    # the copy's own default file, a copy of the original's: rebuilt from the copy alone
    shutil.copyfile(proj, b.with_suffix(".duckdb"))
    assert _sessions_listed(["--db", str(b)], capsys) == {_session(FIRST), _session(THIRD)}


def test_a_copy_that_has_not_diverged_reads_the_statistics(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b, proj = tmp_path / "a.db", tmp_path / "b.db", tmp_path / "a.duckdb"
    assert main(["import", "--db", str(a), str(FIRST)]) == 0
    assert _sessions_listed(["--db", str(a), "--analytics", str(proj)], capsys) == {_session(FIRST)}
    shutil.copyfile(a, b)
    assert _sessions_listed(["--db", str(b), "--analytics", str(proj)], capsys) == {_session(FIRST)}
    # ahead of the statistics (same log so far, one session more): caught up, not refused
    assert main(["import", "--db", str(b), str(SECOND)]) == 0
    listed = _sessions_listed(["--db", str(b), "--analytics", str(proj)], capsys)
    assert listed == {_session(FIRST), _session(SECOND)}


def test_every_checkpoint_records_the_stores_event(tmp_path: Path) -> None:
    from log.open import open_store

    db, proj = tmp_path / "a.db", tmp_path / "a.duckdb"
    assert main(["import", "--db", str(db), str(FIRST), str(SECOND)]) == 0
    for argv in (
        ["analytics", "refresh", "--db", str(db), "--analytics", str(proj)],
        ["analytics", "refresh", "--rebuild", "--jobs", "2", "--db", str(db), "--analytics",
         str(proj)],
    ):  # fmt: skip
        assert main(argv) == 0
        with open_store(str(db), readonly=True) as store:
            last = store.read_all(after=store.last_position() - 1)[-1]
        with duckdb.connect(str(proj), read_only=True) as con:
            marked = con.execute("SELECT value FROM meta WHERE key = 'store_event'").fetchone()
        assert marked == (f"{last.position} {last.id}",)


@pytest.mark.postgres
def test_a_restored_copy_of_a_postgres_store_is_told_apart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A PostgreSQL store restored into another schema (a dump and restore keeps ``brag_meta``:
    the same id, the same events at the same positions), then the two diverge."""
    import psycopg
    from store_helpers import drop_schema, new_schema, pg_url, require_pg

    from log.open import open_store

    require_pg()
    schemas = [new_schema(), new_schema()]
    try:
        for schema in schemas:
            with open_store(pg_url(), schema=schema) as s:
                s.import_log(str(FIRST))
        with open_store(pg_url(), schema=schemas[0]) as s:
            sid = s.store_id
        with psycopg.connect(pg_url(), autocommit=True) as c:  # as restored from a's dump
            c.execute(f'UPDATE "{schemas[1]}".brag_meta SET value = %s WHERE key = %s',
                      (sid, "store_id"))  # fmt: skip
        a, b = (f"{pg_url()}?options=-csearch_path%3D{s}" for s in schemas)
        proj = tmp_path / "club.duckdb"
        assert _sessions_listed(["--db", a, "--analytics", str(proj)], capsys) == {_session(FIRST)}
        assert _sessions_listed(["--db", b, "--analytics", str(proj)], capsys) == {
            _session(FIRST)
        }  # the same log so far: the same statistics
        assert main(["import", "--db", a, str(SECOND)]) == 0
        assert len(_sessions_listed(["--db", a, "--analytics", str(proj)], capsys)) == 2
        said = _refused(["leaderboard", "--db", b, "--analytics", str(proj)])
        assert "a copy that has diverged" in said and schemas[0] in said and schemas[1] in said
    finally:
        for schema in schemas:
            drop_schema(schema)
