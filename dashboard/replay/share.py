"""The Replay page's "Download picture": an HTTP route beside the Streamlit app
(:mod:`dashboard.common.server`), issue 21 item 3.

``GET /api/picture.png?session=S&deal=D&step=K&view=P&log=recorded`` answers the PNG of step K of
deal D (the step numbers every replay shows; ``view`` and ``log`` as in the page's link) drawn by
:func:`present.share.share`, as far as this device may see it: the one rule the page's frames
are drawn by (:func:`present.sight.sight_for`, through :func:`present.share.sight_of`), with
the organiser's unlocked device told by its ``brag_device`` cookie
(:func:`dashboard.access.check.device_unlocked`), so a deal dealt since the last shuffle of an
unfinished
session is drawn for any other device as a spectator saw it. The picture is the server's, not the
browser's: one renderer (resvg) and one caption for the page and ``brag share``, whatever the
phone. Answers are kept per (store, session, last seq, deal, step, view, log, organiser) for a
second tap. A picture that cannot be made is a 404 or a 400 with one line of text; a store that
cannot be reached, a 503 saying why without the store's address.

Pictures are drawn apart from the routes the pad uses (issue 33, class 6): the pad's routes run
in the server's shared worker threads, pictures never do. A picture's table (its SVG: the
replay, Python) is made in :data:`THREADS` threads of its own, and its raster by resvg, which
holds the interpreter while it draws (``present.share.RENDERERS``), in :data:`RASTERS` processes
of its own (:func:`rasters`), so the server's threads, the pad's poll among them, never wait on
it (``bench/pictures.py``); those processes run niced (:data:`RASTER_NICE`), so that on a
machine whose cores are all busy the server's event loop, which answers the pad, is given the
CPU before them. Each picture asked for is admitted first, on the event loop, before
anything is drawn (:class:`Admission`): a client (by its address) with :data:`PER_CLIENT`
pictures already waiting or being drawn is answered 429 at once, and when :data:`QUEUED`
pictures wait or are drawn in all, 503; both with ``Retry-After``.
"""

from __future__ import annotations

import asyncio
import functools
import os
import re
import threading
from collections import Counter
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from dashboard.access import check as access
from dashboard.access.tokens import TOKEN_COOKIE
from events.errors import BragError, StoreUnavailable
from present.share import ShareRefused, png, share, sight_of
from store.address import masked

__all__ = [
    "PER_CLIENT",
    "QUEUED",
    "RASTERS",
    "THREADS",
    "Admission",
    "PictureGate",
    "picture",
    "routes",
]

KEEP = 32
"""Pictures kept for a second tap (a PNG is some 60 KB)."""

THREADS = 2
"""Threads that make pictures' tables (the SVG), apart from the server's shared threads."""
RASTERS = int(os.environ.get("BRAG_PICTURE_RASTERS") or 1)
"""Processes that draw the rasters (resvg; ``$BRAG_PICTURE_RASTERS``): one, so that on a machine
of two cores one is left to the server and its pad; 0 draws them in :data:`THREADS`, where
resvg holds the interpreter and the pad's poll waits (``bench/pictures.py``)."""
RASTER_NICE = 10
"""How much lower the raster processes run than the server (``os.nice``): under a flood they
draw with what the server's event loop leaves, never take its share of the CPU."""
PER_CLIENT = 2
"""Pictures one client address may have waiting or being drawn at a time; more: 429."""
QUEUED = 8
"""Pictures all clients together may have waiting or being drawn; more: 503."""
RETRY_AFTER = 2
"""Seconds a refused client is told to wait (``Retry-After``)."""


