"""What a page shows when the store cannot be reached: one line, and the page back by itself.

:func:`guarded` runs a page (``dashboard/app.py`` runs every page through it, the Record page
too); a :class:`~events.errors.StoreUnavailable` out of it (a server stopped, a connection cut, a
SQLite file locked too long, a full disk) ends the page with :func:`unreachable`'s one line
instead of a traceback, and a small fragment tries the store again every :data:`RETRY_EVERY`
seconds and reruns the page as soon as it answers, without a reload. Tracebacks are not shown to
visitors in any case (``client.showErrorDetails = "none"``, :func:`brag.cmd_app.streamlit_command`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import streamlit as st

from dashboard.common import stores
from dashboard.common.escape import md
from events.errors import StoreUnavailable
from store.address import masked

__all__ = ["RETRY_EVERY", "guarded", "reason", "unreachable", "unreachable_line"]

_LOG = logging.getLogger("bragbook.dashboard")

RETRY_EVERY = 2.0
"""Seconds between two tries of a store that could not be reached."""


def reason(err: BaseException) -> str:
    """The short reason of a store's error: its last clause ("Connection refused", "database is
    locked", "disk full"), without the store's address or the driver's preamble."""
    text = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
    return masked(text.rsplit(": ", 1)[-1].strip().rstrip(".") or text)


def unreachable_line(err: BaseException) -> str:
    """The one line every page shows for a store it cannot reach (issue 24):

    >>> unreachable_line(StoreUnavailable("PostgreSQL store X: server closed the connection"))
    'The store cannot be reached: server closed the connection; nothing was recorded; trying again'
    """
    return f"The store cannot be reached: {reason(err)}; nothing was recorded; trying again"


def unreachable(err: BaseException) -> None:
    """The one line for a store that cannot be reached, and the retry that reruns the page when
    it answers again."""
    st.error(md(unreachable_line(err)), icon=":material/cloud_off:")
    _retry()


@st.fragment(run_every=RETRY_EVERY)
def _retry() -> None:
    try:
        stores.store().last_position()
    except StoreUnavailable:
        return
    st.rerun(scope="app")


def guarded(run: Callable[[], Any]) -> None:
    """``run()`` (a page), its store's faults said in one line (:func:`unreachable`)."""
    try:
        run()
    except StoreUnavailable as err:
        _LOG.warning(
            "a page could not reach the store: %s", masked(str(err))
        )  # the operator's one line
        unreachable(err)
