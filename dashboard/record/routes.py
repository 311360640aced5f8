"""The Record page pad's HTTP routes, served beside the Streamlit app
(:mod:`dashboard.common.server`).

A tap is one request that carries everything the store needs to take it exactly once, and gets
its answer in the same request, so no rerun of the page can lose it (issue 19):

- ``POST /api/tap`` with ``{"session", "seq", "spot", "id", "at", "by", "cards"}``: ``seq`` is
  the session's last seq on the document the key was drawn for, ``id`` the event's id made on
  the device (a UUID: a retry of the same tap is the same event, FORMAT.md ``id``), ``at`` the
  time it was tapped (ISO 8601 with its UTC offset: a tap sent late, after the network came
  back, keeps its time, however long it waited; one more than :data:`service.tap.CLOCK_SKEW`
  ahead of this server's clock, or before the session began, is refused naming the field),
  read by :class:`TapBody` and taken by :func:`service.tap.record_tap`. The answer is
  ``{"outcome", "message", "doc"}``: ``outcome`` is ``"recorded"`` (also for a tap stored
  already under that id in this session: nothing stored twice), ``"conflict"`` (409: the
  session moved on since the key was drawn: another device recorded first, nothing stored),
  ``"refused"`` (409: the rules, a time or an id that cannot be this tap's; 400: a tap that
  cannot be read; 403: a locked device; nothing stored), with the session's document as it now
  stands; HTTP 503 ``"unavailable"`` with ``Retry-After`` when the store cannot answer (locked
  by another program longer than an append waits, down, a full disk: only the rules refuse a
  tap, so the device keeps it, and those after it, and sends them again in order: it may have
  been stored, and its id makes the retry safe).
- ``GET /api/pad?session=S&since=N``: ``{"seq"}`` and, when the session's last seq is not ``N``,
  its ``doc``; what the pad polls to show the connection and follow other devices.

Both need an unlocked device (:func:`dashboard.access.check.checked_unlocked`, the
``brag_device`` cookie): 403 otherwise. One user's bad request is its own one-line answer, never
another's.

**A device per table** (issue 36, item 2). A device the organiser unlocked for one table
(:func:`dashboard.access.check.issue_token` with a table) records that table's sessions only: a
tap on a session at another table is ``refused`` (409, "Not recorded: This device records table
2 only (this session is at table 1): nothing was stored."), before anything is read of the tap,
and the store's guard checks it again inside the append (:func:`dashboard.access.check.guarded`).
Both answers carry ``others``: the labels of the other devices that polled or tapped a session at
the same table within the last 2 s (:mod:`dashboard.access.presence`), and ``warning``, the
sentence the pad shows; the pad polls every 0.5 s, so the second device is warned at its first
poll and the first one at its next.
"""

from __future__ import annotations

import functools
import threading
import uuid
from dataclasses import dataclass, field
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, PlainValidator, StrictInt, StrictStr, ValidationError
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from dashboard.access import check as access
from dashboard.access import presence
from dashboard.access.guard import read_json
from dashboard.access.tokens import BY_COOKIE, TOKEN_COOKIE
from dashboard.common import stores
from dashboard.record import pad_doc as pad_doc_
from dashboard.record import recorder
from dashboard.record.pad_doc import PadDocument
from events.errors import BragError
from log.service import EventStore
from service import tap as tap_case
from service.tap import LOCKED, Outcome, RecordTap, TapResult, TapTime
from timeline import Timeline

__all__ = [
    "TapBody",
    "record_tap",
    "routes",
]

MAX_BODY = 16_384
"""The largest tap request read (bytes): a tap is a few hundred (bounded while it is read,
:mod:`dashboard.access.guard`)."""

RETRY_AFTER = 2
"""Seconds the pad is told to wait (``Retry-After``) before it sends a tap again to a store that
could not answer (503); the pad backs off further from there (``pad.js``)."""

_latest: dict[tuple[str, str], Timeline] = {}
"""Per (store URL, session): the timeline the last tap through this server left."""
_latest_lock = threading.Lock()


