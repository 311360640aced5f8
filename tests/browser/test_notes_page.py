"""Issue 21, item 2 in a real browser (Debian's Chromium, headless, Playwright), on a phone
(390x844, touch) and a desktop: the notes on a step of the Replay page.

- A note on step 5 is nowhere in the page (its HTML, nor any websocket frame or answer the page
  received) while the replayer shows step 4, and is shown once step 5 is.
- A note added on the phone is stored beside the session: ``brag export`` is byte for byte the same.
- A hostile note (Markdown, HTML, control and bidi characters) is shown as text.
- A hidden note is shown to nobody; the organiser's unlocked device hides one with a tap.

Skips, saying why, where Chromium or Playwright is missing."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from browser_helpers import CHROMIUM_ARGS, chromium, served_store, unlock
from shared_paths import HAVE_SHARED, NO_SHARED, SCENARIOS

from log.annotations import add_note, hide_note, notes
from log.open import open_store
from present.replay import Replay

SESSION = "card-example"


def _recorded(store: Any) -> Replay:
    """The session as recorded, as ``brag notes`` and the notes' route read it (issue 32)."""
    return Replay.of(store.events(SESSION), recorded=True)


SECRET = "lantern oyster velvet"
FIFTH = "Step five: B should have folded here"
HOSTILE = (
    "**bold** [link](http://evil.example) <img src=x onerror=alert(1)> <b>tag</b> "
    "\x1b[31mred \u202eevil"
)
pytestmark = pytest.mark.browser

COVERED = """() => {
  const el = document.querySelector('.nt-chip');
  if (el.hidden || getComputedStyle(el).visibility === 'hidden') return [];
  const chip = el.getBoundingClientRect();
  const sel = 'button, a[href], input, select, textarea, summary, [role="button"], [role="slider"]';
  return [...document.querySelectorAll(sel)].filter(c => !c.classList.contains('nt-chip'))
    .map(c => [c.textContent.trim() || c.getAttribute('aria-label') || c.tagName,
               c.getBoundingClientRect()])
    .filter(([, r]) => r.width && r.height && r.left < chip.right && chip.left < r.right
                       && r.top < chip.bottom && chip.top < r.bottom)
    .map(([name]) => name);
}"""


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    if not HAVE_SHARED:
        pytest.skip(NO_SHARED)
    chromium()
    tmp = tmp_path_factory.mktemp("notes")

    def fill(store: Any) -> None:
        store.import_log(SCENARIOS / "card_example.jsonl")
        add_note(store, _recorded(store), 1, 5, FIFTH, "Ann")

    with served_store(tmp, SECRET, fill) as served:
        yield served


@pytest.fixture(scope="module")
def browser(served: tuple[str, str]) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


class Received:
    """Everything the page received: websocket frames and HTTP answers, as text."""

    def __init__(self, page: Any) -> None:
        self.texts: list[str] = []
        page.on("websocket", lambda ws: ws.on("framereceived", self._frame))
        page.on("response", self._response)

    def _frame(self, payload: str | bytes) -> None:
        raw = payload if isinstance(payload, bytes) else payload.encode("utf-8")
        self.texts.append(raw.decode("utf-8", errors="replace"))

    def _response(self, r: Any) -> None:
        with contextlib.suppress(Exception):  # a redirect or a body gone: nothing to read
            self.texts.append(r.text())

    def holds(self, text: str) -> bool:
        return any(text in t for t in self.texts)


def _page(browser: Any, url: str, *, phone: bool, context: Any = None) -> Any:
    ctx = context or browser.new_context(
        viewport={"width": 390, "height": 844} if phone else {"width": 1400, "height": 900},
        is_mobile=phone,
        has_touch=phone,
    )
    page = ctx.new_page()
    page.received = Received(page)
    page.goto(url)
    page.wait_for_selector(".rp[data-ready]", timeout=30_000)
    return page


def _loaded(page: Any, step: int) -> None:
    page.wait_for_selector(f".nt[data-loaded='{step}']", timeout=15_000)


def _next(page: Any, *, phone: bool) -> None:
    button = page.locator(".rp-controls button[aria-label=Next]")
    if phone:
        button.tap()
    else:
        page.keyboard.press("ArrowRight")


