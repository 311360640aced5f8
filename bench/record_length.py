"""The same speed whatever the length (issue 32, item 5): a tap through the real route at 8, 200
and 1,000 pots.

    .venv/bin/python bench/record_length.py [--pots 8,200,1000] [--taps 40] [--seed 5]

For each length a random finished session (4 players, shown cards, ``rules.pots`` = the length,
``sim.randplay.random_session``) is stored in one fresh SQLite store without its last ``--taps``
recorded events; the Record page's routes (:mod:`dashboard.record.routes`, mounted in a Starlette
app
served by uvicorn, asked over HTTP with an unlocked device's cookie: the same handlers, locks,
store handles and documents the server runs) then take those events one tap at a time:

- tap: ``POST /api/tap`` with the key the pad shows for the event (``bench/record.py``
  ``spot_for``; a showdown's cards in the body), until its answer ``"recorded"``;
- poll: ``GET /api/pad?since=N`` right after, as another device sees the new seq (with its
  document).

The lengths take their taps in turn (a tap of each a round), so the machine's load falls on each
alike. Before measuring, each session is opened once as the Record page opens it (the writer's
timeline folded once, the reader's first poll): that one fold is the cost of a session's first
drawing, not of a tap. Printed: each length's p50 and p95 in ms and the ratios of the longest
length's p95 to the shortest's, measured in the same run (target <= 1.5x).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.append(str(ROOT / "bench"))  # bench/record.py's spot_for; after the packages

from browser_helpers import percentile  # noqa: E402

from dashboard.common import stores  # noqa: E402
from events.model import AnyEvent, Shown, Voided, is_derived  # noqa: E402
from log.open import open_store  # noqa: E402
from sim.randplay import random_session  # noqa: E402
from timeline import Timeline  # noqa: E402

SECRET = "bench organiser secret, long enough"
TARGET = 1.5


def _held_back(events: list[AnyEvent], taps: int) -> tuple[list[AnyEvent], list[AnyEvent]]:
    """The stream cut before its last ``taps`` recorded events (derived ones follow them)."""
    recorded = [k for k, e in enumerate(events) if not is_derived(e)]
    cut = recorded[max(1, len(recorded) - taps)]
    return events[:cut], [e for e in events[cut:] if not is_derived(e)]


class _Client:
    """The routes served over HTTP by uvicorn in a thread (the server's own ASGI stack), asked
    over one keep-alive connection with an unlocked device's cookie."""

    def __init__(self, cookie: str) -> None:
        import socket
        import threading

        import uvicorn
        from starlette.applications import Starlette

        from dashboard.record import routes as pad_api

        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            self.port = sock.getsockname()[1]
        config = uvicorn.Config(
            Starlette(routes=pad_api.routes()),
            host="127.0.0.1",
            port=self.port,
            log_level="error",
            timeout_keep_alive=600,
        )
        self.server = uvicorn.Server(config)
        threading.Thread(target=self.server.run, daemon=True).start()
        while not self.server.started:
            time.sleep(0.01)
        self.cookie = cookie
        self.conn: Any = None

    def _ask(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        import http.client
        import json

        if self.conn is None:
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        data = json.dumps(body).encode() if body is not None else None
        headers = {"Cookie": self.cookie, "Content-Type": "application/json"}
        self.conn.request(method, path, body=data, headers=headers)
        r = self.conn.getresponse()
        return r.status, json.loads(r.read())

    def post(self, path: str, body: Any) -> tuple[int, Any]:
        return self._ask("POST", path, body)

    def get(self, path: str) -> tuple[int, Any]:
        return self._ask("GET", path)

    def close(self) -> None:
        self.server.should_exit = True


def _client(url: str, tmp: Path) -> _Client:
    os.environ["BRAG_DB"] = url
    os.environ["BRAG_ANALYTICS"] = str(tmp / "bench.duckdb")
    os.environ["BRAG_ORGANISER_SECRET"] = SECRET
    os.environ.setdefault("BRAG_HOME", str(tmp))
    from dashboard.access import check as access
    from dashboard.access.tokens import TOKEN_COOKIE

    return _Client(f"{TOKEN_COOKIE}={access.issue_token()}")


class _Session:
    """One session of the run: its held-back events and where the recorder stands."""

    def __init__(self, pots: int, taps: int, seed: int) -> None:
        self.pots = pots
        self.name = f"len-{pots}"
        events = random_session(
            random.Random(seed), self.name, players=4, cards="shown", pots=pots, void_rate=0.0
        )
        self.stored, self.rest = _held_back(events, taps)
        self.t = Timeline.of(self.stored)
        self.events = self.t.last_seq
        self.tap: list[float] = []
        self.poll: list[float] = []

    def step(self, client: _Client) -> bool:
        """One tap of the next held-back event and one poll; ``False`` when none is left."""
        from record import spot_for

        if not self.rest:
            return False
        e = self.rest.pop(0)
        spot = spot_for(self.t.state, e)
        if spot is None or isinstance(e, Voided):
            self.rest = []
            return False
        body = {
            "session": self.name, "seq": self.t.last_seq, "spot": spot,
            "id": str(uuid.uuid4()), "at": datetime.now(UTC).isoformat(), "by": "bench",
            "cards": list(e.cards) if isinstance(e, Shown) else [],
        }  # fmt: skip
        since = self.t.last_seq
        t0 = time.perf_counter()
        _, answer = client.post("/api/tap", body)
        self.tap.append((time.perf_counter() - t0) * 1000)
        if answer["outcome"] != "recorded":
            raise SystemExit(f"{self.name}: tap {spot} answered {answer}")
        t0 = time.perf_counter()
        status, polled = client.get(f"/api/pad?session={self.name}&since={since}")
        self.poll.append((time.perf_counter() - t0) * 1000)
        assert status == 200 and "doc" in polled, polled
        self.t = self.t.extend_all([e])
        return True


def run(lengths: list[int], taps: int, seed: int, tmp: Path) -> list[_Session]:
    """Every length's session in one store behind one server, tapped in turn (one tap of each
    length a round: the machine's load falls on every length alike)."""

    sessions = [_Session(pots, taps, seed) for pots in lengths]
    url = str(tmp / "bench.db")
    with open_store(url) as store:
        for s in sessions:
            store.append(s.name, s.stored, 0)
    client = _client(url, tmp)
    for s in sessions:  # the Record page opens each session: one fold each
        stores.writer().timeline(s.name)
        assert client.get(f"/api/pad?session={s.name}&since=-1")[0] == 200
    going = list(sessions)
    while going:
        going = [s for s in going if s.step(client)]
    client.close()
    return sessions


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--pots", default="8,200,1000", help="session lengths, shortest first")
    ap.add_argument("--taps", type=int, default=40, help="taps measured per length")
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args()
    lengths = [int(x) for x in args.pots.split(",")]
    rows: dict[int, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as d:
        for got in run(lengths, args.taps, args.seed, Path(d)):
            rows[got.pots] = {
                "events": got.events,
                "taps": len(got.tap),
                "tap50": percentile(got.tap, 0.5),
                "tap95": percentile(got.tap, 0.95),
                "poll50": percentile(got.poll, 0.5),
                "poll95": percentile(got.poll, 0.95),
            }
    print(f"{'pots':>6} {'events':>7} {'taps':>5} {'tap p50':>8} {'tap p95':>8} "
          f"{'poll p50':>9} {'poll p95':>9}  (ms)")  # fmt: skip
    for pots, r in rows.items():
        print(
            f"{pots:>6} {r['events']:>7.0f} {r['taps']:>5.0f} {r['tap50']:>8.1f} "
            f"{r['tap95']:>8.1f} {r['poll50']:>9.1f} {r['poll95']:>9.1f}"
        )
    short, long = rows[lengths[0]], rows[lengths[-1]]
    tap = long["tap95"] / short["tap95"]
    poll = long["poll95"] / short["poll95"]
    ok = tap <= TARGET and poll <= TARGET
    print(
        f"{lengths[-1]} pots against {lengths[0]}: tap p95 {tap:.2f}x, poll p95 {poll:.2f}x "
        f"(target <= {TARGET}x): {'met' if ok else 'NOT met'}"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
