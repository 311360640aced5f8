"""The statistics' caches: the analytics projection caught up with the store, and what the pages
read from it, kept per checkpoint of the projection (STYLE.md).

Two steps, apart: :func:`refresh_statistics` catches the projection up with the store (a DuckDB
write, under :data:`dashboard.stats.projection.LOCK`; at most every :data:`REFRESH_EVERY` seconds),
and
the pages call it before they read; the reads (:func:`stat`, :func:`spots`, :func:`schema`, ...)
only read, each kept per checkpoint the last refresh reached (:func:`analytics_version`). Which
statistic a name reads is a table (:func:`_query`, :func:`_spot_query`), not a lookup by name.

:mod:`dashboard.common.cache` re-exports every public name here (``cache.stat``, ``cache.spots``,
...).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import streamlit as st

from dashboard.common.settings import analytics_path, db_url
from dashboard.common.stores import _store, events
from dashboard.stats import projection

__all__ = [
    "DRILL_PAGE",
    "REFRESH_EVERY",
    "analytics_version",
    "check_again",
    "deals_behind",
    "deals_behind_total",
    "refresh_analytics",
    "refresh_statistics",
    "run_sql",
    "schema",
    "session_nets",
    "spots",
    "stat",
]

REFRESH_EVERY = 10.0
"""Seconds between two looks at whether the projection is behind the store."""


# --- catching the projection up (the one write) ---------------------------------------------------


class _CaughtUp:
    """The last catch-up of one projection file with one store: when (``time.monotonic``) and
    ``(checkpoint position, events applied)``; ``None`` before the first. One lock: one catch-up
    at a time, the others wait for it and take its checkpoint."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.at = 0.0
        self.checkpoint: tuple[int, int] | None = None


@st.cache_resource(show_spinner=False)
def _caught_up(url: str, path: str) -> _CaughtUp:
    """The catch-ups of the projection ``path`` with the store ``url``, shared by every session of
    the server (a holder: nothing is read or written here)."""
    return _CaughtUp()


def _catch_up(url: str, path: str) -> tuple[int, int]:
    """Catches the projection up with the store; ``(checkpoint position, events applied)``. The
    new projection is built beside the old and renamed into place
    (``analytics.building.replacing``): a
    catch-up that fails (a full disk) leaves the old one, or none. A projection of another
    store is rebuilt or refused (``analytics.building.caught_up``)."""
    import analytics.building
    import analytics.projector
    from analytics.building import caught_up

    with projection.LOCK:
        store = _store(url)
        have = analytics.building.current_checkpoint(path, store.store_id, store)
        if have is None or have < store.last_position():
            # A projection of another store: rebuilt when it is this store's default file, else
            # refused (the pages say why), never mixed (analytics.owner).
            report, _ = caught_up(
                path,
                url,
                lambda con: analytics.projector.refresh(store, con),
                rebuild=lambda con: analytics.projector.rebuild(store, con),
            )
            return report.position, report.events
        return have, 0


def refresh_statistics(*, now: bool = False) -> int:
    """Brings the projection up to date with the store and returns its checkpoint, the version the
    statistics are read at: at most every :data:`REFRESH_EVERY` seconds (a check made since is
    taken), or ``now``. The statistics pages call it before they read (inside
    ``ui.analytics_or_stop``, which says a projection that cannot be built). Raises what the
    catch-up raises; nothing is kept then, and the next call tries again."""
    url, path = db_url(), analytics_path()
    done = _caught_up(url, path)
    with done.lock:
        fresh = time.monotonic() - done.at < REFRESH_EVERY
        if now or done.checkpoint is None or not fresh:
            done.checkpoint = _catch_up(url, path)
            done.at = time.monotonic()
        return done.checkpoint[0]


def check_again() -> None:
    """The projection's next refresh asks the store again (its last position), instead of taking
    a check made less than :data:`REFRESH_EVERY` seconds ago: the warm-up's check
    (:mod:`dashboard.common.warm`) is not one a page may skip, so a page's first run still says a
    store
    that cannot be reached (:mod:`dashboard.common.faults`)."""
    _caught_up.clear()


