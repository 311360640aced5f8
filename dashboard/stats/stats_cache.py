"""The statistics' caches: the analytics projection caught up with the store by one writer, and
what the pages read from it, kept per checkpoint of the projection (STYLE.md).

Two steps, apart. ONE writer per projection file and store, a daemon thread of the server
(:class:`_Writer`, started by the first reader), catches the projection up (a DuckDB write in
one transaction on the file, ``analytics.building.caught_up``, under
:data:`dashboard.stats.projection.LOCK`): at once when started, then every :data:`REFRESH_EVERY`
seconds when the store has moved (its last position), and when asked (:func:`refresh_analytics`).
Pages never run the catch-up: they only read, each read kept per checkpoint the writer last
reached (:func:`analytics_version`); a page's first call, :func:`checked_version`, also says
what the writer's last catch-up raised. A page drawn before the first catch-up finished waits
for it up to :data:`FIRST_WAIT` seconds, then says the statistics are being prepared
(:class:`Preparing`). Which statistic a name reads is a table (:func:`_query`,
:func:`_spot_query`), not a lookup by name.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from types import ModuleType
from typing import Any

import streamlit as st

from dashboard.common.settings import analytics_path, db_url
from dashboard.common.stores import _store, events
from dashboard.stats import projection
from log.register import register_of

__all__ = [
    "DRILL_PAGE",
    "FIRST_WAIT",
    "REFRESH_EVERY",
    "REFRESH_WAIT",
    "Preparing",
    "analytics_version",
    "checked_version",
    "deals_behind",
    "deals_behind_total",
    "refresh_analytics",
    "run_sql",
    "schema",
    "season",
    "session_net_ticks",
    "spots",
    "stat",
]

_LOG = logging.getLogger("bragbook.dashboard")

Dates = tuple[date, date] | None
"""The dates a statistic covers (``analytics.queries.Dates``): ``None`` for every session."""

REFRESH_EVERY = 10.0
"""Seconds between two looks of the writer at whether the store has moved."""

FIRST_WAIT = 30.0
"""Seconds a page waits for the writer's first catch-up (or for its next try after one that
failed) before saying the statistics are being prepared."""


REFRESH_WAIT = 600.0
"""Seconds :func:`refresh_analytics` waits for the catch-up it asked for."""


# --- catching the projection up: the one writer ---------------------------------------------------


class Preparing(Exception):
    """The writer's first catch-up of the projection has not finished within :data:`FIRST_WAIT`
    seconds (a first build of a large store)."""

    def __init__(self) -> None:
        super().__init__("they are being prepared from the store; this page shows them when ready")


def _catch_up(url: str, path: str) -> tuple[int, int, int]:
    """Catches the projection up with the store; ``(checkpoint position, events applied, the
    players' register's version followed)`` (a merge or an undo re-keys it:
    ``analytics.register``). An
    existing projection of this store takes the new events in one transaction on the file (a
    catch-up that fails, a full disk, leaves it as it was); a first one is built beside and
    renamed into place; a projection of another store is rebuilt or refused
    (``analytics.building.caught_up``). Only the writer's thread calls it."""
    import analytics.building
    import analytics.projector
    from analytics.building import caught_up

    with projection.LOCK:
        store = _store(url)
        register = register_of(store).version  # read first: a later merge is caught up next
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
            return report.position, report.events, register
        return have, 0, register