class Admission:
    """The pictures waiting or being drawn, counted per client address and in all:
    :meth:`enter` admits one (or says why not: ``"client"`` over :data:`PER_CLIENT`, ``"full"``
    at :data:`QUEUED`), :meth:`leave` when its drawing is over (a thread's callback: locked)."""

    def __init__(self, per_client: int, queued: int) -> None:
        self.per_client, self.queued = per_client, queued
        self._lock = threading.Lock()
        self._by: Counter[str] = Counter()
        self._all = 0

    def enter(self, client: str) -> str | None:
        with self._lock:
            if self._by[client] >= self.per_client:
                return "client"
            if self._all >= self.queued:
                return "full"
            self._by[client] += 1
            self._all += 1
            return None

    def would_refuse(self, client: str) -> str | None:
        """What :meth:`enter` would say now, without admitting."""
        with self._lock:
            if self._by[client] >= self.per_client:
                return "client"
            return "full" if self._all >= self.queued else None

    def leave(self, client: str) -> None:
        with self._lock:
            self._all -= 1
            self._by[client] -= 1
            if self._by[client] <= 0:
                del self._by[client]

    @property
    def waiting(self) -> int:
        with self._lock:
            return self._all


admission = Admission(PER_CLIENT, QUEUED)
_pools: dict[str, Executor] = {}
_pools_lock = threading.Lock()


def _threads() -> Executor:
    with _pools_lock:
        if "threads" not in _pools:
            _pools["threads"] = ThreadPoolExecutor(THREADS, thread_name_prefix="brag-picture")
        return _pools["threads"]


def _raster_process(parent: int) -> None:
    """A raster process's start (a pool's ``initializer``): it ends with the server
    (:func:`log.children.end_with_parent`) and runs :data:`RASTER_NICE` lower."""
    from log.children import end_with_parent

    end_with_parent(parent)
    if hasattr(os, "nice"):
        os.nice(RASTER_NICE)


def rasters() -> Executor | None:
    """The processes that draw rasters (started on first use, from a picture thread, which lives
    as long as the server; each ends with the server: :func:`log.children.end_with_parent`),
    or ``None`` when :data:`RASTERS` is 0."""
    if RASTERS <= 0:
        return None
    with _pools_lock:
        if "rasters" not in _pools:
            from multiprocessing import get_context

            _pools["rasters"] = ProcessPoolExecutor(
                RASTERS,
                mp_context=get_context("spawn"),  # never a fork of the server's threads
                initializer=_raster_process,
                initargs=(os.getpid(),),
            )
        return _pools["rasters"]


def _raster(svg: str) -> bytes:
    """The PNG of ``svg``, drawn in :func:`rasters` (again once in a new pool when a process of
    the pool died), else here."""
    for _ in range(2):
        pool = rasters()
        if pool is None:
            break
        try:
            return pool.submit(png, svg).result()
        except BrokenProcessPool:
            with _pools_lock:
                if _pools.get("rasters") is pool:
                    del _pools["rasters"]
    return png(svg)


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
    """The PNG of the route (see the module), kept per version of the session's stream
    (:func:`_kept`). Raises :class:`~present.share.ShareRefused` (no such session, deal, step or
    player) and what the store raises when it cannot be reached."""
    from dashboard.common import cache, settings

    version = cache.last_seq(session)
    if not version:
        raise ShareRefused(f"no session {session} in the store")
    return _kept(settings.db_url(), session, version, deal, step, view, recorded, organiser)


@functools.lru_cache(maxsize=KEEP)
def _kept(
    url: str,
    session: str,
    version: int,
    deal: int,
    step: int | None,
    view: str | None,
    recorded: bool,
    organiser: bool,
) -> bytes:
    """The PNG of :func:`draw`, drawn from the session as it is now, kept for the :data:`KEEP`
    pictures asked for last: ``url`` (the store) and ``version`` (the session's last seq) only
    key it, so a session recorded further is drawn again. Raises what :func:`draw` raises
    (never kept)."""
    from dashboard.common import cache

    rp = cache.replay_now(session, recorded=recorded)
    if rp is None:
        raise ShareRefused(f"no session {session} in the store")
    return _raster(
        share(sight_of(rp, deal, view, organiser=organiser), step, "svg").decode("utf-8")
    )


