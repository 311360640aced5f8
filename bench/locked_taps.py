"""Taps on the Record page's pad while another program holds the store, in Chromium.

    .venv/bin/python bench/locked_taps.py [--taps 40] [--hold 12] [--gap 3]

Serves the dashboard over a SQLite store, opens the pad of a new four-seat session on a phone
(390x844, touch) in Debian's Chromium and taps the legal keys (shuffle, deal, look, bet, fold
...) one every 0.7 s, ``--taps`` times, while a thread holds the store ``BEGIN EXCLUSIVE`` for
``--hold`` seconds (longer than an append waits, 10 s) with ``--gap`` seconds free between. Then
the lock ends and the pad is left to send what it kept. Prints the taps made, those the pad
refused itself (a key held while a tap is on its way: never sent), those sent, and of those the
ones the screen says recorded and not recorded, the events stored and the taps stored twice.
Issue 33, class 2: every tap sent is recorded once (a refusal by the rules aside). Exits 0
whatever the figures.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from browser_helpers import CHROMIUM_ARGS, PAD, chromium, dashboard, unlock  # noqa: E402

from dashboard.record import recorder  # noqa: E402
from log.open import open_store  # noqa: E402

SECRET = "a long enough organiser secret"
SEATS = ("Ann", "Bob", "Cal", "Dee")
ORDER = ["shuffle", "deal", "look", "bet-0", "fold", "fold", "fold"]


def pad_eval(page: Any, body: str) -> Any:
    return page.evaluate(f"() => {{ const pad = ({PAD})(); return ({body})(pad); }}")


def history(page: Any) -> list[tuple[str, str]]:
    rows = pad_eval(
        page,
        "(pad) => [...pad.querySelectorAll('.taps li')].map(li => [li.dataset.tap, "
        "li.dataset.status])",
    )
    return [(r[0], r[1]) for r in rows]


def hold(db: str, stop: threading.Event, seconds: float, gap: float, held: list[float]) -> None:
    while not stop.is_set():
        con = sqlite3.connect(db, isolation_level=None)
        con.execute("BEGIN EXCLUSIVE")
        began = time.monotonic()
        stop.wait(seconds)
        con.execute("ROLLBACK")
        con.close()
        held.append(time.monotonic() - began)
        stop.wait(gap)


def run(url: str, db: str, args: argparse.Namespace) -> None:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import sync_playwright

    session = "locked"
    with open_store(db) as store:
        events = recorder.start_events(session, SEATS, "shown", dealer=SEATS[-1])
        store.append(session, recorder.stamped(events), 0)
    stop = threading.Event()
    held: list[float] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
        try:
            page = browser.new_context(
                viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
            ).new_page()
            unlock(page, url, SECRET)
            page.goto(f"{url}/record?session={session}")
            page.wait_for_function(
                f"() => {{ const p = ({PAD})(); return p && p.dataset.seq; }}", timeout=60_000
            )
            holder = threading.Thread(target=hold, args=(db, stop, args.hold, args.gap, held))
            holder.start()
            made = 0
            while made < args.taps:
                keys = pad_eval(
                    page,
                    "(pad) => [...pad.querySelectorAll('button[data-spot]')].filter(b => "
                    "!b.disabled).map(b => b.dataset.spot)",
                )
                spot = next((s for s in ORDER if s in keys), None)
                if spot is not None:
                    try:
                        page.locator(f".pad button[data-spot='{spot}']").tap(timeout=2_000)
                        made += 1
                    except PlaywrightTimeout:
                        pass
                page.wait_for_timeout(700)
            stop.set()
            holder.join()
            released = time.monotonic()
            page.wait_for_function(
                f"() => {{ const p = ({PAD})(); return p && p.dataset.waiting === '0'; }}",
                timeout=120_000,
            )
            drained = time.monotonic() - released
            taps = history(page)
        finally:
            stop.set()
            browser.close()
    with open_store(db, readonly=True) as store:
        stored = [str(e.id) for e in store.events(session) if e.id is not None]
    sent = [(i, s) for i, s in taps if not i.startswith("here-")]
    recorded = {i for i, s in sent if s == "recorded"}
    refused = {i for i, s in sent if s == "not recorded"}
    twice = [i for i, n in Counter(stored).items() if n > 1]
    print(f"locks held: {len(held)}, {min(held):.1f} to {max(held):.1f} s")
    print(f"taps made: {made}; refused by the pad itself (never sent): {len(taps) - len(sent)}")
    print(
        f"taps sent: {len(sent)}; recorded on the screen: {len(recorded)}, not recorded: "
        f"{len(refused)}, still waiting: {len(sent) - len(recorded) - len(refused)}"
    )
    print(
        f"stored: {len(set(stored) & {i for i, _ in sent})} of the taps sent; stored twice: "
        f"{len(twice)}; said recorded but not stored: {len(recorded - set(stored))}; said not "
        f"recorded but stored: {len(refused & set(stored))}; the queue drained "
        f"{drained:.1f} s after the last lock"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--taps", type=int, default=40)
    parser.add_argument("--hold", type=float, default=12.0)
    parser.add_argument("--gap", type=float, default=3.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "brag.db")
        with open_store(db):
            pass
        env = {
            "BRAG_DB": db,
            "BRAG_ANALYTICS": str(Path(tmp) / "brag.duckdb"),
            "BRAG_ORGANISER_SECRET": SECRET,
        }
        with dashboard(Path(tmp), env) as url:
            run(url, db, args)


if __name__ == "__main__":
    main()
