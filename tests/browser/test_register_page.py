"""The club's register in Chromium (issue 35 item 2), at 390×844 and 1400×900: on the Record
page's start form "Jaen" (Jean in the store) and "Top" (Top table) each ask before anything is
stored, and the known names picked are recorded; on the Players page the organiser merges Jaen
into Jean and the statistics follow, "also recorded as" says it, and the undo moves them back.
Screenshots under ``/work/shots/register`` when that folder exists (looked at by a person)."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import (
    CHROMIUM_ARGS,
    chromium,
    live,
    pick_option,
    served_store,
    unlock,
    wait_idle,
)

from log.open import open_store

pytestmark = pytest.mark.browser

SECRET = "open sesame please"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1400, "height": 900}
ROOT = Path(__file__).resolve().parents[2]
SHOTS = Path(os.environ.get("BRAG_SHOTS", "/work/shots/register"))


def _as(folder: Path, session: str, a: str) -> str:
    out = []
    for line in (ROOT / "data" / "examples" / "card_example.jsonl").read_text("utf-8").splitlines():
        raw = json.loads(line)
        raw.pop("id", None)
        if raw["type"] == "session_started":
            raw.update(session=session, table="Top table")
            raw["seats"] = [a if s == "A" else s for s in raw["seats"]]
        if raw.get("player") == "A":
            raw["player"] = a
        out.append(json.dumps(raw))
    path = folder / f"{session}.jsonl"
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return str(path)


def _served(folder: Path, *players: str) -> Iterator[tuple[str, str]]:
    """The dashboard over a store of one session at Top table for each of ``players`` (seated
    with B, C and D)."""
    chromium()
    logs = [_as(folder, f"s{n}", a) for n, a in enumerate(players, 1)]

    def fill(store: Any) -> None:
        for log in logs:
            store.import_log(log)

    with served_store(folder, SECRET, fill) as served:
        yield served


@pytest.fixture
def jean(tmp_path: Path) -> Iterator[tuple[str, str]]:
    """A store where Jean played (no Jaen)."""
    yield from _served(tmp_path, "Jean")


@pytest.fixture
def club(tmp_path: Path) -> Iterator[tuple[str, str]]:
    """A store of Jean's session and Jaen's: one player recorded under two names."""
    yield from _served(tmp_path, "Jean", "Jaen")


def _shot(page: Any, name: str) -> None:
    if SHOTS.is_dir():
        page.screenshot(path=str(SHOTS / name), full_page=False)


def _type_in(page: Any, combobox: str, text: str) -> None:
    box = live(page).get_by_role("combobox", name=combobox)
    box.fill(text)
    page.keyboard.press("Enter")


def test_jaen_and_top_ask_before_anything_is_stored(jean: tuple[str, str]) -> None:
    from playwright.sync_api import expect, sync_playwright

    url, db = jean
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
        page = browser.new_context(viewport=PHONE).new_page()
        unlock(page, url, SECRET)
        page.get_by_label("Session name").fill("friday")
        _type_in(page, "Table", "Top")
        players = "Players, in their seats clockwise from the first picked"
        for name in ("Jaen", "B", "C"):
            _type_in(page, players, name)
            expect(page.get_by_text(name, exact=True).first).to_be_visible()
        page.mouse.click(3, 420)  # closes the names' list
        ask_jean = page.get_by_text("Jaen is not a player yet: did you mean Jean?")
        ask_top = page.get_by_text("Top is not a table yet: did you mean Top table?")
        expect(ask_jean).to_be_visible(timeout=20_000)
        expect(ask_top).to_be_visible()
        ask_jean.scroll_into_view_if_needed()
        _shot(page, "start-asks-390x844.png")
        page.set_viewport_size(DESKTOP)
        ask_jean.scroll_into_view_if_needed()
        _shot(page, "start-asks-1400x900.png")
        page.set_viewport_size(PHONE)
        wait_idle(page)  # as a person looks before the tap (CI: once no answer within 5 s)
        page.get_by_role("button", name="Start the session").click()
        refused = page.locator("[data-testid=stAlert]").filter(has_text="did you mean Jean?")
        expect(refused).to_be_visible(timeout=30_000)
        # said over the button the thumb tapped, and the questions above, where the names were
        # typed (the walk found the line at the page's top, off the phone's screen)
        start = page.get_by_role("button", name="Start the session").bounding_box()
        said, asked = refused.bounding_box(), ask_jean.first.bounding_box()
        assert start and said and asked and asked["y"] < said["y"] < start["y"]
        assert start["y"] - (said["y"] + said["height"]) < 80
        with open_store(db) as store:
            assert [i.session for i in store.sessions()] == ["s1"]  # asked: nothing stored
        page.get_by_role("button", name="Jean", exact=True).click()
        expect(ask_jean).to_have_count(0)
        page.get_by_role("button", name="Top table", exact=True).click()
        expect(ask_top).to_have_count(0)
        pick_option(page, "First dealer (RULES 3.1)", "C")
        page.get_by_role("button", name="Start the session").click()
        expect(page.locator("button[data-spot=shuffle]")).to_be_enabled(timeout=20_000)
        with open_store(db) as store:
            first = store.events("friday")[0]
        assert (first.seats, first.table) == (("Jean", "B", "C"), "Top table")  # type: ignore[union-attr]
        browser.close()


def test_the_organiser_merges_on_the_players_page(club: tuple[str, str]) -> None:
    from playwright.sync_api import expect, sync_playwright

    url, _ = club
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
        context = browser.new_context(viewport=DESKTOP)
        page = context.new_page()
        unlock(page, url, SECRET)
        page.goto(f"{url}/players")
        table = page.locator("[data-testid=stDataFrame]").first
        expect(table).to_be_visible(timeout=30_000)
        page.get_by_text("The register: merge or rename a player (organiser)").click()
        pick_option(page, "Recorded name", "Jaen")
        pick_option(page, "is the player", "Jean")
        page.get_by_role("button", name="Merge", exact=True).click()
        expect(page.get_by_text("Jaen merged into Jean: the statistics follow it.")).to_be_visible(
            timeout=30_000
        )
        also = page.get_by_text("Jean: also recorded as Jaen (merged")
        expect(also).to_be_visible()
        page.locator(".st-key-register_panel").scroll_into_view_if_needed()
        _shot(page, "players-register-1400x900.png")
        page.get_by_role("heading", name="Every player").scroll_into_view_if_needed()
        _shot(page, "players-merged-1400x900.png")
        phone = context.new_page()
        phone.set_viewport_size(PHONE)
        phone.goto(f"{url}/players")
        expect(phone.get_by_text("Jean: also recorded as Jaen (merged")).to_be_visible(
            timeout=30_000
        )
        phone.get_by_text("The register: merge or rename a player (organiser)").click()
        phone.get_by_text("Jean: also recorded as Jaen (merged").scroll_into_view_if_needed()
        _shot(phone, "players-merged-390x844.png")
        phone.locator(".st-key-register_panel").scroll_into_view_if_needed()
        expect(phone.get_by_role("button", name="Merge", exact=True)).to_be_visible()
        _shot(phone, "players-register-390x844.png")
        page.get_by_role("button", name="Undo the latest: Jaen merged into Jean").click()
        expect(page.get_by_text("undid: Jaen into Jean: the statistics follow it.")).to_be_visible(
            timeout=30_000
        )
        expect(also).to_have_count(0)
        browser.close()
