"""Issue 36, "Must show": the printed page and the published page scanned for hidden cards and
notes (issue 36.6: "no hidden card, no note unless its author chose to share it"; RULES 3.5).

A night of two all-cards sessions (simulated, four players each: one in progress, dealt its fifth
deal; one over: a report is published, so even a finished session's unshown cards stay hidden)
and two notes kept with :func:`service.notes.add_note`: one naming a hole card of a hand never
shown, one a private remark. In Debian's Chromium the Night page's
report view (``/night?date=D&view=report``) is opened; its text (the page's DOM), its print
(``page.pdf()``, read with pypdf), the page to publish (its download: the HTML, raw and as text)
and the PDF download are each scanned for:

- every hidden card: from the engine's fold of the store's logs, each deal's dealt cards minus
  the cards shown at a showdown in force in that deal (:func:`present.sight.public_cards`), less
  any card shown in force anywhere that night (a card shown in one deal may be printed rightly);
  written as a code (``Qh``) or a face (``Q♥``, ``10♥``): none present;
- every note's text, and the private remark's own words: none present;
- and, so that the scan is seen to see, the strongest hand shown (RULES 2, the engine's
  ``strength``): its three cards present in each.

On the page, each hand of "Best hands shown" is also checked against its own deal: its three
cards are the ones its player showed in force in that deal, and the report writes no other card.

It skips, saying why, where Chromium or Playwright is missing."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from datetime import UTC, datetime
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import chromium, launched, served_store
from live_helpers import cut_in_deal

from engine.hands import strength
from events.cards import Card
from events.model import Dealt, Shown, is_derived
from log.open import open_store
from present.replay import Replay
from present.sight import in_force, public_cards
from service.notes import AddNote, add_note
from sim import simulate_session

pytestmark = pytest.mark.browser

DAY = "2026-10-02"
START = datetime(2026, 10, 2, 19, 0, tzinfo=UTC)
SESSIONS = {"scan-top": ("Top table", 5), "scan-bar": ("Bar table", None)}
"""Each session's table and the deal it is cut in (its first step: dealt, nothing else), or
``None``: the whole session, over (RULES 1.4; its cards stay hidden in a published report)."""
PRIVATE = "Zoe owes the bar eleven pints, keep this between us"
GLYPH = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}


def _events(name: str) -> list[Any]:
    table, deal = SESSIONS[name]
    full = simulate_session(seed=f"scan-{name}", players=4, cards="all", session=name,
                            table=table, start=START)  # fmt: skip
    return [e for e in (cut_in_deal(full, deal, 1) if deal else full) if not is_derived(e)]


def _hidden(rp: Replay) -> tuple[set[str], set[str], list[tuple[str, ...]]]:
    """``rp``'s hole cards never shown (per deal: dealt minus shown in force), every card shown
    in force, and the hands shown whole (three cards each)."""
    public = public_cards(rp)
    hidden: set[str] = set()
    shown: set[str] = set()
    hands: list[tuple[str, ...]] = []
    for k in in_force(rp):
        e, deal = rp.events[k], rp.states[k].deals
        if isinstance(e, Dealt) and e.hands:
            seen = {c for _, c in public.get(deal, frozenset())}
            hidden |= {str(c) for h in e.hands.values() for c in h} - seen
        if isinstance(e, Shown):
            shown |= {str(c) for c in e.cards}
            if len(e.cards) == 3:
                hands.append(tuple(str(c) for c in e.cards))
    return hidden, shown, hands


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def _text_of(page_html: str) -> str:
    p = _Text()
    p.feed(page_html)
    return " ".join(p.parts)


def _pdf_text(data: bytes) -> str:
    from pypdf import PdfReader

    return "\n".join(pg.extract_text() or "" for pg in PdfReader(io.BytesIO(data)).pages)


def _written(card: str) -> list[str]:
    """The ways a page writes ``card``: its code and its face (``T`` also as ``10``)."""
    rank, suit = card[0], card[1]
    ranks = [rank, "10"] if rank == "T" else [rank]
    return [r + s for r in ranks for s in (suit, GLYPH[suit])]


def _found(text: str, cards: set[str]) -> set[str]:
    """The ``cards`` written in ``text`` as a word of their own (not inside a longer word)."""
    return {
        c for c in cards for w in _written(c)
        if re.search(rf"(?<![0-9A-Za-z]){re.escape(w)}(?![0-9A-Za-z])", text)
    }  # fmt: skip


PACK = {r + u for r in "23456789TJQKA" for u in "shdc"}

HANDS = """() => [...document.querySelectorAll(
  '.brag-report table[aria-label="Best hands shown"] tbody tr')]
  .map(tr => [...tr.querySelectorAll('td')].map(td => td.innerText.trim()))
  .map(td => [td[1], td[2], td[3], td[4]])"""
"""Each best hand's row: its cards, player, session (``table · session``) and replay link."""


def _count(text: str) -> int:
    """How many cards ``text`` writes (each word that is a card's code or face)."""
    return sum(
        len(re.findall(rf"(?<![0-9A-Za-z]){re.escape(w)}(?![0-9A-Za-z])", text))
        for c in PACK for w in _written(c)
    )  # fmt: skip


