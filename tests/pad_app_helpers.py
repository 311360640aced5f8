"""The pad as an app (issue 35, item 3), driven in Chromium: what ``tests/browser/test_pad_app.py``
and ``bench/offline_pad.py`` share. The device goes offline as Chromium's ``set_offline`` does,
and, since that emulation does not reach a service worker's own requests (Playwright issue
#2311), each of the worker's requests is aborted as the network would (Playwright's service
worker network events, ``PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS``, set by
:func:`app_browser`)."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from browser_helpers import CHROMIUM_ARGS, chromium, wait_settled

DERIVED = frozenset({"pot_won", "pot_carried", "session_ended"})
"""The events the server concludes after a tap (never a tap of the device's)."""

PREFERRED = ("deal", "shuffle", "fold", "bet-0", "see", "look", "hand-a", "hand-b")
"""The keys a cycle taps, the first one drawn that the engine predicted (``doc.ahead``): a
deal of folds, so that the session goes on whatever it reaches."""


@contextmanager
def app_browser(size: dict[str, int]) -> Iterator[tuple[Any, Any]]:
    """A touch context of ``size`` in Debian's Chromium with service workers allowed and their
    requests routable: ``(context, page)``; closed after."""
    from playwright.sync_api import sync_playwright

    before = os.environ.get("PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS")
    os.environ["PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS"] = "1"
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
            try:
                context = browser.new_context(
                    viewport=size, has_touch=True, is_mobile=True, service_workers="allow"
                )
                yield context, context.new_page()
            finally:
                browser.close()
    finally:
        if before is None:
            os.environ.pop("PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS", None)
        else:
            os.environ["PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS"] = before


CUT: list[str] = []
"""The service worker's requests cut while offline (their URLs): a test sees that the worker
answered from its cache, not from the network the emulation does not reach."""


def _no_network_for_workers(route: Any) -> None:
    if route.request.service_worker is not None:
        CUT.append(route.request.url)
        route.abort("internetdisconnected")
    else:
        route.continue_()


def offline(context: Any, on: bool) -> None:
    """The device's network off (``on``) or back: the pages' (``set_offline``) and the service
    worker's (its requests aborted)."""
    if on:
        context.route("**/*", _no_network_for_workers)
        context.set_offline(True)
    else:
        context.set_offline(False)
        context.unroute("**/*", _no_network_for_workers)


PAD_ROOT = "document.querySelector('.pad')"


def drawn(page: Any, timeout: float = 20_000) -> dict[str, Any]:
    """Waits for the pad's page to draw the pad; ``{"ms", "from", "waiting", "connection"}``:
    the time from the start of the navigation to the pad drawn, measured in the page
    (``performance.now()``), where its document came from (``device`` or ``server``), the taps
    waiting and the connection shown."""
    page.wait_for_function(
        f"() => document.body.dataset.drawnMs && {PAD_ROOT} && {PAD_ROOT}.dataset.seq",
        timeout=timeout,
    )
    got: dict[str, Any] = page.evaluate(
        f"() => ({{ ms: Number(document.body.dataset.drawnMs), from: document.body.dataset.from,"
        f" waiting: Number({PAD_ROOT}.dataset.waiting), connection: {PAD_ROOT}.dataset.connection"
        "})"
    )
    return got


def open_app(page: Any, url: str, session: str, *, go: bool = True) -> dict[str, Any]:
    """Opens the pad's page of ``session`` (``go``: else it is being opened) and waits until
    the pad is drawn and the service worker controls the page (it keeps the page's files from
    then on)."""
    if go:
        page.goto(f"{url}/pad?session={session}")
    got = drawn(page)
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=20_000)
    return got


