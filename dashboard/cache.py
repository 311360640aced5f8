"""Every cache and every outside resource of the dashboard, in one module (STYLE.md).

Settings come from the environment, which ``brag dashboard`` / ``brag run`` set:

- ``BRAG_DB``: the event store URL (default ``brag.db``, SQLite);
- ``BRAG_ANALYTICS``: the DuckDB projection file (default ``brag.duckdb``);
- ``BRAG_ORGANISER_SECRET`` (or ``organiser_secret`` in Streamlit secrets): unlocks the Record page.

The store handle is shared by every session of the server (``st.cache_resource``); the list of
sessions is kept per version of the store (its last global position) and a session's replay (the
engine's states) per version of its stream (its last seq), so a session recorded on another device
shows its new events at once, and a store that does not change is read once.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import streamlit as st

from events.model import AnyEvent
from present.replay import Replay

PICKER_LIMIT = 300
"""At most this many sessions (the newest) in a session picker; the Sessions page lists all."""


# --- settings -------------------------------------------------------------------------------------


def db_url() -> str:
    """``$BRAG_DB``, else ``brag.db`` (SQLite)."""
    from events.store import resolve_url

    return resolve_url(None)


def analytics_path() -> str:
    """``$BRAG_ANALYTICS``, else the DuckDB file beside the store (``brag.duckdb``)."""
    from analytics.sources import default_projection

    return os.environ.get("BRAG_ANALYTICS") or default_projection(db_url())


def organiser_secret() -> str | None:
    """The organiser secret, from ``BRAG_ORGANISER_SECRET`` or ``st.secrets["organiser_secret"]``;
    ``None`` when neither is set (the app is then read-only)."""
    env = os.environ.get("BRAG_ORGANISER_SECRET")
    if env:
        return env
    try:
        value = st.secrets.get("organiser_secret")
    except Exception:  # no secrets file at all: Streamlit raises its own error type
        return None
    return str(value) if value else None


# --- the event store ------------------------------------------------------------------------------


@st.cache_resource(show_spinner=False)
def _store(url: str) -> Any:
    from events.store import open_store

    return open_store(url)


def store() -> Any:
    """The event store (``events.store``), opened once per URL for the whole server."""
    return _store(db_url())


class Listing:
    """The store's sessions at one version: in the order stored, and by id."""

    def __init__(self, infos: Sequence[Any]) -> None:
        self.infos = tuple(infos)
        self.by_id = {i.id: i for i in self.infos}
        self.started = {i.id: i.started for i in self.infos}


class _Listings:
    """The latest full listing of one store, read from its session catalogue (one row per
    session, kept by every append) again only when the store has grown (its last global
    position moved)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.lock = threading.Lock()
        self.current: Listing | None = None
        self.version = -1

    def get(self) -> Listing:
        version = int(_store(self.url).last_position())
        with self.lock:
            if self.current is None or version != self.version:
                self.current, self.version = Listing(_store(self.url).sessions()), version
            return self.current


@st.cache_resource(show_spinner=False)
def _listings(url: str) -> _Listings:
    return _Listings(url)


def listing() -> Listing:
    """Every session as the store lists them (see :class:`_Listings`): one cheap query per run
    while the store does not change. Pickers read a page instead (:func:`session_ids`)."""
    return _listings(db_url()).get()


def sessions() -> tuple[Any, ...]:
    """Every session's :class:`~events.store.SessionInfo`, in the order stored."""
    return listing().infos


SESSIONS_PAGE = 100
"""Sessions on one page of the Sessions page."""
NO_TABLE = "(none)"
"""How the Sessions page's table filter names a session recorded without a table."""


@st.cache_data(show_spinner=False, max_entries=4)
def _facets(url: str, version: int) -> tuple[list[str], list[str], Any]:
    players, tables, dates = _store(url).session_facets()
    return players, [NO_TABLE if t is None else t for t in tables], dates


def session_facets() -> tuple[list[str], list[str], Any]:
    """The Sessions page's filter choices: every player, every table (``(none)``: sessions
    without one), the first and last dates; read from the catalogue once per store version."""
    return _facets(db_url(), int(store().last_position()))


def _filter(players: Any, tables: Any, dates: Any) -> Any:
    from events.store import SessionFilter

    span = None
    if dates:
        span = (dates[0], dates[-1])
    return SessionFilter(
        players=tuple(players or ()),
        tables=tuple(None if t == NO_TABLE else t for t in tables or ()),
        dates=span,
    )


def session_count(players: Any = (), tables: Any = (), dates: Any = None) -> int:
    """How many sessions the Sessions page's filters keep (one count of the catalogue)."""
    return int(store().session_count(where=_filter(players, tables, dates)))


def session_page(
    players: Any = (), tables: Any = (), dates: Any = None, page: int = 1
) -> list[Any]:
    """One page (1-based, :data:`SESSIONS_PAGE` long) of the sessions the filters keep, newest
    first: one indexed read of the catalogue, however many sessions the store holds."""
    return list(
        store().sessions(
            order="newest",
            limit=SESSIONS_PAGE,
            offset=(max(1, page) - 1) * SESSIONS_PAGE,
            where=_filter(players, tables, dates),
        )
    )