def _store() -> Any:
    """The store for reading (read-only: never waits on a writer's lock)."""

    return stores.store()


def _writer() -> Any:
    """The store for a tap: read and appended through the one writing handle."""

    return stores.writer()


def _timeline(store: Any, session: str, last: int | None = None) -> Timeline:
    """The session's timeline at ``last`` or later (default: as stored now): the one this
    server's last tap of the session left (no I/O: the append extended the writer's) when it is
    that recent, else ``store``'s."""
    with _latest_lock:
        kept = _latest.get((str(store.url), session))
    if kept is not None and last is not None and kept.last_seq >= last:
        return kept
    t: Timeline = store.timeline(session, last)
    return t


def _remember(store: Any, session: str) -> Timeline:
    """The writer's timeline of ``session`` after a tap, kept for the polls (the newest wins)."""
    t: Timeline = store.timeline(session)
    key = (str(store.url), session)
    if key[0].startswith("memory"):  # every in-memory store has one URL: none is kept
        return t
    with _latest_lock:
        old = _latest.get(key)
        if old is None or old.last_seq <= t.last_seq:
            _latest[key] = t
    return t


@dataclass(frozen=True, slots=True)
class _Drawn:
    """What a pad's document is kept under: the store's URL, the session, its last seq and last
    event's id (two in-memory stores never share one); ``timeline``, what it is drawn from, is
    no part of the key."""

    url: str
    session: str
    seq: int
    last: str
    timeline: Timeline = field(compare=False, repr=False)


@functools.lru_cache(maxsize=64)
def _drawn(key: _Drawn) -> PadDocument:
    """The pad's document per :class:`_Drawn`, made once from the store's timeline
    (:func:`dashboard.record.pad_doc.timeline_document`): a tap's answer and the polls after it
    share it; the store's cached timeline is extended by each append, so a tap costs one fold of
    its own event, never a fold of the stream (issue 32, item 5). The 64 latest are kept, with
    the timelines they were drawn from (which share their steps)."""
    return pad_doc_.timeline_document(key.timeline)


def _document(store: Any, session: str, last: int | None = None) -> PadDocument:
    """The pad's document of ``session`` at ``last`` (default: as stored now), kept per (store,
    session, last seq)."""
    t = _timeline(store, session, last)
    last_id = str(t.log[-1].event.id) if t.last_seq else ""
    return _drawn(_Drawn(str(store.url), session, t.last_seq, last_id, t))


def _answer(outcome: str, message: str, doc: PadDocument | None, status: int = 200) -> JSONResponse:
    return JSONResponse({"outcome": outcome, "message": message, "doc": doc}, status_code=status)


Answer = tuple[str, str, int]
"""What :func:`record_tap` answers: ``(outcome, message, HTTP status)``."""

ANSWERED: dict[Outcome, tuple[str, int]] = {
    "recorded": ("recorded", 200),
    "conflict": ("conflict", 409),
    "refused": ("refused", 409),
    "unreadable": ("refused", 400),
    "missing": ("refused", 404),
    "locked": ("refused", 403),
    "unavailable": ("unavailable", 503),
}
"""Each outcome of a tap (:data:`service.tap.Outcome`) as the route answers it: ``(outcome,
HTTP status)``."""


def _uuid_text(value: object) -> str:
    return str(uuid.UUID(str(value)))


def _cards(value: object) -> tuple[str, ...] | None:
    """The cards picked (none when none were sent); ``None`` when what was sent is not cards."""
    if not value:
        return ()
    if isinstance(value, list) and all(isinstance(c, str) for c in value):
        return tuple(value)
    return None