def analytics_version() -> int:
    """The checkpoint the statistics are read at, the version the cached reads are keyed on: the
    last :func:`refresh_statistics`'s. Only reads, except before the server's first refresh of
    this projection (a read with no page before it: the warm-up, a script), which refreshes."""
    done = _caught_up(db_url(), analytics_path())
    with done.lock:
        kept = done.checkpoint
    return kept[0] if kept is not None else refresh_statistics()


def refresh_analytics() -> int:
    """Catches up now (:func:`refresh_statistics` with ``now``); returns the checkpoint."""
    return refresh_statistics(now=True)


# --- the reads, per checkpoint ------------------------------------------------------------------


def _query(name: str) -> Callable[..., Any]:
    """The statistic of :mod:`analytics.queries` named ``name`` (raises ``ValueError`` for a name
    that is none of them)."""
    from analytics import queries

    match name:
        case "player_stats":
            return queries.player_stats
        case "tables":
            return queries.tables
        case "leaderboard":
            return queries.leaderboard
        case "overall_leaderboard":
            return queries.overall_leaderboard
        case "showdown_hands":
            return queries.showdown_hands
        case "session_nets":
            return queries.session_nets
        case "pot_sizes":
            return queries.pot_sizes
        case "deal_lengths":
            return queries.deal_lengths
        case "decisions":
            return queries.decisions
        case "deals_behind":
            return queries.deals_behind
        case "deals_behind_total":
            return queries.deals_behind_total
    raise ValueError(f"no statistic {name!r} in analytics.queries")


@st.cache_data(show_spinner=False, max_entries=256)
def _stat(path: str, version: int, name: str, kwargs: tuple[tuple[str, Any], ...]) -> Any:
    with projection.opened(read_only=True) as con:
        return _query(name)(con, **dict(kwargs))


DRILL_PAGE = 300
"""The deals behind a statistic listed on one page of the Players page (a season's player has
fewer; a league's has thousands: :func:`deals_behind_total` counts them all)."""


def deals_behind(
    player: str, statistic: str, table: str | None = None, page: int | None = None
) -> list[dict[str, Any]]:
    """The player's deals behind one statistic (``analytics.queries.deals_behind``), each step
    numbered as the Replay page numbers it (a session with a correction is read from the
    store); with ``page`` (1-based), only that page of :data:`DRILL_PAGE` deals (only their
    sessions' events read)."""
    from analytics import queries

    paged = {} if page is None else {"limit": DRILL_PAGE, "offset": (max(1, page) - 1) * DRILL_PAGE}
    rows = [
        dict(r)
        for r in stat("deals_behind", player=player, statistic=statistic, table=table, **paged)
    ]
    if any(r["corrected"] for r in rows):
        queries.renumber(rows, events)
    return rows


def deals_behind_total(player: str, statistic: str, table: str | None = None) -> dict[str, Any]:
    """What all the player's deals behind one statistic add up to
    (``analytics.queries.deals_behind_total``: ``deals``, ``counted``, ``hits``), without
    reading their events; kept until the projection moves on."""
    return dict(stat("deals_behind_total", player=player, statistic=statistic, table=table))


@st.cache_data(show_spinner=False, max_entries=64)
def _nets(
    path: str, version: int, url: str, player: str, table: str | None
) -> list[tuple[str, Any, int, int]]:
    from analytics import queries

    with projection.opened(read_only=True) as con:
        rows = queries.session_nets(con, player, table)
    untimed = [r["session"] for r in rows if r["started"] is None]
    infos = _store(url).session_infos(untimed) if untimed else {}  # one read for all of them
    out = []
    for r in rows:
        info = infos.get(r["session"])
        started = r["started"] if info is None else info.started
        out.append((r["session"], started, r["net"].numerator, r["net"].denominator))
    return out