def session_info(session: str) -> Any | None:
    """One session's catalogue line now (``None``: not stored): one indexed query."""
    return store().session_info(session)


def session_ids(
    limit: int | None = None, keep: str | None = None, *, unfinished: bool = False
) -> list[str]:
    """Session ids, newest first (only those not over, with ``unfinished``); at most ``limit`` of
    them, read as one page of the store's session catalogue (an indexed query, however many
    sessions the store holds), so a cold picker is as quick on a league as on a club; plus
    ``keep`` when the store holds it (a session named in the link)."""
    page = store().sessions(order="newest", limit=limit, unfinished=unfinished)
    out = [i.session for i in page]
    if keep and keep not in out and store().has(keep):
        out.insert(0, keep)
    return out


def exists(session: str) -> bool:
    """Whether the store holds the session now (not as of the listing)."""
    return bool(store().has(session))


@st.cache_resource(show_spinner=False, max_entries=64)
def _replay(url: str, session: str, version: int, recorded: bool) -> Replay:
    from events.errors import BragError
    from events.store import CorruptSession

    events = _store(url).events(session)  # the whole stream from seq 1: line k is seq k
    try:
        return Replay.of(events, recorded=recorded)
    except BragError as err:  # the store was changed outside Bragbook
        raise CorruptSession(
            session,
            err.line,
            err.event,
            f"the stored stream no longer folds ({err.heading()}: {err.message})",
        ) from None


def last_seq(session: str) -> int:
    """The seq of the session's last event in the store now (0 for a session it does not hold):
    one indexed query, never cached, the live pages' poll (:mod:`dashboard.live`)."""
    return int(store().last_seq(session) or 0)


FRESH = 0.25
"""Seconds a polled last seq is shared by every viewer of a session (:func:`polled_last_seq`)."""


class _Poller:
    """The live pages' lookups of a session's last seq, for one store URL: each asked of the store
    at most once per :data:`FRESH` seconds, whoever asks, and always from one thread (the store
    keeps a connection per thread, and every Streamlit run is a new thread: asked from the run's
    thread, each poll would open a connection)."""

    def __init__(self, url: str) -> None:
        from concurrent.futures import ThreadPoolExecutor

        self.url = url
        self.thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="brag-poll")
        self.lock = threading.Lock()
        self.known: dict[str, tuple[float, int]] = {}

    def last_seq(self, session: str) -> int:
        import time

        now = time.monotonic()
        with self.lock:
            got = self.known.get(session)
            if got is not None and now - got[0] < FRESH:
                return got[1]
            last = int(self.thread.submit(_store(self.url).last_seq, session).result() or 0)
            if len(self.known) > 4096:  # sessions no longer followed
                self.known.clear()
            self.known[session] = (now, last)
            return last


@st.cache_resource(show_spinner=False, max_entries=8)
def _poller(url: str) -> _Poller:
    return _Poller(url)


def polled_last_seq(session: str) -> int:
    """:func:`last_seq` as the live pages' poll asks it (:mod:`dashboard.live`): at most
    :data:`FRESH` seconds old, one store query per session per :data:`FRESH` seconds however
    many pages follow it, on one connection. Raises what the store raises (``StoreUnavailable``)."""
    return _poller(db_url()).last_seq(session)


def replay(session: str, *, recorded: bool = False) -> Replay | None:
    """The session replayed by the engine (as corrected, or ``recorded`` with its corrections);
    ``None`` for a session the store does not hold."""
    from dashboard.ui import md
    from events.store import CorruptSession

    version = last_seq(session)
    if not version:
        return None
    try:
        return _replay(db_url(), session, version, recorded)
    except CorruptSession as err:  # one line naming the session and the seq, not a traceback
        st.error(md(err), icon=":material/error:")
        st.stop()


@st.cache_data(show_spinner=False, max_entries=256)
def _frames(
    url: str, session: str, version: int, recorded: bool, deal: int, viewer: str | None
) -> dict[str, Any]:
    from dashboard.frames import deal_frames

    return deal_frames(_replay(url, session, version, recorded), deal, viewer)


def frames(rp: Replay, deal: int, viewer: str | None) -> dict[str, Any]:
    """One deal's frames for the browser replayer (:func:`dashboard.frames.deal_frames`), kept
    per version of the session's stream, deal and viewer."""
    version = int(store().last_seq(rp.session) or 0)
    return _frames(db_url(), rp.session, version, rp.recorded, deal, viewer)


def events(session: str) -> list[AnyEvent]:
    """A session's events read now, uncached (the recorder needs the latest)."""
    return list(store().events(session))


def append(session: str, new: Sequence[AnyEvent], expected_seq: int) -> list[Any]:
    """Appends recorded events (the store adds the derived ones); the stored rows."""
    return list(store().append(session, list(new), expected_seq))


