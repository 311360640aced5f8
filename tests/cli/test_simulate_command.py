"""brag simulate: the files it writes are byte-identical for one seed, and into a store it appends
one deal at a time. The simulator itself is tested in tests/sim/test_simulated_sessions.py."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from brag.cli import main
from events.codec import write_events
from events.model import (
    AnyEvent,
)


def _text(events: list[AnyEvent]) -> str:
    buf = io.StringIO()
    write_events(events, buf)
    return buf.getvalue()


def test_cli_writes_byte_identical_files(tmp_path: Path) -> None:
    for out in ("a", "b"):
        args = ["simulate", "--players", "2-10", "--sessions", "4", "--seed", "5", "--quiet"]
        assert main([*args, "--cards", "shown", "--out", str(tmp_path / out)]) == 0
    files = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert files == [f"sim-5-{k:04d}.jsonl" for k in range(1, 5)]
    for name in files:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
        assert main(["verify", str(tmp_path / "a" / name)]) == 0


def test_simulate_into_the_store_one_deal_per_append(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--db``: the sessions go to the store one deal per append; the store's export is the same
    log byte for byte as ``--out`` writes, and running it again changes nothing (same ids)."""
    pytest.importorskip("log")
    from log.open import open_store

    db = tmp_path / "sim.db"
    args = ["simulate", "--players", "2-10", "--sessions", "3", "--seed", "8", "--quiet"]
    assert main([*args, "--db", str(db)]) == 0
    assert main([*args, "--out", str(tmp_path / "out")]) == 0
    loud = [a for a in args if a != "--quiet"]
    capsys.readouterr()
    assert main([*loud, "--db", str(db)]) == 0  # idempotent: same ids, nothing new
    said = capsys.readouterr().err
    assert f"; 0 new events stored in {db} (" in said and " were stored already)" in said
    store = open_store(str(db))
    assert [s.session for s in store.sessions()] == [f"sim-8-{k:04d}" for k in range(1, 4)]
    for info in store.sessions():
        assert info.finished
        text = _text(store.events(info.session))
        assert text == (tmp_path / "out" / f"{info.session}.jsonl").read_text(encoding="utf-8")
