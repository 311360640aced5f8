"""Issue 21.4 in a real browser (Debian's Chromium, headless, Playwright): the My sessions page and
a player's own remembered cards. A real-table session (only the shown cards recorded, simulated
heads-up, seed ``mine``: Sue and Dave; in deal 2 Sue looks at step 5, folds at step 6, and nobody
shows; in deal 3 Sue shows 9♣ 8♠ A♠ and Dave concedes) with Sue's note of her deal-2 cards
(K♠ K♥ 2♣) kept beside it.

- On a phone (390x844, touch) Sue picks her name once; a tap on her session and on a deal opens
  the replay viewed as her; at step 5 her cards are face up, marked "from your note", and not
  before she looked.
- On a desktop browser that is Dave's, no page (Dave's view, Sue's view, everyone's) receives
  Sue's cards over the websocket or holds them in its HTML.
- On a phone Dave enters the cards he remembers for deal 3 with three taps; a card Sue showed is
  refused in one line, nothing stored.

Skips, saying why, where Chromium or Playwright is missing."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import CARD, Wire, chromium, dashboard, launched, live, pick_option, wait_drawn

from events.codec import write_events
from log.annotations import private_cards, set_private_cards
from log.open import open_store
from present.narrate import pretty_card
from present.replay import Replay
from sim import simulate_session

SESSION = "sim-mine"


def _recorded(store: Any) -> Replay:
    """The session as recorded, as ``brag notes`` and the notes' route read it (issue 32)."""
    return Replay.of(store.events(SESSION), recorded=True)


SUE = ("Ks", "Kh", "2c")
PHONE = {"width": 390, "height": 844}

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    chromium()
    tmp = tmp_path_factory.mktemp("mine")
    log = tmp / "mine.jsonl"
    with open(log, "w", encoding="utf-8") as fp:
        write_events(simulate_session(seed="mine", players=2, cards="shown"), fp)
    db = str(tmp / "brag.db")
    with open_store(db) as store:
        store.import_log(str(log))
        set_private_cards(store, _recorded(store), 2, "Sue", SUE)
    env = {"BRAG_DB": db, "BRAG_ANALYTICS": str(tmp / "brag.duckdb")}
    with dashboard(tmp, env) as url:
        yield url, db


@pytest.fixture(scope="module")
def browser(served: tuple[str, str]) -> Iterator[Any]:
    with launched() as b:
        yield b


def _sue_cards_in(text: str) -> set[str]:
    """Sue's noted cards found in ``text``: face up in a picture, or printed (``K♠``)."""
    return {c for c in SUE if c in CARD.findall(text) or pretty_card(c) in text}


def _pick_name(page: Any, name: str) -> None:
    pick_option(page, "You are", name)
    # remembered in this browser's cookie (dashboard.common.prefs), as a person's next visit finds
    # it
    for _ in range(200):
        if any(c["name"] == "brag_pref_me" for c in page.context.cookies()):
            return
        page.wait_for_timeout(50)
    raise AssertionError("the name was not remembered in a cookie")


def _step(page: Any) -> str:
    return str(page.locator(".rp").get_attribute("data-index"))


def test_my_sessions_on_a_phone_opens_the_replay_as_me_with_my_noted_cards(
    served: tuple[str, str], browser: Any
) -> None:
    from playwright.sync_api import expect

    url, _ = served
    ctx = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    try:
        page = ctx.new_page()
        page.goto(f"{url}/mine")
        _pick_name(page, "Sue")
        row = page.get_by_role("link", name=re.compile(f"▶ {SESSION}"))
        expect(row).to_be_visible(timeout=20_000)
        box = row.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        assert box["height"] >= 44  # a thumb's target
        page.screenshot(path=str(Path(served[1]).parent / "mine-phone.png"), full_page=True)
        row.tap()
        page.wait_for_url(re.compile(r"/replay\?"), timeout=20_000)
        assert f"session={SESSION}" in page.url and "view=Sue" in page.url
        wait_drawn(page)
        # back on My sessions the name is remembered; "Your deals", then a tap on deal 2
        page.goto(f"{url}/mine")
        you_are = live(page).get_by_role("combobox", name="You are")
        expect(you_are).to_have_value("Sue", timeout=20_000)
        page.get_by_role("link", name="Your deals").tap()
        page.wait_for_url(re.compile(r"/mine\?session="), timeout=20_000)
        deal = page.get_by_role("link", name=re.compile(r"▶ Deal 2\b"))
        expect(deal).to_contain_text("K♠ K♥ 2♣ (from your note)")
        deal.tap()
        page.wait_for_url(re.compile(r"deal=2"), timeout=20_000)
        assert "view=Sue" in page.url and "step=1" in page.url
        wait_drawn(page)
        table = page.locator(".rp .rp-table")
        for step in range(1, 6):  # Sue looks at step 5 (RULES 5.1): her cards from then on
            shown = set(CARD.findall(table.inner_html()))
            assert shown == (set(SUE) if step == 5 else set()), (step, shown)
            if step < 5:
                page.locator(".rp button[aria-label=Next]").tap()
                expect(page.locator(".rp")).to_have_attribute("data-index", str(step))
        expect(page.locator(".rp")).to_contain_text("from your note")
        expect(page.get_by_text("are from your note").first).to_be_visible()
        page.screenshot(path=str(Path(served[1]).parent / "mine-replay-phone.png"))
    finally:
        ctx.close()