# --- the analytics projection -----------------------------------------------------------------
#
# DuckDB lets one process write a file and nobody else open it meanwhile, and one process may not
# hold the same file open twice with different settings. So the dashboard opens the projection for
# each use and closes it at once, all under one lock: read-only (external access off) for
# statistics and the analysts' SQL, read-write only to catch up with the store. The CLI can write
# the file whenever the dashboard is not in the middle of a query.

_DUCK_LOCK = threading.RLock()
REFRESH_EVERY = 10.0
"""Seconds between two looks at whether the projection is behind the store."""


@contextmanager
def _duck(*, read_only: bool) -> Iterator[Any]:
    import analytics

    with _DUCK_LOCK:
        con = analytics.connect(analytics_path(), read_only=read_only)
        try:
            yield con
        finally:
            con.close()


@st.cache_resource(show_spinner=False, ttl=REFRESH_EVERY)
def _caught_up(url: str, path: str) -> tuple[int, int]:
    """Catches the projection up with the store; ``(checkpoint position, events applied)``."""
    import analytics

    with _duck(read_only=False) as con:
        if analytics.checkpoint(con)[0] < _store(url).last_position():
            report = analytics.refresh(_store(url), con)
            return report.position, report.events
        return analytics.checkpoint(con)[0], 0


def analytics_version() -> int:
    """Brings the projection up to date with the store (at most every few seconds) and returns
    its checkpoint, the version the cached statistics are keyed on."""
    return _caught_up(db_url(), analytics_path())[0]


def refresh_analytics() -> int:
    """Catches up now (the Explore page's button); returns the checkpoint."""
    _caught_up.clear()
    return analytics_version()


@st.cache_data(show_spinner=False, max_entries=256)
def _stat(path: str, version: int, name: str, kwargs: tuple[tuple[str, Any], ...]) -> Any:
    from analytics import queries

    with _duck(read_only=True) as con:
        return getattr(queries, name)(con, **dict(kwargs))


def deals_behind(player: str, statistic: str, table: str | None = None) -> list[dict[str, Any]]:
    """The player's deals behind one statistic (``analytics.queries.deals_behind``), each step
    numbered as the Replay page numbers it (a session with a correction is read from the
    store)."""
    from analytics import queries

    rows = [dict(r) for r in stat("deals_behind", player=player, statistic=statistic, table=table)]
    if any(r["corrected"] for r in rows):
        queries.renumber(rows, events)
    return rows


def stat(name: str, **kwargs: Any) -> Any:
    """A statistic of :mod:`analytics.queries` (``player_stats``, ``leaderboard``,
    ``showdown_hands``, ...), kept until the projection moves on."""
    return _stat(analytics_path(), analytics_version(), name, tuple(sorted(kwargs.items())))


@st.cache_data(show_spinner=False, max_entries=8)
def _schema(path: str, version: int) -> list[dict[str, Any]]:
    import analytics

    with _duck(read_only=True) as con:
        return list(analytics.schema(con))


def schema() -> list[dict[str, Any]]:
    """The projection's tables and their documented columns."""
    return _schema(analytics_path(), analytics_version())


_SNAPSHOTS: dict[str, tuple[int, str]] = {}
_SNAPSHOT_LOCK = threading.Lock()


def _snapshot(path: str, version: int) -> str:
    """A private copy of the projection at ``version`` for the analysts' SQL: nobody writes it,
    so each query opens its own read-only connection to it, outside the projection's lock (the
    statistics and the catching up never wait on a slow query, and it never waits on them). One
    copy per version, made under the lock while no connection is open; the previous one is
    removed (a query still reading it keeps its open file)."""
    import shutil
    import tempfile

    with _SNAPSHOT_LOCK:
        have = _SNAPSHOTS.get(path)
        if have is not None and have[0] == version and os.path.exists(have[1]):
            return have[1]
        folder = tempfile.mkdtemp(prefix="brag-explore-")
        copy = os.path.join(folder, "projection.duckdb")
        with _DUCK_LOCK:
            shutil.copyfile(path, copy)
            if os.path.exists(path + ".wal"):
                shutil.copyfile(path + ".wal", copy + ".wal")
        _SNAPSHOTS[path] = (version, copy)
        if have is not None:
            shutil.rmtree(os.path.dirname(have[1]), ignore_errors=True)
        return copy


def run_sql(sql: str) -> Any:
    """One analyst's SELECT, within Explore's limits (``analytics.Limits``: time, memory, spill,
    rows, bytes; ``BRAG_EXPLORE_*``), on its own read-only connection to a snapshot of the
    projection, without file access; returns ``analytics.Limited``. Raises
    ``analytics.ReadOnlyError`` for anything that is not a single SELECT,
    ``analytics.LimitReached`` for a limit hit, ``duckdb.Error`` for SQL DuckDB refuses."""
    import analytics

    version = analytics_version()
    return analytics.run_limited(_snapshot(analytics_path(), version), sql)
