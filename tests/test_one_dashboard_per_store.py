"""brag dashboard holds its store: a second dashboard on the same store is refused by any path to it
(another folder, a symlink). The store's identity on the pages is tested in
tests/dashboard/test_store_identity.py."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from browser_helpers import server_port
from shared_paths import needs_shared
from store_identity_helpers import SECRET, two_urls_of_one_store  # noqa: F401 (the fixture two_urls)

from log.open import open_store

pytestmark = needs_shared  # the tests here read a scenario


def dashboard_process(folder: Path, db: str, port: int) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("BRAG_DB", "BRAG_ANALYTICS")}
    env["BRAG_ORGANISER_SECRET"] = SECRET
    command = [sys.executable, "-m", "brag.cli", "dashboard", "--db", db, "--port", str(port)]
    return subprocess.Popen(command, env=env, cwd=folder, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)  # fmt: skip


def answering(proc: subprocess.Popen[str], port: int) -> None:
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"http://localhost:{port}/_stcore/health", timeout=1):
                return
        except OSError:
            assert proc.poll() is None and time.monotonic() < deadline, "did not start"
            time.sleep(0.3)


@pytest.mark.slow
def test_a_second_dashboard_on_the_same_store_is_refused_by_any_path(
    two_urls: tuple[str, str], tmp_path: Path
) -> None:
    first_url, second_url = two_urls
    folders = [tmp_path / "one", tmp_path / "two"]
    for f in folders:
        f.mkdir()
    port = server_port()
    first = dashboard_process(folders[0], first_url, port)
    try:
        answering(first, port)
        second = dashboard_process(folders[1], second_url, server_port())
        out, _ = second.communicate(timeout=60)
        assert second.returncode == 1, out
        assert out.strip().splitlines()[-1] == (
            f"brag: a dashboard (pid {first.pid} on {socket.gethostname()}) already serves "
            f"this store at http://localhost:{port}; stop it first"
        )
        os.kill(first.pid, signal.SIGKILL)  # killed: its hold ends with its process
        first.wait(timeout=10)
        again_port = server_port()
        again = dashboard_process(folders[1], second_url, again_port)
        try:
            answering(again, again_port)
        finally:
            again.terminate()
            again.wait(timeout=20)
        with open_store(first_url) as store, store.recorder.transaction() as tx:
            assert tx.devices().holder() is None  # let go when it stopped
    finally:
        if first.poll() is None:
            first.kill()
            first.wait(timeout=10)
