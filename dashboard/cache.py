"""The dashboard's caches: what Streamlit keeps between runs and for how long (STYLE.md).

The store handles are shared by every session of the server (``st.cache_resource``): one opened
read-only for every page's reading (it never waits on a writer's lock, so a store another program
holds is read at once), and the writer, opened on the first append (the Record page). A handle
whose connection broke connects again on its next use (:mod:`store.postgres`); a page whose
store cannot be reached says so in one line and reruns when it answers (:mod:`dashboard.faults`).
The list of sessions is kept per version of the store (its last global position) and a session's
replay (the engine's states) per version of its stream (its last seq), so a session recorded on
another device shows its new events at once, and a store that does not change is read once. The
statistics are kept per checkpoint of the projection.

Beside it: :mod:`dashboard.settings` (the environment), :mod:`dashboard.polling` (the live pages'
shared poll), :mod:`dashboard.projection` (the DuckDB file under one lock).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import streamlit as st

from dashboard import projection
from dashboard.polling import Poller
from dashboard.settings import analytics_path, db_url
from dashboard.viewmodels.frames import DealFrames
from events.model import AnyEvent
from present.replay import Replay

PICKER_LIMIT = 300
"""At most this many sessions (the newest) in a session picker; the Sessions page lists all."""


# --- the event store ------------------------------------------------------------------------------


@st.cache_resource(show_spinner=False)
def _store(url: str) -> Any:
    """The store opened read-only (``log.open_store(url, readonly=True)``): reading never takes
    or waits on a writer's lock (a SQLite store locked by another program is read at once). A
    store not made yet is made by the writer first (nobody else holds it); ``memory://`` has
    one handle (each open is a fresh store)."""
    from log import StoreMissing, open_store

    if url.startswith("memory:"):
        return _writer(url)
    try:
        return open_store(url, readonly=True)
    except StoreMissing:
        _writer(url)
        return open_store(url, readonly=True)


@st.cache_resource(show_spinner=False)
def _writer(url: str) -> Any:
    """The store opened for appending (``log.open_store``), only when something is appended."""
    from log import open_store

    return open_store(url)


def store() -> Any:
    """The event store for reading (read-only, see :func:`_store`), opened once per URL for the
    whole server."""
    return _store(db_url())


def writer() -> Any:
    """The event store for appending (the Record page), opened on the first append."""
    return _writer(db_url())


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
    """Every session's :class:`~store.records.SessionInfo`, in the order stored."""
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
    from log import SessionFilter

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
    from log import CorruptSession

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


@st.cache_resource(show_spinner=False, max_entries=8)
def _poller(url: str) -> Poller:
    return Poller(url, _store)


def polled_last_seq(session: str) -> int:
    """:func:`last_seq` as the live pages' poll asks it (:mod:`dashboard.live`): at most
    :data:`~dashboard.polling.FRESH` seconds old, one store query per session per that time however
    many pages follow it, on one connection. Raises what the store raises (``StoreUnavailable``)."""
    return _poller(db_url()).last_seq(session)


def replay(session: str, *, recorded: bool = False) -> Replay | None:
    """The session replayed by the engine (as corrected, or ``recorded`` with its corrections);
    ``None`` for a session the store does not hold."""
    from dashboard.escape import md
    from log import CorruptSession

    version = last_seq(session)
    if not version:
        return None
    try:
        return _replay(db_url(), session, version, recorded)
    except CorruptSession as err:  # one line naming the session and the seq, not a traceback
        st.error(md(err), icon=":material/error:")
        st.stop()


def replay_now(session: str, *, recorded: bool = False) -> Replay | None:
    """:func:`replay` for an HTTP route, which has no page to say an error on: ``None`` for a
    session the store does not hold; raises ``CorruptSession`` for a stream that no longer
    folds (one line)."""
    version = last_seq(session)
    return _replay(db_url(), session, version, recorded) if version else None


@st.cache_data(show_spinner=False, max_entries=256)
def _frames(
    url: str,
    session: str,
    version: int,
    recorded: bool,
    deal: int,
    viewer: str | None,
    organiser: bool,
    noted: tuple[str, tuple[str, ...]] | None = None,
    own: bool = False,
) -> DealFrames:
    from dashboard.viewmodels.frames import deal_frames

    rp = _replay(url, session, version, recorded)
    return deal_frames(rp, deal, viewer, organiser=organiser, noted=noted, own=own)


def frames(
    rp: Replay,
    deal: int,
    viewer: str | None,
    *,
    organiser: bool = False,
    noted: tuple[str, tuple[str, ...]] | None = None,
    own: bool = False,
) -> DealFrames:
    """One deal's frames for the browser replayer
    (:func:`dashboard.viewmodels.frames.deal_frames`), kept per version of the session's stream,
    deal, viewer, whether the device is the organiser's (only the organiser's unlocked device
    sees the cards of a deal in play) and a player's own remembered cards (``noted``:
    ``(player, cards)``, drawn only when viewed as that player), and whether ``viewer`` is this
    browser's own player (``own``, the ``me`` preference)."""
    version = int(store().last_seq(rp.session) or 0)
    return _frames(db_url(), rp.session, version, rp.recorded, deal, viewer, organiser, noted, own)