@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
def test_a_note_is_not_in_the_page_before_its_step(
    served: tuple[str, str], browser: Any, phone: bool
) -> None:
    url, _ = served
    page = _page(browser, f"{url}/replay?session={SESSION}&deal=1&step=4", phone=phone)
    _loaded(page, 4)
    page.wait_for_timeout(500)  # anything the page might still receive
    assert FIFTH not in page.content()
    assert not page.received.holds(FIFTH)
    assert page.locator(".nt").inner_text().count("No note on this step yet.") == 1
    assert page.locator(".nt-chip").is_hidden()
    _next(page, phone=phone)
    _loaded(page, 5)
    note = page.locator(".nt-note").first
    assert note.locator(".nt-text").inner_text() == FIFTH
    assert note.locator(".nt-by").inner_text() == "Ann"
    assert note.is_visible()
    assert page.received.holds(FIFTH)  # what the page received is read: the note came now
    if phone:  # the panel is below the table: a chip at the thumb says the step has a note
        chip = page.locator(".nt-chip")
        assert chip.is_visible() and chip.inner_text() == "✎ 1 note on step 5 ↓"
        # issue 21: the chip covers no control, whatever the height the browser leaves the page
        # (its bars shown or not), the step's buttons and "Download picture" landing under it
        shown = 0
        for height in range(640, 845, 12):
            page.set_viewport_size({"width": 390, "height": height})
            page.wait_for_timeout(150)
            assert page.evaluate(COVERED) == [], f"the chip covers a control at 390x{height}"
            shown += chip.is_visible()
        assert shown >= 10, shown  # placed clear of the controls, not merely hidden
        page.set_viewport_size({"width": 390, "height": 844})
        page.wait_for_timeout(150)
        chip.tap()
        page.wait_for_selector(".nt-chip", state="hidden", timeout=5_000)
        assert note.is_visible()
    _next(page, phone=phone)  # step 6: the note of step 5 is not shown there
    _loaded(page, 6)
    assert page.locator(".nt-note").count() == 0
    page.context.close()


def test_a_note_added_on_a_phone_is_kept_beside_the_log(
    served: tuple[str, str], browser: Any
) -> None:
    url, db = served
    with open_store(db, readonly=True) as store:
        export = list(store.export_lines(SESSION))
    page = _page(browser, f"{url}/replay?session={SESSION}&deal=1&step=9", phone=True)
    _loaded(page, 9)
    page.get_by_label("Note").fill("A should have raised")
    page.get_by_label("Your name").fill("Bo")
    page.get_by_role("button", name="Add note on step 9").tap()
    page.wait_for_selector(".nt-note", timeout=15_000)
    assert page.locator(".nt-note .nt-text").inner_text() == "A should have raised"
    assert page.locator(".nt-status").inner_text() == "Stored on step 9."
    with open_store(db, readonly=True) as store:
        assert list(store.export_lines(SESSION)) == export
        kept = [(n.deal, n.step, n.by, n.text) for n in notes(store, _recorded(store))]
    assert (1, 9, "Bo", "A should have raised") in kept
    # The name is remembered in this browser.
    again = _page(browser, f"{url}/replay?session={SESSION}&deal=1&step=9", phone=True,
                  context=page.context)  # fmt: skip
    _loaded(again, 9)
    assert again.get_by_label("Your name").input_value() == "Bo"
    page.context.close()


def test_a_hostile_note_stays_text(served: tuple[str, str], browser: Any) -> None:
    url, db = served
    with open_store(db) as store:
        add_note(store, _recorded(store), 1, 2, HOSTILE, "<i>Eve</i>")
    page = _page(browser, f"{url}/replay?session={SESSION}&deal=1&step=2", phone=True)
    _loaded(page, 2)
    panel = page.locator(".nt")
    shown = panel.locator(".nt-text").inner_text()
    assert shown == (
        "**bold** [link](http://evil.example) <img src=x onerror=alert(1)> <b>tag</b> "
        "\\x1b[31mred \\u202eevil"
    )
    assert panel.locator(".nt-by").inner_text() == "<i>Eve</i>"
    for tag in ("img", "a", "b", "i", "strong", "em"):
        assert panel.locator(tag).count() == 0
    assert "\u202e" not in page.content() and "\x1b" not in page.content()
    page.context.close()


