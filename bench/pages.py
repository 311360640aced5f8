"""Each dashboard page's first load in Chromium, beside a bare Streamlit page (issue 22, part 2).

    .venv/bin/python bench/pages.py [--repeat 3] [--store URL_OR_FILE] [--session ID]
                                    [--pages sessions,players,...] [--settle 3] [--port 8660]

The season: a store in a temporary folder holding the bundled season (``data/season/*.jsonl``),
its DuckDB projection brought up to date first, as ``make run`` (``brag run``) does. The dashboard
is served as ``brag dashboard`` serves it (``dashboard/common/server.py``, the same ``streamlit
run``
options, a free port); beside it, a bare Streamlit page (``st.title`` alone) served by the same
Streamlit with the same options.

What is timed: each page opened in a fresh Playwright browser context (no cookies, no cache) of
Debian's Chromium (headless), at desktop (1280x800) and phone (390x844, touch) sizes, from the
navigation's start (``performance.timeOrigin``) to the first animation frame in which the page's
first screen is drawn: its main content's selector is in the page (the list of rows on Sessions,
Session and My sessions, the replayer ready on Replay, the statistics table on Players, ...) and
Streamlit is no longer running (``stApp``'s ``data-test-script-state`` is ``notRunning`` and its
status widget is gone). Timed in the page, polled every frame.

Server warm-up: each repetition starts both servers afresh, waits until they answer their health
check and then ``--settle`` seconds (a newcomer reading the printed address), and then opens every
page once in the newcomer's order (Sessions, Session, Replay, Players, ...): **first** is that
load, the first time the page is opened on that server (its caches cold, but for what the server
warmed as it started); **again** opens every page a second time, each in another fresh context
(the server's caches warm, the browser's cold). Each load of a page follows a load of the bare
page (fresh context, same screen size), its peer: the machine is shared, and its load moves both
alike. Each figure is the median of ``--repeat`` repetitions (one server start per repetition and
screen size); the ratio is the median of each page load's ratio to its peer's.

Prints, per page and screen size, both figures in ms, the bare page's beside them and the ratio.
Target: every page's first load at most 1.3x the bare page's. With ``--store`` the same pages are
also timed on that store (its projection brought up to date first, unless ``--no-refresh``), in
the same run, and the Sessions, Session and Players pages' figures are printed beside the season's;
target: at most 2x. Exits 0 whatever the figures.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from browser_helpers import CHROMIUM_ARGS, chromium, dashboard  # noqa: E402

TARGET = 1.3
SCALE_TARGET = 2.0
SESSION = "2026-09-24-top-1"
DEAL = 5
SCREENS = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {
        "viewport": {"width": 390, "height": 844},
        "is_mobile": True,
        "has_touch": True,
        "device_scale_factor": 2,
    },
}
ORGANISER = {"BRAG_ORGANISER_SECRET": "bench-pages-secret"}
"""Recording allowed, so the Record page shows its unlock form (a fresh browser is locked)."""
BARE_PAGE = 'import streamlit as st\n\nst.title("Bragbook")\n'


@dataclass(frozen=True)
class Page:
    """A page of the dashboard: its name, its address (``{session}``, ``{deal}`` filled in) and
    the selector of its first screen's main content."""

    name: str
    path: str
    selector: str


PAGES = (
    Page(
        "sessions",
        "/",  # the default page: "/sessions" says "Page not found"
        "ul.brag-rows li.brag-row",
    ),
    Page("session", "/session?session={session}", "ul.brag-rows li.brag-row"),
    Page("replay", "/replay?session={session}&deal={deal}", ".rp[data-ready]"),
    Page("players", "/players", '[data-testid="stDataFrame"]'),
    Page("decisions", "/decisions", '[data-testid="stDataFrame"], [data-testid="stAlert"]'),
    Page("mine", "/mine", '[data-testid="stSelectbox"], ul.brag-rows'),
    Page("explore", "/explore", '[data-testid="stDataFrame"]'),
    Page("record", "/record", 'input[type="password"], [data-testid="stAlert"]'),
)
BARE = Page("bare", "/", "h1")

