"""Pictures drawn apart from the pad's routes (issue 33, class 6): the pad's poll while a flood of
picture requests arrives.

    .venv/bin/python bench/pictures.py [--pictures 200] [--at-once 60] [--clients 1,40]
                                       [--polls 40] [--flood-seconds 120] [--rounds 20]

1. Starts the dashboard's server (``brag dashboard``'s Streamlit command,
``dashboard/common/server.py``)
   on 127.0.0.1 over a store of the bundled season's first 3 sessions, with an organiser secret,
   and makes an unlocked device's cookie for it (:func:`dashboard.access.tokens.device_token`).
2. **Quiet**: ``--polls`` polls of the Record page's pad (``GET /api/pad?session=S&since=N``,
   the unlocked device's cookie, ``since`` the session's last seq: what the pad sends each
   second), one after another, 50 ms apart; their p50 and p95.
3. **Flood**: for each ``--clients`` count K, ``--pictures`` requests of ``GET
   /api/picture.png`` (no cookie), every one a different step (nothing kept for a second tap
   helps), ``--at-once`` at a time, from K loopback addresses (127.0.0.1, then 127.0.0.2, ...:
   every address of 127/8 is this machine, so K clients, loopback only), each request with a
   60 s timeout and the flood stopped after ``--flood-seconds``; the flood's requests are sent
   by a process of their own, niced (+10: on two shared cores the sender's own work would take
   the server's CPU, where an attacker's is on another machine). (That process was made but not
   used before issue 33's flood branch: the 60 sending threads ran in this process, unniced,
   beside the polls' thread, so a poll's time included waiting for this process's interpreter
   lock behind them; its figures were that much worse and more variable.) Meanwhile the same
   polls as in 2, one after another, 50 ms apart, until the flood ends; the flood again (other
   steps) until ``--polls`` polls were made during floods (at most ``--rounds`` floods: a flood
   whose pictures are refused at once is over in a second); the polls' p50 and p95, the answers'
   statuses (200, 429 for a client over its limit, 503 for a full queue) and a flood's time;
   and the p50 and p95 of the polls begun before the flood's last refusal came back (a flood
   ends when its last admitted picture is drawn: the polls made after its refusals, while those
   few pictures are still being drawn, see a quieter server).
4. Prints each flood's poll p95 as a ratio to the quiet p95 and to the limit, **200 ms**
   (target: under it). Exits 0 whatever the figures.
"""

from __future__ import annotations

import argparse
import http.client
import os
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from multiprocessing import get_context
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from browser_helpers import dashboard, percentile, season_env  # noqa: E402

from dashboard.access import tokens  # noqa: E402
from log.open import open_store  # noqa: E402

LIMIT_MS = 200.0
SECRET = "bench organiser secret for the picture flood"


