"""Issue 24.1 in a real browser: what the server SENDS over the websocket while a deal is in play.
Debian's Chromium, headless, driven by Playwright, reads every websocket frame the Replay page
receives (protobuf bytes; the replayer's frames travel as JSON inside them, each card face up as
``data-card="Qh"`` in the pictures and printed ``Q♥`` in odds and sentences) for a simulated
all-cards session cut in the middle of deal 2. An unauthenticated visitor, asking for every card
or to view as a player, receives none of the cards nobody has shown, neither at first nor when
the live follow redraws the page after another device records an event; the organiser's
unlocked device receives them all. Skips, saying why, where Chromium or Playwright is missing."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from browser_helpers import (
    CARD,
    Wire,
    chromium,
    launched,
    served_store,
    unlock,
    wait_drawn,
)
from live_helpers import cut_in_deal, live_session, unshown, write_log

from engine.state import card_texts
from log.open import open_store
from present.replay import Replay
from sim import simulate_session

SECRET = "open sesame please"
SESSION = "sim-live"

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """The dashboard, with the organiser secret set, over a store holding the live session."""
    chromium()
    tmp = tmp_path_factory.mktemp("hidden")
    log = str(write_log(live_session(), tmp / "live.jsonl"))
    with served_store(tmp, SECRET, lambda store: store.import_log(log)) as served:
        yield served


@pytest.fixture(scope="module")
def browser(served: tuple[str, str]) -> Iterator[Any]:
    with launched() as b:
        yield b


def _unlock(page: Any, url: str) -> None:
    """Unlocks this device on the Record page, as the organiser does; its token is a cookie."""
    unlock(page, url, SECRET)


def test_a_visitor_receives_no_unshown_card_of_the_live_deal(
    served: tuple[str, str], browser: Any
) -> None:
    url, db = served
    full = simulate_session(seed="live", players=4, cards="all")
    hidden = unshown(Replay.of(live_session()))
    assert len(hidden) == 12
    ctx = browser.new_context(viewport={"width": 1400, "height": 900})
    try:
        page = ctx.new_page()
        wire = Wire(page)
        page.goto(f"{url}/replay?session={SESSION}&deal=2&step=2")
        wait_drawn(page)
        assert wire.replayer_frames() >= 1
        assert wire.cards(hidden) == set(), f"{len(wire.frames)} frames"
        assert page.get_by_text("Deal 2 is still in play").first.is_visible()
        page.goto(f"{url}/replay?session={SESSION}&deal=2&step=2&view=Phil")
        wait_drawn(page)
        assert page.get_by_text("viewing as Phil waits until the pack").first.is_visible()
        # another device records the next action: the live follow redraws the page
        before = wire.replayer_frames()
        with open_store(db) as store:
            store.append(SESSION, [cut_in_deal(full, 2, 7)[-1]], len(live_session()))
        deadline = time.monotonic() + 15
        while wire.replayer_frames() == before:
            assert time.monotonic() < deadline, "the live follow did not redraw"
            page.wait_for_timeout(200)
        page.wait_for_timeout(500)
        hidden = unshown(Replay.of(cut_in_deal(full, 2, 7)))
        # deal 1 is over, but dealt from the pack deal 2 is dealt from (RULES 3.2-3.3)
        rp = Replay.of(cut_in_deal(full, 2, 7))
        sl = rp.slice(1)
        folded = {
            c
            for p in rp.states[sl.start].players
            for c in p.hands[0].texts() or ()
            if not any(
                c in card_texts(s.players[s.seat(p.name)].shown)
                for s in rp.states[sl.start : sl.stop]
            )
        }
        assert len(folded) >= 3
        page.goto(f"{url}/replay?session={SESSION}&deal=1&step=2")
        wait_drawn(page)
        hidden |= folded
        received = len(wire.frames)
        drawn = wire.replayer_frames()
        assert received > 10 and drawn >= 4, (received, drawn)
        assert wire.cards(hidden) == set(), f"{drawn} of {received} frames"
        # nothing unshown in the page either (the same data, drawn)
        assert not set(CARD.findall(page.content())) & hidden
        print(f"visitor: {received} websocket frames read, {drawn} with a deal's frames, no leak")
    finally:
        ctx.close()


def test_the_organisers_unlocked_device_receives_the_cards(
    served: tuple[str, str], browser: Any
) -> None:
    url, _ = served
    ctx = browser.new_context(viewport={"width": 1400, "height": 900})
    try:
        page = ctx.new_page()
        _unlock(page, url)
        wire = Wire(page)
        page.goto(f"{url}/replay?session={SESSION}&deal=2&step=2")
        wait_drawn(page)
        with open_store(served[1]) as store:
            rp = Replay.of(list(store.events(SESSION)))
        hidden = unshown(rp)
        assert rp.final.deals == 2 and len(hidden) == 12
        assert wire.cards(hidden) == hidden, f"{len(wire.frames)} frames"
        print(f"organiser: {len(wire.frames)} websocket frames read, all {len(hidden)} cards seen")
    finally:
        ctx.close()
