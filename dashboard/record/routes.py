"""The Record page pad's HTTP routes, served beside the Streamlit app
(:mod:`dashboard.common.server`).

A tap is one request that carries everything the store needs to take it exactly once, and gets
its answer in the same request, so no rerun of the page can lose it (issue 19):

- ``POST /api/tap`` with ``{"session", "seq", "spot", "id", "at", "by", "cards"}``: ``seq`` is
  the session's last seq on the document the key was drawn for, ``id`` the event's id made on
  the device (a UUID: a retry of the same tap is the same event, FORMAT.md ``id``), ``at`` the
  time it was tapped (ISO 8601 with its UTC offset: a tap sent late, after the network came
  back, keeps its time, however long it waited; one more than :data:`CLOCK_SKEW` ahead of this
  server's clock, or before the session began, is refused naming the field). The answer is
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

Both need an unlocked device (:func:`dashboard.access.check.device_unlocked`, the ``brag_device``
cookie): 403 otherwise. One user's bad request is its own one-line answer, never another's.
"""

from __future__ import annotations

import threading
import uuid
from collections import OrderedDict
from datetime import UTC, datetime, timedelta
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from dashboard.access import check as access
from dashboard.access.gate import BY_COOKIE, TOKEN_COOKIE
from dashboard.access.guard import read_json
from dashboard.common import stores
from dashboard.record import pad_doc as pad_doc_
from dashboard.record import recorder
from dashboard.record.pad_doc import PadDocument
from events.errors import BragError, ConcurrencyConflict
from events.model import AnyEvent, is_derived
from events.text import inert
from present.replay import Replay
from present.steps import record_text
from timeline import Timeline

__all__ = ["page_document", "read_json", "record_tap", "routes"]

MAX_BODY = 16_384
"""The largest tap request read (bytes): a tap is a few hundred (bounded while it is read,
:mod:`dashboard.access.guard`)."""

CLOCK_SKEW = timedelta(minutes=5)
"""How far a device's clock may be off this server's: a tap's ``at`` up to this far in the
future, or this far before the session began, is taken as the device gave it."""

RETRY_AFTER = 2
"""Seconds the pad is told to wait (``Retry-After``) before it sends a tap again to a store that
could not answer (503); the pad backs off further from there (``pad.js``)."""

_docs: OrderedDict[tuple[str, str, int, str], PadDocument] = OrderedDict()
"""The pad's document per (store URL, session, last seq, last event's id: two in-memory stores
never share one), made once from the store's
timeline (:func:`dashboard.record.pad_doc.timeline_document`): a tap's answer and the polls
after it share it; the store's cached timeline is extended by each append, so a tap costs one
fold of its own event, never a fold of the stream (issue 32, item 5)."""
_docs_lock = threading.Lock()
_latest: dict[tuple[str, str], Timeline] = {}
"""Per (store URL, session): the timeline the last tap through this server left."""
_session_locks: dict[str, threading.Lock] = {}
_locks_lock = threading.Lock()


def _store() -> Any:
    """The store for reading (read-only: never waits on a writer's lock)."""

    return stores.store()


def _writer() -> Any:
    """The store for a tap: read and appended through the one writing handle."""

    return stores.writer()


def _lock(session: str) -> threading.Lock:
    """One lock per session: this server takes one tap of a session at a time (a retry that
    arrives while its first try is still being stored waits for it, then finds its id)."""
    with _locks_lock:
        return _session_locks.setdefault(session, threading.Lock())


def _timeline(store: Any, session: str, last: int | None = None) -> Timeline:
    """The session's timeline at ``last`` or later (default: as stored now): the one this
    server's last tap of the session left (no I/O: the append extended the writer's) when it is
    that recent, else ``store``'s."""
    with _docs_lock:
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
    with _docs_lock:
        old = _latest.get(key)
        if old is None or old.last_seq <= t.last_seq:
            _latest[key] = t
    return t


