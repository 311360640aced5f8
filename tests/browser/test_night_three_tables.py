"""Issue 36, "Must show": a night across three tables recorded in Chromium on three phone-sized
pages at once, the board following within 2 s.

Three sessions (3, 4 and 5 players) are started for today at three tables as the Record page
starts one (:func:`service.start.start_session` with the page's own events,
``dashboard.record.start._start_events``, timed now in this machine's zone). Three phones
(390×844, touch), each unlocked with the
organiser's secret on the Record page, open their table's pad (``/pad?session=S``); a fourth page
watches the Night board (``/night?date=D``, 390×844) and a fifth the TV display (1920×1080,
``display=tv``). Two deals are tapped at each table, interleaved (a tap on one pad, then on the
next ...): shuffle (first deal only, RULES 3.2), deal, the first player on the dealer's left looks
and bets level 1, the others fold, so the seen survivor takes the pot (RULES 5.6): six resolved
pots.

For each pot, the time from the tap that resolved it (``Date.now()`` at its ``touchstart`` in the
pad's page) to the board drawing the table's nets as the engine folds the session up to that
pot's ``pot_won`` (``Date.now()`` in a ``MutationObserver`` of the board's page: one clock, one
machine) is at most 2 s on both boards (RULES 1.5 nets, issue 36.3). A table's next tap waits
until both boards showed its pot, so no pot can hide behind the next deal's antes; the other
tables go on tapping meanwhile. At the end the boards' nets equal :func:`service.night.night_of`
on the store, every tap ended "recorded" on its pad (none refused, none waiting) and the store
holds each tap's event once, in the order tapped. Screenshots: ``/tmp/threetables-*.png``.

It skips, saying why, where Chromium or Playwright is missing."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, datetime
from fractions import Fraction
from typing import Any

import pytest
from browser_helpers import CHROMIUM_ARGS, chromium, served_store, unlock, wait_settled
from pad_app_helpers import drawn, idle

from dashboard.record import start as record_start
from events.amounts import amount_text
from log.open import open_store
from service.night import night_of
from service.start import StartSession, start_session

pytestmark = [pytest.mark.browser, pytest.mark.timing]

SECRET = "a long enough organiser secret"
PHONE: Any = {"width": 390, "height": 844}
TV: Any = {"width": 1920, "height": 1080}
LIMIT_MS = 2000.0
"""Each pot on the board within this of the tap that resolved it (issue 36.3)."""
DEALS = 2
TABLES = {
    "three-top": ("Top table", ("Ann", "Bob", "Cal")),
    "three-window": ("Window table", ("Dee", "Eve", "Fay", "Gus")),
    "three-bar": ("Bar table", ("Hal", "Ivy", "Joe", "Kit", "Lee")),
}
"""Three tables of 3, 4 and 5: their deals take 5, 6 and 7 taps, so their pots fall between the
other tables' taps."""

KIND = {"shuffle": "shuffled", "deal": "dealt", "look": "looked", "bet": "bet", "fold": "folded"}
"""The event each key records (FORMAT.md)."""

TAPS = """() => {
  // Each tap's wall-clock time (ms) and key, at its first touch on the pad
  window.__taps = [];
  document.addEventListener('touchstart', (ev) => {
    const b = ev.target && ev.target.closest && ev.target.closest('button[data-spot]');
    window.__taps.push({ spot: b ? b.dataset.spot : null, at: Date.now() });
  }, true);
}"""

BOARD = """() => {
  // Every change of the board's standings: its wall-clock time (ms) and each player's net
  window.__hist = [];
  let last = '';
  const read = () => {
    const rows = document.querySelectorAll(
      '.brag-board table[aria-label="Standings"] tbody tr');
    const nets = {};
    for (const tr of rows) {
      const td = tr.querySelectorAll('td');
      if (td.length > 2) nets[td[1].textContent] = td[2].textContent.trim();
    }
    const key = JSON.stringify(nets);
    if (key !== last) { last = key; window.__hist.push({ at: Date.now(), nets }); }
  };
  read();
  new MutationObserver(read).observe(document.body,
    { childList: true, subtree: true, characterData: true });
}"""


