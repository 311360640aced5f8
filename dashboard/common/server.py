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
:class:`AllowedHosts` middleware (Starlette's ``TrustedHostMiddleware``) applies the same list to
every request (the pages, the static files, ``/_stcore/health`` and our ``/api`` routes), so a page
whose name was rebound to this machine (DNS rebinding) gets nothing from it. Before it
:class:`dashboard.replay.share.PictureGate` refuses a picture over its client's or the server's
limit (429, 503) from the path and the address alone, so that a flood of them costs the event loop
the least. Inside the Host check :class:`dashboard.access.guard.RequestGuard` bounds every
request's body while it is read (413) and lets only JSON from the dashboard's own pages write (415,
403). ``brag dashboard`` also writes its pid file (``brag.db-dashboard``); this process removes it
when it stops.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import sys
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import streamlit as st
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.types import ASGIApp

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # `streamlit run dashboard/common/server.py` from a checkout
    sys.path.insert(0, str(ROOT))

from dashboard.access import routes as gate_api  # noqa: E402 - after the path is set
from dashboard.access.guard import RequestGuard  # noqa: E402
from dashboard.record import pad_app  # noqa: E402
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


def trusted_hosts(allowed: Sequence[str]) -> list[str]:
    """Streamlit's ``server.allowedHosts`` (names or addresses, ``*.domain``, ``*``; the port is
    ignored) as the patterns of Starlette's :class:`TrustedHostMiddleware`, so that it answers
    the hosts Streamlit's own websocket check answers: no list is every host (``*``, Streamlit's
    default); an IPv6 address is bracketed as a ``Host`` header writes it (``[::1]``); each name
    is also taken with the trailing dot of a fully qualified name (``localhost.``); a pattern
    Starlette refuses to be given (a ``*`` elsewhere than a leading ``*.``) names no host and
    is left out."""
    if not allowed:
        return ["*"]
    patterns: list[str] = []
    for given in allowed:
        name = given.strip().lower().rstrip(".").strip("[]")
        if name == "*":
            return ["*"]
        if "*" in name[1:] or (name.startswith("*") and not name.startswith("*.")):
            continue
        patterns += [f"[{name}]"] if ":" in name else [name, f"{name}."]
    return patterns


class AllowedHosts(TrustedHostMiddleware):
    """Starlette's :class:`TrustedHostMiddleware` on ``allowed`` (default
    ``server.allowedHosts``, read when the server builds its middleware, after Streamlit took its
    options; :func:`trusted_hosts`): a request (HTTP or websocket) whose ``Host`` is not one of
    them is answered 400 ``Invalid host header`` (a websocket's handshake too), never redirected
    to ``www.``."""

    def __init__(self, app: ASGIApp, allowed: Sequence[str] | None = None) -> None:
        if allowed is None:
            allowed = list(st.get_option("server.allowedHosts") or [])
        super().__init__(app, allowed_hosts=trusted_hosts(allowed), www_redirect=False)


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
    routes=[
        *pad_api.routes(),
        *pad_app.routes(),
        *gate_api.routes(),
        *notes_api.routes(),
        *share_api.routes(),
    ],
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
