"""The gate's HTTP route beside the Streamlit app (:mod:`dashboard.common.server`): the device's
unlock
cookie set ``HttpOnly; SameSite=Strict`` by the server, which a Streamlit script cannot do (its
code runs on the server and reaches the browser only through the page's JavaScript, which can
set no HttpOnly cookie).

The Record page hands its browser a one-time code (:func:`issue`, good for
:data:`CODE_SECONDS`); the page's JavaScript posts it to ``POST /api/device-cookie``, which sets
(or, for a code issued at a lock, clears) the ``brag_device`` cookie in its answer. The cookie
still goes with the websocket's handshake, where ``st.context.cookies`` reads it.

A table's device (issue 36) is unlocked by the organiser's: the Record page issues a token for
that table only and a one-time code good for :data:`TABLE_CODE_SECONDS`, shown as a link and its
QR code, ``GET /api/table-device?code=...``; the device that opens it gets the table's token in
its cookie and is sent to the Record page (303). The secret is never given to it.
"""

from __future__ import annotations

import secrets
import threading
import time
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from dashboard.access import check as access
from dashboard.access.guard import read_json
from dashboard.access.tokens import TOKEN_COOKIE

__all__ = ["CODE_SECONDS", "TABLE_CODE_SECONDS", "issue", "routes", "table_link"]

CODE_SECONDS = 60.0
TABLE_CODE_SECONDS = 600.0
"""How long a table device's link stays good (one use): time to hand a phone to the table."""
MAX_CODES = 10_000
MAX_BODY = 1_024
"""The largest request read (bytes): ``{"code"}`` with a code of 32 characters (bounded while it
is read, :mod:`dashboard.access.guard`)."""

_lock = threading.Lock()
_codes: dict[str, tuple[float, str | None]] = {}  # code -> (good until, token or None: clear)


def issue(token: str | None, seconds: float = CODE_SECONDS) -> str:
    """A one-time code, good for ``seconds``, for which ``POST /api/device-cookie`` (or, for a
    table's device, ``GET /api/table-device``) sets the cookie to ``token`` (``None``: clears
    it)."""
    code = secrets.token_urlsafe(24)
    with _lock:
        now = time.monotonic()
        for k in [k for k, (until, _) in _codes.items() if until <= now]:
            del _codes[k]
        while len(_codes) >= MAX_CODES:
            _codes.pop(next(iter(_codes)))
        _codes[code] = (now + seconds, token)
    return code


def table_link(base: str, token: str) -> str:
    """The address that unlocks a device with ``token`` (a table's, issued by the organiser's
    device): ``BASE/api/table-device?code=CODE``, one use within :data:`TABLE_CODE_SECONDS`."""
    return f"{base.rstrip('/')}/api/table-device?code={issue(token, TABLE_CODE_SECONDS)}"


def _take(code: object) -> tuple[bool, str | None]:
    """``(True, token)`` for a good code (used up now), ``(False, None)`` otherwise."""
    if not isinstance(code, str):
        return False, None
    with _lock:
        found = _codes.pop(code, None)
    if found is None or found[0] <= time.monotonic():
        return False, None
    return True, found[1]


async def device_cookie(request: Request) -> JSONResponse:
    """``POST /api/device-cookie`` ``{"code": ...}``: sets the device's HttpOnly unlock cookie
    for the code's token (while the token is valid), or clears it; 403 for another code."""
    body = await read_json(request, MAX_BODY)
    good, token = _take(body.get("code") if isinstance(body, dict) else None)
    if not good:
        return JSONResponse({"ok": False, "error": "unknown or used code"}, status_code=403)
    response = JSONResponse({"ok": True})
    if token is None:
        response.delete_cookie(TOKEN_COOKIE, path="/", httponly=True, samesite="strict")
        return response
    claims = access.unlocked_claims(token)
    if claims is None:
        return JSONResponse({"ok": False, "error": "that device is locked"}, status_code=403)
    _cookie(response, token, claims.expiry)
    return response


def _cookie(response: Response, token: str, expiry: int) -> None:
    response.set_cookie(
        TOKEN_COOKIE,
        token,
        max_age=max(1, int(expiry - time.time())),
        path="/",
        httponly=True,
        samesite="strict",
    )


async def table_device(request: Request) -> Response:
    """``GET /api/table-device?code=...``: the link the organiser's device made for a table's
    device (issue 36): sets that device's HttpOnly cookie to the table's token and sends it to
    the Record page (303); a code used, expired or unknown, or a token locked since: 403, one
    line of plain text."""
    from starlette.concurrency import run_in_threadpool

    good, token = _take(request.query_params.get("code"))
    if not good or token is None:
        return PlainTextResponse(
            "This link was used already or is out of date: ask the organiser for a new one.",
            status_code=403,
        )
    claims = await run_in_threadpool(access.unlocked_claims, token)
    if claims is None or not claims.table:
        return PlainTextResponse("That device is locked: ask the organiser again.", 403)
    response = RedirectResponse("../record", status_code=303)
    response.headers["Cache-Control"] = "no-store"
    _cookie(response, token, claims.expiry)
    return response


def routes() -> list[Any]:
    """The routes :mod:`dashboard.common.server` mounts."""
    return [
        Route("/api/device-cookie", device_cookie, methods=["POST"]),
        Route("/api/table-device", table_device, methods=["GET"]),
    ]
