"""Streamlit pieces of the Record page: the organiser's gate (a signed device token kept in a
cookie), what this device remembers (who records, which session), the start form, the pad and its
taps, undo and redo, the latest events, and the messages that survive the page's reload.

Every append goes through :func:`append`: a refusal of the rules is shown as the engine words it
(``RULES 5.7: ...``); a :class:`~events.errors.ConcurrencyConflict` says that another device
recorded first and the page shows the session as it now stands. Nothing is stored twice.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

import streamlit as st

from dashboard.access import check as access
from dashboard.access import gate
from dashboard.access.gate import cookie
from dashboard.access.tokens import BY_COOKIE, SESSION_COOKIE
from dashboard.common import cache, stores
from dashboard.common import state_keys as keys
from dashboard.common.escape import md
from dashboard.record import choices, pad, pad_doc, recorder
from dashboard.record.choices import Choice
from events.cards import FULL_PACK, SUITS
from events.errors import BragError
from events.model import AnyEvent
from present.narrate import pretty_card
from present.replay import Replay

PAGE_CSS = (
    "<style>\n"
    + (Path(__file__).resolve().parent / "record.css").read_text(encoding="utf-8")
    + "</style>\n"
)
"""The Record page's own style (``record.css`` beside this file), for ``st.markdown``."""

PANEL = keys.DEVICE_PANEL
"""The key of the "This device" panel (an expander): closed when a session opens."""

# --- what this device remembers -------------------------------------------------------------------


def who() -> str:
    """Who records on this device ("Recorded by"), ``organiser`` when nobody is named."""
    return str(st.session_state.get(keys.RECORDED_BY_NAME) or "organiser")


def device_settings(open_ids: Sequence[str], new: str) -> str:
    """ "Recorded by" and "Session to record", kept per device across page switches (session
    state) and reloads (cookies); a session named in the link (``?session=``) wins. Returns the
    session chosen, or ``new``."""
    if keys.RECORDED_BY_NAME not in st.session_state:
        st.session_state[keys.RECORDED_BY_NAME] = cookie(BY_COOKIE) or ""
    if keys.RECORDING not in st.session_state:
        st.session_state[keys.RECORDING] = cookie(SESSION_COOKIE)
    linked = st.query_params.get("session")
    if not linked and (st.query_params.get("table") or st.query_params.get_all("player")):
        st.session_state[keys.RECORDING] = None  # a link to start a table's session (Night desk)
    if linked and linked in open_ids:
        st.session_state[keys.RECORDING] = linked
    current = st.session_state.get(keys.RECORDING)
    if current not in open_ids:
        current = None
    st.session_state[keys.RECORDED_BY_INPUT] = st.session_state[keys.RECORDED_BY_NAME]
    st.session_state[keys.RECORD_SESSION] = current or new

    a, b = st.columns(2)
    a.selectbox(
        "Session to record",
        [new, *open_ids],
        key=keys.RECORD_SESSION,
        on_change=_session_changed,
        args=(new,),
    )
    b.text_input(
        "Recorded by", key=keys.RECORDED_BY_INPUT, placeholder="organiser", on_change=_by_changed
    )
    pad.device(
        {BY_COOKIE: st.session_state[keys.RECORDED_BY_NAME], SESSION_COOKIE: current or ""},
        key=keys.DEVICE_PREFS,
    )
    return current or new


def _by_changed() -> None:
    st.session_state[keys.RECORDED_BY_NAME] = st.session_state[keys.RECORDED_BY_INPUT].strip()


def _session_changed(new: str) -> None:
    chosen = st.session_state[keys.RECORD_SESSION]
    if chosen != new:
        st.session_state[PANEL] = False  # the panel folds away: the pad on the first screen
    st.session_state[keys.RECORDING] = None if chosen == new else chosen
    if chosen == new:
        st.query_params.pop("session", None)
    else:
        st.query_params["session"] = chosen


# --- messages across a reload ---------------------------------------------------------------------


def flash(kind: str, text: str, session: str | None = None) -> None:
    """Leaves a message for the next drawings of the page: the pad's note, kept while the
    ``session`` stays at the seq it has now (so a rerun from elsewhere does not wipe it)."""
    at = cache.last_seq(session) if session else None
    st.session_state[keys.FLASH] = (kind, text, session, at)


def note_for(session: str, seq: int) -> tuple[str, str]:
    """``(kind, text)`` of this device's message about ``session`` at ``seq``, else empty."""
    kind, text, where, at = st.session_state.get(keys.FLASH, ("", "", None, None))
    if where == session and at == seq:
        return kind, text
    return "", ""


def show_flash() -> None:
    """Shows a message left by :func:`flash` for the start form (a refused start); one about a
    session in the store stays with it, for its pad, never shown under another."""
    kind, text, where, _ = st.session_state.get(keys.FLASH, ("", "", None, None))
    if where is not None and cache.exists(where):
        return
    st.session_state.pop(keys.FLASH, None)
    if text:
        show = {"success": st.success, "warning": st.warning, "error": st.error}.get(kind, st.info)
        show(md(text))  # the text names players and sessions: shown as written, never Markdown


