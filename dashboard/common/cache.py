"""The dashboard's caches: what Streamlit keeps between runs and for how long (STYLE.md).

The store handles are shared by every session of the server (``st.cache_resource``): one opened
read-only for every page's reading (it never waits on a writer's lock, so a store another program
holds is read at once), and the writer, opened on the first append (the Record page). A handle
whose connection broke connects again on its next use (:mod:`store.postgres`; the handles are
:mod:`dashboard.common.stores`, re-exported here); a page whose
store cannot be reached says so in one line and reruns when it answers
(:mod:`dashboard.common.faults`).
The list of sessions is kept per version of the store (its last global position) and a session's
replay (the engine's states) per version of its stream (its last seq), so a session recorded on
another device shows its new events at once, and a store that does not change is read once. The
statistics are kept per checkpoint of the projection, in :mod:`dashboard.stats.stats_cache` (the
projection's one writer, and the reads).

Beside it: :mod:`dashboard.common.settings` (the environment), :mod:`dashboard.common.polling` (the
live pages' shared poll), :mod:`dashboard.stats.projection` (the DuckDB file under one lock).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

import streamlit as st

from dashboard.common.polling import Poller
from dashboard.common.settings import db_url
from dashboard.common.stores import (
    _store,  # the tests and the poller take the handle
    store,
    writer,
)
from dashboard.replay.frames import DealFrames
from events.model import AnyEvent
from present.replay import Replay

__all__ = [
    "NO_TABLE",
    "PICKER_LIMIT",
    "SESSIONS_PAGE",
    "Listing",
    "append",
    "exists",
    "frames",
    "last_seq",
    "listing",
    "my_cards",
    "polled_last_seq",
    "replay",
    "replay_now",
    "session_count",
    "session_facets",
    "session_ids",
    "session_info",
    "session_page",
    "sessions",
    "set_my_cards",
]

PICKER_LIMIT = 300
"""At most this many sessions (the newest) in a session picker; the Sessions page lists all."""


# --- the event store (its handles: dashboard.common.stores)
# ---------------------------------------------


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
    from store.records import SessionFilter

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
    # The store's timeline (extended by each append, folded once otherwise); CorruptSession for
    # a stream changed outside Bragbook.
    return Replay.from_timeline(_store(url).timeline(session, version), recorded=recorded)


def last_seq(session: str) -> int:
    """The seq of the session's last event in the store now (0 for a session it does not hold):
    one indexed query, never cached, the live pages' poll (:mod:`dashboard.common.live`)."""
    return int(store().last_seq(session) or 0)


@st.cache_resource(show_spinner=False, max_entries=8)
def _poller(url: str) -> Poller:
    return Poller(url, _store)


def polled_last_seq(session: str) -> int:
    """:func:`last_seq` as the live pages' poll asks it (:mod:`dashboard.common.live`): at most
    :data:`~dashboard.common.polling.FRESH` seconds old, one store query per session per that time
    however
    many pages follow it, on one connection. Raises what the store raises (``StoreUnavailable``)."""
    return _poller(db_url()).last_seq(session)


def replay(session: str, *, recorded: bool = False) -> Replay | None:
    """The session replayed by the engine (as corrected, or ``recorded`` with its corrections);
    ``None`` for a session the store does not hold."""
    from dashboard.common.escape import md
    from events.errors import CorruptSession

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
    from dashboard.replay.frames import deal_frames
    from present.sight import sight_for

    rp = _replay(url, session, version, recorded)
    return deal_frames(sight_for(rp, deal, viewer, organiser=organiser), noted=noted, own=own)


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
    (:func:`dashboard.replay.frames.deal_frames`), kept per version of the session's stream,
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
    so an entry shows at once); empty when none. Each entry stays on its deal's ``dealt`` event
    (issue 32; read in the session as recorded, so a Redo of the deal keeps it). For that
    player's own view only."""
    from log.annotations import private_cards

    rp = replay_now(session, recorded=True)
    if rp is None:
        return {}
    return {d: pc.cards for d, pc in private_cards(store(), rp, player).items()}


def set_my_cards(session: str, deal: int, player: str, cards: Sequence[str]) -> tuple[str, ...]:
    """Keeps the three cards ``player`` remembers holding in ``deal`` (``log.set_private_cards``
    through the writer); returns them in canonical form. Raises what it raises: one line
    (``AnnotationRefused``, ``CardError``, ``UnknownSession``), nothing stored."""
    from events.errors import UnknownSession
    from log.annotations import set_private_cards

    rp = replay_now(session, recorded=True)
    if rp is None:
        raise UnknownSession(session)
    return tuple(set_private_cards(writer(), rp, deal, player, list(cards)).cards)


def append(session: str, new: Sequence[AnyEvent], expected_seq: int) -> list[Any]:
    """Appends recorded events (the store adds the derived ones); the stored rows."""
    return list(writer().append(session, list(new), expected_seq))
