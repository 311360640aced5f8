"""The pad's card picker at a ``cards: "shown"`` table, in Debian's Chromium on a phone (issue 32,
item 4; rank then suit since issue 35, item 1): the cards the tracked pack cannot put in the
showing player's hand (RULES 3.3) are greyed, their title the engine's reason, every other card
of the 52 offered.

It skips, saying why, where Chromium or Playwright is missing.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import PAD, chromium, dashboard, unlock
from test_pad_trust import SECRET, open_pad, pad_eval, touch_page

from log.open import open_store

pytestmark = pytest.mark.browser

SESSION = "pack-check"


def _log() -> list[dict[str, Any]]:
    """A, B, C, D (D deals first): B shows Qs 7h 2d at deal 1's showdown; deal 2 ends with no
    showdown; in deal 3 D sees C, who is to show."""
    looks = [{"type": "looked", "player": p} for p in "ABCD"]

    def bet(p: str) -> dict[str, Any]:
        return {"type": "bet", "player": p, "level": 1}

    def fold(p: str) -> dict[str, Any]:
        return {"type": "folded", "player": p}

    return [
        {"type": "session_started", "session": SESSION, "seats": list("ABCD"), "cards": "shown"},
        {"type": "dealer_chosen", "player": "D"},
        {"type": "shuffled"},
        {"type": "dealt"},
        *looks,
        *[bet("A"), bet("B"), fold("C"), fold("D"), {"type": "saw", "player": "A"}],
        {"type": "shown", "player": "B", "cards": ["Qs", "7h", "2d"]},
        {"type": "conceded", "player": "A"},
        {"type": "dealt"},
        *looks,
        *[bet("B"), fold("C"), fold("D"), fold("A")],
        {"type": "dealt"},
        *looks,
        *[bet("C"), bet("D"), fold("A"), fold("B"), bet("C"), {"type": "saw", "player": "D"}],
    ]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    chromium()
    tmp = tmp_path_factory.mktemp("pack")
    db = str(tmp / "brag.db")
    log = tmp / "log.jsonl"
    log.write_text("".join(json.dumps(e) + "\n" for e in _log()))
    with open_store(db) as store:
        store.import_log(str(log))
    env = {"BRAG_DB": db, "BRAG_ANALYTICS": str(tmp / "brag.duckdb")}
    env["BRAG_ORGANISER_SECRET"] = SECRET
    with dashboard(tmp, env) as url:
        yield url


def test_the_picker_greys_out_what_the_pack_rules_out(served: str, tmp_path: Path) -> None:
    with touch_page() as (_, page):
        unlock(page, served, SECRET)
        open_pad(page, served, SESSION)
        page.wait_for_function(
            f"() => {{ const p = ({PAD})(); return p && "
            "p.querySelectorAll('.cards button').length === 18; }",
            timeout=30_000,
        )
        cards = []
        for rank in "AKQJT98765432":  # each rank's four suits as the picker offers them
            page.locator(f".pad [data-rank='{rank}']").tap()
            cards += pad_eval(
                page,
                "(pad) => [...pad.querySelectorAll('.cards [data-suit]')].map(b => "
                "[b.textContent, b.getAttribute('aria-disabled') === 'true', b.title])",
            )
            page.locator(".pad [data-pick=back]").tap()  # the rank let go
        page.screenshot(path=str(tmp_path / "picker.png"), full_page=True)
    assert len(cards) == 52 and len({face for face, _, _ in cards}) == 52
    grey = {face: title for face, off, title in cards if off}
    assert set(grey) == {"Q♠", "7♥", "2♦"}
    assert grey["Q♠"].startswith("RULES 3.3: Q♠ went under the pack at deal 1's showdown")
    assert all(not title.startswith("RULES") for _, off, title in cards if not off)
