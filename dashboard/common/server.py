"""The dashboard's server: Streamlit's ASGI :class:`streamlit.App` serving ``dashboard/app.py``
with Bragbook's own HTTP routes beside it (``/api/...``, :mod:`dashboard.record.routes`,
:mod:`dashboard.access.routes`, :mod:`dashboard.replay.notes_routes` and
:mod:`dashboard.replay.share`).

``brag dashboard`` runs ``streamlit run dashboard/common/server.py``; Streamlit finds the ``app``
below
and serves it with uvicorn in this one process, so the pages and the routes share the store
handle (:func:`dashboard.common.cache.store`). The routes are what must not depend on a page's
rerun:
the Record page's pad records each tap by one idempotent request and gets its answer back in
the same request, whatever the page is doing meanwhile.

Streamlit 1.67 checks ``server.allowedHosts`` only on its websocket and its agent routes; the
:class:`AllowedHosts` middleware applies the same list to every request (the pages, the static
files, ``/_stcore/health`` and our ``/api`` routes), so a page whose name was rebound to this
machine (DNS rebinding) gets nothing from it. Before it :class:`dashboard.replay.share.PictureGate`
refuses a picture over its client's or the server's limit (429, 503) from the path and the
address alone, so that a flood of them costs the event loop the least. Inside the Host check
:class:`dashboard.access.guard.RequestGuard` bounds every request's body while it is read (413) and
lets only JSON from the dashboard's own pages write (415, 403). ``brag dashboard`` also writes
its pid file (``brag.db-dashboard``); this process removes it when it stops.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import streamlit as st
from starlette.middleware import Middleware

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # `streamlit run dashboard/common/server.py` from a checkout
    sys.path.insert(0, str(ROOT))

from dashboard.access import routes as gate_api  # noqa: E402 - after the path is set
from dashboard.access.guard import RequestGuard  # noqa: E402
from dashboard.record import routes as pad_api  # noqa: E402
from dashboard.replay import notes_routes as notes_api  # noqa: E402
from dashboard.replay import share as share_api  # noqa: E402


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

APP = Path(__file__).resolve().parents[1] / "app.py"


def host_allowed(host: str | None, allowed: list[str]) -> bool:
    """Whether a request's ``Host`` header names one of ``allowed`` (Streamlit's
    ``server.allowedHosts``: names or addresses, ``*.domain``, ``*``; the port is ignored).
    An empty list allows every host, as Streamlit does."""
    if not allowed:
        return True
    if not host:
        return False
    try:
        parts = urlsplit(f"//{host}")
        name = parts.hostname
        _ = parts.port  # a port that is not a number is refused
    except ValueError:
        return False
    if name is None or parts.username is not None or parts.path or parts.query:
        return False
    name = name.lower().rstrip(".")
    for pattern in (a.strip().lower().rstrip(".").strip("[]") for a in allowed):
        if pattern == "*" or name == pattern:
            return True
        if pattern.startswith("*.") and name.endswith(pattern[1:]):
            return True
    return False


class AllowedHosts:
    """ASGI middleware: a request (HTTP or websocket) whose ``Host`` is not in
    ``server.allowedHosts`` is answered 400 (a websocket is closed before it opens)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        host = headers.get(b"host", b"").decode("latin-1") or None
        allowed = list(st.get_option("server.allowedHosts") or [])
        if host_allowed(host, allowed):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        body = b"This host is not served here.\n"
        await send(
            {
                "type": "http.response.start",
                "status": 400,
                "headers": [
                    (b"content-type", b"text/plain; charset=utf-8"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


def _forget_pid_file() -> None:
    """Removes ``$BRAG_PID_FILE`` when it names this process (the dashboard stops)."""
    where = os.environ.get("BRAG_PID_FILE")
    if not where:
        return
    try:
        first = Path(where).read_text(encoding="utf-8").split()[0]
        if first == str(os.getpid()):
            Path(where).unlink()
    except (OSError, IndexError):
        pass


@contextlib.asynccontextmanager
async def _lifespan(_: Any) -> AsyncIterator[None]:
    from dashboard.common import instance, warm
    from dashboard.stats import projection

    projection.remove_leftovers()  # Explore's copies a killed dashboard left (issue 33, 7)
    warm.start()  # Streamlit's runtime is up: its caches are the pages' caches
    instance.start()  # the hold on the store, renewed (issue 33)
    try:
        yield None
    finally:
        _forget_pid_file()
        instance.stop()


atexit.register(_forget_pid_file)

app = st.App(
    APP,
    lifespan=_lifespan,
    routes=[*pad_api.routes(), *gate_api.routes(), *notes_api.routes(), *share_api.routes()],
    middleware=[
        Middleware(share_api.PictureGate),
        Middleware(AllowedHosts),
        Middleware(
            RequestGuard,
            limits={
                "/api/tap": pad_api.MAX_BODY,
                "/api/notes": notes_api.MAX_BODY,
                "/api/notes/hide": notes_api.MAX_BODY,
                "/api/device-cookie": gate_api.MAX_BODY,
            },
        ),
    ],
)
