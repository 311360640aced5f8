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
from typing import Any

import streamlit as st

from dashboard import cache, pad, recorder
from dashboard.gate import BY_COOKIE, SESSION_COOKIE, cookie
from dashboard.recorder import Choice, Key
from dashboard.ui import md
from events.amounts import amount_text
from events.cards import FULL_PACK, SUITS
from events.errors import BragError
from events.model import AnyEvent
from present.narrate import pretty_card
from present.replay import Replay

PAGE_CSS = """
<style>
.block-container { padding-top: 3.2rem; padding-bottom: 1rem; }
.st-key-start button { min-height: 3.2rem; font-size: 1.1rem; }
</style>
"""

PANEL = "device_panel"
"""The key of the "This device" panel (an expander): closed when a session opens."""

# --- what this device remembers -------------------------------------------------------------------


def who() -> str:
    """Who records on this device ("Recorded by"), ``organiser`` when nobody is named."""
    return str(st.session_state.get("by") or "organiser")


def device_settings(open_ids: Sequence[str], new: str) -> str:
    """ "Recorded by" and "Session to record", kept per device across page switches (session
    state) and reloads (cookies); a session named in the link (``?session=``) wins. Returns the
    session chosen, or ``new``."""
    if "by" not in st.session_state:
        st.session_state["by"] = cookie(BY_COOKIE) or ""
    if "recording" not in st.session_state:
        st.session_state["recording"] = cookie(SESSION_COOKIE)
    linked = st.query_params.get("session")
    if linked and linked in open_ids:
        st.session_state["recording"] = linked
    current = st.session_state.get("recording")
    if current not in open_ids:
        current = None
    st.session_state["recorded_by"] = st.session_state["by"]
    st.session_state["record_session"] = current or new

    a, b = st.columns(2)
    a.selectbox(
        "Session to record",
        [new, *open_ids],
        key="record_session",
        on_change=_session_changed,
        args=(new,),
    )
    b.text_input("Recorded by", key="recorded_by", placeholder="organiser", on_change=_by_changed)
    pad.device({BY_COOKIE: st.session_state["by"], SESSION_COOKIE: current or ""}, key="prefs")
    return current or new


def _by_changed() -> None:
    st.session_state["by"] = st.session_state["recorded_by"].strip()


def _session_changed(new: str) -> None:
    chosen = st.session_state["record_session"]
    if chosen != new:
        st.session_state[PANEL] = False  # the panel folds away: the pad on the first screen
    st.session_state["recording"] = None if chosen == new else chosen
    if chosen == new:
        st.query_params.pop("session", None)
    else:
        st.query_params["session"] = chosen


# --- messages across a reload ---------------------------------------------------------------------


def flash(kind: str, text: str, session: str | None = None) -> None:
    """Leaves a message for the next drawings of the page: the pad's note, kept while the
    ``session`` stays at the seq it has now (so a rerun from elsewhere does not wipe it)."""
    at = cache.last_seq(session) if session else None
    st.session_state["flash"] = (kind, text, session, at)


def note_for(session: str, seq: int) -> tuple[str, str]:
    """``(kind, text)`` of this device's message about ``session`` at ``seq``, else empty."""
    kind, text, where, at = st.session_state.get("flash", ("", "", None, None))
    if where == session and at == seq:
        return kind, text
    return "", ""


def show_flash() -> None:
    """Shows a message left by :func:`flash` for the start form (a refused start); one about a
    session in the store stays with it, for its pad, never shown under another."""
    kind, text, where, _ = st.session_state.get("flash", ("", "", None, None))
    if where is not None and cache.exists(where):
        return
    st.session_state.pop("flash", None)
    if text:
        show = {"success": st.success, "warning": st.warning, "error": st.error}.get(kind, st.info)
        show(md(text))  # the text names players and sessions: shown as written, never Markdown


def append(
    session: str, events: Sequence[AnyEvent], expected_seq: int, *, again: bool = False
) -> bool:
    """Appends ``events`` after ``expected_seq`` (the last seq the organiser saw), each timed now
    in the organiser's time zone (:func:`device_now`, :func:`dashboard.recorder.stamped`), and
    leaves the confirmation for the next drawing of the page. True when stored. Safe inside a
    widget callback."""
    from log import ConcurrencyConflict

    try:
        stored = cache.append(session, recorder.stamped(events, device_now()), expected_seq)
    except ConcurrencyConflict:
        conflict(session)
        return False
    except BragError as err:
        flash("error", f"Refused: {err.heading()}: {err.message}", session)
        return False
    said = "; ".join(_describe(session, stored))
    if all(row.type == "voided" for row in stored):
        flash("success", said, session)
    else:
        flash("success", ("Recorded again: " if again else "Recorded: ") + said, session)
    return True


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
    (:func:`dashboard.recorder.now_in`)."""
    return recorder.now_in(st.context.timezone)


def _describe(session: str, stored: Sequence[Any]) -> list[str]:
    rp = Replay.of(cache.events(session), recorded=True)  # seq N is the N-th event
    return [rp.labels[row.seq - 1].text for row in stored if 0 < row.seq <= len(rp.events)]


# --- the pad --------------------------------------------------------------------------------------


def status_line(rp: Replay) -> str:
    """Who acts, how (blind or seen), the pot and the level: the pad's first line."""
    s = rp.final
    pot = f"pot {amount_text(s.pot)}"
    if s.finished:
        return f"The session is over (RULES 1.4) · {pot}"
    level = f" · level {s.level}" if s.level is not None else ""
    if s.turn_name is not None:
        p = s.players[s.seat(s.turn_name)]
        how = "seen" if p.seen else "blind"
        return f"{s.turn_name} to act ({how}) · {pot}{level}"
    if s.phase.name == "SHOWDOWN":
        return f"Showdown · {pot}{level}"
    return f"Between deals · {pot}"


