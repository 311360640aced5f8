"""The dashboard's caches warmed as the server starts, in the background (issue 22, part 2).

A newcomer's first page used to pay for what the server could have done before anybody asked:
Streamlit's one-time look at how it was started (``inspect.stack`` over every loaded module, on
the first element a process draws) and its compiling of each page's file, the store opened and
its catalogue's filter choices read, the projection checked against the store and opened once
per statistic, Altair imported and its schema validator built (about 2 s under load on the
Players page alone). :func:`start` does that work in a daemon thread once Streamlit's runtime is
up (``dashboard/common/server.py``'s lifespan), in the order a newcomer opens the pages: Sessions,
Session and Replay, Players, Decisions, Explore, Record.

It never blocks a page: pages do not wait for it, and a page asking for a value the thread is
computing waits for that one value (Streamlit's caches compute a key once) instead of computing
it again. It fills the very caches the pages read (:mod:`dashboard.common.cache`, with the
arguments the
pages' first screens pass), so what a page shows is what it would have computed itself. A step
that fails (no store yet, a projection of another store) is left for the page, which says why.
The thread ends once warm. The projection is not caught up here: its one writer
(``dashboard.stats.stats_cache._Writer``, started by the Players step's first read) does that.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from dashboard.stats import stats_cache

__all__ = ["REPLAYS", "start", "steps"]

_LOG = logging.getLogger("bragbook.dashboard")

REPLAYS = 8
"""The newest sessions replayed ahead (the first rows of the Sessions page)."""


def _streamlit_first_element() -> None:
    # Streamlit asks once per process whether it runs in a REPL (``inspect.stack()``, which
    # resolves the file of every loaded module) when the first element is drawn: 0.3-1 s of
    # the first page. Asked here, off any page; the answer is a warning never shown under
    # ``streamlit run``.
    from streamlit import delta_generator

    ask = getattr(delta_generator, "_maybe_print_use_warning", None)
    if ask is not None:
        ask()


def _page_scripts() -> None:
    # Streamlit compiles each page's file on its first run (its script cache, shared by every
    # session of the server): compiled here instead.
    from streamlit.runtime import Runtime

    from dashboard.common.pages import DASHBOARD, PAGE_FILES, page_file

    scripts = getattr(Runtime.instance(), "_script_cache", None)
    if scripts is None:
        return

    for path in [DASHBOARD / "app.py", *map(page_file, sorted(PAGE_FILES))]:
        scripts.get_bytecode(str(path))


def _sessions_page() -> None:
    from dashboard.common import cache

    cache.session_facets()  # opens the store for reading, reads the filter choices
    cache.session_count()


def _replays() -> None:
    from dashboard.common import cache
    from present.animation import text_width

    text_width("Bragbook", 10)  # the table picture's font (Pillow's FreeType), read once
    for session in cache.session_ids(limit=REPLAYS):
        cache.replay(session)


def _charts() -> None:
    # Altair and its JSON schema validator, built by the first chart drawn (Players, Session).
    import importlib

    import altair as alt

    importlib.import_module("pyarrow")  # st.dataframe's and the charts' conversion
    values = [{"x": 1, "y": 1}, {"x": 2, "y": 2}]
    points = alt.Data(values=values)  # type: ignore[no-untyped-call]  # altair: __init__ unannotated
    alt.Chart(points).mark_line().encode(x="x:Q", y="y:Q").to_dict()


def _players_page() -> None:
    from dashboard.stats import figures as stats_view

    stats_cache.checked_version()  # as the statistics pages do before they read
    stats_cache.stat("tables")
    stats = stats_cache.stat("player_stats", table=None)
    if not stats:
        return
    first = stats[0]["player"]  # the Players page's first player
    stats_cache.deals_behind_total(first, stats_view.DRILLED[0], None)
    stats_cache.deals_behind(first, stats_view.DRILLED[0], None, page=1)  # its first page, as shown
    stats_cache.session_net_ticks(first, None)
    stats_cache.stat("showdown_hands", player=first, table=None)


def _decisions_page() -> None:
    from analytics.spots import Spot

    stats_cache.stat("player_stats")
    stats_cache.spots("explore", spot=str(Spot()), player=None, table=None, cards=None)


def _explore_page() -> None:

    stats_cache.schema()


def _record_page() -> None:
    from dashboard.common import cache

    cache.sessions()  # the session picker's listing


def _review_page() -> None:
    # The luck forests (analytics/luck_forest.json.gz, about 0.7 s to read: the Review page's
    # luck of each deal and the projection's fold both walk them) and the shipped solution
    # (data/solver/, issue 38.3) read into memory, with each game's reaches and values: the
    # Review page's first review reads none of it from disk.
    from analytics.luck_forest import forest
    from solver.warm import preload

    for seats in range(2, 8):
        forest(seats)
    preload()


def steps() -> list[tuple[str, Callable[[], Any]]]:
    """What :func:`start` does, in order: ``(name, step)``."""
    return [
        ("streamlit", _streamlit_first_element),
        ("scripts", _page_scripts),
        ("sessions", _sessions_page),
        ("replays", _replays),
        ("charts", _charts),
        ("players", _players_page),
        ("decisions", _decisions_page),
        ("explore", _explore_page),
        ("record", _record_page),
        ("review", _review_page),
    ]


def _warm() -> None:
    began = time.perf_counter()
    for name, step in steps():
        try:
            step()
        except Exception as err:  # the page that needs it says what is wrong
            _LOG.info("warming %s: %s", name, err)

    _LOG.info("caches warmed in %.1f s", time.perf_counter() - began)


def start() -> threading.Thread:
    """Starts warming the caches in a daemon thread (see the module's docstring); returns it."""
    thread = threading.Thread(target=_warm, name="bragbook-warm", daemon=True)
    thread.start()
    return thread