def test_a_hidden_note_is_shown_to_nobody_and_the_organiser_hides_one(
    served: tuple[str, str], browser: Any
) -> None:
    url, db = served
    with open_store(db) as store:
        gone = add_note(store, _recorded(store), 1, 11, "rude words", "Cy")
        kept = add_note(store, _recorded(store), 1, 11, "a fair point", "Di")
        hide_note(store, gone.id, "organiser")
    visitor = _page(browser, f"{url}/replay?session={SESSION}&deal=1&step=11", phone=True)
    _loaded(visitor, 11)
    assert visitor.locator(".nt-note .nt-text").all_inner_texts() == ["a fair point"]
    assert visitor.get_by_role("button", name="Hide").count() == 0  # not the organiser
    assert "rude words" not in visitor.content() and not visitor.received.holds("rude words")
    answer = visitor.request.post(f"{url}/api/notes/hide", data={"session": SESSION, "id": kept.id})
    assert answer.status == 403
    visitor.context.close()

    organiser = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    unlock(organiser.new_page(), url, SECRET)
    page = _page(browser, f"{url}/replay?session={SESSION}&deal=1&step=11", phone=True,
                 context=organiser)  # fmt: skip
    _loaded(page, 11)
    page.get_by_role("button", name="Hide the note by Di").tap()
    deadline = time.monotonic() + 15
    while page.locator(".nt-note").count():
        assert time.monotonic() < deadline, "the note was not hidden"
        page.wait_for_timeout(100)
    with open_store(db, readonly=True) as store:
        every = {n.id: n.hidden for n in notes(store, _recorded(store), include_hidden=True)}
    assert every[gone.id] and every[kept.id]
    # The pad's body reader, shared with the notes' routes, still refuses what it cannot read.
    junk = organiser.request.post(
        f"{url}/api/tap", data="{not json", headers={"Content-Type": "application/json"}
    )
    assert junk.status == 400
    assert junk.json()["message"] == "Not recorded: the tap could not be read."
    organiser.close()


def test_the_notes_routes_refuse_in_one_line(served: tuple[str, str], browser: Any) -> None:
    url, db = served
    ctx = browser.new_context()
    api = ctx.request
    body = {"session": SESSION, "deal": 1, "step": 3, "text": "x", "by": "Ann"}
    # Another site's page can post text/plain without asking first: refused, nothing stored.
    plain = api.post(
        f"{url}/api/notes", data=json.dumps(body), headers={"Content-Type": "text/plain"}
    )
    assert plain.status == 415  # a write takes JSON only (dashboard/access/guard.py)
    assert plain.json()["message"] == "Not taken: send the request as application/json."
    long = api.post(f"{url}/api/notes", data={**body, "text": "y" * 501})
    assert long.status == 400
    assert long.json()["message"] == "Not stored: the note is 501 characters; at most 500 are kept"
    nowhere = api.post(f"{url}/api/notes", data={**body, "step": 99})
    assert nowhere.status == 400 and "has no step 99" in nowhere.json()["message"]
    junk = api.get(f"{url}/api/notes?session={SESSION}&deal=one&step=1")
    assert junk.status == 400 and junk.json() == {"message": "Give session, deal and step."}
    got = api.get(f"{url}/api/notes?session={SESSION}&deal=1&step=3")
    assert got.status == 200 and got.json() == {"notes": [], "organiser": False}
    with open_store(db, readonly=True) as store:
        assert [n for n in notes(store, _recorded(store)) if n.step == 3] == []
    ctx.close()


@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
def test_the_name_box_starts_with_the_player_my_sessions_knows_and_notes_are_numbered(
    served: tuple[str, str], browser: Any, phone: bool
) -> None:
    """Issue 35 (item 6c, 6d): this browser is C on My sessions (the ``me`` preference's
    cookie): the note's name box starts with "C", not empty; a name once signed with here wins.
    The note on step 5, the session's first, is shown as #1."""
    url, _ = served
    ctx = browser.new_context(
        viewport={"width": 390, "height": 844} if phone else {"width": 1400, "height": 900},
        is_mobile=phone,
        has_touch=phone,
    )
    ctx.add_cookies([{"name": "brag_pref_me", "value": "C", "url": url}])
    try:
        page = _page(browser, f"{url}/replay?session={SESSION}&deal=1&step=5", phone=phone,
                     context=ctx)  # fmt: skip
        _loaded(page, 5)
        assert page.get_by_label("Your name").input_value() == "C"
        assert page.locator(".nt-note .nt-num").first.inner_text() == "#1"
        page.evaluate("() => window.localStorage.setItem('bragbook.noteBy', 'Cee')")
        page.reload()
        page.wait_for_selector(".rp[data-ready]", timeout=30_000)
        _loaded(page, 5)
        assert page.get_by_label("Your name").input_value() == "Cee"
    finally:
        ctx.close()
