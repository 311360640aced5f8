"""The Replay page's "Download picture": an HTTP route beside the Streamlit app
(:mod:`dashboard.server`), issue 21 item 3.

``GET /api/picture.png?session=S&deal=D&step=K&view=P&log=recorded`` answers the PNG of step K of
deal D (the step numbers every replay shows; ``view`` and ``log`` as in the page's link) drawn by
:func:`present.share.share`, as far as this device may see it: the one rule the page's frames
are drawn by (:func:`present.sight.sight_for`, through :func:`present.share.sight_of`), with the
organiser's unlocked device told by its ``brag_device`` cookie
(:func:`dashboard.access.device_unlocked`), so a deal dealt since the last shuffle of an
unfinished session is drawn for any other device as a spectator saw it. The picture is the
server's, not the browser's: one renderer (resvg) and one caption for the page and ``brag
share``, whatever the phone. Answers are kept per (store, session, last seq, deal, step, view,
log, organiser) for a second tap; two pictures are drawn at a time at most. A picture that
cannot be made is a 404 or a 400 with one line of text; a store that cannot be reached, a 503.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from typing import Any

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from dashboard import access
from dashboard.gate import TOKEN_COOKIE
from events.errors import BragError, StoreUnavailable
from present.share import ShareRefused, share, sight_of

__all__ = ["picture", "routes"]

KEEP = 32
"""Pictures kept for a second tap (a PNG is some 60 KB)."""

_kept: OrderedDict[tuple[Any, ...], bytes] = OrderedDict()
_kept_lock = threading.Lock()
_drawing = threading.BoundedSemaphore(2)


def _number(text: str | None) -> int | None:
    if text is None or not re.fullmatch(r"\d{1,6}", text):
        return None
    return int(text)


def _file_name(session: str, deal: int, step: int | None) -> str:
    """A download's file name: the session id with anything but letters, digits, ``.``, ``_``
    and ``-`` made ``_``."""
    safe = re.sub(r"[^A-Za-z0-9._-]", "_", session)[:80] or "session"
    return f"{safe}-deal-{deal}" + (f"-step-{step}" if step is not None else "") + ".png"


def draw(
    session: str, deal: int, step: int | None, view: str | None, *, recorded: bool, organiser: bool
) -> bytes:
    """The PNG of the route (see the module), kept per version of the session's stream. Raises
    :class:`~present.share.ShareRefused` (no such session, deal, step or player) and what the
    store raises when it cannot be reached."""
    from dashboard import cache, settings

    version = cache.last_seq(session)
    if not version:
        raise ShareRefused(f"no session {session} in the store")
    key = (settings.db_url(), session, version, deal, step, view, recorded, organiser)
    with _kept_lock:
        if key in _kept:
            _kept.move_to_end(key)
            return _kept[key]
    rp = cache.replay_now(session, recorded=recorded)
    if rp is None:
        raise ShareRefused(f"no session {session} in the store")
    with _drawing:
        data = share(sight_of(rp, deal, view, organiser=organiser), step, "png")
    with _kept_lock:
        _kept[key] = data
        while len(_kept) > KEEP:
            _kept.popitem(last=False)
    return data


async def picture(request: Request) -> Response:
    """``GET /api/picture.png``: see the module's docstring."""
    from starlette.concurrency import run_in_threadpool

    q = request.query_params
    session = q.get("session") or ""
    deal = _number(q.get("deal"))
    step = _number(q.get("step")) if q.get("step") else None
    if not session or deal is None or (q.get("step") and step is None):
        return PlainTextResponse("Give a session, a deal and a step (numbers).", status_code=400)
    view = q.get("view") or None
    organiser = access.device_unlocked(request.cookies.get(TOKEN_COOKIE))
    recorded = q.get("log") == "recorded"
    try:
        data = await run_in_threadpool(
            draw, session, deal, step, view, recorded=recorded, organiser=organiser
        )
    except ShareRefused as err:
        return PlainTextResponse(str(err), status_code=404)
    except (StoreUnavailable, OSError) as err:
        why = str(err).splitlines()[0][:200] if str(err) else type(err).__name__
        return PlainTextResponse(f"The store cannot be reached ({why}).", status_code=503)
    except BragError as err:
        return PlainTextResponse(str(err).splitlines()[0][:300], status_code=409)
    name = _file_name(session, deal, step)
    return Response(
        data,
        media_type="image/png",
        headers={
            "Content-Disposition": f'attachment; filename="{name}"',
            "Cache-Control": "private, no-store",
        },
    )


def routes() -> list[Any]:
    """The routes :mod:`dashboard.server` mounts."""
    return [Route("/api/picture.png", picture, methods=["GET"])]