@pytest.fixture(scope="module")
def night(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    chromium()
    facts: dict[str, Any] = {"hidden": set(), "shown": set(), "hands": [], "notes": []}

    def fill(store: Any) -> None:
        for name in SESSIONS:
            store.append(name, _events(name), 0)
        for name in SESSIONS:
            rp = Replay.of(store.events(name), recorded=True)
            hidden, shown, hands = _hidden(rp)
            facts["hidden"] |= hidden
            facts["shown"] |= shown
            facts["hands"] += hands

        def replay(session: str) -> Replay:
            return Replay.of(store.events(session), recorded=True)

        # a note naming a hole card of deal 1 of scan-top never shown, on that deal's first step
        rp = replay("scan-top")
        public = public_cards(rp)
        dealt = next(e for e in rp.events if isinstance(e, Dealt))
        seen = {c for _, c in public.get(1, frozenset())}
        player, card = next(
            (p, str(c)) for p, h in dealt.hands.items()  # type: ignore[union-attr]
            for c in h if str(c) not in seen | facts["shown"]
        )  # fmt: skip
        texts = [
            f"{player} told me they held {card} ({Card.parse(card)}) and folded it",
            PRIVATE,
        ]
        for text in texts:
            got = add_note(store, AddNote("scan-top", 1, "1", text, "Zoe"), replay)
            assert got.outcome == "stored", got.message
        facts["notes"] = texts
        facts["noted"] = card

    with served_store(tmp_path_factory.mktemp("report_scan"), None, fill) as (url, db):
        facts["url"], facts["db"] = url, db
        yield facts


def test_the_printed_and_published_report_hold_no_hidden_card_nor_note(
    night: dict[str, Any], tmp_path: Path
) -> None:
    hidden_all: set[str] = night["hidden"] - night["shown"]
    assert len(hidden_all) >= 10, hidden_all  # the scan has cards to look for
    assert night["noted"] in hidden_all  # the note names a card no one may see
    best = max(night["hands"], key=lambda h: strength([Card.parse(c) for c in h]))
    with open_store(night["db"], readonly=True) as store:
        assert {s.session for s in store.sessions()} == set(SESSIONS)
        assert [store.state(s).finished for s in SESSIONS] == [False, True]
        public = {s: public_cards(Replay.of(store.events(s), recorded=True)) for s in SESSIONS}

    texts: dict[str, str] = {}
    with launched() as browser:
        ctx = browser.new_context(viewport={"width": 1440, "height": 900}, accept_downloads=True)
        page = ctx.new_page()
        page.goto(f"{night['url']}/night?date={DAY}&view=report")
        page.wait_for_selector(".brag-report", timeout=30_000)
        page.wait_for_timeout(500)
        texts["page (DOM)"] = page.evaluate("() => document.body.innerText")
        # the report's own markup (the rest of the page is Streamlit's, its hashed class names)
        texts["page (report's HTML)"] = page.locator(".brag-report").evaluate("e => e.outerHTML")
        page.screenshot(path="/tmp/threetables-report.png", full_page=True)
        # each hand printed: its player's cards shown in force in that very deal (RULES 5.8)
        rows = page.evaluate(HANDS)
        assert rows, "no hand shown in the report"
        for cards, player, where, replay in rows:
            session = where.rsplit(" · ", 1)[-1]
            deal = int(re.fullmatch(r"deal (\d+), step \w+", replay).group(1))  # type: ignore[union-attr]
            printed = _found(cards, PACK)
            assert len(printed) == 3, cards
            assert {(player, c) for c in printed} <= public[session][deal], (cards, where)
        # and no card anywhere else in it: every card written is one of those hands'
        report_text = page.locator(".brag-report").inner_text()
        assert _count(report_text) == 3 * len(rows), report_text
        for label, name in (("published (HTML)", "Page to publish (HTML)"), ("PDF", "PDF")):
            with page.expect_download() as got:
                page.get_by_role("button", name=name, exact=True).click()
            data = Path(got.value.path()).read_bytes()
            if label == "PDF":
                assert data.startswith(b"%PDF")
                texts["download (PDF)"] = _pdf_text(data)
            else:
                raw = data.decode("utf-8")
                texts["published (HTML, raw)"] = raw
                texts["published (text)"] = _text_of(raw)
        page.emulate_media(media="print")
        printed = page.pdf(format="A4")
        (tmp_path / "printed.pdf").write_bytes(printed)
        texts["printed (page.pdf)"] = _pdf_text(printed)
        ctx.close()

    words = [w for w in re.findall(r"[A-Za-z]{5,}", PRIVATE)]
    for where, text in texts.items():
        leaked = _found(text, hidden_all)
        assert not leaked, f"{where}: hidden cards {sorted(leaked)}"
        for note in night["notes"]:
            assert note not in text, f"{where}: a note's text"
        assert not [w for w in words if w in text], f"{where}: the private note's words"
        seen_best = _found(text, set(best))
        assert seen_best == set(best), f"{where}: the best hand shown {best}, found {seen_best}"
        print(f"{where}: {len(text)} chars, none of {len(hidden_all)} hidden cards, "
              f"best hand shown {' '.join(best)} present")  # fmt: skip