def _get(port: int, path: str, *, source: str = "127.0.0.1", cookie: str | None = None) -> int:
    """One GET to the server at 127.0.0.1:``port`` from the loopback address ``source``;
    returns the status (0 when it did not answer)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60, source_address=(source, 0))
    try:
        headers = {"Connection": "close"}
        if cookie:
            headers["Cookie"] = cookie
        conn.request("GET", path, headers=headers)
        res = conn.getresponse()
        res.read()
        return res.status
    except OSError:
        return 0
    finally:
        conn.close()


def _polls(
    port: int,
    path: str,
    cookie: str,
    until: threading.Event | int,
    starts: list[float] | None = None,
) -> list[float]:
    """Polls one after another, 50 ms apart: a count, or until the event is set; ms each (and
    each one's start, ``time.monotonic()``, appended to ``starts``)."""
    out: list[float] = []
    while (len(out) < until) if isinstance(until, int) else not until.is_set():
        t0 = time.perf_counter()
        if starts is not None:
            starts.append(time.monotonic())
        status = _get(port, path, cookie=cookie)
        out.append((time.perf_counter() - t0) * 1000)
        if status != 200:
            raise SystemExit(f"the pad's poll answered {status}")
        time.sleep(0.05)
    return out


def _targets(db: str) -> tuple[str, int, list[str], str]:
    """The first session, its last seq, a picture request per step of every session, and the
    store's tag (:func:`dashboard.access.tokens.store_tag`: a device's token names its store)."""
    from present.replay import Replay

    paths: list[str] = []
    with open_store(db) as store:
        tag = tokens.store_tag(str(store.store_id))
        sessions = [info.session for info in store.sessions()]
        first, last = sessions[0], int(store.last_seq(sessions[0]))
        for session in sessions:
            rp = Replay.of(store.events(session))
            for sl in rp.slices:
                for k in range(sl.start, sl.stop):
                    step = rp.labels[k].step
                    paths.append(f"/api/picture.png?session={session}&deal={sl.deal}&step={step}")
    return first, last, paths, tag


def _flood(
    port: int, paths: list[str], clients: int, at_once: int, seconds: float
) -> tuple[Counter[int], float]:
    """The flood (run in the niced sender process): the answers' statuses, and when
    (``time.monotonic()``, one clock for every process of this machine) the last refusal (429,
    503) came back: after it only admitted pictures are still being drawn."""
    statuses: Counter[int] = Counter()
    deadline = time.monotonic() + seconds
    lock = threading.Lock()
    refused = [time.monotonic()]

    def one(k: int) -> None:
        if time.monotonic() > deadline:
            got = -1  # not sent: the flood's time was up
        else:
            got = _get(port, paths[k % len(paths)], source=f"127.0.0.{1 + k % clients}")
        with lock:
            statuses[got] += 1
            if got in (429, 503):
                refused[0] = max(refused[0], time.monotonic())

    with ThreadPoolExecutor(at_once) as pool:
        list(pool.map(one, range(len(paths))))
    return statuses, refused[0]


def _line(label: str, ms: list[float], quiet: float | None = None) -> str:
    p95 = percentile(ms, 0.95)
    out = f"{label}: {len(ms)} polls, p50 {statistics.median(ms):7.1f} ms, p95 {p95:7.1f} ms"
    if quiet:
        out += f" ({p95 / quiet:.1f}x quiet; {p95 / LIMIT_MS:.2f}x the {LIMIT_MS:.0f} ms limit)"
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pictures", type=int, default=200)
    ap.add_argument("--at-once", type=int, default=60)
    ap.add_argument("--clients", default="1,40")
    ap.add_argument("--polls", type=int, default=40)
    ap.add_argument("--flood-seconds", type=float, default=120.0)
    ap.add_argument("--rounds", type=int, default=20)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-pictures-") as tmp:
        env = season_env(Path(tmp), sessions=3)
        env["BRAG_ORGANISER_SECRET"] = SECRET
        session, last, steps, tag = _targets(env["BRAG_DB"])
        cookie = f"brag_device={tokens.device_token(SECRET, store=tag)}"
        poll = f"/api/pad?session={session}&since={last}"
        with dashboard(Path(tmp), env, address="127.0.0.1") as url:
            port = int(url.rsplit(":", 1)[1])
            _get(port, steps[0])  # the picture machinery's first use, not timed
            _polls(port, poll, cookie, 5)
            quiet = _polls(port, poll, cookie, args.polls)
            q95 = percentile(quiet, 0.95)
            print(f"load average {os.getloadavg()[0]:.1f}; {len(steps)} distinct steps")
            print(_line("quiet", quiet))
            for n, clients in enumerate(int(c) for c in args.clients.split(",")):
                paths = steps[n * args.pictures :] + steps[: n * args.pictures]
                _measured(port, poll, cookie, paths[: args.pictures], clients, args, q95)
                time.sleep(2)


def _measured(
    port: int,
    poll: str,
    cookie: str,
    paths: list[str],
    clients: int,
    args: argparse.Namespace,
    quiet_p95: float,
) -> None:
    """Floods with the pad's polls beside them, printed: again (each time other steps) until
    ``--polls`` polls were made during floods, at most ``--rounds`` floods."""
    polled: list[float] = []
    burst: list[float] = []  # the polls begun before the flood's last refusal came back
    statuses: Counter[int] = Counter()
    # the flood's 60 threads in a process of their own: the polls here never wait on them for
    # this process's interpreter lock (the server's answer is what is timed)
    # this process for the flood, niced: on these 2 shared cores its own work (opening thousands
    # of connections) would otherwise take the server's CPU; an attacker's CPU is elsewhere
    flooder = ProcessPoolExecutor(
        1, mp_context=get_context("spawn"), initializer=os.nice, initargs=(10,)
    )
    flooder.submit(int).result()  # started (and this module imported in it) before any poll
    took: list[float] = []
    for r in range(args.rounds):
        done = threading.Event()
        got: list[list[float]] = []
        starts: list[float] = []
        poller = threading.Thread(
            target=lambda d=done, g=got, s=starts: g.append(_polls(port, poll, cookie, d, s)),
            daemon=True,
        )
        t0 = time.perf_counter()
        poller.start()
        shifted = paths[r * 7 :] + paths[: r * 7]
        answers, last_refused = flooder.submit(
            _flood, port, shifted[: args.pictures], clients, args.at_once, args.flood_seconds
        ).result()
        statuses += answers
        took.append(time.perf_counter() - t0)
        done.set()
        poller.join(120)
        polled += got[0] if got else []
        for ms, began in zip(got[0] if got else [], starts, strict=False):
            if began <= last_refused:
                burst.append(ms)
        if len(polled) >= args.polls:
            break
        time.sleep(1)
    flooder.shutdown()
    said = ", ".join(f"{k}: {v}" for k, v in sorted(statuses.items()))
    print(
        f"{len(took)} flood(s) of {args.pictures} pictures, {args.at_once} at a time, from "
        f"{clients} address(es): {statistics.median(took):.1f} s each (median); statuses {said}"
    )
    print(_line("  the pad's poll meanwhile", polled or [0.0], quiet_p95))
    print(_line("    of them begun while refusals were still answered", burst or [0.0], quiet_p95))


if __name__ == "__main__":
    main()
