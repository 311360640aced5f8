"""The Sessions, Session and Players pages' first run at a season and at a league of 1M deals.

    .venv/bin/python bench/pages_scale.py --store /work/stores/league-1m.db [--season FILE]
                                          [--runs 3] [--pages sessions,session,players]

Two stores: the bundled club season (``data/season``, 40 sessions, imported into a temporary
store unless ``--season`` names one) and ``--store``, a big one as ``bench/scale.py --dir`` builds
it (simulated sessions copied in SQL up to 1M deals, about 33M events); each with its DuckDB
projection beside it (``brag analytics refresh``; made here if missing, which takes long at 1M).

Each page's script runs under Streamlit's ``AppTest`` (in-process, as a browser's first visit
would, without the network or drawing) with every Streamlit cache cleared first (a server's first
page: the store opened, the projection looked at, every query run). Timed: the script's run
alone (``ScriptRunner._run_script``: not ``AppTest``'s own start, which scans the installed
packages for components), median of ``--runs``, the two stores in turn so that the machine's load
falls on both alike; one unmeasured run first brings the modules in. Then, for the record, the
cache functions behind the pages (``dashboard/common/cache.py``), each cold, at both stores.

Target: each page at the big store at most 2x its season figure (issue 22).
"""

from __future__ import annotations

import argparse
import logging
import os
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from dashboard.common.pages import PAGE_FILES  # noqa: E402 - after the path is set
from dashboard.stats import stats_cache  # noqa: E402

TARGET = 2.0
APP = str(ROOT / "dashboard" / "app.py")
PAGES = ("sessions", "session", "players")


def season_store(folder: str) -> str:
    """The bundled season imported into a new store in ``folder``, its projection refreshed."""
    from brag.cli import main

    path = os.path.join(folder, "season.db")
    logs = sorted(str(p) for p in (ROOT / "data" / "season").glob("*.jsonl"))
    with open(os.devnull, "w") as null:
        out, sys.stdout = sys.stdout, null
        try:
            assert main(["import", "--db", path, *logs]) == 0
        finally:
            sys.stdout = out
    return path


def projection_of(path: str) -> str:
    """The DuckDB file beside the store, brought up to date (``brag analytics refresh``)."""
    from brag.cli import main

    duck = str(Path(path).with_suffix(".duckdb"))
    t = time.perf_counter()
    assert main(["analytics", "refresh", "--db", path, "--analytics", duck]) == 0
    took = time.perf_counter() - t
    if took > 5:
        print(f"  ({duck} brought up to date in {took:.0f} s)")
    return duck


class Timed:
    """Times each script run of the app (the page's work, without ``AppTest``'s own start)."""

    def __init__(self) -> None:
        from streamlit.runtime.scriptrunner.script_runner import ScriptRunner

        self.last = 0.0
        original = ScriptRunner._run_script

        def run(runner: Any, rerun_data: Any) -> None:
            t = time.perf_counter()
            try:
                original(runner, rerun_data)
            finally:
                self.last = time.perf_counter() - t

        ScriptRunner._run_script = run  # type: ignore[method-assign]


def use(path: str, duck: str) -> None:
    """Points the dashboard at the store and its projection, every cache cleared (cold)."""
    import streamlit as st

    os.environ["BRAG_DB"] = path
    os.environ["BRAG_ANALYTICS"] = duck
    st.cache_data.clear()
    st.cache_resource.clear()


def first_run(timed: Timed, page: str) -> float:
    """Milliseconds of the page's first run on cold caches (the store set by :func:`use`)."""
    import streamlit as st
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(APP, default_timeout=900)
    # AppTest takes a page only after the app's first run (the navigation is made by it): that
    # run draws the default page, so every cache is cleared again before the page is timed.
    at.run()
    st.cache_data.clear()
    st.cache_resource.clear()
    at.switch_page(PAGE_FILES[page])
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.title[0].value.lower() == page, at.title[0].value
    return timed.last * 1000


