"""The Replay page's notes: HTTP routes served beside the Streamlit app
(:mod:`dashboard.common.server`),
so that a note reaches the browser only once its step is shown (issue 21, item 2).

The replayer sends a deal's frames to the browser at once; notes never ride in them. The notes
panel (:mod:`dashboard.replay.notes_panel`) asks for the notes of the one step the replayer shows:

- ``GET /api/notes?session=S&deal=D&step=K``: ``{"notes": [{"id", "number", "by", "text", "at",
  "withdrawn", "action"}], "organiser"}``: the notes shown on that step (hidden ones left out):
  each note points at the event it was written on and is shown where that event stands now
  (issue 32, :mod:`log.anchors`), so an Undo or a correction never moves it to another action; a
  note whose action was withdrawn stays where it was with ``withdrawn`` and the action's words
  (``action``). Text, writer and action inert (:func:`events.text.inert`: no control or bidi
  character reaches the page; the panel sets them as text, never markup); ``organiser``: this
  device is unlocked (it may hide a note).
- ``POST /api/notes`` with ``{"session", "deal", "step", "text", "by"}``: anyone adds a note on
  the action at that step now (:func:`log.annotations.add_note`: at most 500 characters, 500
  shown a session, on a step that exists); the answer is the step's notes, or ``{"message"}``
  (one line) with 400 when refused, 429 with ``Retry-After`` when this client or this name has
  added too many notes in the last minute (:mod:`dashboard.replay.notes_limits`).
- Notes are people's words, but the one rule of what a device may receive holds for them too
  (:func:`present.sight.guards`): on a deal dealt since the last shuffle of an unfinished
  session, a note naming a card (any card, any spelling, :func:`present.sight.names_a_card`) is
  sent to any device but the organiser's unlocked one as :data:`HELD`, until the deal opens.
- ``POST /api/notes/hide`` with ``{"session", "id"}``: the organiser's unlocked device hides a
  note (recorded beside it, the note kept): 403 on any other device.

The POSTs take ``application/json`` only: a page of another site cannot send that without the
browser asking first (CORS), and nothing here answers it. A store out of reach: 503, one line.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from dashboard.access import check as access
from dashboard.access.guard import read_json
from dashboard.access.tokens import BY_COOKIE, TOKEN_COOKIE
from dashboard.common import stores
from dashboard.replay.notes_limits import LIMITS, keys_of, retry_after
from events.errors import BragError, StoreUnavailable
from events.text import inert
from log.annotations import BY_MAX_CHARS
from service import notes as note_cases
from service.notes import AddNote, HideNote, NoteResult

__all__ = ["for_visitor", "routes", "step_notes"]

MAX_BODY = 8_192
"""The largest request read (bytes): a note is at most 500 characters."""


def _reader() -> Any:

    return stores.store()


def _writer() -> Any:

    return stores.writer()


def _replay(session: str) -> Any:
    """The session as recorded (withdrawn steps in it), or ``None`` when the store has none."""
    from dashboard.common import cache

    return cache.replay_now(session, recorded=True)


def step_notes(store: Any, rp: Any, deal: int, step: int | str) -> list[dict[str, Any]]:
    """The notes shown on step ``step`` of deal ``deal`` of ``rp`` (a replay as recorded; hidden
    ones left out), in the order written, as the panel shows them: ``id`` (the store's, which a
    hiding names), ``number`` (the note's in its session, shown as ``#2``), ``by``, ``text``,
    ``at`` (``YYYY-MM-DD HH:MM`` UTC), ``withdrawn`` and ``action`` (that step's words), the texts
    inert."""
    from log.annotations import notes

    if rp is None:
        return []
    return [
        {
            "id": n.id,
            "number": n.number,
            "by": inert(n.by),
            "text": inert(n.text),
            "at": f"{n.at:%Y-%m-%d %H:%M}",
            "withdrawn": n.withdrawn,
            "action": inert(n.action),
        }
        for n in notes(store, rp)
        if n.deal == deal and str(n.step) == str(step)
    ]


def _step(value: Any) -> str | None:
    """A step as a replay numbers it (``"7"``, or a label such as ``"7a"``), or ``None``."""
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return str(value)
    if isinstance(value, str) and 0 < len(value) < 10 and value.isascii() and value.isalnum():
        return value
    return None


def _int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) < 10:
        return int(value)
    return None


def _organiser(request: Request) -> bool:
    return access.device_unlocked(request.cookies.get(TOKEN_COOKIE))


def _said(message: str, status: int) -> JSONResponse:
    return JSONResponse({"message": message}, status_code=status)


def _unavailable(err: Exception) -> JSONResponse:
    return _said(note_cases.unreachable(err).message, 503)


STATUS = {"refused": 400, "missing": 404, "locked": 403, "unavailable": 503}
"""The HTTP status of each outcome of :mod:`service.notes` but ``stored`` (answered with the
step's notes)."""


def _result(request: Request, session: str, result: NoteResult) -> JSONResponse:
    """A note stored (or hidden): the notes of its step; else the one line of why not."""
    if result.outcome == "stored":
        return _answer(request, session, result.deal, result.step)
    return _said(result.message, STATUS[result.outcome])


async def _body(request: Request) -> dict[str, Any] | None:
    """The JSON object posted, sent as ``application/json`` only (see the module)."""
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        return None
    return await read_json(request, MAX_BODY)


HELD = (
    "A note that names a card, held back until the pack is shuffled or the session ends "
    "(RULES 3.2-3.5): this deal's cards are not shown yet."
)
"""What a device that is not the organiser's receives of a note naming a card on a deal the
one rule guards (:func:`present.sight.guards`), in place of its text."""

UNTOLD = "an action whose cards are not shown yet"
"""In place of the words of a note's action (``action``, where the notes carry it) that name a
card, on a guarded deal."""


def for_visitor(note: dict[str, Any]) -> dict[str, Any]:
    """``note`` (as :func:`step_notes` gives it) as a device that is not the organiser's
    receives it on a guarded deal: its ``text`` :data:`HELD` and its ``action`` (the words of
    the step it is on, where given) :data:`UNTOLD` when they name a card, in any spelling
    (:func:`present.sight.names_a_card`): a person may type a card, and a withdrawn action's
    words may show one."""
    from present.sight import names_a_card

    out = dict(note)
    for key, instead in (("text", HELD), ("action", UNTOLD)):
        if isinstance(out.get(key), str) and names_a_card(out[key]):
            out[key] = instead
    return out


def _answer(request: Request, session: str, deal: int, step: int | str) -> JSONResponse:
    from present.sight import guards

    rp = _replay(session)
    got = step_notes(_reader(), rp, deal, step)
    organiser = _organiser(request)
    if got and not organiser and guards(rp, deal):  # the one rule (present.sight.guards)
        got = [for_visitor(n) for n in got]
    return JSONResponse(
        {"notes": got, "organiser": organiser}, headers={"Cache-Control": "no-store"}
    )


async def get_notes(request: Request) -> JSONResponse:
    """``GET /api/notes``: see the module's docstring."""
    from starlette.concurrency import run_in_threadpool

    q = request.query_params
    session, deal, step = q.get("session") or "", _int(q.get("deal")), _step(q.get("step"))
    if not session or deal is None or step is None:
        return _said("Give session, deal and step.", 400)
    try:
        return await run_in_threadpool(_answer, request, session, deal, step)
    except Exception as err:
        return _unavailable(err)


async def add(request: Request) -> JSONResponse:
    """``POST /api/notes``: see the module's docstring."""
    from starlette.concurrency import run_in_threadpool

    body = await _body(request)
    if body is None:
        return _said("Not stored: the note could not be read.", 400)
    session, text, by = body.get("session"), body.get("text"), body.get("by")
    deal, step = _int(body.get("deal")), _step(body.get("step"))
    if not all(isinstance(x, str) for x in (session, text, by)) or deal is None or step is None:
        return _said("Not stored: give session, deal, step, text and your name.", 400)
    limited = keys_of(request.client.host if request.client else "", str(by))
    wait = LIMITS.take(limited)
    if wait is not None:
        return JSONResponse(
            {"message": "Not stored: too many notes from you in the last minute; try again in "
             f"{retry_after(wait)} s."},
            status_code=429,
            headers={"Retry-After": retry_after(wait)},
        )  # fmt: skip

    def work() -> JSONResponse:
        note = AddNote(str(session), deal, step, str(text), str(by))
        return _result(request, note.session, note_cases.add_note(_writer(), note, _replay))

    answer = await _run(run_in_threadpool, work)
    if answer.status_code != 200:
        LIMITS.give_back(limited)
    return answer


async def hide(request: Request) -> JSONResponse:
    """``POST /api/notes/hide``: see the module's docstring."""
    from starlette.concurrency import run_in_threadpool

    if not _organiser(request):
        return _said("Only the organiser's unlocked device may hide a note.", 403)
    body = await _body(request)
    note = _int(body.get("id")) if body else None
    session = body.get("session") if body else None
    if note is None or not isinstance(session, str):
        return _said("Not hidden: give session and id.", 400)
    who = (request.cookies.get(BY_COOKIE) or "").strip()[:BY_MAX_CHARS] or "organiser"

    def work() -> JSONResponse:
        store = access.guarded(_writer(), request.cookies.get(TOKEN_COOKIE))  # checked again
        hidden = note_cases.hide_note(  # inside the write (issue 33)
            store, HideNote(session, note, who), _replay, locked=(access.DeviceLocked,)
        )
        return _result(request, session, hidden)

    return await _run(run_in_threadpool, work)


async def _run(run: Any, work: Any) -> JSONResponse:
    try:
        answer: JSONResponse = await run(work)
    except StoreUnavailable as err:
        return _unavailable(err)
    except BragError as err:  # a refusal: one line, nothing stored
        return _said(f"Not stored: {inert(str(err))}", 400)
    except Exception as err:
        return _unavailable(err)
    return answer


def routes() -> list[Any]:
    """The routes :mod:`dashboard.common.server` mounts."""
    return [
        Route("/api/notes", get_notes, methods=["GET"]),
        Route("/api/notes", add, methods=["POST"]),
        Route("/api/notes/hide", hide, methods=["POST"]),
    ]