def test_another_players_browser_never_receives_the_noted_cards(
    served: tuple[str, str], browser: Any
) -> None:
    from playwright.sync_api import expect

    url, _ = served
    ctx = browser.new_context(viewport={"width": 1400, "height": 900})
    try:
        page = ctx.new_page()
        wire = Wire(page)
        page.goto(f"{url}/mine")
        _pick_name(page, "Dave")  # this browser is Dave's
        for view in ("&view=Dave", "&view=Sue", ""):
            page.goto(f"{url}/replay?session={SESSION}&deal=2&step=5{view}")
            wait_drawn(page)
            assert _sue_cards_in(page.content()) == set(), view
            assert "(from your note)" not in page.content(), view
        page.goto(f"{url}/mine?session={SESSION}")
        expect(page.get_by_role("link", name=re.compile(r"▶ Deal 2\b"))).to_be_visible()
        assert _sue_cards_in(page.content()) == set()
        assert len(wire.frames) > 10 and wire.cards(set(SUE)) == set()
        assert "(from your note)" not in wire.text() and "are from your note" not in wire.text()
        # issue 21.4: Dave's browser is told where to enter his own cards, never Sue's
        assert "Dave's own cards, as remembered: My sessions, Your cards." in wire.text()
        assert "Sue's own cards, as remembered" not in wire.text()
    finally:
        ctx.close()


def test_a_player_enters_the_cards_they_remember_with_three_taps(
    served: tuple[str, str], browser: Any
) -> None:
    from playwright.sync_api import expect

    url, db = served
    ctx = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    try:
        page = ctx.new_page()
        page.goto(f"{url}/mine?session={SESSION}&deal=3")
        _pick_name(page, "Dave")
        expect(live(page).get_by_role("combobox", name="Your cards in")).to_have_value("Deal 3")

        def tap(suit: str, card: str) -> None:  # a card's button by its name: "ace of spades"
            row = page.get_by_role("toolbar", name=suit)
            row.get_by_role("button", name=card, exact=True).tap()

        for suit, card in (("♠ Spades", "ace of spades"), ("♥ Hearts", "queen of hearts"),
                           ("♣ Clubs", "five of clubs")):  # fmt: skip
            tap(suit, card)
        page.get_by_role("button", name="Keep my cards").tap()
        expect(page.get_by_text("was shown by Sue")).to_be_visible(timeout=20_000)
        expect(page.get_by_text("A♠ was shown by Sue")).to_be_visible()  # its face, not "As"
        with open_store(db) as store:
            assert private_cards(store, _recorded(store), "Dave") == {}
        tap("♠ Spades", "ace of spades")  # not the ace Sue showed: the queen of spades instead
        tap("♠ Spades", "queen of spades")
        page.get_by_role("button", name="Keep my cards").tap()
        expect(page.get_by_text("Kept as your note for deal 3")).to_be_visible(timeout=20_000)
        with open_store(db) as store:
            got = {d: p.cards for d, p in private_cards(store, _recorded(store), "Dave").items()}
        assert got == {3: ("Qs", "Qh", "5c")}
    finally:
        ctx.close()


def test_the_card_buttons_are_announced_with_their_suit(
    served: tuple[str, str], browser: Any
) -> None:
    """Issue 35 (item 6e): each card button of the pickers is named in Chromium's accessibility
    tree as a card ("ace of hearts"), not by its rank alone ("A"), on a phone and a desktop."""
    from playwright.sync_api import expect

    url, _ = served
    words = re.compile(
        r"^(ace|king|queen|jack|ten|nine|eight|seven|six|five|four|three|two) of "
        r"(spades|hearts|diamonds|clubs)$"
    )
    for size, touch in ((PHONE, True), ({"width": 1400, "height": 900}, False)):
        ctx = browser.new_context(viewport=size, has_touch=touch, is_mobile=touch)
        try:
            page = ctx.new_page()
            page.goto(f"{url}/mine?session={SESSION}&deal=3")
            _pick_name(page, "Dave")
            hearts = page.get_by_role("toolbar", name="♥ Hearts")
            expect(hearts.get_by_role("button", name="ace of hearts", exact=True)).to_be_visible()
            expect(page.get_by_role("button", name="ten of clubs", exact=True)).to_be_visible()
            assert hearts.get_by_role("button", name="A", exact=True).count() == 0
            assert page.get_by_role("button", name=words).count() == 52
        finally:
            ctx.close()