def _plan(seats: int) -> list[str]:
    """The keys tapped at a table of ``seats``: each deal, the player on turn (the dealer's left,
    RULES 5.2) looks and bets level 1 (RULES 5.1, 5.5), the others fold, so the seen survivor
    takes the pot (RULES 5.6); the pack shuffled before the first deal only (RULES 3.2)."""
    out: list[str] = []
    for k in range(DEALS):
        out += (["shuffle"] if k == 0 else []) + ["deal", "look", "bet-0"]
        out += ["fold"] * (seats - 1)
    return out


def _shown(net: Fraction) -> str:
    """A net as the board writes it (dashboard/night/board.py: a sign on a gain)."""
    text = str(amount_text(net))
    return f"+{text}" if net > 0 else text


def _start(store: Any) -> None:
    for name, (table, seats) in TABLES.items():
        now = datetime.now().astimezone().replace(microsecond=0)  # this machine's zone
        cmd = StartSession(name, seats, table, seats[-1], "shown", 8, "Zoe", now)
        got = start_session(store, cmd, record_start._start_events)  # the Record page's events
        assert got.outcome == "started", got.message


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    chromium()
    with served_store(tmp_path_factory.mktemp("three_tables"), SECRET, _start) as served:
        yield served


@dataclass
class Table:
    """One table's phone and what was tapped there."""

    session: str
    page: Any
    plan: list[str]
    done: int = 0
    pots: list[tuple[float, dict[str, str]]] = field(default_factory=list)
    """Each resolved pot: the resolving tap's time (ms, epoch) and the table's nets after it."""
    waiting: tuple[float, dict[str, str]] | None = None


def _day(db: str) -> date:
    with open_store(db, readonly=True) as store:
        days = {store.events(s)[0].at.date() for s in TABLES}  # type: ignore[union-attr]
    assert len(days) == 1, days
    return days.pop()


def _nets_at_pot(db: str, session: str, pots: int) -> dict[str, str]:
    """The session's nets (as the board writes them) once its ``pots``-th pot is won: the
    engine's fold of its events up to that ``pot_won`` (RULES 1.5)."""
    with open_store(db, readonly=True) as store:
        won = [e for e in store.events(session) if e.type == "pot_won"]
        assert len(won) >= pots, (session, len(won))
        nets = store.timeline(session, won[pots - 1].seq).state.nets
    return {p: _shown(v) for p, v in nets.items()}


def _seen(page: Any, since: float, want: dict[str, str]) -> float | None:
    """The first time (ms, epoch) at or after ``since`` the board showed ``want``'s nets."""
    hist = page.evaluate("() => window.__hist")
    for h in hist:
        if h["at"] >= since and all(h["nets"].get(p) == v for p, v in want.items()):
            return float(h["at"])
    return None


def _shown_on(boards: dict[str, Any], since: float, want: dict[str, str]) -> dict[str, float]:
    """The boards that showed ``want`` at or after ``since``, each with its ms after ``since``."""
    out: dict[str, float] = {}
    for name, page in boards.items():
        at = _seen(page, since, want)
        if at is not None:
            out[name] = at - since
    return out


def _recorded(table: Table) -> list[tuple[str, str]]:
    """Waits until the pad's last tap ended; each tap's status and line, newest first."""
    idle(table.page)
    table.page.wait_for_function(
        "(n) => document.querySelectorAll('.pad .taps li').length >= n && "
        "![...document.querySelectorAll('.pad .taps li')].some(l => l.dataset.status === "
        "'waiting')",
        arg=table.done,
        timeout=30_000,
    )
    got: list[tuple[str, str]] = table.page.evaluate(
        "() => [...document.querySelectorAll('.pad .taps li')]"
        ".map(l => [l.dataset.status, l.textContent])"
    )
    return got