DRAWN = """(selector) => new Promise((resolve, reject) => {
  // The first animation frame in which the page's main content is in the page and Streamlit is
  // no longer running: ms since the navigation started.
  const check = () => {
    const app = document.querySelector('[data-testid="stApp"]');
    const done = app && app.dataset.testScriptState === 'notRunning' &&
      !document.querySelector('[data-testid="stStatusWidget"]');
    if (done && document.querySelector(selector)) resolve(performance.now());
    else requestAnimationFrame(check);
  };
  setTimeout(() => reject(new Error('not drawn in 60 s: ' + selector)), 60000);
  check();
})"""


def load(
    browser: Any, url: str, page: Page, screen: str, fill: dict[str, Any], shots: str | None = None
) -> float:
    """One load of ``page`` in a fresh context at ``screen`` size: ms to its first screen (with
    ``shots``, a screenshot of it then, in that folder)."""
    ctx = browser.new_context(**SCREENS[screen])
    try:
        tab = ctx.new_page()
        tab.goto(url + page.path.format(**fill), wait_until="commit", timeout=120_000)
        try:
            ms = float(tab.evaluate(DRAWN, page.selector))
        except Exception:
            tab.screenshot(path=str(ROOT / "tests" / "artifacts" / f"bench-pages-{page.name}.png"))
            raise
        if shots:
            tab.screenshot(path=str(Path(shots) / f"{page.name}-{screen}.png"))
        return ms
    finally:
        ctx.close()


@contextlib.contextmanager
def servers(tmp: Path, env: dict[str, str], port: int, bare: Path) -> Iterator[tuple[str, str]]:
    """The dashboard and the bare page, each served by its own ``streamlit run``."""
    with (
        dashboard(tmp, env, port) as app_url,
        dashboard(tmp, env, port + 40, script=bare) as bare_url,
    ):
        yield app_url, bare_url


def measure(
    browser: Any,
    env: dict[str, str],
    pages: list[Page],
    fill: dict[str, Any],
    args: argparse.Namespace,
    tmp: Path,
) -> dict[tuple[str, str, str], list[float]]:
    """``(page, screen, "first" | "again") -> [ms per repetition]``, and for each the bare page's
    load just before it under ``("bare:" + page, screen, when)``."""
    bare = tmp / "bare.py"
    bare.write_text(BARE_PAGE)
    out: dict[tuple[str, str, str], list[float]] = {}
    for rep in range(args.repeat):
        for screen in SCREENS:
            with servers(tmp, env, args.port, bare) as (app_url, bare_url):
                time.sleep(args.settle)
                for when in ("first", "again"):
                    for page in pages:
                        t = load(browser, bare_url, BARE, screen, fill)
                        out.setdefault(("bare:" + page.name, screen, when), []).append(t)
                        shots = args.shots if when == "first" and rep == 0 else None
                        t = load(browser, app_url, page, screen, fill, shots)
                        out.setdefault((page.name, screen, when), []).append(t)
            print(f"  repetition {rep + 1}, {screen}: done", file=sys.stderr, flush=True)
    return out


def season_store(tmp: Path) -> dict[str, str]:
    """The bundled season imported into a store in ``tmp``, its projection up to date."""
    from brag.cli import main

    logs = sorted(str(p) for p in (ROOT / "data" / "season").glob("*.jsonl"))
    db = str(tmp / "brag.db")
    with open(os.devnull, "w") as null, contextlib.redirect_stdout(null):
        assert main(["import", "--db", db, *logs]) == 0
        assert main(["analytics", "refresh", "--db", db]) == 0
    return {"BRAG_DB": db, "BRAG_ANALYTICS": str(tmp / "brag.duckdb"), **ORGANISER}


