"""The gate's HTTP route beside the Streamlit app (:mod:`dashboard.common.server`): the device's
unlock
cookie set ``HttpOnly; SameSite=Strict`` by the server, which a Streamlit script cannot do (its
code runs on the server and reaches the browser only through the page's JavaScript, which can
set no HttpOnly cookie).

The Record page hands its browser a one-time code (:func:`issue`, good for
:data:`CODE_SECONDS`); the page's JavaScript posts it to ``POST /api/device-cookie``, which sets
(or, for a code issued at a lock, clears) the ``brag_device`` cookie in its answer. The cookie
still goes with the websocket's handshake, where ``st.context.cookies`` reads it.
"""

from __future__ import annotations

import secrets
import threading
import time
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from dashboard.access import check as access
from dashboard.access.guard import read_json
from dashboard.access.tokens import TOKEN_COOKIE

__all__ = ["CODE_SECONDS", "issue", "routes"]

CODE_SECONDS = 60.0
MAX_CODES = 10_000
MAX_BODY = 1_024
"""The largest request read (bytes): ``{"code"}`` with a code of 32 characters (bounded while it
is read, :mod:`dashboard.access.guard`)."""

_lock = threading.Lock()
_codes: dict[str, tuple[float, str | None]] = {}  # code -> (good until, token or None: clear)


def issue(token: str | None) -> str:
    """A one-time code for which ``POST /api/device-cookie`` sets the cookie to ``token``
    (``None``: clears it)."""
    code = secrets.token_urlsafe(24)
    with _lock:
        now = time.monotonic()
        for k in [k for k, (until, _) in _codes.items() if until <= now]:
            del _codes[k]
        while len(_codes) >= MAX_CODES:
            _codes.pop(next(iter(_codes)))
        _codes[code] = (now + CODE_SECONDS, token)
    return code


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
    response.set_cookie(
        TOKEN_COOKIE,
        token,
        max_age=max(1, int(claims.expiry - time.time())),
        path="/",
        httponly=True,
        samesite="strict",
    )
    return response


def routes() -> list[Any]:
    """The routes :mod:`dashboard.common.server` mounts."""
    return [Route("/api/device-cookie", device_cookie, methods=["POST"])]
