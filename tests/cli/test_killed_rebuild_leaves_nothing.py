"""A process that dies leaves nothing behind (issue 33, class 7): ``kill -9`` of ``brag analytics
refresh --rebuild --jobs 2`` takes its workers (and the resource tracker) with it within seconds,
and the next refresh removes the ``.building`` copy and the workers' folder it left; what a
running build holds is never removed (:mod:`log.children`, :mod:`analytics.building`)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from analytics.building import remove_leftovers
from brag.cli import main

psutil = pytest.importorskip("psutil")

ROOT = Path(__file__).resolve().parents[2]
BRAG = [sys.executable, "-c", "import sys; from brag.cli import main; sys.exit(main())"]


def _leftovers(folder: Path) -> list[str]:
    return sorted(
        p.name for p in folder.iterdir() if ".building" in p.name or "brag-rebuild-" in p.name
    )


def _workers(parent: psutil.Process, want: int, limit: float) -> list[psutil.Process]:
    """The parent's processes once ``want`` pool workers are among them (or the limit passed)."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        kids = parent.children(recursive=True)
        spawned = [k for k in kids if "spawn_main" in " ".join(k.cmdline())]
        if len(spawned) >= want:
            time.sleep(1.0)  # the workers are folding
            return parent.children(recursive=True)
        time.sleep(0.1)
    pytest.fail(f"no {want} workers started within {limit} s")


@pytest.mark.slow
def test_kill_9_of_a_parallel_rebuild_leaves_no_process_and_no_file(tmp_path: Path) -> None:
    db, projection = tmp_path / "big.db", tmp_path / "big.duckdb"
    assert main(["simulate", "--db", str(db), "--sessions", "60", "--seed", "3", "--quiet"]) == 0
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    command = [*BRAG, "analytics", "refresh", "--db", str(db), "--analytics", str(projection)]
    proc = subprocess.Popen(
        [*command, "--rebuild", "--jobs", "2"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        kids = _workers(psutil.Process(proc.pid), 2, 60)
        names = " ".join(" ".join(k.cmdline()) for k in kids)
        assert "resource_tracker" in names  # the tracker too is the rebuild's child
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        gone, left = psutil.wait_procs(kids, timeout=5)
        assert left == [], f"still running 5 s after the parent was killed: {left}"
        assert len(gone) == len(kids) >= 3
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    assert any(n.endswith(".building") for n in _leftovers(tmp_path))
    assert any(n.startswith("brag-rebuild-") for n in _leftovers(tmp_path))
    # The next refresh (a catch-up: no projection yet) removes what the killed one left.
    assert main(["analytics", "refresh", "--db", str(db), "--analytics", str(projection)]) == 0
    assert _leftovers(tmp_path) == []
    assert projection.exists()


def _dead_pid() -> int:
    done = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        check=True,
        capture_output=True,
        text=True,
    )
    return int(done.stdout)


def test_only_what_a_dead_process_left_is_removed(tmp_path: Path) -> None:
    dead, live = _dead_pid(), os.getpid()
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        made = {
            f".s.duckdb.{dead}-0123abcd.building": "gone",
            f".s.duckdb.{dead}-0123abcd.building.wal": "gone",
            f"brag-rebuild-{dead}-x1y2z3_q": "gone",
            f".s.duckdb.{live}-0123abcd.building": "kept",  # this process: a build running
            f"brag-rebuild-{sleeper.pid}-abc": "kept",  # another process still running
            f".s.duckdb.{dead}-notours.building": "kept",  # not a name of ours
            "s.duckdb": "kept",
            f"notes-{dead}.txt": "kept",
        }
        for name in made:
            if name.startswith("brag-rebuild-"):
                (tmp_path / name).mkdir()
                (tmp_path / name / "part0.duckdb").write_bytes(b"x")
            else:
                (tmp_path / name).write_bytes(b"x")
        removed = remove_leftovers(str(tmp_path))
        assert sorted(Path(p).name for p in removed) == sorted(
            n for n, what in made.items() if what == "gone"
        )
        assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
            n for n, what in made.items() if what == "kept"
        )
    finally:
        sleeper.kill()
        sleeper.wait(10)