def _refused(why: str) -> Response:
    if why == "client":
        text, status = "Too many pictures asked for at once from here; try again shortly.", 429
    else:
        text, status = "Too many pictures are being drawn; try again shortly.", 503
    return PlainTextResponse(text, status_code=status, headers={"Retry-After": str(RETRY_AFTER)})


async def _drawn(client: str, *args: Any, **kwargs: Any) -> bytes:
    """:func:`draw` in the picture threads, admitted first (:data:`admission`; raises
    :class:`_Refused`); the admission is left when the drawing ends, even when the client has
    gone meanwhile (a drawing under way is not stopped), on the event loop: the gate's look at
    the counts never waits on a picture thread that holds their lock."""
    why = admission.enter(client)
    if why is not None:
        raise _Refused(why)
    try:
        job: Future[bytes] = _threads().submit(draw, *args, **kwargs)
    except BaseException:
        admission.leave(client)
        raise
    loop = asyncio.get_running_loop()

    def drawn(_: Future[bytes]) -> None:  # in the picture thread: the count is the loop's
        try:
            loop.call_soon_threadsafe(admission.leave, client)
        except RuntimeError:  # the loop has stopped (the server is stopping)
            admission.leave(client)

    job.add_done_callback(drawn)
    return await asyncio.wrap_future(job)


class _Refused(Exception):
    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


async def picture(request: Request) -> Response:
    """``GET /api/picture.png``: see the module's docstring."""
    q = request.query_params
    session = q.get("session") or ""
    deal = _number(q.get("deal"))
    step = _number(q.get("step")) if q.get("step") else None
    if not session or deal is None or (q.get("step") and step is None):
        return PlainTextResponse("Give a session, a deal and a step (numbers).", status_code=400)
    view = q.get("view") or None
    organiser = access.device_unlocked(request.cookies.get(TOKEN_COOKIE))
    recorded = q.get("log") == "recorded"
    client = request.client.host if request.client else "?"
    try:
        data = await _drawn(
            client, session, deal, step, view, recorded=recorded, organiser=organiser
        )
    except _Refused as err:
        return _refused(err.why)
    except ShareRefused as err:
        return PlainTextResponse(masked(str(err)), status_code=404)
    except (StoreUnavailable, OSError) as err:
        from dashboard.common.faults import reason

        why = reason(err)[:200]  # the reason only: never the store's address
        return PlainTextResponse(f"The store cannot be reached ({why}).", status_code=503)
    except BragError as err:
        return PlainTextResponse(masked(str(err).splitlines()[0][:300]), status_code=409)
    name = _file_name(session, deal, step)
    return Response(
        data,
        media_type="image/png",
        headers={
            "Content-Disposition": f'attachment; filename="{name}"',
            "Cache-Control": "private, no-store",
        },
    )


class PictureGate:
    """ASGI middleware (:mod:`dashboard.common.server` puts it first, before the Host check and the
    request guard): a picture asked for by a client already at its limit, or while the queue is
    full, is answered 429 or 503 here, from the request's path and address alone, before any
    header is read and before the app's routing and Streamlit's own layers (measured in one
    process: 0.07 ms a refusal instead of 1.75 ms through the whole app, so that a flood's
    refusals keep the server free for the pad). The refusal says nothing of the server, so a
    request whose ``Host`` the server would refuse may get it too. Only a look:
    :func:`picture` admits for good."""

    PATH = "/api/picture.png"

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope.get("path") == self.PATH:
            client = scope.get("client")
            why = admission.would_refuse(client[0] if client else "?")
            if why is not None:
                await _refused(why)(scope, receive, send)
                return
        await self.app(scope, receive, send)


def routes() -> list[Any]:
    """The routes :mod:`dashboard.common.server` mounts."""
    return [Route("/api/picture.png", picture, methods=["GET"])]