# --- a player's own remembered cards (log.annotations: beside the stream, never in it) ----------


def my_cards(session: str, player: str) -> dict[int, tuple[str, ...]]:
    """The cards ``player`` entered for each deal of ``session`` (deal -> three cards, the latest
    entry; ``log.private_cards``), read now (one query of the store's annotations, never cached,
    so an entry shows at once); empty when none. For that player's own view only."""
    from log import private_cards

    return {d: pc.cards for d, pc in private_cards(store(), session, player).items()}


def set_my_cards(session: str, deal: int, player: str, cards: Sequence[str]) -> tuple[str, ...]:
    """Keeps the three cards ``player`` remembers holding in ``deal`` (``log.set_private_cards``
    through the writer); returns them in canonical form. Raises what it raises: one line
    (``AnnotationRefused``, ``CardError``, ``UnknownSession``), nothing stored."""
    from log import set_private_cards

    return tuple(set_private_cards(writer(), session, deal, player, list(cards)).cards)


def events(session: str) -> list[AnyEvent]:
    """A session's events read now, uncached (the recorder needs the latest)."""
    return list(store().events(session))


def append(session: str, new: Sequence[AnyEvent], expected_seq: int) -> list[Any]:
    """Appends recorded events (the store adds the derived ones); the stored rows."""
    return list(writer().append(session, list(new), expected_seq))


# --- the analytics projection (opened under one lock: dashboard.projection) -------------------

REFRESH_EVERY = 10.0
"""Seconds between two looks at whether the projection is behind the store."""


def check_again() -> None:
    """The projection's next use asks the store again (its last position), instead of taking a
    check made less than :data:`REFRESH_EVERY` seconds ago: the warm-up's check
    (:mod:`dashboard.warm`) is not one a page may skip, so a page's first run still says a store
    that cannot be reached (:mod:`dashboard.faults`)."""
    _caught_up.clear()


@st.cache_resource(show_spinner=False, ttl=REFRESH_EVERY)
def _caught_up(url: str, path: str) -> tuple[int, int]:
    """Catches the projection up with the store; ``(checkpoint position, events applied)``. The
    new projection is built beside the old and renamed into place (``analytics.replacing``): a
    catch-up that fails (a full disk) leaves the old one, or none. A projection of another
    store is rebuilt or refused (``analytics.building.caught_up``)."""
    import analytics
    from analytics.building import caught_up

    with projection.LOCK:
        store = _store(url)
        have = analytics.current_checkpoint(path, store.store_id)
        if have is None or have < store.last_position():
            # A projection of another store: rebuilt when it is this store's default file, else
            # refused (the pages say why), never mixed (analytics.owner).
            report, _ = caught_up(
                path,
                url,
                lambda con: analytics.refresh(store, con),
                rebuild=lambda con: analytics.rebuild(store, con),
            )
            return report.position, report.events
        return have, 0


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

    with projection.opened(read_only=True) as con:
        return getattr(queries, name)(con, **dict(kwargs))


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
    import analytics

    with projection.opened(read_only=True) as con:
        return list(analytics.schema(con))


def schema() -> list[dict[str, Any]]:
    """The projection's tables and their documented columns."""
    return _schema(analytics_path(), analytics_version())


def run_sql(sql: str) -> Any:
    """One analyst's SELECT, within Explore's limits (``analytics.Limits``: time, memory, spill,
    rows, bytes; ``BRAG_EXPLORE_*``), on its own read-only connection to a snapshot of the
    projection, without file access; returns ``analytics.Limited``. Raises
    ``analytics.ReadOnlyError`` for anything that is not a single SELECT,
    ``analytics.LimitReached`` for a limit hit, ``duckdb.Error`` for SQL DuckDB refuses."""
    import analytics

    version = analytics_version()
    return analytics.run_limited(projection.snapshot(analytics_path(), version), sql)


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


@st.cache_data(show_spinner=False, max_entries=256)
def _spots(path: str, version: int, name: str, kwargs: tuple[tuple[str, Any], ...]) -> Any:
    from analytics import spots

    args = dict(kwargs)
    if "spot" in args:
        args["spot"] = spots.Spot.parse(args["spot"])
    if name in ("explore", "behind", "differences", "winning_players"):
        args["cube"] = _cube(path, version)
    with projection.opened(read_only=True) as con:
        return getattr(spots, name)(con, **args)


def spots(name: str, **kwargs: Any) -> Any:
    """The decision explorer (:mod:`analytics.spots`: ``explore``, ``behind``, ``differences``,
    ``winning_players``) with ``spot`` given as its text, kept until the projection moves on; a
    spot on the grid's lines is answered from the projection's cube (:func:`_cube`)."""
    return _spots(analytics_path(), analytics_version(), name, tuple(sorted(kwargs.items())))