class _Writer:
    """The one writer of the projection ``path`` for the store ``url`` in this process: a daemon
    thread that catches up at once, then every :data:`REFRESH_EVERY` seconds when the store's last
    position is past the checkpoint, and when asked (:meth:`ask`). It opens, writes and closes the
    file each time (another process reads it in between). What it reached is ``checkpoint``
    (``(position, events applied)`` of the last catch-up that succeeded; ``None`` before),
    ``error`` what the last try raised (``None`` when it succeeded), ``tries`` how many finished,
    all read under ``cond``. It runs while the Record page records (the store moves): a loop of
    the warm-up that caught up then once made tests/browser/test_browser_record.py's double tap
    record twice (commit 6c9cd48), which that test checks."""

    def __init__(self, url: str, path: str) -> None:
        self.url, self.path = url, path
        self.cond = threading.Condition()
        self.checkpoint: tuple[int, int, int] | None = None
        self.error: BaseException | None = None
        self.tries = 0
        self.asked = self.answered = 0
        self.thread = threading.Thread(target=self._run, name="bragbook-projection", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while True:
            with self.cond:
                if self.tries:
                    self.cond.wait_for(lambda: self.asked > self.answered, timeout=REFRESH_EVERY)
                asked = self.asked
                due = asked > self.answered or self.checkpoint is None or self.error is not None
                kept = self.checkpoint
            got: tuple[int, int, int] | None
            try:
                got, failed = self._try(due, kept), None
            except Exception as err:  # said by the pages (checked_version); tried again
                got, failed = kept, err
                _LOG.info("catching the statistics up: %s", err)
            with self.cond:
                self.checkpoint, self.error = got, failed
                self.tries += 1
                self.answered = asked
                self.cond.notify_all()

    def _try(self, due: bool, kept: tuple[int, int, int] | None) -> tuple[int, int, int]:
        if (
            not due
            and kept is not None
            and _store(self.url).last_position() <= kept[0]
            and register_of(_store(self.url)).version == kept[2]  # a merge, an undo: re-keyed
        ):
            return kept  # the store has not moved: nothing opened, nothing written
        return _catch_up(self.url, self.path)

    def ask(self, timeout: float) -> None:
        """Asks for a catch-up now and waits for it, at most ``timeout`` seconds."""
        with self.cond:
            self.asked += 1
            ticket = self.asked
            self.cond.notify_all()
            self.cond.wait_for(lambda: self.answered >= ticket, timeout=timeout)

    def first(self, timeout: float) -> None:
        """Waits for the first try to finish, at most ``timeout`` seconds."""
        with self.cond:
            self.cond.wait_for(lambda: self.tries > 0, timeout=timeout)


_WRITERS: dict[tuple[str, str], _Writer] = {}
_WRITERS_LOCK = threading.Lock()


def _writer() -> _Writer:
    """The writer of this server's projection (:func:`dashboard.common.settings.analytics_path`)
    for its store, started by the first call: one per ``(store, file)`` in the process."""
    key = (db_url(), analytics_path())
    with _WRITERS_LOCK:
        found = _WRITERS.get(key)
        if found is None or not found.thread.is_alive():
            found = _WRITERS[key] = _Writer(*key)
        return found


def checked_version() -> int:
    """The checkpoint the statistics are read at, for a page before it reads: what the writer's
    last catch-up reached. Waits up to :data:`FIRST_WAIT` seconds for its first (and, after one
    that failed, for it to try again); raises what that try raised (a store that cannot be
    reached, a projection of another store refused, a full disk), or :class:`Preparing` while
    the first has not finished. Never writes."""
    w = _writer()
    with w.cond:
        failed = w.error is not None
    if failed:
        w.ask(FIRST_WAIT)
    else:
        w.first(FIRST_WAIT)
    return _reached(w)


def _reached(w: _Writer) -> int:
    """The writer's last checkpoint; raises what its last catch-up raised, or :class:`Preparing`
    before its first."""
    with w.cond:
        if w.error is not None:
            raise w.error
        if w.checkpoint is None:
            raise Preparing
        return w.checkpoint[0]


def analytics_version() -> int:
    """The checkpoint the statistics are read at: the writer's last. Only reads; before the
    writer's first catch-up it waits as :func:`checked_version` does (and raises as it does)."""
    return _version()[0]


Version = tuple[int, int]
"""What the cached reads are keyed on: the writer's last checkpoint and the players' register's
version it followed (a merge moves the statistics, not the checkpoint)."""


def _version() -> Version:
    """The writer's last :data:`Version`; before its first catch-up, waits as
    :func:`checked_version` does (and raises as it does)."""
    w = _writer()
    with w.cond:
        kept = w.checkpoint
    if kept is None:
        checked_version()  # returns once the writer has reached one
        with w.cond:
            kept = w.checkpoint
    assert kept is not None  # checked_version raised otherwise
    return kept[0], kept[2]


def refresh_analytics() -> int:
    """Asks the writer to catch up now and waits for it (a "Refresh"); returns the checkpoint
    reached, or raises what the catch-up raised."""
    w = _writer()
    w.ask(REFRESH_WAIT)
    return _reached(w)


# --- the reads, per checkpoint ------------------------------------------------------------------


_QUERIES = frozenset(
    {
        "player_stats",
        "session_priors",
        "tables",
        "leaderboard",
        "overall_leaderboard",
        "showdown_hands",
        "session_nets",
        "pot_sizes",
        "deal_lengths",
        "decisions",
        "deals_behind",
        "deals_behind_total",
        "skill_summary",  # issue 37: dashboard/stats/skill_panel.py
        "skill_pair",
    }
)


def _named(module: ModuleType, names: frozenset[str], name: str) -> Callable[..., Any]:
    """The function ``name`` of ``module`` (a statistic of :mod:`analytics.queries`, a question of
    :mod:`analytics.spots`) when it is one of ``names``; raises ``ValueError`` otherwise."""
    if name in names:
        return getattr(module, name)  # type: ignore[no-any-return]  # one of the names given
    raise ValueError(f"no {name!r} among the functions of {module.__name__} asked here")


def _query(name: str) -> Callable[..., Any]:
    """The statistic of :mod:`analytics.queries` named ``name`` (:func:`_named`)."""
    from analytics import queries

    return _named(queries, _QUERIES, name)


@st.cache_data(show_spinner=False, max_entries=256)
def _stat(path: str, version: Version, name: str, kwargs: tuple[tuple[str, Any], ...]) -> Any:
    with projection.opened() as con:
        return _query(name)(con, **dict(kwargs))


DRILL_PAGE = 50
"""The deals behind a statistic listed on one page of the Players page (a season's player has
a few hundred, a league's thousands: :func:`deals_behind_total` counts them all): on a phone,
where the rows are part of the page, about four screens."""


def deals_behind(
    player: str,
    statistic: str,
    table: str | None = None,
    page: int | None = None,
    dates: Dates = None,
) -> list[dict[str, Any]]:
    """The player's deals behind one statistic (``analytics.queries.deals_behind``), each step
    numbered as the Replay page numbers it (a session with a correction is read from the
    store); with ``page`` (1-based), only that page of :data:`DRILL_PAGE` deals (only their
    sessions' events read); within ``dates`` when given (``analytics.queries.Dates``)."""
    from analytics import queries

    paged = {} if page is None else {"limit": DRILL_PAGE, "offset": (max(1, page) - 1) * DRILL_PAGE}
    asked = {"player": player, "statistic": statistic, "table": table, "dates": dates}
    rows = [dict(r) for r in stat("deals_behind", **asked, **paged)]
    if any(r["corrected"] for r in rows):
        queries.renumber(rows, events)
    return rows


def deals_behind_total(
    player: str, statistic: str, table: str | None = None, dates: Dates = None
) -> dict[str, Any]:
    """What all the player's deals behind one statistic add up to
    (``analytics.queries.deals_behind_total``: ``deals``, ``counted``, ``hits``), without
    reading their events; kept until the projection moves on."""
    asked = {"player": player, "statistic": statistic, "table": table, "dates": dates}
    return dict(stat("deals_behind_total", **asked))


@st.cache_data(show_spinner=False, max_entries=64)
def _nets(
    path: str, version: Version, url: str, player: str, table: str | None, dates: Dates
) -> list[tuple[str, int | None, int, int]]:
    """``(session, started as UTC microseconds or None, net in ticks, den)``: ints and texts
    only, which pickle ten times faster than datetimes (a league's player: 7,700 sessions, 62
    ms to pickle with datetimes)."""
    from analytics import queries

    with projection.opened() as con:
        rows = queries.session_net_ticks(con, player, table, dates)
    untimed = [s for s, started, _, _ in rows if started is None]
    if not untimed:
        return rows
    infos = _store(url).session_infos(untimed)  # one read for all of them
    out = []
    for session, started, net_t, den in rows:
        info = infos.get(session)
        if started is None and info is not None and info.started is not None:
            started = _micros(info.started)
        out.append((session, started, net_t, den))
    return out


def _micros(at: datetime | str) -> int:
    """``at`` (a datetime, or its ISO text with an offset) as UTC microseconds since 1970."""
    t = datetime.fromisoformat(at) if isinstance(at, str) else at
    return ((t if t.tzinfo else t.replace(tzinfo=UTC)) - _EPOCH) // timedelta(microseconds=1)


def session_net_ticks(
    player: str, table: str | None = None, dates: Dates = None
) -> list[tuple[str, int | None, int, int]]:
    """The player's net in each session with an ended deal of theirs
    (``analytics.queries.session_nets``, kept until the projection moves on) as the chart sums
    it (``dashboard.stats.tables.net_over_ticks``): ``(session, started as UTC microseconds or
    None, net in ticks, den)``; ``started`` as the store's catalogue lists it (a log without
    times: when it was stored, one read of the catalogue for all of them), so the chart orders
    the sessions as the listing does. Plain tuples: a league's player has 25,000 sessions, whose
    dicts of Fractions took 0.2 s to make at each run. Within ``dates`` when given."""
    return _nets(analytics_path(), _version(), db_url(), player, table, dates)


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def stat(name: str, **kwargs: Any) -> Any:
    """A statistic of :mod:`analytics.queries` (``player_stats``, ``leaderboard``,
    ``showdown_hands``, ...), kept until the projection moves on."""
    return _stat(analytics_path(), _version(), name, tuple(sorted(kwargs.items())))


@st.cache_data(show_spinner=False, max_entries=8)
def _schema(path: str, version: Version) -> list[dict[str, Any]]:
    import analytics.explore

    with projection.opened() as con:
        return list(analytics.explore.schema(con))


def schema() -> list[dict[str, Any]]:
    """The projection's tables and their documented columns."""
    return _schema(analytics_path(), _version())


def run_sql(sql: str) -> Any:
    """One analyst's SELECT, within Explore's limits (``analytics.explore.Limits``: time, memory,
    spill,
    rows, bytes; ``BRAG_EXPLORE_*``), on its own read-only connection to a snapshot of the
    projection, without file access; returns ``analytics.explore.Limited``. Raises
    ``analytics.explore.ReadOnlyError`` for anything that is not a single SELECT,
    ``analytics.explore.LimitReached`` for a limit hit, ``duckdb.Error`` for SQL DuckDB refuses."""
    import analytics.explore

    version = _version()
    return analytics.explore.run_limited(projection.snapshot(analytics_path(), version), sql)


@st.cache_resource(
    show_spinner="Counting the decisions per spot, once for this version of the statistics…",
    max_entries=2,
)
def _cube(path: str, version: Version) -> Any:
    """The projection's decisions counted per cell of the spot grid (``analytics.spots.Cube``),
    built once per version of the projection."""
    from analytics.spots import Cube

    with projection.opened() as con:
        return Cube(con)


_SPOT_QUESTIONS = frozenset({"explore", "behind", "differences", "winning_players"})


def _spot_query(name: str) -> Callable[..., Any]:
    """The question of :mod:`analytics.spots` named ``name`` (:func:`_named`)."""
    from analytics import spots

    return _named(spots, _SPOT_QUESTIONS, name)


@st.cache_data(show_spinner=False, max_entries=256)
def _spots(path: str, version: Version, name: str, kwargs: tuple[tuple[str, Any], ...]) -> Any:
    from analytics import spots

    args = dict(kwargs)
    if "spot" in args:
        args["spot"] = spots.Spot.parse(args["spot"])
    question = _spot_query(name)
    args["cube"] = _cube(path, version)  # every question of analytics.spots asked here takes it
    with projection.opened() as con:
        return question(con, **args)


def spots(name: str, **kwargs: Any) -> Any:
    """The decision explorer (:mod:`analytics.spots`: ``explore``, ``behind``, ``differences``,
    ``winning_players``) with ``spot`` given as its text, kept until the projection moves on; a
    spot on the grid's lines is answered from the projection's cube (:func:`_cube`)."""
    return _spots(analytics_path(), _version(), name, tuple(sorted(kwargs.items())))


# --- the season: read from the store, per version of its log ------------------------------------


@st.cache_resource(show_spinner=False)
def _seasons(url: str) -> Any:
    """The server's one :class:`service.season.SeasonCache` for the store ``url``."""
    from service.season import SeasonCache

    return SeasonCache()


def season(start: date, end: date, formulas: tuple[str, ...]) -> Any:
    """The season from ``start`` to ``end`` ranked by ``formulas`` (their texts,
    :func:`service.season.parse_formula`), a :class:`service.season.Season`: listed from the
    store, each night kept by what it was made from (its sessions' last seqs, the register, its
    facts: :func:`service.season.night_key`), so a correction, a new pot or a night finalised
    anywhere shows at the next read; a night made anew sums what the projection folded of its
    sessions up to the store's last seq (:func:`_season_parts`) and folds the rest. Raises
    :class:`service.season.SeasonRefused` when no session started in the dates."""
    from service.season import parse_formula

    store = _store(db_url())
    asked = [parse_formula(f) for f in formulas]
    return _seasons(db_url()).season(store, start, end, asked, _season_parts)


def _season_parts(sums: Any, listing: Any) -> Any:
    """What the projection holds of the season's nights (:func:`analytics.season_parts.
    season_parts` of the store's ``sums`` by night, its ``listing`` asked for the nights the
    projection has not caught up with), so that a league's season is summed in DuckDB, not
    folded session by session; ``None`` (every night folded from the store) when the projection
    cannot be read: not built yet, of another schema, gone."""
    import duckdb

    from analytics.season_parts import season_parts

    try:
        with projection.opened() as con:
            return season_parts(con, sums, listing)
    except (duckdb.Error, OSError) as err:
        _LOG.info("the season folded from the store: the projection was not read (%s)", err)
        return None
