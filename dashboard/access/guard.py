"""What any request to the dashboard may be (issue 33, class 6), checked once for every route by
the :class:`RequestGuard` ASGI middleware :mod:`dashboard.common.server` puts in front of the app,
so that
one visitor's request cannot hurt the others and a page of another site cannot write:

- **A body is bounded while it is read.** Each path has its limit (:func:`body_limit`: the
  ``/api`` routes their own few kilobytes, each module's ``MAX_BODY``, given by
  :mod:`dashboard.common.server`; Streamlit's file upload its ``server.maxUploadSize``; any other
  route
  :data:`DEFAULT_LIMIT`). A declared ``Content-Length``
  over the limit is answered 413 before a byte is read; a body sent without one (chunked) is
  counted as the route reads it and cut at the limit: 413, and the connection closed, the rest
  never read. No route holds more than its limit in memory (a 600 MB body used to be read whole
  first, and ``/api/device-cookie`` had no limit).
- **Writes take JSON only.** ``POST``, ``PUT``, ``PATCH`` and ``DELETE`` to ``/api/...`` must be
  ``application/json``: 415 otherwise. A page of another site may send ``text/plain`` or a form
  without the browser asking first; ``application/json`` it may not (the browser asks first,
  CORS, and nothing here answers yes).
- **Writes come from the dashboard's own pages.** A write's ``Origin`` header, when it is sent,
  must name the request's own host and port (its ``Host``, which
  :class:`dashboard.common.server.AllowedHosts` checked), and a ``Sec-Fetch-Site`` other than
  ``same-origin`` or ``none`` is refused: 403. A page served on another port of the same host is
  *same-site* (a ``SameSite=Strict`` cookie goes with its requests) but not *same-origin*: refused.
  A write without ``Origin`` is let through: browsers send ``Origin`` with every ``POST`` (a
  ``fetch`` or a form, same-origin or not: the Fetch standard), so a request without one is not
  a browser's and carries no visitor's cookie by itself (a client that holds the cookie holds
  the token already).

Streamlit's own routes keep their own checks (its upload route its XSRF token); the websocket is
not an HTTP request and is left to Streamlit (``server.maxMessageSize``). Every refusal is one
line of JSON, ``{"outcome": "refused", "message"}``: the pad ends such a tap "not recorded"
(:mod:`dashboard.record.routes`).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

__all__ = [
    "DEFAULT_LIMIT",
    "RequestGuard",
    "body_limit",
    "read_json",
    "same_origin",
    "write_refusal",
]

DEFAULT_LIMIT = 16_384
"""The largest body (bytes) of a route given no limit of its own: Streamlit's pages and health
check take none; ours a few hundred bytes."""

UPLOAD = "/_stcore/upload_file/"
UPLOAD_MARGIN = 1 << 20
"""Streamlit's file upload: ``server.maxUploadSize`` megabytes and a multipart body's framing."""

WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
TOO_LARGE = "Not taken: the request's body is longer than this route takes ({limit} bytes)."
NOT_JSON = "Not taken: send the request as application/json."
FOREIGN = "Not taken: the request comes from another site's page."


def body_limit(path: str, limits: Mapping[str, int]) -> int:
    """The largest body (bytes) a request to ``path`` may send: its route's in ``limits`` (by
    path), else see the module."""
    if path in limits:
        return limits[path]
    if UPLOAD in path:  # under Streamlit's server.baseUrlPath too
        import streamlit as st

        return int(st.get_option("server.maxUploadSize")) * (1 << 20) + UPLOAD_MARGIN
    return DEFAULT_LIMIT


def same_origin(origin: str, host: str) -> bool:
    """Whether the ``Origin`` header ``origin`` names the host and port of the request's ``Host``
    header ``host`` (a ``Host`` without a port: the default port of the origin's scheme, so that
    ``https://club.example`` matches ``club.example`` behind a TLS proxy). One port serves one
    scheme: a page of another port, or of another host, is another origin."""
    try:
        o = urlsplit(origin)
        h = urlsplit(f"//{host}")
        default = {"http": 80, "https": 443}.get(o.scheme)
        return (
            o.scheme in ("http", "https")
            and o.hostname is not None
            and o.hostname == h.hostname
            and (o.port or default) == (h.port or default)
            and not o.path.strip("/")
        )
    except ValueError:  # a port that is not a number
        return False


def write_refusal(method: str, path: str, headers: dict[str, str]) -> int | None:
    """The status refusing a write to ``/api/...`` before its body is read (415: not JSON; 403:
    from another site's page), else ``None`` (not a write, or a good one). ``headers`` by
    lowercase name."""
    if method not in WRITES or not path.startswith("/api/"):
        return None
    kind = headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        return 415
    origin = headers.get("origin")
    if origin is not None and not same_origin(origin, headers.get("host", "")):
        return 403
    if headers.get("sec-fetch-site", "same-origin").lower() not in ("same-origin", "none"):
        return 403
    return None


def _declared(headers: dict[str, str]) -> int | None:
    try:
        return int(headers["content-length"])
    except (KeyError, ValueError):
        return None


async def _answer(send: Any, status: int, message: str) -> None:
    """One line of JSON, and the connection closed (a body left unread is never read)."""
    body = json.dumps({"outcome": "refused", "message": message}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
                (b"cache-control", b"no-store"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


async def read_json(request: Any, limit: int = DEFAULT_LIMIT) -> dict[str, Any] | None:
    """The body of the Starlette ``request`` as a JSON object, or ``None`` (longer than ``limit``
    bytes, not JSON, nested too deep to read, not an object). The guard has bounded the body
    while it was read; ``limit`` is the route's own word on it."""
    raw = await request.body()
    if len(raw) > limit:
        return None
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) else None


class BodyTooLarge(Exception):
    """Raised into a route that reads past its limit; the guard answers 413 instead of it."""


class RequestGuard:
    """ASGI middleware: every HTTP request's body bounded while it is read, every write to
    ``/api/...`` JSON and of this origin (see the module); ``limits``: the routes' largest
    bodies (bytes) by path."""

    def __init__(self, app: Any, limits: Mapping[str, int] | None = None) -> None:
        self.app = app
        self.limits = dict(limits or {})

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        path = scope.get("path", "")
        limit = body_limit(path, self.limits)
        status = write_refusal(scope.get("method", ""), path, headers)
        if status is not None:
            await _answer(send, status, NOT_JSON if status == 415 else FOREIGN)
            return
        declared = _declared(headers)
        if declared is not None and declared > limit:
            await _answer(send, 413, TOO_LARGE.format(limit=limit))
            return
        await self._bounded(scope, receive, send, limit)

    async def _bounded(self, scope: Any, receive: Any, send: Any, limit: int) -> None:
        """The app, reading the body through a count that stops at ``limit`` (then 413)."""
        read = 0
        over = started = False

        async def counted() -> Any:
            nonlocal read, over
            if over:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                read += len(message.get("body", b""))
                if read > limit:
                    over = True
                    raise BodyTooLarge
            return message

        async def watched(message: Any) -> None:
            nonlocal started
            if over:  # the route's own answer to a body cut short: the guard's instead
                return
            started = started or message["type"] == "http.response.start"
            await send(message)

        with contextlib.suppress(BodyTooLarge):
            await self.app(scope, counted, watched)
        if over and not started:
            await _answer(send, 413, TOO_LARGE.format(limit=limit))
