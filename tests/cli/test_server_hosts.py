"""``brag dashboard`` as a process (issue 24, item 2): it answers only the hosts it prints
(``Host: evil.example`` is refused on the pages, ``/_stcore/health``, our ``/api`` routes and the
websocket), a second start on the same store names the first and stops, and a ``kill -9`` of
``brag dashboard`` leaves no server answering within 5 s."""

from __future__ import annotations

import http.client
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

from brag.cmd_app import running_dashboard

SECRET = "open sesame please"


def answers(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://localhost:{port}/_stcore/health", timeout=1) as r:
            return bool(r.status == 200)
    except OSError:
        return False


def wait_answering(proc: subprocess.Popen[str], port: int) -> None:
    """Waits (60 s at most) until the dashboard ``proc`` started answers on ``port``."""
    deadline = time.monotonic() + 60
    while not answers(port):
        assert proc.poll() is None and time.monotonic() < deadline, "did not start"
        time.sleep(0.3)


def status(port: int, path: str, host: str, method: str = "GET") -> int:
    c = http.client.HTTPConnection("localhost", port, timeout=10)
    try:
        sent = {"Host": host}
        if method == "POST":  # a write takes JSON only (dashboard/access/guard.py)
            sent["Content-Type"] = "application/json"
        c.request(method, path, body=b"{}" if method == "POST" else None, headers=sent)
        return c.getresponse().status
    finally:
        c.close()


def websocket_status(port: int, host: str) -> int:
    """The HTTP status of a websocket handshake on Streamlit's stream (101: opened)."""
    c = http.client.HTTPConnection("localhost", port, timeout=10)
    try:
        c.putrequest("GET", "/_stcore/stream", skip_host=True)
        for k, v in {
            "Host": host,
            "Upgrade": "websocket",
            "Connection": "Upgrade",
            "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
            "Sec-WebSocket-Version": "13",
            "Sec-WebSocket-Protocol": "streamlit",
        }.items():
            c.putheader(k, v)
        c.endheaders()
        return c.getresponse().status
    except (http.client.RemoteDisconnected, ConnectionResetError):
        return 0  # closed without an answer: refused
    finally:
        c.close()


def start(tmp: Path, port: int | None) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if k != "BRAG_ORGANISER_SECRET"}
    env["BRAG_ORGANISER_SECRET"] = SECRET
    command = [sys.executable, "-m", "brag.cli", "dashboard", "--db", str(tmp / "brag.db")]
    if port is not None:
        command += ["--port", str(port)]
    return subprocess.Popen(
        command, env=env, cwd=tmp, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )


@pytest.mark.slow
def test_only_printed_hosts_a_second_start_is_refused_and_kill_9_stops_the_server(
    tmp_path: Path,
) -> None:
    port = server_port()
    proc = start(tmp_path, port)
    try:
        wait_answering(proc, port)
        # The hosts it prints are served; another is refused, everywhere.
        assert status(port, "/_stcore/health", f"localhost:{port}") == 200
        assert status(port, "/", f"127.0.0.1:{port}") == 200
        assert status(port, "/api/ping", f"localhost:{port}") == 200
        for path in ("/", "/record", "/_stcore/health", "/api/ping"):
            assert status(port, path, "evil.example") == 400, path
            assert status(port, path, f"evil.example:{port}") == 400, path
        assert status(port, "/api/device-cookie", "evil.example", "POST") == 400
        assert status(port, "/api/device-cookie", f"localhost:{port}", "POST") == 403  # no code
        assert websocket_status(port, f"localhost:{port}") == 101
        assert websocket_status(port, "evil.example") != 101
        assert websocket_status(port, f"evil.example:{port}") != 101
        # A second dashboard on this store, without --port: named and refused.
        assert running_dashboard(str(tmp_path / "brag.db"), str(tmp_path / "brag.duckdb")) == (
            proc.pid,
            f"http://localhost:{port}",
        )
        second = start(tmp_path, None)
        out, _ = second.communicate(timeout=60)
        assert second.returncode == 1, out
        assert out.strip().splitlines()[-1] == (
            f"brag: a dashboard (pid {proc.pid}) already serves this store at "
            f"http://localhost:{port}; stop it first"
        )
        # kill -9 of `brag dashboard` itself: nothing answers within 5 s.
        os.kill(proc.pid, signal.SIGKILL)
        killed = time.monotonic()
        while answers(port):
            assert time.monotonic() - killed < 5, "the server outlived brag dashboard"
            time.sleep(0.1)
        with socket.socket() as s:
            assert s.connect_ex(("127.0.0.1", port)) != 0
        # Its pid file is left behind, and known to be stale.
        assert (tmp_path / "brag.db-dashboard").exists()
        assert running_dashboard(str(tmp_path / "brag.db"), str(tmp_path / "brag.duckdb")) is None
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=10)


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_stopped_dashboard_removes_its_pid_file(tmp_path: Path, signum: int) -> None:
    port = server_port()
    proc = start(tmp_path, port)
    try:
        wait_answering(proc, port)
        assert (tmp_path / "brag.db-dashboard").read_text().split()[0] == str(proc.pid)
        proc.send_signal(signum)
        proc.wait(timeout=20)
        assert not (tmp_path / "brag.db-dashboard").exists()
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=10)
