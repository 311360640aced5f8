"""Issue 21, item 1 in a real browser (Debian's Chromium, headless, Playwright) at a phone's
390 px: in the replayer's compact grid of seats (``present.table_svg.render(view, compact=True)``,
the frames' ``compact``), a seat's name, however long, never reaches its "paid N", with 2 to 10
seats. Skips, saying why, where Chromium or Playwright is missing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import CHROMIUM_ARGS, chromium

from engine.fold import complete
from events.codec import read_file
from present import table_svg
from present.replay import Replay, table_view

pytestmark = pytest.mark.browser

NAMES = ["**Tony** <b>x</b> red", "Maximilian Wolfgang", "WWWWWWWWWWWWWWWW", "Bo", "Margaret"]

MEASURE = """() => [...document.querySelectorAll('g[data-seat]')].map(g => {
  const [name, paid] = g.querySelectorAll(':scope > text');
  const a = name.getBoundingClientRect(), b = paid.getBoundingClientRect();
  return [g.getAttribute('data-seat'), name.textContent, a.right, b.left, paid.textContent];
})"""


def _compact(tmp: Path, seats: list[str]) -> str:
    """The compact picture after the ante of one deal among ``seats`` (each has paid 1)."""
    log = tmp / f"seats-{len(seats)}.jsonl"
    lines = [
        {"type": "session_started", "session": "long-names", "seats": seats, "cards": "shown"},
        {"type": "dealer_chosen", "player": seats[-1]},
        {"type": "shuffled"},
        {"type": "dealt"},
    ]
    log.write_text("".join(json.dumps(x) + "\n" for x in lines))
    rp = Replay.of([s.event for s in complete(read_file(str(log)))])
    return table_svg.render(table_view(rp.final, None), compact=True)


def test_a_long_name_never_reaches_paid_on_a_phone(tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
        try:
            page: Any = browser.new_page(viewport={"width": 390, "height": 844})
            for n in range(2, 11):
                seats = [f"{NAMES[k % len(NAMES)]} {k}" for k in range(n)]
                page.set_content(
                    '<body style="margin:0;width:390px">' + _compact(tmp_path, seats) + "</body>"
                )
                drawn = page.evaluate(MEASURE)
                assert [d[0] for d in drawn] == seats
                for seat, name, right, left, paid in drawn:
                    assert paid == "paid 1", (n, seat, paid)
                    assert right <= left - 2, (n, seat, name, right, left)
                    assert name == seat or name.endswith("…"), (n, seat, name)
                    assert name.rstrip("…") == seat[: len(name.rstrip("…"))]
        finally:
            browser.close()
