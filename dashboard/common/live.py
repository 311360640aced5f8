"""Live follow: a page showing a session in progress learns, within :data:`EVERY` seconds and
without a reload, of events recorded on another device (STYLE.md "Live pages follow the store").

It is cheap: a small ``st.fragment(run_every=EVERY)`` reads the session's last seq
(:func:`dashboard.common.cache.polled_last_seq`: one indexed query, the same on SQLite and
PostgreSQL,
shared by every viewer of the session for :data:`dashboard.common.polling.FRESH` seconds and run on
one
connection) and does nothing more while that number has not moved. Only when it moved does the
page rerun (or the caller's ``on_new`` draw a mark), so the events are read again only when there
are new ones. A finished session is not followed (nothing more is played, RULES 1.4). The server
runs without Streamlit's full garbage collection after each run (``brag.cmd_app``), which was
most of a poll's cost (``bench/live.py``).

How a page uses it::

    seen = cache.last_seq(session)        # 1. read the last seq BEFORE the events it draws
    rp = cache.replay(session)            # 2. draw the session as usual
    ...
    if not rp.final.finished:             # 3. a finished session is not followed: no poll
        live.follow(session, seen)        #    rerun the whole page when the session moved on

A page that must not lose what its viewer is doing keeps that in ``st.query_params`` or
``st.session_state`` (a full rerun keeps both), or passes ``rerun=False`` and an ``on_new`` that
draws a mark inside the poll's fragment, e.g. for the Replay page::

    def mark(last: int) -> None:
        st.caption(f"New events: {last - seen} since this replay was drawn")

    live.follow(session, seen, rerun=False, on_new=mark)

``on_new(last)`` is called on every poll while ``last != seen`` (so a mark stays drawn); with
``rerun=True`` the page is rerun once per new last seq (a page that draws from an older seq than
it was given is not rerun again and again).
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from dashboard.common import cache
from dashboard.common import state_keys as keys
from dashboard.common.escape import md
from dashboard.common.faults import unreachable_line
from events.errors import StoreUnavailable

EVERY = 1.0
"""Seconds between two polls: an event recorded elsewhere shows within this plus
:data:`dashboard.common.polling.FRESH` (under 2 s)."""


def follow(
    session: str,
    seen: int,
    *,
    every: float = EVERY,
    rerun: bool = True,
    on_new: Callable[[int], None] | None = None,
    key: str = keys.LIVE,
) -> None:
    """Follows ``session`` live from its last seq ``seen`` (the one the page was drawn from; 0 for
    a session not stored yet). Draws nothing itself while nothing moved. When the store's last
    seq differs from ``seen``: calls ``on_new(last)`` (inside the fragment: what it draws shows
    where :func:`follow` was called), then, with ``rerun``, reruns the whole page once for that
    seq. ``key`` tells apart two follows on one page. Raises nothing of its own: a store that
    cannot be read shows its one line in the fragment
    (:func:`dashboard.common.faults.unreachable_line`)
    and the next poll tries again."""
    done = keys.live_seen(key, session)

    @st.fragment(run_every=every)
    def poll() -> None:
        try:
            last = cache.polled_last_seq(session)
        except StoreUnavailable as err:  # one line until the store answers again
            st.error(md(unreachable_line(err)), icon=":material/cloud_off:")
            return
        if last == seen:
            st.session_state.pop(done, None)
            return
        if on_new is not None:
            on_new(last)
        if rerun and st.session_state.get(done) != last:
            st.session_state[done] = last
            st.rerun(scope="app")

    poll()