class TapBody(BaseModel):
    """The body of ``POST /api/tap`` (see the module), read: the session, key and seq as sent
    (a string, a string, an integer), the event's id as a UUID, ``at`` and ``cards`` read as
    :class:`service.tap.RecordTap` takes them (refused there, in their turn). Other fields are
    ignored (``by``: the route's own, :func:`tap`)."""

    model_config = ConfigDict(frozen=True)

    session: StrictStr
    spot: StrictStr
    seq: StrictInt
    id: Annotated[str, PlainValidator(_uuid_text)]
    at: Annotated[TapTime | None, PlainValidator(TapTime.read)] = None
    cards: Annotated[tuple[str, ...] | None, PlainValidator(_cards)] = ()

    @classmethod
    def command(cls, body: dict[str, Any], by: str | None) -> RecordTap | TapResult:
        """``body`` as the tap's command, recorded by ``by`` (default ``organiser``); or why it
        cannot be read: it names no session, key or seq, or has no event id."""
        try:
            b = cls.model_validate(body)
        except ValidationError as err:
            if any(e["loc"][:1] != ("id",) for e in err.errors()):
                return TapResult(
                    "unreadable", "Not recorded: the tap names no session, key or seq."
                )
            return TapResult("unreadable", "Not recorded: the tap has no event id.")
        return RecordTap(b.session, b.seq, b.spot, b.id, by or "organiser", b.at, b.cards)


def _take(store: EventStore, body: dict[str, Any], by: str | None) -> TapResult:
    """The tap ``body`` read and taken into ``store`` (:func:`service.tap.record_tap`)."""
    tap = TapBody.command(body, by)
    if isinstance(tap, TapResult):
        return tap
    return tap_case.record_tap(store, tap, recorder.tap_event, locked=(access.DeviceLocked,))


def _answered(result: TapResult) -> Answer:
    outcome, status = ANSWERED[result.outcome]
    return outcome, result.message, status


def record_tap(store: EventStore, tap: dict[str, Any], by: str | None = None) -> Answer:
    """Takes one tap (the body of ``POST /api/tap``) into ``store``: ``(outcome, message,
    HTTP status)`` (:data:`ANSWERED` of :func:`service.tap.record_tap`'s outcome), recorded by
    ``by`` (default ``organiser``). Raises what the store raises when it cannot answer
    (:class:`~events.errors.StoreUnavailable`): only the rules refuse a tap."""
    result = _take(store, tap, by)
    if result.error is not None:
        raise result.error
    return _answered(result)


def _device(request: Request) -> Any:
    """The request's device's claims when it is unlocked (:class:`TokenClaims`), ``False`` when
    it is not, or the store's error when that cannot be told
    (:func:`dashboard.access.check.checked_claims`): the route answers it 503, never 403."""
    try:
        claims = access.checked_claims(request.cookies.get(TOKEN_COOKIE))
    except (BragError, OSError) as err:
        return err
    return False if claims is None else claims


def _session_table(store: Any, session: str, last: int | None = None) -> str | None:
    """The table ``session`` is at (``session_started``'s, RULES 1.3: fixed for the session)."""
    table: str | None = _timeline(store, session, last).state.table
    return table


def _others(
    request: Request, store: Any, session: str, claims: Any, table: str | None
) -> dict[str, Any]:
    """``{"others", "warning"}``: the other devices recording ``table`` now
    (:mod:`dashboard.access.presence`), this device noted as recording it."""
    by = request.cookies.get(BY_COOKIE)
    label = presence.device_label(str(claims.id), by)
    key = presence.table_key(table, session)
    others = presence.PRESENCE.seen(str(store.url), key, str(claims.id), label)
    return {"others": others, "warning": presence.warning(table, others) if others else ""}


def _other_table(claims: Any, table: str | None) -> str | None:
    """Why a table's device may not tap a session at ``table``, or ``None``."""
    try:
        access.check_table(str(getattr(claims, "table", "") or ""), table)
    except access.OtherTable as err:
        return f"Not recorded: {err.message}"
    return None


def _unavailable(err: Exception) -> JSONResponse:
    """503: the store could not answer (nothing refused the tap); ``Retry-After``
    :data:`RETRY_AFTER` seconds."""
    answer = _answer("unavailable", tap_case.unreachable(err).message, None, 503)
    answer.headers["Retry-After"] = str(RETRY_AFTER)
    return answer