def _settled(t: Table, spot: str) -> None:
    """Waits until the pad would take a tap on ``spot``; else fails naming the keys it shows."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        wait_settled(t.page, spot)
    except PlaywrightTimeout as err:
        keys = t.page.evaluate(
            "() => [...document.querySelectorAll('.pad button[data-spot]')]"
            ".filter(b => !b.disabled).map(b => b.dataset.spot)"
        )
        raise AssertionError(
            f"{t.session}: no key {spot} to tap after {t.done} taps: {keys}"
        ) from err


def test_three_tables_at_once_and_the_board_follows(server: tuple[str, str]) -> None:
    from playwright.sync_api import sync_playwright

    url, db = server
    day = _day(db)
    latencies: dict[str, list[float]] = {"board": [], "tv": []}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
        try:
            tables = []
            for name, (_, seats) in TABLES.items():
                ctx = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
                page = ctx.new_page()
                unlock(page, url, SECRET)
                page.goto(f"{url}/pad?session={name}")
                drawn(page, timeout=30_000)
                page.evaluate(TAPS)
                tables.append(Table(name, page, _plan(len(seats))))
            boards: dict[str, Any] = {}
            for which, size, extra in (("board", PHONE, ""), ("tv", TV, "&display=tv")):
                ctx = browser.new_context(viewport=size, has_touch=which == "board")
                page = ctx.new_page()
                page.goto(f"{url}/night?date={day.isoformat()}{extra}")
                page.wait_for_selector(".brag-board table[aria-label='Standings']", timeout=30_000)
                page.wait_for_timeout(1000)  # its first fragment runs done
                page.evaluate(BOARD)
                boards[which] = page

            while any(t.done < len(t.plan) or t.waiting is not None for t in tables):
                tapped = False
                for t in tables:
                    if t.waiting is not None:  # its pot on both boards before its next tap
                        since, want = t.waiting
                        got = _shown_on(boards, since, want)
                        if len(got) < len(boards):
                            late = time.time() * 1000 - since
                            assert late < 10_000, f"{t.session}: pot {want} not shown: {got}"
                            continue  # the other tables go on meanwhile
                        for which, ms in got.items():
                            latencies[which].append(ms)
                        t.waiting = None
                    if t.done >= len(t.plan):
                        continue
                    spot = t.plan[t.done]
                    _settled(t, spot)
                    t.page.locator(f".pad button[data-spot='{spot}']").tap()
                    t.done += 1
                    tapped = True
                    after = t.plan[t.done] if t.done < len(t.plan) else "deal"
                    if spot == "fold" and after == "deal":  # the last fold of a deal
                        ended = _recorded(t)
                        assert all(s == "recorded" for s, _ in ended), (t.session, ended)
                        taps = t.page.evaluate("() => window.__taps")
                        assert taps and taps[-1]["spot"] == spot, taps
                        want = _nets_at_pot(db, t.session, len(t.pots) + 1)
                        t.pots.append((float(taps[-1]["at"]), want))
                        t.waiting = (float(taps[-1]["at"]), want)
                if not tapped:
                    time.sleep(0.05)

            # every tap ended "recorded" on its pad, one line each
            for t in tables:
                _recorded(t)
                statuses = t.page.evaluate(
                    "() => [...document.querySelectorAll('.pad .taps li')]"
                    ".map(l => l.dataset.status)"
                )
                assert statuses == ["recorded"] * len(t.plan), (t.session, statuses)
                assert len(t.pots) == DEALS
            # and the store holds each tap once, in the order tapped, and each pot won
            with open_store(db, readonly=True) as store:
                for t in tables:
                    kinds = [e.type for e in store.events(t.session)]
                    assert [k for k in kinds[2:] if k != "pot_won"] == [
                        KIND[s.split("-")[0]] for s in t.plan
                    ], t.session
                    assert kinds.count("pot_won") == DEALS, t.session
            # the boards' nets are the night's (the engine's fold, service.night)
            with open_store(db, readonly=True) as store:
                night = night_of(store, day)
            want_all = {s.player: _shown(s.net) for s in night.standings}
            assert len(want_all) == sum(len(s) for _, s in TABLES.values())
            assert sum((s.net for s in night.standings), Fraction(0)) + night.pot == 0
            for which, page in boards.items():
                page.wait_for_function(
                    "(want) => { const h = window.__hist[window.__hist.length - 1];"
                    " return JSON.stringify(h.nets) === JSON.stringify(want); }",
                    arg=want_all,
                    timeout=10_000,
                )
                last = page.evaluate("() => window.__hist[window.__hist.length - 1].nets")
                assert last == want_all, which
            for t in tables:
                t.page.screenshot(path=f"/tmp/threetables-{t.session}.png")
            for which, page in boards.items():
                page.screenshot(path=f"/tmp/threetables-{which}.png")
        finally:
            browser.close()
    for which, each in latencies.items():
        print(
            f"{which}: {len(each)} pots, tap to net on the board (ms): "
            f"{[round(x) for x in each]}, max {max(each):.0f} (limit {LIMIT_MS:.0f})"
        )
    assert all(len(each) == DEALS * len(TABLES) for each in latencies.values()), latencies
    assert all(x <= LIMIT_MS for each in latencies.values() for x in each), latencies