def other_store(url: str, analytics: str | None, refresh: bool) -> dict[str, str]:
    """``url``'s environment; its projection (default beside it) brought up to date first."""
    from brag.cli import main
    from brag.cmd_analytics import default_analytics

    path = analytics or default_analytics(url)
    if refresh:
        started = time.perf_counter()
        assert main(["analytics", "refresh", "--db", url, "--analytics", path]) == 0
        print(f"  projection refreshed in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    return {"BRAG_DB": url, "BRAG_ANALYTICS": path, **ORGANISER}


def newest_session(url: str) -> str:
    from log.open import open_store

    with open_store(url, readonly=True) as store:
        return str(next(iter(store.sessions(order="newest", limit=1))).session)


def report(
    title: str, figures: dict[tuple[str, str, str], list[float]], pages: list[Page]
) -> dict[tuple[str, str], float]:
    """Prints the table (medians; the ratio is the median of each load's ratio to the bare
    page's load just before it); returns each page's median first load per screen."""
    med = {k: statistics.median(v) for k, v in figures.items()}

    def ratio(page: str, screen: str, when: str) -> float:
        pages_, bares = figures[(page, screen, when)], figures[("bare:" + page, screen, when)]
        return statistics.median(p / b for p, b in zip(pages_, bares, strict=True))

    print(f"\n{title}")
    print(
        f"{'page':<10} {'screen':<8} {'first ms':>9} {'bare ms':>8} {'ratio':>6} "
        f"{'again ms':>9} {'bare ms':>8} {'ratio':>6}  target {TARGET}x (first)"
    )
    firsts: dict[tuple[str, str], float] = {}
    for page in pages:
        for screen in SCREENS:
            f, fb = med[(page.name, screen, "first")], med[("bare:" + page.name, screen, "first")]
            a, ab = med[(page.name, screen, "again")], med[("bare:" + page.name, screen, "again")]
            fr, ar = ratio(page.name, screen, "first"), ratio(page.name, screen, "again")
            firsts[(page.name, screen)] = f
            verdict = "met" if fr <= TARGET else "NOT met"
            print(
                f"{page.name:<10} {screen:<8} {f:9.0f} {fb:8.0f} {fr:5.2f}x "
                f"{a:9.0f} {ab:8.0f} {ar:5.2f}x  {verdict}"
            )
    return firsts


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3, help="server starts per screen size")
    ap.add_argument("--store", help="also time the pages on this store (URL or SQLite file)")
    ap.add_argument("--analytics", help="--store's projection (default: beside it)")
    ap.add_argument("--no-refresh", action="store_true", help="leave --store's projection as is")
    ap.add_argument("--session", help="--store's session for Session and Replay (its newest)")
    ap.add_argument("--deal", type=int, default=None, help="the Replay page's deal (default 1)")
    ap.add_argument(
        "--pages", help="a comma-separated subset of " + ",".join(p.name for p in PAGES)
    )
    ap.add_argument("--settle", type=float, default=3.0, help="seconds after the health check")
    ap.add_argument("--shots", help="a folder for a screenshot of each page's first screen")
    ap.add_argument("--port", type=int, default=8660, help="first port to try for the servers")
    args = ap.parse_args()
    try:
        chromium_path = chromium()
    except BaseException as skip:  # pytest's Skipped: no Chromium or no Playwright here
        print(f"skipped: {skip}")
        return 0
    from playwright.sync_api import sync_playwright

    wanted = set(args.pages.split(",")) if args.pages else {p.name for p in PAGES}
    pages = [p for p in PAGES if p.name in wanted]
    with tempfile.TemporaryDirectory(prefix="brag-pages-") as tmp_name, sync_playwright() as pw:
        tmp = Path(tmp_name)
        browser = pw.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        season = measure(
            browser, season_store(tmp), pages, {"session": SESSION, "deal": DEAL}, args, tmp
        )
        big = None
        if args.store:
            env = other_store(args.store, args.analytics, not args.no_refresh)
            fill = {"session": args.session or newest_session(env["BRAG_DB"]), "deal": 1}
            if args.deal is not None:
                fill["deal"] = args.deal
            big = measure(browser, env, pages, fill, args, tmp)
        browser.close()
    print(
        f"first screen of each page, fresh Chromium context, median of {args.repeat} server "
        f"starts; bare page: st.title alone, same Streamlit, same options"
    )
    firsts = report("season (data/season, 40 sessions)", season, pages)
    if big is not None:
        big_firsts = report(f"store {args.store}", big, pages)
        print(f"\n{args.store} beside the season (first load), target {SCALE_TARGET}x:")
        for page in pages:
            if page.name not in ("sessions", "session", "players"):
                continue
            for screen in SCREENS:
                r = big_firsts[(page.name, screen)] / firsts[(page.name, screen)]
                verdict = "met" if r <= SCALE_TARGET else "NOT met"
                print(
                    f"  {page.name:<10} {screen:<8} {big_firsts[(page.name, screen)]:7.0f} ms "
                    f"beside {firsts[(page.name, screen)]:7.0f} ms: {r:.2f}x  {verdict}"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