def cache_parts() -> dict[str, Callable[[], object]]:
    """The cache functions the three pages' first runs call, by name (each run cold)."""
    from dashboard.common import cache

    def players() -> list[str]:
        return [r["player"] for r in stats_cache.stat("player_stats", table=None)]

    def first() -> str:
        return players()[0]

    return {
        "session_facets": cache.session_facets,
        "session_count": cache.session_count,
        "session_page": cache.session_page,
        "session_ids": lambda: cache.session_ids(limit=cache.PICKER_LIMIT),
        "replay (newest)": lambda: cache.replay(cache.session_ids(limit=1)[0]),
        "stat tables": lambda: stats_cache.stat("tables"),
        "stat player_stats": players,
        "deals_behind_total blind_rate": lambda: stats_cache.deals_behind_total(
            first(), "blind_rate"
        ),
        "deals_behind blind_rate p1": lambda: stats_cache.deals_behind(
            first(), "blind_rate", page=1
        ),
        "session_net_ticks": lambda: stats_cache.session_net_ticks(first()),
        "stat showdown_hands": lambda: stats_cache.stat(
            "showdown_hands", player=first(), table=None
        ),
        "season (this season)": this_season,
    }


def this_season() -> object:
    """The Players page's season panel's read: this season (the term of the latest session)
    ranked by the two formulas, read through the projection (issue 37 item 5)."""
    from dashboard.common import cache
    from dashboard.stats.season_panel import FORMULAS, season_title

    span = cache.session_facets()[2]
    assert span is not None
    return stats_cache.season(*season_title(None, span[1])[1], FORMULAS)


def median_cold(path: str, duck: str, fn: Callable[[], object], runs: int) -> float:
    import streamlit as st

    times = []
    for _ in range(runs):
        use(path, duck)
        fn()  # the parts it needs first (the players, the newest session) are cached by then
        st.cache_data.clear()
        st.cache_resource.clear()
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--store", required=True, help="the big SQLite file (bench/scale.py --dir)")
    ap.add_argument("--season", help="a SQLite file of the season (default: imported here)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--pages", default=",".join(PAGES))
    ap.add_argument("--no-parts", action="store_true", help="leave out the cache functions")
    args = ap.parse_args(argv)
    logging.disable(logging.WARNING)  # AppTest outside a server warns of the missing runtime

    from log.open import open_store
    from store.schema import CATALOGUE

    tmp = tempfile.mkdtemp(prefix="brag-pages-scale-")
    season = args.season or season_store(tmp)
    stores = {
        "season": (season, projection_of(season)),
        "big": (args.store, projection_of(args.store)),
    }
    for name, (path, _) in stores.items():
        with open_store(path, readonly=True) as store:
            n, events = store.session_count(), store.last_position()
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:  # the catalogue's sum
            found = conn.execute(f"SELECT coalesce(sum(deals), 0) FROM {CATALOGUE}").fetchone()
        deals = int(found[0])
        print(f"{name}: {path}: {deals:,} deals, {n:,} sessions, {events:,} events")
    print(f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f}")

    timed = Timed()
    pages = [p for p in args.pages.split(",") if p]
    figures: dict[str, dict[str, list[float]]] = {p: {"season": [], "big": []} for p in pages}
    for page in pages:
        use(*stores["season"])
        first_run(timed, page)  # the modules imported, unmeasured
        for _ in range(args.runs):
            for name, (path, duck) in stores.items():
                use(path, duck)
                figures[page][name].append(first_run(timed, page))
    print()
    print(f"Each page's first run (cold caches, AppTest), median of {args.runs}:")
    for page in pages:
        s = statistics.median(figures[page]["season"])
        b = statistics.median(figures[page]["big"])
        print(
            f"  {page:<9} season {s:7.0f} ms   big {b:7.0f} ms   {b / s:5.2f}x "
            f"(target <= {TARGET:.0f}x: {'met' if b / s <= TARGET else 'MISSED'})"
        )
    if not args.no_parts:
        print()
        print(f"The cache functions behind them, each cold, median of {args.runs}:")
        for what, fn in cache_parts().items():
            s = median_cold(*stores["season"], fn, args.runs)
            b = median_cold(*stores["big"], fn, args.runs)
            print(f"  {what:<26} season {s:8.1f} ms   big {b:8.1f} ms   {b / s:6.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