def _key(k: Key, cards: list[dict[str, Any]] | None = None, count: int = 0) -> dict[str, Any]:
    out: dict[str, Any] = {
        "spot": k.spot,
        "label": k.label,
        "sub": k.sub,
        "tone": k.tone,
        "title": k.title,
        "enabled": k.choice is not None and k.choice.needs != ("hands",),
    }
    if cards is not None:
        out["cards"] = {"count": count, "pack": cards}
    return out


def _pack(free: Sequence[str]) -> list[dict[str, Any]]:
    """The 52 cards for the picker, a suit a row (spades, hearts, diamonds, clubs), ace high."""
    out = []
    for suit in reversed(SUITS):
        for c in reversed(FULL_PACK):
            code = str(c)
            if code[1] == suit:
                out.append(
                    {
                        "code": code,
                        "face": pretty_card(code),
                        "red": suit in "hd",
                        "free": code in free,
                    }
                )
    return out


def pad_data(rp: Replay) -> dict[str, Any]:
    """What the pad shows for the session as recorded (``rp``), with this device's last message
    as its note, else the last event as the confirmation."""
    s = rp.final
    rows = []
    for row in recorder.pad_rows(s):
        out = []
        for k in row:
            if k.choice is not None and k.choice.needs == ("cards",):
                free = recorder.free_cards(s)
                out.append(_key(k, _pack(free), k.choice.card_count))
            else:
                out.append(_key(k))
        rows.append(out)
    last = len(rp.events)  # the stream's last seq (a voided's own seq field names its target)
    kind, text = note_for(rp.session, last)
    tone = {"warning": "warn", "error": "err"}.get(kind, "")
    if not text and rp.events:
        text = f"Last: {rp.labels[-1].text}"
    bottom = []
    u = recorder.undo_index(rp.states)
    undo_title = f"Undo: {rp.labels[u].text}" if u is not None else "Nothing to undo"
    bottom.append(
        {
            "spot": "undo",
            "label": "↶ Undo",
            "sub": "",
            "tone": "undo",
            "title": undo_title,
            "enabled": u is not None and not s.finished,
        }
    )
    again = recorder.redo(rp.events)
    redo_title = "Nothing to redo"
    if again is not None:  # the voided's own seq field names the event it withdrew
        target = int(rp.events[-1].seq or 0)
        redo_title = f"Redo: {rp.labels[target - 1].text}" if target else "Redo"
    bottom.append(
        {
            "spot": "redo",
            "label": "↷ Redo",
            "sub": "",
            "tone": "undo",
            "title": redo_title,
            "enabled": again is not None,
        }
    )
    drawn = st.session_state.get("pad_drawn", 0)
    return {
        "drawn": f"{last}:{drawn}",
        "seq": last,
        "status": status_line(rp),
        "note": text,
        "note_tone": tone,
        "rows": rows,
        "bottom": bottom,
    }


def show_pad(rp: Replay) -> None:
    """The pad for the session as recorded; a tap records through :func:`on_tap`."""
    pad.pad(pad_data(rp), on_tap=_tapped, args=(rp.session,))
    for c in recorder.choices(rp.final):
        if c.needs == ("hands",):
            _hands_picker(rp, c)


def _tapped(session: str) -> None:
    on_tap(session, dict(st.session_state["pad"].tap or {}))


def on_tap(session: str, tap: dict[str, Any]) -> None:
    """A tap on the pad (``{"spot", "seq", "t", "cards"}``, see :func:`dashboard.pad.pad`):
    drops a second tap on the same spot within
    :data:`~dashboard.pad.SAME_SPOT_MS`, meets a tap made on an older drawing than the store's
    last seq with the conflict message (nothing recorded), else records the key's event, or the
    undo (``voided``) or the redo (the withdrawn event again)."""
    st.session_state["pad_drawn"] = st.session_state.get("pad_drawn", 0) + 1
    spot, seq, t = str(tap.get("spot")), int(tap.get("seq", -1)), float(tap.get("t", 0))
    last = st.session_state.get("last_tap")
    st.session_state["last_tap"] = (spot, t)
    if last and last[0] == spot and 0 <= t - last[1] < pad.SAME_SPOT_MS:  # the browser's ms
        return
    events = cache.events(session)
    if seq != len(events):
        conflict(session)
        return
    state = Replay.of(events, recorded=True).final
    if spot == "undo":
        void = recorder.undo(state, by=who())
        if void is not None:
            append(session, [void], seq)
        return
    if spot == "redo":
        again = recorder.redo(events, by=who())
        if again is not None:
            append(session, [again], seq, again=True)
        return
    try:
        event = recorder.tapped_event(state, spot, cards=list(tap.get("cards") or []), by=who())
    except (ValueError, BragError) as err:
        flash("error", f"Refused: {err}", session)
        return
    append(session, [event], seq)


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
        event = recorder.complete(c, hands={p: _picked(k) for p, k in keys.items()}, by=who())
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
