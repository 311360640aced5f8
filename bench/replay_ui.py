"""Stepping the Replay page in a real browser: in the browser now, against a server round trip.

    .venv/bin/python bench/replay_ui.py [--steps 30] [--port 8650]

Serves the dashboard over a store holding the bundled season session ``2026-09-24-top-1`` and opens
its 41-step deal 5 in Debian's Chromium (headless, Playwright). Timed in the page, from the key
press or click (the event's own time stamp) to the frame drawn after the step is shown:

- **in the browser**: the Replay page's replayer, ``--steps`` steps, arrow key and Next in turn;
- **server round trip**, in the same run and the same browser: a page stepping the way the Replay
  page did before (a Streamlit button whose callback moves ``?step=``, and a rerun that redraws
  the table's SVG, the step's sentence and the pot, level and turn as metrics), ``--steps`` clicks.

Prints the median and the 95th percentile of each and their ratio. Target: p95 under 50 ms in the
browser. Exits 0 whatever the figures.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import textwrap
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from browser_helpers import (  # noqa: E402
    CHROMIUM_ARGS,
    PROBE,
    chromium,
    dashboard,
    percentile,
)

from log.open import open_store  # noqa: E402

SESSION = "2026-09-24-top-1"
DEAL = 5
TARGET_MS = 50.0

ROUND_TRIP_PAGE = textwrap.dedent(
    '''
    """Stepping with a server round trip per step, as the Replay page did before."""
    import sys

    sys.path.insert(0, {root!r})
    import streamlit as st

    from dashboard.common import cache
    from present import table_svg

    rp = cache.replay({session!r})
    pos = rp.position(st.query_params.get("deal", "{deal}"), st.query_params.get("step", "1"))


    def step() -> None:
        st.query_params["deal"] = str(pos.deal)
        st.query_params["step"] = str(rp.move(pos, "next").step)


    view = rp.view(pos)
    st.markdown(
        f'<div data-old-step="{{pos.step}}">Step {{pos.step}} of {{pos.steps}} · '
        f"{{view.sentence}}</div>" + table_svg.render(view),
        unsafe_allow_html=True,
    )
    a, b, c = st.columns(3)
    a.metric("Pot", view.pot_text)
    b.metric("Level", view.level_text)
    c.metric("To act", view.turn or "nobody")
    st.button("Next", on_click=step, key="next")
    '''
)

OLD_PROBE = """
() => {
  // From each mouse press on Next to the frame drawn once the page shows the next step.
  window.__stepTimes = [];
  window.addEventListener('mousedown', (ev) => {
    const began = ev.timeStamp;
    const now = Number(document.querySelector('[data-old-step]').dataset.oldStep);
    const wait = () => {
      const el = document.querySelector('[data-old-step]');
      if (el && Number(el.dataset.oldStep) === now + 1) {
        setTimeout(() => window.__stepTimes.push(performance.now() - began), 0);
      } else {
        requestAnimationFrame(wait);
      }
    };
    requestAnimationFrame(wait);
  }, true);
}
"""


def _browser_steps(page: Any, steps: int) -> list[float]:
    page.evaluate(PROBE)
    page.mouse.click(5, 5)
    nxt = page.locator(".rp-controls button[aria-label=Next]")
    for k in range(steps):
        if k % 2:
            nxt.click()
        else:
            page.keyboard.press("ArrowRight")
    page.wait_for_function(f"window.__stepTimes.length >= {steps}", timeout=30_000)
    return list(page.evaluate("window.__stepTimes"))


def _round_trip_steps(page: Any, steps: int) -> list[float]:
    page.evaluate(OLD_PROBE)
    for k in range(steps):
        page.get_by_role("button", name="Next").click()
        page.wait_for_function(f"window.__stepTimes.length >= {k + 1}", timeout=30_000)
    return list(page.evaluate("window.__stepTimes"))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--port", type=int, default=8650, help="first port to try for the server")
    args = ap.parse_args()
    try:
        chromium_path = chromium()
    except BaseException as skip:  # pytest's Skipped: no Chromium or no Playwright here
        print(f"skipped: {skip}")
        return 0
    from playwright.sync_api import sync_playwright

    from engine.fold import complete
    from events.codec import read_file
    from present.replay import Replay

    log = ROOT / "data" / "season" / f"{SESSION}.jsonl"
    with tempfile.TemporaryDirectory(prefix="brag-ui-") as tmp_name:
        tmp = Path(tmp_name)
        db = str(tmp / "brag.db")
        with open_store(db) as store:
            store.import_log(str(log))
        events = [s.event for s in complete(read_file(str(log)))]
        steps = min(args.steps, Replay.of(events).slice(DEAL).steps - 1)
        env = {"BRAG_DB": db, "BRAG_ANALYTICS": str(tmp / "brag.duckdb")}
        with dashboard(tmp, env, args.port) as url, sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.goto(f"{url}/replay?session={SESSION}&deal={DEAL}&step=1")
            page.wait_for_selector(".rp[data-ready]", timeout=60_000)
            fast = _browser_steps(page, steps)
            browser.close()
        # the round-trip page is served on its own (it is not one of the dashboard's pages)
        page_file = tmp / "round_trip.py"
        page_file.write_text(ROUND_TRIP_PAGE.format(root=str(ROOT), session=SESSION, deal=DEAL))
        with dashboard(tmp, env, args.port, script=page_file) as url, sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.goto(f"{url}/?deal={DEAL}&step=1")
            page.wait_for_selector("[data-old-step]", timeout=60_000)
            page.wait_for_timeout(500)
            slow = _round_trip_steps(page, steps)
            browser.close()
    f_med, f_p95 = statistics.median(fast), percentile(fast, 0.95)
    s_med, s_p95 = statistics.median(slow), percentile(slow, 0.95)
    print(f"session {SESSION}, deal {DEAL}: {steps} steps each, timed in Chromium")
    print(
        f"in the browser (Replay page): median {f_med:.1f} ms, p95 {f_p95:.1f} ms   "
        f"(target p95 < {TARGET_MS:.0f} ms: {'met' if f_p95 < TARGET_MS else 'NOT met'})"
    )
    print(f"server round trip per step (as before): median {s_med:.1f} ms, p95 {s_p95:.1f} ms")
    print(f"ratio (round trip / browser): median {s_med / f_med:.1f}x, p95 {s_p95 / f_p95:.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
