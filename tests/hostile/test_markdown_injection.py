"""Markdown injection (issue 13, item 8): players, a table and a session id named as Markdown links,
images, Streamlit colour directives, LaTeX and HTML are shown as text on every page, under
``AppTest`` (the Markdown sources) and in Chromium (no ``<a>`` or ``<img>`` made from a name)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from hostile_helpers import PLAYERS, SESSION, TABLE, hostile_log

from dashboard.common.pages import PAGE_FILES

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest

from dashboard.common.escape import md
from log.open import open_store

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "dashboard" / "app.py")
SECRET = "open sesame please"
PAGES = {
    "sessions": {},
    "session": {"session": SESSION},
    "replay": {"session": SESSION, "deal": "1", "step": "16"},
    "players": {},
    "decisions": {"player": PLAYERS["B"]},
    "record": {"session": SESSION},
    "explore": {},
}


@pytest.fixture
def hostile_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    url = str(tmp_path / "brag.db")
    with open_store(url) as store:
        store.import_log(str(hostile_log(tmp_path)))
    monkeypatch.setenv("BRAG_DB", url)
    monkeypatch.setenv("BRAG_ANALYTICS", str(tmp_path / "brag.duckdb"))
    monkeypatch.setenv("BRAG_ORGANISER_SECRET", SECRET)
    yield url


def sources(at: AppTest) -> list[str]:
    """The Markdown source of every element Streamlit renders as Markdown (HTML blocks aside:
    the SVG table and the event list escape names as HTML)."""
    out = [m.value for m in at.markdown if not m.proto.allow_html]
    # our own link to the step: the session id is in its (percent-encoded) query
    links = [x for x in out if x.startswith("[Link to this step](")]
    assert all(x.count("](") == 1 and " " not in x.split("](")[1] for x in links), links
    out = [x for x in out if x not in links]
    for kind in ("caption", "subheader", "title", "header", "error", "warning", "info", "success"):
        out += [str(e.value) for e in getattr(at, kind)]
    out += [str(b.label) for b in at.button]
    out += [str(e.label) for e in at.expander]
    out += [str(m.label) for m in at.metric]
    return out


def run_page(name: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.switch_page(PAGE_FILES[name])
    at.run()
    if name == "record":
        at.text_input(key="secret_input").input(SECRET)
        at.button[0].click().run()
    for k, v in PAGES[name].items():
        at.query_params[k] = v
    return at.run()


@pytest.mark.parametrize("name", list(PAGES))
def test_hostile_names_are_text_on_every_page(hostile_store: str, name: str) -> None:
    at = run_page(name)
    assert not at.exception, [e.value for e in at.exception]
    texts = sources(at)
    joined = "\n".join(texts)
    # No live link, image, directive or HTML: no bare "://" (GFM would link it), every bracket,
    # "!", "<" and ":" of a name escaped.
    assert "://" not in joined
    for raw in (*PLAYERS.values(), TABLE, SESSION):
        assert raw not in joined
    shown = {
        "session": [md(SESSION), md(TABLE), md(PLAYERS["A"])],  # the caption
        "record": [md(PLAYERS["A"]), md(SESSION)],  # recent events, the buttons
        "players": [md(PLAYERS["B"])],  # the first player's heading (B won the pot)
        "decisions": [md(PLAYERS["B"])],  # the drill-down's line and biggest differences
    }.get(name, [])
    for text in shown:
        assert text in joined, (name, text)
    if name == "replay":  # the steps' sentences go to the browser replayer as data, and from
        # there into the page as text (textContent), never as Markdown or HTML
        data = json.loads(at.get("bidi_component")[0].proto.json)
        assert any(f["text"].startswith(PLAYERS["B"] + " wins the pot") for f in data["frames"])


def test_md_keeps_plain_sentences_and_escapes_markup() -> None:
    assert md("Ann bets level 2: pays 1, blind") == "Ann bets level 2: pays 1, blind"
    assert md("B wins the pot of 12 at a showdown.") == "B wins the pot of 12 at a showdown."
    wj = "\u2060"
    assert md(PLAYERS["A"]) == r"\[Log in again\](https\:" + wj + "//attacker.example/login)"
    assert md(PLAYERS["B"]) == r"\!\[b\](https\:" + wj + "//attacker.example/p.png)"
    assert md(":red[C] $x$") == r"\:red\[C\] \$x\$"
    assert md("1. one") == r"1\. one" and md("- x") == r"\- x" and md("# x") == r"\# x"
    assert md("a\nb\x1b[31m\u202e") == r"a\\nb\\x1b\[31m\\u202e"
    assert md("www.evil.example") == "www" + wj + ".evil.example"
    assert md("ann@evil.example") == r"ann\@" + wj + "evil.example"
    assert quote(SESSION)  # the session id is also a link parameter (urlencoded by view.link)


@pytest.fixture(scope="module")
def hostile_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from browser_helpers import chromium, dashboard

    chromium()
    tmp = tmp_path_factory.mktemp("hostile")
    db = str(tmp / "brag.db")
    with open_store(db) as store:
        store.import_log(str(hostile_log(tmp)))
    env = {"BRAG_DB": db, "BRAG_ANALYTICS": str(tmp / "brag.duckdb")}
    with dashboard(tmp, {**env, "BRAG_ORGANISER_SECRET": SECRET}) as url:
        yield url


@pytest.mark.browser
def test_no_link_or_image_is_made_from_a_name_in_chromium(hostile_server: str) -> None:
    """Every page, at a phone's and a desktop's size: the names read as typed, and the page's
    HTML holds no ``<a>`` or ``<img>`` pointing at the attacker (nor any element a name made)."""
    from browser_helpers import CHROMIUM_ARGS, chromium
    from playwright.sync_api import expect, sync_playwright

    artifacts = ROOT / "tests" / "artifacts"
    artifacts.mkdir(parents=True, exist_ok=True)
    s = quote(SESSION)
    urls = {
        "sessions": "",
        "session": f"session?session={s}",
        "replay": f"replay?session={s}&deal=1&step=13",
        "players": "players",
        "record": f"record?session={s}",
    }
    visible = {
        "session": TABLE,
        "replay": PLAYERS["B"],
        "players": PLAYERS["B"],
        "record": PLAYERS["A"],
    }
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
        try:
            for width, height in ((390, 844), (1400, 900)):
                page = browser.new_page(viewport={"width": width, "height": height})
                for name, path in urls.items():
                    page.goto(f"{hostile_server}/{path}")
                    expect(page.locator('[data-testid="stAppViewContainer"] h1')).to_be_visible(
                        timeout=30_000
                    )
                    if name == "record":  # a new page is a new session: locked
                        page.get_by_label("Organiser secret").fill(SECRET, timeout=30_000)
                        page.get_by_role("button", name="Unlock recording").click()
                    if name in visible:
                        # as typed, up to the invisible word joiner md() puts after "https:"
                        typed = visible[name].split("//")[0]
                        expect(page.get_by_text(typed).first).to_be_attached(timeout=30_000)
                    page.wait_for_timeout(800)
                    bad = page.evaluate(
                        # our own links carry the session id in their (encoded) query
                        """() => [...document.querySelectorAll('a, img, image, iframe, source')]
                            .map(e => e.getAttribute('href') || e.getAttribute('src') || '')
                            .filter(u => new URL(u, location.href).host !== location.host)
                            .filter(u => u.includes('attacker'))"""
                    )
                    assert bad == [], (name, width, bad)
                    assert page.locator(".katex").count() == 0, (name, width)  # no LaTeX
                    page.screenshot(
                        path=str(artifacts / f"hostile-{name}-{width}.png"), full_page=True
                    )
                page.close()
        finally:
            browser.close()


@pytest.mark.parametrize("name", ["session", "replay"])
def test_a_stream_that_no_longer_folds_is_one_line_on_the_pages(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """The trial's tampered pot_won (14 -> 1,400, triggers dropped by another program): the
    Session and Replay pages say so in one line naming the session and the seq."""
    import sqlite3

    from store.schema import SQLITE_TRIGGERS

    db = tmp_path / "club.db"
    with open_store(str(db)) as store:
        store.import_log(str(ROOT / "data" / "examples" / "card_example.jsonl"))
    c = sqlite3.connect(db, isolation_level=None)
    c.execute("DROP TRIGGER events_no_update")
    c.execute("UPDATE events SET payload = json_set(payload, '$.amount', 1400) WHERE seq = 16")
    c.execute(SQLITE_TRIGGERS["events_no_update"])
    c.close()
    monkeypatch.setenv("BRAG_DB", str(db))
    monkeypatch.setenv("BRAG_ANALYTICS", str(tmp_path / "brag.duckdb"))
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.switch_page(PAGE_FILES[name])
    at.query_params["session"] = "card-example"
    at.run()
    assert not at.exception
    assert len(at.error) == 1
    text = at.error[0].value
    assert text.startswith(r"session 'card-example', seq 16 (pot\_won): the stored stream no")
    assert "RULES 5.9" in text and "\n" not in text