def append(
    session: str, events: Sequence[AnyEvent], expected_seq: int, *, again: bool = False
) -> bool:
    """Appends ``events`` after ``expected_seq`` (the last seq the organiser saw), each timed now
    in the organiser's time zone (:func:`device_now`, :func:`dashboard.record.recorder.stamped`),
    and
    leaves the confirmation for the next drawing of the page. True when stored. Safe inside a
    widget callback: the device's token is checked inside the append's transaction
    (:func:`dashboard.access.check.guarded_append`), so a button drawn before the device was locked
    stores nothing and the gate says why (:func:`dashboard.access.gate.locked_out`)."""
    from events.errors import ConcurrencyConflict

    stamped = recorder.stamped(events, device_now())
    try:
        stored = access.guarded_append(
            gate.device_token(), stores.writer(), session, stamped, expected_seq
        )
    except access.DeviceLocked as err:
        gate.locked_out(err.message)
        return False
    except ConcurrencyConflict:
        conflict(session)
        return False
    except BragError as err:
        flash("error", f"Refused: {err.heading()}: {err.message}", session)
        return False
    said_stored(session, stored, again=again)
    return True


def said_stored(session: str, stored: Sequence[Any], *, again: bool = False) -> None:
    """The confirmation of the rows just ``stored`` in ``session``, for the next drawing of the
    page: their sentences after "Recorded: " ("Recorded again: " for a redo; none for an
    undo)."""
    said = "; ".join(_describe(session, stored))
    if all(row.type == "voided" for row in stored):
        flash("success", said, session)
    else:
        flash("success", ("Recorded again: " if again else "Recorded: ") + said, session)


def conflict(session: str) -> None:
    """The message of a tap made on an older drawing than the store's: nothing recorded."""
    flash(
        "warning",
        "Another device recorded first: nothing was recorded from here. The pad now shows the "
        "session as it is; check it and record again.",
        session,
    )


def device_now() -> datetime:
    """Now in the time zone of the organiser's browser (``st.context.timezone``), so that a phone
    at the table records the table's local time whatever the server's zone
    (:func:`dashboard.record.recorder.now_in`)."""
    return recorder.now_in(st.context.timezone)


def _describe(session: str, stored: Sequence[Any]) -> list[str]:
    """The sentences of the rows just stored, from the session's versioned replay as recorded
    (:func:`dashboard.common.cache.replay_now`: the fold the page's next drawing reuses)."""
    rp = cache.replay_now(session, recorded=True)  # seq N is the N-th event
    if rp is None:
        return []
    return [rp.labels[row.seq - 1].text for row in stored if 0 < row.seq <= len(rp.events)]


# --- the pad --------------------------------------------------------------------------------------


def show_pad(rp: Replay) -> None:
    """The pad for the session as recorded (:func:`dashboard.record.pad.pad` on the document of
    :func:`dashboard.pad_doc.document`, kept per seq with the pad's routes':
    :func:`dashboard.record.pad_doc.document`), with this device's last message as its note; a
    deal
    whose hands must be picked (a digital table whose pack is not tracked) gets its picker below.
    The pad records its taps itself (:mod:`dashboard.record.routes`)."""
    doc = pad_doc.document(rp)
    _kind, text = note_for(rp.session, len(rp.events))
    if text:
        doc = doc.copy()  # the kept document stays as it is
        doc["last"] = text
    pad.pad(doc, by=who())
    for c in choices.choices(rp.final):
        if c.needs == ("hands",):
            _hands_picker(rp, c)


def _hands_picker(rp: Replay, c: Choice) -> None:
    """A deal whose cards are recorded but not tracked (RULES 3.3): each player's three cards."""
    state = rp.final
    with st.container(border=True):
        st.markdown("**Deal**: pick each player's three cards")
        keys: dict[str, str] = {}
        used: set[str] = set()
        ready = True
        for player in recorder.dealt_cards_needed(state):
            free = [x for x in recorder.free_cards(state) if x not in used]
            keys[player] = f"hand-{c.key}-{player}"
            got = card_picker(keys[player], free, 3, label=player)
            used.update(got)
            ready = ready and len(got) == 3
        st.button(
            "Record the deal",
            key=f"act-{c.key}",
            type="primary",
            disabled=not ready,
            width="stretch",
            on_click=_record_hands,
            args=(rp.session, c, len(rp.events), keys),
        )


def _record_hands(session: str, c: Choice, seen: int, keys: dict[str, str]) -> None:
    try:
        event = choices.complete(c, hands={p: _picked(k) for p, k in keys.items()}, by=who())
    except (ValueError, BragError) as err:
        flash("error", f"Refused: {err}", session)
        return
    append(session, [event], seen)


def _picked(key: str) -> list[str]:
    out: list[str] = []
    for suit in reversed(SUITS):
        out.extend(st.session_state.get(f"{key}-{suit}") or [])
    return out


def _in_colour(colour: str) -> Callable[[str], str]:
    """A card as the picker shows it: its pretty text in its suit's colour."""
    return lambda card: f":{colour}[{pretty_card(card)}]"


def card_picker(key: str, free: Sequence[str], count: int, label: str | None = None) -> list[str]:
    """Cards picked one tap each, a row per suit, in the suit's colour; at most ``count``."""
    if label:
        st.caption(md(label))
    picked: list[str] = []
    for suit in reversed(SUITS):  # spades, hearts, diamonds, clubs
        options = [str(c) for c in reversed(FULL_PACK) if str(c)[1] == suit and str(c) in free]
        colour = "red" if suit in "hd" else "gray"
        got = st.pills(
            f"{md(label or '')} {suit}",
            options,
            selection_mode="multi",
            key=f"{key}-{suit}",
            format_func=_in_colour(colour),
            label_visibility="collapsed",
        )
        picked.extend(got or [])
    if len(picked) > count:
        st.warning(f"Pick {count}: {len(picked)} are picked.")
    return picked
