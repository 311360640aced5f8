"""A 600 MB body offered to the dashboard's routes: the server's memory before and after.

    .venv/bin/python bench/body_bound.py [--mb 600] [--port 8660]

Serves the dashboard on 127.0.0.1 over a store holding one bundled season session, then, for
``POST /api/tap``, ``POST /api/device-cookie`` and ``POST /api/notes``, offers a body of ``--mb``
megabytes (its ``Content-Length`` declared, then the bytes sent in 1 MB pieces until the server
answers or closes the connection) and, for ``/api/tap``, the same body sent chunked (no length
declared). For each: the answer's status, the megabytes the client got into the connection before
the server stopped it, and the server's resident memory (``VmRSS``) and peak (``VmHWM``, from
``/proc``) before and after. Only 127.0.0.1, with the organiser's unlocked device's cookie; the
client holds 1 MB at a time. Exits 0 whatever the figures (issue 33, class 6: a body is bounded
while it is read).
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from brag.cmd_app import free_port, streamlit_command  # noqa: E402
from log.open import open_store  # noqa: E402

SEASON = ROOT / "data" / "season" / "2026-10-15-top-1.jsonl"
PIECE = b"x" * (1 << 20)


def memory(pid: int) -> tuple[float, float]:
    """``(VmRSS, VmHWM)`` of ``pid`` in MB."""
    got = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            got[key] = int(value.split()[0]) / 1024
    return got["VmRSS"], got["VmHWM"]


def offer(port: int, path: str, mb: int, *, chunked: bool, token: str) -> tuple[str, float, float]:
    """Offers ``mb`` MB to ``path`` from the organiser's unlocked device (its ``token``): ``(status
    line or what ended it, MB sent, seconds)``."""
    s = socket.create_connection(("127.0.0.1", port), timeout=30)
    head = [
        f"POST {path} HTTP/1.1",
        f"Host: 127.0.0.1:{port}",
        "Content-Type: application/json",
        f"Cookie: brag_device={token}",
        "Transfer-Encoding: chunked" if chunked else f"Content-Length: {mb << 20}",
        "",
        "",
    ]
    sent = 0
    started = time.monotonic()
    status = ""
    try:
        s.sendall("\r\n".join(head).encode())
        s.setblocking(False)
        for _ in range(mb):
            piece = (b"%x\r\n" % len(PIECE) + PIECE + b"\r\n") if chunked else PIECE
            view = memoryview(piece)
            while view:
                try:
                    n = s.send(view)
                    view = view[n:]
                    sent += n
                except BlockingIOError:
                    status = _answer(s) or status
                    if status:
                        raise StopIteration from None
                    time.sleep(0.001)
            status = _answer(s) or status
            if status:
                break
        if not status:
            s.setblocking(True)
            if chunked:
                s.sendall(b"0\r\n\r\n")
            status = s.recv(4096).decode("latin-1").split("\r\n")[0]
    except StopIteration:
        pass
    except OSError as err:
        status = status or f"connection ended: {err.__class__.__name__}"
    finally:
        s.close()
    return status, sent / (1 << 20), time.monotonic() - started


def _answer(s: socket.socket) -> str:
    try:
        got = s.recv(4096)
    except BlockingIOError:
        return ""
    if not got:
        return "closed without an answer"
    return got.decode("latin-1").split("\r\n")[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mb", type=int, default=600)
    parser.add_argument("--port", type=int, default=8660)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "brag.db")
        with open_store(db) as store:
            store.import_log(str(SEASON))
        env = {k: v for k, v in os.environ.items() if k != "BRAG_ORGANISER_SECRET"}
        env.update(
            BRAG_DB=db,
            BRAG_ANALYTICS=os.path.join(tmp, "brag.duckdb"),
            BRAG_ORGANISER_SECRET="a long enough organiser secret",
        )
        port = free_port(args.port, "127.0.0.1")
        log = open(os.path.join(tmp, "server.log"), "w")  # noqa: SIM115 - closed below
        proc = subprocess.Popen(
            streamlit_command(port, "127.0.0.1"), env=env, cwd=tmp, stdout=log, stderr=log
        )
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    with urllib.request.urlopen(
                        f"http://127.0.0.1:{port}/_stcore/health", timeout=2
                    ):
                        break
                except OSError:
                    if time.monotonic() > deadline or proc.poll() is not None:
                        raise SystemExit("the dashboard did not start") from None
                    time.sleep(0.3)
            os.environ.update(BRAG_DB=db, BRAG_ORGANISER_SECRET=env["BRAG_ORGANISER_SECRET"])
            from dashboard.access import check as access

            token = access.issue_token()
            settle = time.monotonic() + 30  # the server's warm-up imports end first
            last = -1.0
            while time.monotonic() < settle and memory(proc.pid)[0] != last:
                last = memory(proc.pid)[0]
                time.sleep(2)
            rss, hwm = memory(proc.pid)
            print(f"server at rest: RSS {rss:.0f} MB, peak {hwm:.0f} MB")
            for path, chunked in (
                ("/api/tap", False),
                ("/api/tap", True),
                ("/api/device-cookie", False),
                ("/api/notes", False),
            ):
                status, sent, took = offer(port, path, args.mb, chunked=chunked, token=token)
                time.sleep(0.5)
                rss, hwm = memory(proc.pid)
                how = "chunked" if chunked else f"Content-Length {args.mb} MB"
                print(
                    f"POST {path} ({how}): {status!r} after {sent:.1f} MB sent in {took:.2f} s; "
                    f"server RSS {rss:.0f} MB, peak {hwm:.0f} MB"
                )
        finally:
            proc.terminate()
            proc.wait(timeout=10)
            log.close()


if __name__ == "__main__":
    main()
