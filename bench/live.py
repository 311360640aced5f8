"""What idle pages cost the server: live follow (``dashboard.common.live``) measured in Chromium.

    .venv/bin/python bench/live.py [--pages 6] [--seconds 20] [--port 8850]

One ``streamlit run`` of the dashboard over a fresh SQLite store holding a session in progress
(the first 8 recorded events of a season session) and a finished one. Headless Chromium
(Playwright, phone size 390x844) opens pages and leaves them idle; nothing is recorded. The
server's CPU (user + system, from ``/proc/PID/stat``, children excluded) is read over
``--seconds`` of wall time in three states, in this order:

1. **baseline**: no page open;
2. **live**: ``--pages`` pages on the session in progress, half Session, half Replay;
3. **finished**: ``--pages // 2`` Replay pages of the finished session (the live pages closed).

Printed: the server's CPU in % of one core for each, and each against the baseline measured in
the same run (the ratio; the target is a finished session's pages costing about the baseline,
and a live page's poll a small part of a core).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from browser_helpers import CHROMIUM_ARGS, chromium, dashboard  # noqa: E402

from engine.fold import complete  # noqa: E402
from events.codec import read_file  # noqa: E402
from events.model import is_derived  # noqa: E402
from log.open import open_store  # noqa: E402

LIVE = "2026-10-15-top-1"
FINISHED = "2026-09-24-top-1"
PHONE = {"width": 390, "height": 844}
TICK = os.sysconf("SC_CLK_TCK")


def server_pid(port: int) -> int:
    """The pid of the ``streamlit run`` serving on ``port`` (found by its command line)."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"streamlit" in b" ".join(argv) and str(port).encode() in argv:
            return int(entry.name)
    raise SystemExit(f"no streamlit server found on port {port}")


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of the process so far (``/proc/PID/stat`` fields 14, 15)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def busy(pid: int, seconds: float) -> float:
    """The process's CPU over ``seconds`` of wall time, in % of one core."""
    c0, t0 = cpu_seconds(pid), time.monotonic()
    time.sleep(seconds)
    return 100 * (cpu_seconds(pid) - c0) / (time.monotonic() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pages", type=int, default=6)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--port", type=int, default=8850)
    args = ap.parse_args()

    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "brag.db")
        recorded = [
            s.event
            for s in complete(read_file(str(ROOT / "data" / "season" / f"{LIVE}.jsonl")))
            if not is_derived(s.event)
        ]
        with open_store(db) as store:
            store.append(LIVE, recorded[:8], 0)
            store.import_log(str(ROOT / "data" / "season" / f"{FINISHED}.jsonl"))
        env = {"BRAG_DB": db, "BRAG_ANALYTICS": str(Path(tmp) / "brag.duckdb")}
        with dashboard(Path(tmp), env, port=args.port) as url, sync_playwright() as p:
            pid = server_pid(int(url.rsplit(":", 1)[1]))
            browser = p.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
            try:
                # one page drawn and closed first, so the baseline is a warm server's
                warm = browser.new_context(viewport=PHONE).new_page()
                warm.goto(f"{url}/replay?session={LIVE}&deal=1&step=1")
                warm.wait_for_selector(".rp[data-ready]", timeout=60_000)
                warm.context.close()
                time.sleep(2)
                base = busy(pid, args.seconds)
                print(f"baseline, no page open: {base:5.1f} % of a core")

                def open_pages(session: str, kinds: list[str]) -> list[object]:
                    pages = []
                    for kind in kinds:
                        page = browser.new_context(viewport=PHONE).new_page()
                        page.goto(f"{url}/{kind}?session={session}")
                        if kind == "replay":
                            page.wait_for_selector(".rp[data-ready]", timeout=60_000)
                        else:
                            # results hidden until asked for (no spoilers); the deals' list shows
                            page.get_by_role("heading", name="Deals").wait_for(timeout=60_000)
                        pages.append(page)
                    time.sleep(3)  # the pages settle
                    return pages

                def report(label: str, cpu: float) -> None:
                    ratio = cpu / base if base > 0 else float("inf")
                    print(f"{label}: {cpu:5.1f} % of a core ({ratio:.1f}x the baseline)")

                half = args.pages // 2
                live = open_pages(LIVE, ["session"] * (args.pages - half) + ["replay"] * half)
                report(f"{args.pages} idle pages of a session in progress", busy(pid, args.seconds))
                for page in live:
                    page.context.close()  # type: ignore[attr-defined]
                time.sleep(2)
                open_pages(FINISHED, ["replay"] * max(1, half))
                report(
                    f"{max(1, half)} idle Replay pages of a finished session",
                    busy(pid, args.seconds),
                )
            finally:
                browser.close()


if __name__ == "__main__":
    main()
