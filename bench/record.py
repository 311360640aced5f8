"""Recording a season deal at the table on a phone, in a real browser (issue 11).

    .venv/bin/python bench/record.py [--session 2026-10-15-top-1] [--deal 1] [--shots]

Debian's Chromium (headless, Playwright) opens the Record page at 390×844, unlocks it, starts a
shown-cards session with the season session's seats and first dealer, and records the deal's
recorded events (looks, bets, folds, the see, the cards shown) by taps on the pad only: each event
is the one key of :func:`dashboard.recorder.pad_rows` whose event it is, a showdown is three card
taps then the show key. Measured in the page: the time from each tap to the pad's confirmation
("Recorded: ..."), and every scroll of the window or of Streamlit's main section. Printed: taps
per event kind, scrolls, median and 95th percentile against the target (0 scrolls, one tap a
bet, median under 300 ms). A person's taps come at least ``SAME_SPOT_MS`` apart; the waits
between taps are not measured.

``--shots`` writes ``docs/record-phone.png`` (390×844, mid-deal),
``docs/record-tablet-portrait.png`` (768×1024) and ``docs/record-tablet-landscape.png``
(1024×768), the README's pictures.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from browser_helpers import CHROMIUM_ARGS, chromium, dashboard  # noqa: E402

from dashboard import recorder  # noqa: E402
from engine import complete  # noqa: E402
from events.codec import read_file  # noqa: E402
from events.model import AnyEvent, Shown, is_derived  # noqa: E402
from log import open_store  # noqa: E402
from present.replay import Replay  # noqa: E402

TARGET_MS = 300.0
SECRET = "bench organiser secret"
DOCS = ROOT / "docs"

# Counts scrolls and stamps each tap in the page; the pad's confirmation is watched per frame.
PROBE = """
window.__scrolls = 0;
window.addEventListener('scroll', () => { window.__scrolls += 1; }, true);
document.addEventListener('click', () => { window.__t0 = performance.now(); }, true);
"""
NOTE_JS = """(prev) => {
  const host = [...document.querySelectorAll('*')].find((e) => e.shadowRoot
      && e.shadowRoot.querySelector('[data-testid=pad-note]'));
  const note = host && host.shadowRoot.querySelector('[data-testid=pad-note]');
  if (!note || note.textContent === prev || !note.textContent.startsWith('Recorded')) return false;
  return [performance.now() - window.__t0, note.textContent];
}"""


def deal_events(session: str, deal: int) -> tuple[tuple[str, ...], str, list[AnyEvent]]:
    """The seats, the first dealer and deal ``deal``'s recorded events after its ``dealt`` of a
    bundled season session."""
    path = ROOT / "data" / "season" / f"{session}.jsonl"
    events = [s.event for s in complete(read_file(str(path)))]
    rp = Replay.of(events)
    sl = rp.slice(deal)
    start = rp.states[0]
    dealer = next(e.player for e in events if e.type == "dealer_chosen")  # type: ignore[union-attr]
    body = [e for e in rp.events[sl.start + 1 : sl.stop] if not is_derived(e)]
    return start.seats, dealer, body


def spot_for(state: Any, event: AnyEvent) -> str:
    """The pad's key that records ``event`` after ``state``."""
    want = event.model_dump(exclude={"id", "seq", "at", "by", "cards"}, exclude_none=True)
    for row in recorder.pad_rows(state):
        for k in row:
            if k.choice is None:
                continue
            got = k.choice.action.event.model_dump(
                exclude={"id", "seq", "at", "by", "cards"}, exclude_none=True
            )
            if got == want:
                return k.spot
    raise SystemExit(f"no key records {want}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--session", default="2026-10-15-top-1")
    ap.add_argument("--deal", type=int, default=1)
    ap.add_argument("--shots", action="store_true", help="write the README's screenshots")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    seats, dealer, body = deal_events(args.session, args.deal)
    name = f"bench-{args.session}"
    tmp = Path(tempfile.mkdtemp(prefix="brag-bench-record-"))
    db = str(tmp / "brag.db")
    # the session starts as the start form would start it (the form itself is tested elsewhere)
    with open_store(db) as store:
        store.append(name, recorder.start_events(name, seats, "shown", dealer=dealer), 0)
    env = {"BRAG_DB": db, "BRAG_ANALYTICS": str(tmp / "a.duckdb"), "BRAG_ORGANISER_SECRET": SECRET}
    times: list[float] = []
    taps: Counter[str] = Counter()
    events: Counter[str] = Counter()
    with dashboard(tmp, env, port=8640) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
        try:
            page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
            page.goto(f"{url}/record?session={name}")
            page.get_by_label("Organiser secret").fill(SECRET)
            page.get_by_role("button", name="Unlock recording").click()
            page.locator("button[data-spot=table]").wait_for(timeout=30_000)
            page.evaluate(PROBE)
            note = ""
            last_tap = 0.0

            def tap(selector: str, kind: str, confirm: bool) -> None:
                nonlocal note, last_tap
                page.wait_for_timeout(max(0, 600 - 1000 * (time.monotonic() - last_tap)))
                page.locator(selector).click()
                last_tap = time.monotonic()
                taps[kind] += 1
                if confirm:
                    ms, note = page.wait_for_function(NOTE_JS, arg=note, polling="raf").json_value()
                    times.append(float(ms))

            for setup in ("shuffled", "dealt"):  # the deal's shuffle and deal, as at the table
                tap("button[data-spot=table]", setup, True)
                events[setup] += 1
            with open_store(db) as store:
                state = Replay.of(store.events(name), recorded=True).final
            for n, e in enumerate(body):
                if isinstance(e, Shown):
                    for c in e.cards:
                        tap(f"[data-card='{c}']", "card", False)
                    tap("button[data-spot=show]", "shown", True)
                else:
                    tap(f"button[data-spot='{spot_for(state, e)}']", e.type, True)
                events[e.type] += 1
                with open_store(db) as store:
                    state = Replay.of(store.events(name), recorded=True).final
                if args.shots and n == len(body) // 2:
                    page.screenshot(path=str(DOCS / "record-phone.png"))
            scrolls = int(page.evaluate("window.__scrolls"))
            if args.shots:
                for shot, size in (
                    ("record-tablet-portrait.png", {"width": 768, "height": 1024}),
                    ("record-tablet-landscape.png", {"width": 1024, "height": 768}),
                ):
                    tab = browser.new_context(viewport=size).new_page()
                    tab.goto(f"{url}/record?session={name}")
                    tab.get_by_label("Organiser secret").fill(SECRET)
                    tab.get_by_role("button", name="Unlock recording").click()
                    tab.locator("button[data-spot=undo]").wait_for(timeout=30_000)
                    tab.wait_for_timeout(800)
                    tab.screenshot(path=str(DOCS / shot))
        finally:
            browser.close()
    with open_store(db) as store:
        stored = [e.type for e in store.events(name) if not is_derived(e)]
    assert stored[2:] == ["shuffled", "dealt", *(e.type for e in body)], stored

    med = statistics.median(times)
    p95 = sorted(times)[max(0, int(len(times) * 0.95 + 0.5) - 1)]
    bets = events["bet"]
    print(f"session {args.session}, deal {args.deal}: {sum(events.values())} events recorded")
    print("taps: " + ", ".join(f"{k} {v}" for k, v in sorted(taps.items())))
    print(f"taps per bet: {taps['bet'] / bets if bets else 0:.1f} (target 1)")
    print(f"scrolls after the session opened: {scrolls} (target 0)")
    print(
        f"tap to confirmation: median {med:.0f} ms, p95 {p95:.0f} ms, max {max(times):.0f} ms "
        f"over {len(times)} taps; median / target {med / TARGET_MS:.2f} "
        f"({'met' if med < TARGET_MS else 'NOT met'}: under {TARGET_MS:.0f} ms)"
    )
    return 0 if med < TARGET_MS and scrolls == 0 and taps["bet"] == bets else 1


if __name__ == "__main__":
    sys.exit(main())
