"""The event store's handles, shared by every session of the server (``st.cache_resource``): one
opened read-only for every page's reading (it never waits on a writer's lock, so a store another
program holds is read at once), and the writer, opened on the first append (the Record page). A
handle whose connection broke connects again on its next use (:mod:`store.postgres`).
Each is a :class:`log.service.EventStore`, typed so: every call the dashboard makes on the store is
checked by mypy.
"""

from __future__ import annotations

import streamlit as st

from dashboard.common.settings import db_url
from events.model import AnyEvent
from log.service import EventStore

__all__ = ["events", "store", "writer"]


@st.cache_resource(show_spinner=False)
def _store(url: str) -> EventStore:
    """The store opened read-only (``log.open_store(url, readonly=True)``): reading never takes
    or waits on a writer's lock (a SQLite store locked by another program is read at once). A
    store not made yet is made by the writer first (nobody else holds it); ``memory://`` has
    one handle (each open is a fresh store)."""
    from events.errors import StoreMissing
    from log.open import open_store

    if url.startswith("memory:"):
        return _writer(url)
    try:
        return open_store(url, readonly=True)
    except StoreMissing:
        _writer(url)
        return open_store(url, readonly=True)


@st.cache_resource(show_spinner=False)
def _writer(url: str) -> EventStore:
    """The store opened for appending (``log.open_store``), only when something is appended."""
    from log.open import open_store

    return open_store(url)


def store() -> EventStore:
    """The event store for reading (read-only, see :func:`_store`), opened once per URL for the
    whole server."""
    return _store(db_url())


def writer() -> EventStore:
    """The event store for appending (the Record page), opened on the first append."""
    return _writer(db_url())


def events(session: str) -> list[AnyEvent]:
    """A session's events read now, uncached (the recorder needs the latest)."""
    return list(store().events(session))
