"""Two ``brag import`` of the same 40 files into one store at once (issue 13, item 6): both exit 0
and say nothing on stderr, on SQLite and on PostgreSQL, 50 runs each; the store then holds each
session once, whole. The processes are forked from a clean process server (the modules already
imported there: ``store_helpers.PROCESSES``), each running ``brag.cli.main`` as the command does."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from store_helpers import PROCESSES, drop_schema, new_schema, pg_url, require_pg

from log.open import open_store

ROOT = Path(__file__).resolve().parents[2]
CARD = ROOT / "data" / "examples" / "card_example.jsonl"
FILES = 40
RUNS = 50


def logs(folder: Path) -> list[str]:
    """40 session logs (the card example under 40 session ids, 16 events each, with ids)."""
    base = [json.loads(x) for x in CARD.read_text().splitlines()]
    out = []
    for k in range(FILES):
        lines = []
        for e in base:
            e = dict(e)
            e["id"] = f"{e['id'][:-4]}{k:04d}"
            if e["type"] == "session_started":
                e["session"] = f"club-{k:02d}"
            lines.append(json.dumps(e))
        path = folder / f"club-{k:02d}.jsonl"
        path.write_text("\n".join(lines) + "\n")
        out.append(str(path))
    return out


def _import(db: str, files: list[str], err_path: str, go: Any) -> None:
    fd = os.open(err_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    os.dup2(fd, 2)
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    sys.stderr = os.fdopen(2, "w", buffering=1)
    from brag.cli import main

    go.wait()
    code = main(["import", *files, "--db", db])
    sys.stderr.flush()
    os._exit(code)


def two_imports(db: str, files: list[str], folder: Path, run: int) -> None:
    go = PROCESSES.Event()
    errs = [folder / f"err-{run}-{k}.txt" for k in (1, 2)]
    procs = [PROCESSES.Process(target=_import, args=(db, files, str(e), go)) for e in errs]
    for p in procs:
        p.start()
    go.set()
    for p in procs:
        p.join(120)
    texts = [e.read_text() for e in errs]
    assert [p.exitcode for p in procs] == [0, 0], (run, texts)
    assert texts == ["", ""], (run, texts)


def check_store(db: str) -> None:
    with open_store(db, readonly=True) as s:
        infos = s.sessions()
        assert len(infos) == FILES
        assert {i.last_seq for i in infos} == {16}
        assert len(s.read_all(limit=10_000)) == FILES * 16


@pytest.mark.slow
def test_two_sqlite_imports_of_the_same_files_both_succeed_50_times(tmp_path: Path) -> None:
    files = logs(tmp_path)
    started = time.perf_counter()
    for run in range(RUNS):
        db = str(tmp_path / f"club-{run}.db")
        two_imports(db, files, tmp_path, run)
        check_store(db)
    print(f"SQLite: {RUNS} runs in {time.perf_counter() - started:.1f} s")


@pytest.mark.slow
@pytest.mark.postgres
def test_two_postgres_imports_of_the_same_files_both_succeed_50_times(tmp_path: Path) -> None:
    require_pg()
    import psycopg

    files = logs(tmp_path)
    started = time.perf_counter()
    for run in range(RUNS):
        schema = new_schema()
        with psycopg.connect(pg_url(), autocommit=True) as c:
            c.execute(f'CREATE SCHEMA "{schema}"')
        db = f"{pg_url()}?options=-csearch_path%3D{schema}"
        try:
            two_imports(db, files, tmp_path, run)
            check_store(db)
        finally:
            drop_schema(schema)
    print(f"PostgreSQL: {RUNS} runs in {time.perf_counter() - started:.1f} s")