def offline_spot(page: Any) -> str:
    """A key the pad would take offline now: drawn, enabled, with the document the engine
    predicted after it (the first of :data:`PREFERRED`, else any)."""
    spot: str | None = page.evaluate(
        f"""(preferred) => {{
        const pad = {PAD_ROOT};
        const S = pad.S;
        const ahead = (S.doc && S.doc.ahead) || {{}};
        const live = [...pad.querySelectorAll('button[data-spot]')]
          .filter(b => !b.disabled && b.dataset.spot in ahead).map(b => b.dataset.spot);
        return preferred.find(s => live.includes(s)) ||
          live.find(s => s !== 'undo' && s !== 'redo') || null;
      }}""",
        list(PREFERRED),
    )
    assert spot, "no key the pad can take offline"
    return spot


def tap(page: Any, spot: str) -> None:
    """A thumb's tap on the key at ``spot`` once it has settled."""
    wait_settled(page, spot)
    page.locator(f".pad button[data-spot='{spot}']").tap()


def queued(page: Any, session: str) -> list[str]:
    """The ids of the taps of ``session`` queued on the device (localStorage), in order."""
    raw = page.evaluate("() => localStorage.getItem('bragbook.pad.queue') || '[]'")
    return [t["id"] for t in json.loads(raw) if t.get("session") == session]


def idle(page: Any, timeout: float = 30_000) -> None:
    """Waits until no tap waits on the device and the pad is not held."""
    page.wait_for_function(
        f"() => {{ const p = {PAD_ROOT}; return p && p.dataset.waiting === '0' && "
        "!p.classList.contains('busy') && p.dataset.connection === 'connected'; }",
        timeout=timeout,
    )


@dataclass
class Cycles:
    """What :func:`offline_cycles` saw: each offline reopen's time (ms, in the page), the taps
    made (ids, in order), the store's events of those ids (in the store's order), and the
    store's other events that no tap explains (not concluded by the server: a tap stored twice
    under another id would be one)."""

    reopen_ms: list[float] = field(default_factory=list)
    taps: list[str] = field(default_factory=list)
    stored: list[str] = field(default_factory=list)
    extra: list[str] = field(default_factory=list)
    shots: list[str] = field(default_factory=list)


def offline_cycles(
    context: Any,
    page: Any,
    stored: Any,
    session: str,
    cycles: int,
    shots: str | None = None,
) -> Cycles:
    """``cycles`` times: the network off, the pad reloaded (drawn from the device), a tap, the
    pad reloaded again (the tap still waiting, drawn as the engine predicted), a second tap, the
    network back, and every waiting tap sent; ``stored()`` gives the session's events in the
    store as ``(id, type)``, in order. With ``shots`` (a folder), the first cycle's three states are
    saved there (``online``, ``offline-reloaded``, ``back-online``, with the viewport's width)."""
    out = Cycles()
    before = {i for i, _ in stored()}
    width = page.viewport_size["width"]

    def shot(name: str) -> None:
        if shots:
            path = f"{shots}/pad-app-{name}-{width}.png"
            page.screenshot(path=path)
            out.shots.append(path)

    for k in range(cycles):
        idle(page)
        if k == 0:
            shot("online")
        offline(context, True)
        try:
            page.reload()
            first = drawn(page)
            assert first["from"] == "device" and first["connection"] == "offline", first
            out.reopen_ms.append(first["ms"])
            tap(page, offline_spot(page))
            page.reload()
            second = drawn(page)
            assert second["from"] == "device" and second["waiting"] == 1, second
            out.reopen_ms.append(second["ms"])
            tap(page, offline_spot(page))
            ids = queued(page, session)
            assert len(ids) == 2, ids
            if k == 0:
                page.wait_for_timeout(300)
                shot("offline-reloaded")
        finally:
            offline(context, False)
        idle(page, timeout=60_000)
        if k == 0:
            shot("back-online")
        out.taps += ids
    deadline = time.monotonic() + 10
    while True:
        rows = list(stored())
        if set(out.taps) <= {i for i, _ in rows} or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    made = set(out.taps)
    out.stored = [i for i, _ in rows if i in made]
    out.extra = [i for i, kind in rows if i not in made and i not in before and kind not in DERIVED]
    return out