def _document(store: Any, session: str, last: int | None = None) -> PadDocument:
    """The pad's document of ``session`` at ``last`` (default: as stored now), kept per (store,
    session, last seq)."""
    t = _timeline(store, session, last)
    key = (str(store.url), session, t.last_seq, str(t.log[-1].event.id) if t.last_seq else "")
    with _docs_lock:
        doc = _docs.get(key)
        if doc is not None:
            _docs.move_to_end(key)
            return doc
    doc = pad_doc_.timeline_document(t)
    with _docs_lock:
        _docs[key] = doc
        while len(_docs) > 64:
            _docs.popitem(last=False)
    return doc


def page_document(rp: Replay) -> PadDocument:
    """The pad's document of the session replayed as recorded in ``rp`` (the Record page's
    drawing, :func:`dashboard.pad_doc.document`)."""
    return pad_doc_.document(rp)


def _said(t: Timeline, eid: str) -> str:
    """The sentences of the stored event with the id ``eid`` and of the derived events that
    followed it (a pot won, a session ended), as the replay words them (latest first found)."""
    n = t.last_seq
    at = next((k for k in range(n, 0, -1) if str(t.log[k - 1].event.id) == eid), None)
    if at is None:
        return ""
    end = at + 1
    while end <= n and is_derived(t.log[end - 1].event):
        end += 1
    return "; ".join(record_text(t, k) for k in range(at, end))


def _answer(outcome: str, message: str, doc: PadDocument | None, status: int = 200) -> JSONResponse:
    return JSONResponse({"outcome": outcome, "message": message, "doc": doc}, status_code=status)


Answer = tuple[str, str, int]
"""What :func:`record_tap` answers: ``(outcome, message, HTTP status)``."""


def _not_at(text: object, why: str, status: int = 409) -> Answer:
    shown = inert(text if isinstance(text, str) else repr(text))[:40]
    return "refused", f"Not recorded: field 'at': {shown} {why}.", status


def _when(tap: dict[str, Any], began: datetime | None) -> datetime | Answer:
    """The tap's ``at`` (FORMAT.md ``at``: ISO 8601 with its UTC offset, kept to the second): the
    time it was tapped on the device, however long it then waited offline; this server's time
    when the tap gives none. Refused in one line naming the field: not such a time (400), more
    than :data:`CLOCK_SKEW` ahead of this server's clock, or more than :data:`CLOCK_SKEW` before
    the session ``began`` (409)."""
    text = tap.get("at")
    if text is None:
        return recorder.now_in(None)
    when = None
    if isinstance(text, str) and len(text) <= 40:
        try:
            when = datetime.fromisoformat(text)
        except ValueError:
            when = None
    if when is None or when.tzinfo is None:
        return _not_at(text, "is not a time with its UTC offset (FORMAT.md at)", 400)
    when = when.replace(microsecond=0)
    now = datetime.now(UTC)
    try:
        if when - now > CLOCK_SKEW:
            return _not_at(text, f"is in the future (this server's time is {now:%H:%M:%S} UTC)")
        if began is not None and began - when > CLOCK_SKEW:
            return _not_at(text, f"is before the session began ({began.isoformat()})")
    except OverflowError:  # year 1 east of Greenwich
        return _not_at(text, "is before the session began")
    return when


def _unreadable(tap: dict[str, Any]) -> Answer | None:
    """The refusal of a tap that names no session, key or seq, or has no event id; else
    ``None``."""
    if (
        not isinstance(tap.get("session"), str)
        or not isinstance(tap.get("spot"), str)
        or type(tap.get("seq")) is not int
    ):
        return "refused", "Not recorded: the tap names no session, key or seq.", 400
    try:
        uuid.UUID(str(tap.get("id")))
    except ValueError:
        return "refused", "Not recorded: the tap has no event id.", 400
    return None


def _recorded(store: Any, session: str, eid: str, word: str = "Recorded: ") -> Answer:
    """A tap stored under the id ``eid`` (now, or already): its sentences after ``word``."""
    return "recorded", word + _said(store.timeline(session), eid), 200