async def tap(request: Request) -> JSONResponse:
    """``POST /api/tap``: see the module's docstring."""
    from starlette.concurrency import run_in_threadpool

    device = await run_in_threadpool(_device, request)  # it may read the store: not on the loop
    if isinstance(device, Exception):
        return _unavailable(device)
    if not device:
        return _answer("refused", LOCKED, None, 403)
    body = await read_json(request, MAX_BODY)
    if body is None:
        return _answer("refused", "Not recorded: the tap could not be read.", None, 400)
    if device.table and isinstance(body.get("session"), str):
        try:
            refusal = await run_in_threadpool(_table_refusal, device, body["session"])
        except Exception as err:
            return _unavailable(err)
        if refusal is not None:
            return _answer("refused", refusal, None, 409)
    by = body.get("by") if isinstance(body.get("by"), str) else None
    by = (by or request.cookies.get(BY_COOKIE) or "").strip() or None

    token = request.cookies.get(TOKEN_COOKIE)

    def work() -> tuple[TapResult, PadDocument | None, dict[str, Any]]:
        store = access.guarded(_writer(), token)  # the token checked again inside the append
        result = _take(store, body, by)
        if result.error is not None:
            raise result.error
        session = body.get("session")
        doc = None
        seen: dict[str, Any] = {}
        if isinstance(session, str) and result.outcome != "missing" and store.last_seq(session):
            last = _remember(store, session).last_seq
            doc = _document(store, session, last)
            seen = _others(request, store, session, device, _session_table(store, session, last))
        return result, doc, seen

    try:
        result, doc, seen = await run_in_threadpool(work)
    except BragError as err:
        if not isinstance(err, ValueError):  # the store, not the tap
            return _unavailable(err)
        return _answer("refused", f"Not recorded: {err.heading()}: {err.message}", None, 409)
    except Exception as err:
        return _unavailable(err)
    outcome, message, status = _answered(result)
    body_out = {"outcome": outcome, "message": message, "doc": doc, **seen}
    return JSONResponse(body_out, status_code=status)


def _table_refusal(claims: Any, session: str) -> str | None:
    """Why the table's device ``claims`` may not tap ``session`` (at another table), or
    ``None`` (a session not stored is the tap's own answer)."""
    store = _store()
    if not store.last_seq(session):
        return None
    return _other_table(claims, _session_table(store, session))


async def pad(request: Request) -> JSONResponse:
    """``GET /api/pad?session=S&since=N``: see the module's docstring. The device's check
    (which reads the store's revocations once a second) and the store's last seq are asked in a
    worker thread, never on the event loop: a store that is slow to answer holds up this poll
    only, not every request the server is answering (issue 33, class 6)."""
    from starlette.concurrency import run_in_threadpool

    session = request.query_params.get("session") or ""
    try:
        since = int(request.query_params.get("since") or -1)
    except ValueError:
        since = -1

    def work() -> dict[str, Any] | bool | Exception:
        from dashboard.common import cache

        device = _device(request)
        if device is False or isinstance(device, Exception):
            return device
        last = cache.polled_last_seq(session)
        if last:  # a tap through this server may be newer than the poller knows
            last = _timeline(_store(), session, last).last_seq
        out: dict[str, Any] = {"seq": last}
        if last and last != since:
            out["doc"] = _document(_store(), session, last)
        if last:
            table = _session_table(_store(), session, last)
            out.update(_others(request, _store(), session, device, table))
            out["only"] = _other_table(device, table) or ""
        return out

    try:
        out = await run_in_threadpool(work)
    except Exception as err:
        return _unavailable(err)
    if isinstance(out, Exception):
        return _unavailable(out)
    if out is False:
        return JSONResponse({"locked": True, "message": LOCKED}, status_code=403)
    return JSONResponse(out, headers={"Cache-Control": "no-store"})


async def ping(request: Request) -> JSONResponse:
    """``GET /api/ping``: the server answers."""
    return JSONResponse({"ok": True}, headers={"Cache-Control": "no-store"})


def routes() -> list[Any]:
    """The routes :mod:`dashboard.common.server` mounts."""
    return [
        Route("/api/ping", ping, methods=["GET"]),
        Route("/api/pad", pad, methods=["GET"]),
        Route("/api/tap", tap, methods=["POST"]),
    ]