def session_nets(player: str, table: str | None = None) -> list[dict[str, Any]]:
    """The player's net in each session with an ended deal of theirs
    (``analytics.queries.session_nets``: ``session``, ``started``, ``net``, a few rows a session,
    kept until the projection moves on), ``started`` as the store's catalogue lists it (a log
    without times: when it was stored, one read of the catalogue for all of them), so that the
    net over time is ordered as the listing orders the sessions without reading the listing.
    Kept as plain tuples (a league's player has 15,000 sessions: a cached list of dicts of
    Fractions took 180 ms to pickle and as long to unpickle at each run)."""
    got = _nets(analytics_path(), analytics_version(), db_url(), player, table)
    return [{"session": s, "started": t, "net": Fraction(n, d)} for s, t, n, d in got]


def stat(name: str, **kwargs: Any) -> Any:
    """A statistic of :mod:`analytics.queries` (``player_stats``, ``leaderboard``,
    ``showdown_hands``, ...), kept until the projection moves on."""
    return _stat(analytics_path(), analytics_version(), name, tuple(sorted(kwargs.items())))


@st.cache_data(show_spinner=False, max_entries=8)
def _schema(path: str, version: int) -> list[dict[str, Any]]:
    import analytics.explore

    with projection.opened(read_only=True) as con:
        return list(analytics.explore.schema(con))


def schema() -> list[dict[str, Any]]:
    """The projection's tables and their documented columns."""
    return _schema(analytics_path(), analytics_version())


def run_sql(sql: str) -> Any:
    """One analyst's SELECT, within Explore's limits (``analytics.explore.Limits``: time, memory,
    spill,
    rows, bytes; ``BRAG_EXPLORE_*``), on its own read-only connection to a snapshot of the
    projection, without file access; returns ``analytics.explore.Limited``. Raises
    ``analytics.explore.ReadOnlyError`` for anything that is not a single SELECT,
    ``analytics.explore.LimitReached`` for a limit hit, ``duckdb.Error`` for SQL DuckDB refuses."""
    import analytics.explore

    version = analytics_version()
    return analytics.explore.run_limited(projection.snapshot(analytics_path(), version), sql)


@st.cache_resource(
    show_spinner="Counting the decisions per spot, once for this version of the statistics…",
    max_entries=2,
)
def _cube(path: str, version: int) -> Any:
    """The projection's decisions counted per cell of the spot grid (``analytics.spots.Cube``),
    built once per version of the projection."""
    from analytics.spots import Cube

    with projection.opened(read_only=True) as con:
        return Cube(con)


def _spot_query(name: str) -> Callable[..., Any]:
    """The question of :mod:`analytics.spots` named ``name`` (raises ``ValueError`` for a name
    that is none of them)."""
    from analytics import spots

    match name:
        case "explore":
            return spots.explore
        case "behind":
            return spots.behind
        case "differences":
            return spots.differences
        case "winning_players":
            return spots.winning_players
    raise ValueError(f"no question {name!r} of analytics.spots")


@st.cache_data(show_spinner=False, max_entries=256)
def _spots(path: str, version: int, name: str, kwargs: tuple[tuple[str, Any], ...]) -> Any:
    from analytics import spots

    args = dict(kwargs)
    if "spot" in args:
        args["spot"] = spots.Spot.parse(args["spot"])
    question = _spot_query(name)
    args["cube"] = _cube(path, version)  # every question of analytics.spots asked here takes it
    with projection.opened(read_only=True) as con:
        return question(con, **args)


def spots(name: str, **kwargs: Any) -> Any:
    """The decision explorer (:mod:`analytics.spots`: ``explore``, ``behind``, ``differences``,
    ``winning_players``) with ``spot`` given as its text, kept until the projection moves on; a
    spot on the grid's lines is answered from the projection's cube (:func:`_cube`)."""
    return _spots(analytics_path(), analytics_version(), name, tuple(sorted(kwargs.items())))