def _event(store: Any, session: str, tap: dict[str, Any], eid: str, who: str) -> AnyEvent | Answer:
    """The event the tap records after the session as stored, with the tap's id and time; or
    the refusal (the pad, the rules, a name out of its bounds)."""
    spot = str(tap["spot"])
    t = store.timeline(session)
    when = _when(tap, t.log[0].event.at if t.last_seq else None)
    if isinstance(when, tuple):
        return when
    state = t.state
    try:
        if spot == "undo":
            event: AnyEvent | None = recorder.undo(state, by=who)
        elif spot == "redo":
            event = _redo(t, who)
        else:
            cards = tap.get("cards") or []
            if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
                return "refused", "Not recorded: the cards picked are not cards.", 400
            event = recorder.tapped_event(state, spot, cards=cards[:3], by=who)
        if event is None:
            return "refused", f"Not recorded: nothing to {spot} now.", 409
        data = event.model_dump(exclude_none=True)
        data.update(id=eid, at=when.isoformat())
        return type(event).model_validate(data)
    except BragError as err:
        return _refusal(err)
    except ValueError as err:  # pydantic's errors: a name out of its bounds (FORMAT.md)
        return "refused", f"Not recorded: {_first_line(err)}", 400


def _redo(t: Timeline, who: str) -> AnyEvent | None:
    """:func:`dashboard.record.recorder.redo` of the log's last event and the one it withdrew."""
    n = t.last_seq
    if not n or t.log[n - 1].event.type != "voided":
        return None
    gone = int(t.log[n - 1].event.seq or 0)
    if not 0 < gone <= n:
        return None
    return recorder.redo([t.log[gone - 1].event, t.log[n - 1].event], by=who)


def _stored(store: Any, session: str, event: AnyEvent, last: int, spot: str) -> Answer:
    """Appends the tap's ``event`` after ``last``: recorded, or why not."""
    eid = str(event.id)
    try:
        store.append(session, [event], last)
    except ConcurrencyConflict:
        if _found(store, session, eid):
            return _recorded(store, session, eid)
        return "conflict", "Not recorded: another device recorded first.", 409
    except access.DeviceLocked:  # checked inside the append (dashboard.access.check.guarded)
        return "refused", LOCKED, 403
    except BragError as err:
        return _refusal(err)
    if spot == "undo":
        return _recorded(store, session, eid, word="")
    return _recorded(store, session, eid, "Recorded again: " if spot == "redo" else "Recorded: ")


def _refusal(err: BragError) -> Answer:
    """The answer to a tap the rules, the format or the store refuse for what it is (a
    ``ValueError`` of the family, :mod:`events.errors`): 409, the sentence after its RULES
    section. A store that could not answer (:class:`~events.errors.StoreUnavailable`: locked
    longer than an append waits, down, a full disk; or another failure of the store itself) is
    no refusal: raised again, for the route's 503 (the tap is kept and sent again)."""
    if not isinstance(err, ValueError):
        raise err
    return "refused", f"Not recorded: {err.heading()}: {err.message}", 409


def _found(store: Any, session: str, eid: str) -> bool:
    """Whether the event ``eid`` is stored in ``session``; raises :class:`IdElsewhere` when it is
    stored in another session (a tap is looked up in its own session only)."""
    found = store.recorder.find([eid])
    if any(f.session != session for f in found):
        raise IdElsewhere(f"Not recorded: the tap's id {eid} is an event of another session.")
    return bool(found)


class IdElsewhere(recorder.TapRefused):
    """A tap whose id is an event of another session (answered ``refused``, 409)."""


