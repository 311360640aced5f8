"""Pictures drawn apart from the pad's routes (issue 33, class 6), by a crafted ASGI client (no
browser, no server): ``GET /api/picture.png`` never takes the server's shared worker threads the
pad's routes run in; a client over its limit is answered 429 with ``Retry-After`` at once,
without drawing; a full queue, 503. The pad's poll under a real flood is ``bench/pictures.py``.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from asgi_helpers import asgi_get
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from dashboard.replay import share as share_api

PICTURE = "/api/picture.png?session=s&deal=1&step={k}"
PER_CLIENT = getattr(share_api, "PER_CLIENT", 2)
QUEUED = getattr(share_api, "QUEUED", 8)
THREADS = getattr(share_api, "THREADS", 2)


async def _call(app: Any, path: str, client: str) -> tuple[int, dict[str, str], bytes]:
    """One GET through the ASGI ``app`` from the address ``client``: status, headers, body."""
    return await asgi_get(app, path, client, [(b"host", b"127.0.0.1")])


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[threading.Event, list[int]]]:
    """``draw`` replaced by one that waits until the event is set (a slow picture), counting
    the steps it was asked to draw; fresh admission counts."""
    go, drawn = threading.Event(), []

    def draw(session: str, deal: int, step: int | None, view: Any, **_: Any) -> bytes:
        drawn.append(int(step or 0))
        assert go.wait(20)
        return b"\x89PNG picture"

    monkeypatch.setattr(share_api, "draw", draw)
    if hasattr(share_api, "Admission"):  # (so that on main the test fails on what it checks)
        fresh = share_api.Admission(PER_CLIENT, QUEUED)
        monkeypatch.setattr(share_api, "admission", fresh)
    yield go, drawn
    go.set()


def _app() -> Starlette:
    async def pad(_: Request) -> PlainTextResponse:
        # what the pad's routes do (dashboard/record/routes.py): their work in the shared threads
        return PlainTextResponse(await run_in_threadpool(lambda: "seq 12"))

    return Starlette(routes=[*share_api.routes(), Route("/api/pad", pad)])


async def _until(check: Any, seconds: float = 5.0) -> None:
    for _ in range(int(seconds / 0.01)):
        if check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("not reached in time")


Answer = tuple[int, dict[str, str], bytes]
"""An answer: status, headers, body."""


async def _over_the_limit(
    app: Any, client: str, drawn: list[int], k: int
) -> tuple[list[asyncio.Task[Answer]], Answer]:
    """``client`` asks for PER_CLIENT pictures (held while drawing), then for one more (step
    ``k``) within a second: the held requests, and the answer to the one over the limit."""
    first = [
        asyncio.create_task(_call(app, PICTURE.format(k=j), client)) for j in range(PER_CLIENT)
    ]
    await _until(lambda: len(drawn) >= min(PER_CLIENT, THREADS))
    over = await asyncio.wait_for(_call(app, PICTURE.format(k=k), client), 1.0)
    return first, over


def test_a_client_over_its_limit_gets_429_at_once_without_drawing(
    held: tuple[threading.Event, list[int]],
) -> None:
    go, drawn = held
    app = _app()

    async def run() -> None:
        first, (status, headers, body) = await _over_the_limit(app, "10.0.0.7", drawn, 99)
        assert status == 429
        assert int(headers["retry-after"]) >= 1
        assert b"Too many pictures" in body
        assert 99 not in drawn  # refused before anything was drawn
        # another client is not held back by the first one's limit
        other = asyncio.create_task(_call(app, PICTURE.format(k=50), "10.0.0.8"))
        go.set()
        answers = await asyncio.wait_for(asyncio.gather(*first, other), 10)
        assert [a[0] for a in answers] == [200] * (PER_CLIENT + 1)
        assert answers[0][1]["content-type"] == "image/png"
        assert share_api.admission.waiting == 0

    asyncio.run(run())


def test_a_full_queue_answers_503_and_the_pads_routes_still_answer(
    held: tuple[threading.Event, list[int]],
) -> None:
    """60 pictures held from 60 clients (on main each took one of the server's shared threads,
    the pad's among them: the pad's poll waited behind them)."""
    go, drawn = held
    app = _app()

    async def run() -> None:
        tasks = [
            asyncio.create_task(_call(app, PICTURE.format(k=k), f"10.1.0.{k}")) for k in range(60)
        ]
        await _until(lambda: len(drawn) >= THREADS)
        status, _, body = await asyncio.wait_for(_call(app, "/api/pad", "10.0.0.1"), 2.0)
        assert (status, body) == (200, b"seq 12")
        await _until(lambda: sum(t.done() for t in tasks) >= 60 - QUEUED)
        refused = [t.result() for t in tasks if t.done()]
        assert len(refused) == 60 - QUEUED
        assert {r[0] for r in refused} == {503}
        assert all(int(r[1]["retry-after"]) >= 1 for r in refused)
        go.set()
        answers = await asyncio.wait_for(asyncio.gather(*tasks), 20)
        assert sum(a[0] == 200 for a in answers) == QUEUED
        assert len(drawn) == QUEUED  # only the admitted were drawn

    asyncio.run(run())


def test_the_gate_refuses_before_the_app_is_reached(
    held: tuple[threading.Event, list[int]],
) -> None:
    """:class:`dashboard.replay.share.PictureGate` (outside the app's routing and Streamlit's
    layers in :mod:`dashboard.common.server`): a client at its limit is refused without the app."""
    go, drawn = held
    inner = _app()
    reached: list[str] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        reached.append(scope["path"])
        await inner(scope, receive, send)

    gated = share_api.PictureGate(app)

    async def run() -> None:
        first, (status, headers, _) = await _over_the_limit(gated, "10.2.0.1", drawn, 98)
        assert (status, int(headers["retry-after"]) >= 1) == (429, True)
        assert len(reached) == PER_CLIENT  # the refused request never reached the app
        assert (await _call(gated, "/api/pad", "10.2.0.1"))[0] == 200  # other paths pass
        go.set()
        assert [a[0] for a in await asyncio.gather(*first)] == [200] * PER_CLIENT

    asyncio.run(run())
