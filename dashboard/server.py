"""The dashboard's server: Streamlit's ASGI :class:`streamlit.App` serving ``dashboard/app.py``
with Bragbook's own HTTP routes beside it (``/api/...``, :mod:`dashboard.pad_api`).

``brag dashboard`` runs ``streamlit run dashboard/server.py``; Streamlit finds the ``app`` below
and serves it with uvicorn in this one process, so the pages and the routes share the store
handle (:func:`dashboard.cache.store`). The routes are what must not depend on a page's rerun:
the Record page's pad records each tap by one idempotent request and gets its answer back in
the same request, whatever the page is doing meanwhile.
"""

from __future__ import annotations

import sys
from pathlib import Path

import streamlit as st

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # `streamlit run dashboard/server.py` from a checkout
    sys.path.insert(0, str(ROOT))

from dashboard import pad_api  # noqa: E402 - after the path is set


def _no_external_ip() -> None:
    """Streamlit's lookup of this machine's address on the internet, turned off.

    ``streamlit.net_util.get_external_ip`` asks checkip.amazonaws.com (two blocking requests of
    up to 1 s each, plus the name lookup) and keeps only an answer: offline it asks again on
    every call. Streamlit calls it at start (an "External URL" banner, headless) and, worse, for
    every cross-origin websocket it checks (``server_util.is_url_from_allowed_origins``), on the
    server's event loop: one refused connection from another site stalled every request, the
    health check included, for 5 s. The dashboard serves a laptop and its club's network (the
    internal address is still allowed, and ``--lan`` prints it), never an address on the
    internet, so the lookup is never made: not at start, not per request."""
    from streamlit import net_util

    net_util.get_external_ip = lambda: None


_no_external_ip()


def _warm_imports() -> None:
    """The store, the log, the analytics and pandas imported as the server starts (about 0.6 s
    here), not by the first visitor's page run. Only modules without Streamlit caches: those
    are made once Streamlit's runtime is up (``dashboard/app.py``'s first run)."""
    import importlib

    for name in ("log", "store.sqlite", "store.postgres", "present.replay", "analytics", "pandas"):
        importlib.import_module(name)


_warm_imports()

APP = Path(__file__).resolve().parent / "app.py"

app = st.App(APP, routes=pad_api.routes())