def record_tap(store: Any, tap: dict[str, Any], by: str | None = None) -> Answer:
    """Takes one tap (the body of ``POST /api/tap``) into ``store``: ``(outcome, message,
    HTTP status)``. ``recorded`` when the tap's event is stored (now, or already under its
    id, in this session); ``conflict`` when the session's last seq is no longer the tap's
    (nothing stored); ``refused`` for a tap the rules or the pad refuse (the engine's sentence,
    RULES section first), whose id is an event of another session, or whose ``at`` is not
    believable (:func:`_when`). Raises what the store raises when it cannot answer
    (:class:`~events.errors.StoreUnavailable`): only the rules refuse a tap."""
    try:
        return _record(store, tap, by)
    except IdElsewhere as err:
        return "refused", str(err), 409


def _record(store: Any, tap: dict[str, Any], by: str | None) -> Answer:
    refused = _unreadable(tap)
    if refused is not None:
        return refused
    session, seq, eid = str(tap["session"]), tap["seq"], str(uuid.UUID(str(tap["id"])))
    with _lock(session):
        last = int(store.last_seq(session) or 0)  # before the id: see the module's note
        if _found(store, session, eid):
            return _recorded(store, session, eid)
        if last == 0:
            return "refused", f"Not recorded: no session {session} is stored.", 404
        if seq != last:
            return (
                "conflict",
                "Not recorded: another device recorded first. The pad now shows the session "
                "as it is; check it and tap again.",
                409,
            )
        made = _event(store, session, tap, eid, by or "organiser")
        if isinstance(made, tuple):
            return made
        return _stored(store, session, made, last, str(tap["spot"]))


def _first_line(err: Exception) -> str:
    errors = getattr(err, "errors", None)
    if callable(errors):
        try:
            first = errors()[0]
            where = ".".join(str(x) for x in first.get("loc", ()))
            return f"{where}: {first.get('msg', '')}".strip(": ")
        except Exception:
            pass
    return str(err).splitlines()[0]


def _device(request: Request) -> bool | Exception:
    """Whether the request's device is unlocked, or the store's error when that cannot be told
    (:func:`dashboard.access.check.checked_unlocked`): the route answers it 503, never 403."""
    try:
        return access.checked_unlocked(request.cookies.get(TOKEN_COOKIE))
    except (BragError, OSError) as err:
        return err


LOCKED = "Not recorded: this device is locked. Unlock it with the organiser secret."


def _unavailable(err: Exception) -> JSONResponse:
    """503: the store could not answer (nothing refused the tap); ``Retry-After``
    :data:`RETRY_AFTER` seconds."""
    why = str(err).splitlines()[0][:200] if str(err) else type(err).__name__
    answer = _answer(
        "unavailable",
        f"The store cannot be reached ({why}); the tap is kept on this device and sent again.",
        None,
        503,
    )
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
    by = body.get("by") if isinstance(body.get("by"), str) else None
    by = (by or request.cookies.get(BY_COOKIE) or "").strip() or None

    token = request.cookies.get(TOKEN_COOKIE)

    def work() -> tuple[str, str, int, PadDocument | None]:
        store = access.guarded(_writer(), token)  # the token checked again inside the append
        outcome, message, status = record_tap(store, body, by)
        session = body.get("session")
        doc = None
        if isinstance(session, str) and status != 404 and store.last_seq(session):
            doc = _document(store, session, _remember(store, session).last_seq)
        return outcome, message, status, doc

    try:
        outcome, message, status, doc = await run_in_threadpool(work)
    except BragError as err:
        if not isinstance(err, ValueError):  # the store, not the tap: see _refusal
            return _unavailable(err)
        return _answer("refused", f"Not recorded: {err.heading()}: {err.message}", None, 409)
    except Exception as err:
        return _unavailable(err)
    return _answer(outcome, message, doc, 200 if outcome == "recorded" else status)


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
        if device is not True:
            return device
        last = cache.polled_last_seq(session)
        if last:  # a tap through this server may be newer than the poller knows
            last = _timeline(_store(), session, last).last_seq
        out: dict[str, Any] = {"seq": last}
        if last and last != since:
            out["doc"] = _document(_store(), session, last)
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
