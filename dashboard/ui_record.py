"""Streamlit pieces of the Record page: the organiser's gate, the start form, the action buttons,
the card pickers, undo, and the messages that survive the page's reload.

Every append goes through :func:`record`: a refusal of the rules is shown as the engine words it
(``RULES 5.7: ...``); a :class:`~events.store.ConcurrencyConflict` says that another device recorded
first and reloads the page with the session as it now stands.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import streamlit as st

from dashboard import cache, recorder
from dashboard.recorder import Choice
from dashboard.ui import md
from dashboard.view import Replay, pretty_card, sentence
from events.cards import FULL_PACK, SUITS
from events.errors import BragError
from events.model import AnyEvent, Rules

BIG_BUTTONS = """
<style>
.st-key-recorder button, .st-key-undo button, .st-key-start button {
  min-height: 3.6rem; font-size: 1.15rem; }
.st-key-recorder button p, .st-key-undo button p { font-size: 1.1rem; }
</style>
"""


# --- the gate -------------------------------------------------------------------------------------


def organiser_unlocked() -> bool:
    """True once the organiser has given the secret in this browser session. Without a secret
    configured the page says the app is read-only."""
    secret = cache.organiser_secret()
    if not secret:
        st.warning(
            "**Read-only.** Recording needs the organiser secret, and none is set: set "
            "`BRAG_ORGANISER_SECRET` in the environment, or `organiser_secret` in "
            "`.streamlit/secrets.toml`, and restart the dashboard.",
            icon=":material/lock:",
        )
        return False
    if st.session_state.get("organiser") and recorder.check_secret(
        secret, st.session_state.get("organiser_given")
    ):
        return True
    with st.form("unlock"):
        given = st.text_input("Organiser secret", type="password", key="secret_input")
        ok = st.form_submit_button("Unlock recording", type="primary")
    if ok:
        if recorder.check_secret(secret, given):
            st.session_state["organiser"] = True
            st.session_state["organiser_given"] = given
            st.rerun()
        st.error("That is not the organiser secret.")
    st.info("The app is read-only until the organiser secret is given.", icon=":material/lock:")
    return False


# --- messages across a reload ---------------------------------------------------------------------


def flash(kind: str, text: str) -> None:
    st.session_state.setdefault("flash", []).append((kind, text))


def show_flash() -> None:
    for kind, text in st.session_state.pop("flash", []):
        show = {"success": st.success, "warning": st.warning, "error": st.error}.get(kind, st.info)
        show(md(text))  # the text names players and sessions: shown as written, never Markdown


def append(session: str, events: Sequence[AnyEvent], expected_seq: int) -> bool:
    """Appends ``events`` after ``expected_seq`` (the last seq the organiser saw), each timed now
    in the organiser's time zone (:func:`device_now`, :func:`dashboard.recorder.stamped`), and
    leaves a message for the next run of the page. True when stored. Safe inside a widget
    callback."""
    from events.store import ConcurrencyConflict

    try:
        stored = cache.append(session, recorder.stamped(events, device_now()), expected_seq)
    except ConcurrencyConflict as err:
        flash(
            "warning",
            f"Another device recorded first (the session is at event {err.actual}, this page "
            f"showed it at {err.expected}). Nothing was recorded from here: the page now shows "
            "the session as it is; check it and record again.",
        )
        return False
    except BragError as err:
        flash("error", f"Refused: {err.heading()}: {err.message}")
        return False
    flash("success", "Recorded: " + "; ".join(_describe(session, stored)))
    return True


def device_now() -> datetime:
    """Now in the time zone of the organiser's browser (``st.context.timezone``), so that a phone
    at the table records the table's local time whatever the server's zone
    (:func:`dashboard.recorder.now_in`)."""
    return recorder.now_in(st.context.timezone)


def _append(session: str, events: Sequence[AnyEvent], expected_seq: int) -> None:
    append(session, events, expected_seq)


def record(session: str, events: Sequence[AnyEvent], expected_seq: int) -> None:
    """:func:`append`, then reload the page to show the session as it now stands."""
    append(session, events, expected_seq)
    st.rerun()


def _describe(session: str, stored: Sequence[Any]) -> list[str]:
    rp = Replay.of(cache.events(session), recorded=True)
    by_seq = {e.seq: k for k, e in enumerate(rp.events) if e.seq is not None}
    out = []
    for row in stored:
        k = by_seq.get(row.seq)
        if k is None and row.type == "voided":
            k = len(rp.events) - 1
        if k is not None:
            out.append(sentence(rp.before(k), rp.events[k], rp.states[k]))
    return out


# --- starting a session ---------------------------------------------------------------------------


def start_form() -> None:
    """The form that starts a session: id, table, seats in order, cards, first dealer, pots."""
    with st.form("start", border=True):
        a, b = st.columns(2)
        session = a.text_input(
            "Session name", placeholder="e.g. 2025-06-14-oak", key="start_session"
        )
        table = b.text_input("Table", placeholder="e.g. Oak", key="start_table")
        seats_text = st.text_area(
            "Players in their seats, clockwise (one a line, or separated by commas)",
            placeholder="Ann\nBob\nCal",
            key="start_seats",
        )
        c, d, e = st.columns(3)
        cards = c.radio(
            "Cards recorded",
            ["shown", "all"],
            format_func=lambda m: (
                "only cards shown at a showdown (a real table)"
                if m == "shown"
                else "every card (a digital table)"
            ),
        )
        lot = d.text_input(
            "First dealer, drawn by lot at the table",
            help="Leave empty to draw the lot here (RULES 3.1).",
            key="start_dealer",
        )
        pots = e.number_input("Pots to play (RULES 1.4)", min_value=1, max_value=50, value=8)
        go = st.form_submit_button("Start the session", type="primary", width="stretch")
    if not go:
        return
    seats = recorder.parse_seats(seats_text)
    name = session.strip()
    if not name:
        st.error("Give the session a name.")
        return
    if cache.exists(name):
        st.error(f"There is already a session called {md(name)}.")
        return
    try:
        events = recorder.start_events(
            name,
            seats,
            "all" if cards == "all" else "shown",
            table=table.strip() or None,
            dealer=lot.strip() or None,
            rules=Rules(pots=int(pots)) if int(pots) != 8 else None,
            by=who(),
        )
    except (ValueError, BragError) as err:
        st.error(f"Refused: {md(err)}")
        return
    st.query_params["session"] = name
    record(name, events, 0)


def who() -> str:
    return str(st.session_state.get("recorded_by") or "organiser")


# --- the buttons ----------------------------------------------------------------------------------

_GROUPS = {
    "table": "The table",
    "look": "Looks before betting",
    "turn": "The player to act",
    "showdown": "Showdown",
    "after": "After the deal",
}


def action_buttons(rp: Replay, choices: Sequence[Choice]) -> None:
    """The legal next events as large buttons, grouped. A click records its event after the seq
    this page showed (so a stale page meets a ConcurrencyConflict, never a wrong append)."""
    seen = rp.final.seq
    with st.container(key="recorder"):
        for group, title in _GROUPS.items():
            mine = [c for c in choices if c.group == group]
            if not mine:
                continue
            if group == "turn" and rp.final.turn_name:
                title = f"{rp.final.turn_name} to act"
            st.markdown(f"**{md(title)}**")
            simple = [c for c in mine if not c.needs]
            for row in range(0, len(simple), 3):
                cols = st.columns(3)
                for col, c in zip(cols, simple[row : row + 3], strict=False):
                    col.button(
                        md(c.label),
                        key=f"act-{c.key}",
                        width="stretch",
                        wrap=True,
                        type="primary" if group in ("turn", "showdown") else "secondary",
                        on_click=_clicked,
                        args=(rp.session, c, seen, {}),
                    )
            for c in mine:
                if c.needs:
                    _with_input(rp, c)


def _clicked(session: str, c: Choice, seen: int, inputs: dict[str, Any]) -> None:
    given: dict[str, Any] = {}
    if "cards" in inputs:
        given["cards"] = _picked(inputs["cards"])
    if "hands" in inputs:
        given["hands"] = {p: _picked(k) for p, k in inputs["hands"].items()}
    if inputs.get("order"):
        given["order"] = recorder.random_order()
    try:
        event = recorder.complete(c, by=who(), **given)
    except (ValueError, BragError) as err:
        flash("error", f"Refused: {err}")
        return
    append(session, [event], seen)


def _picked(key: str) -> list[str]:
    out: list[str] = []
    for suit in reversed(SUITS):
        out.extend(st.session_state.get(f"{key}-{suit}") or [])
    return out


def _with_input(rp: Replay, c: Choice) -> None:
    state = rp.final
    seen = state.seq
    if c.needs == ("order",):
        a, b = st.columns(2)
        a.button(
            "Shuffle the pack",
            key=f"act-{c.key}",
            type="primary",
            width="stretch",
            on_click=_clicked,
            args=(rp.session, c, seen, {}),
        )
        if state.cards_mode == "all":
            b.button(
                "Shuffle here and record the order",
                key=f"act-{c.key}-order",
                width="stretch",
                help="The app shuffles; the engine then deals from the pack it tracks (RULES 3.3).",
                on_click=_clicked,
                args=(rp.session, c, seen, {"order": True}),
            )
        return
    if c.needs == ("cards",):
        with st.container(border=True):
            count = c.card_count
            what = "the card turned" if count == 1 else "the three cards shown"
            st.markdown(f"**{md(c.label)}**: pick {what}")
            key = f"cards-{c.key}"
            picked = card_picker(key, recorder.free_cards(state), count)
            shown = f" ({' '.join(pretty_card(x) for x in picked)})" if picked else ""
            st.button(
                f"Record: {md(c.label)}{shown}",
                key=f"act-{c.key}",
                type="primary",
                disabled=len(picked) != count,
                width="stretch",
                on_click=_clicked,
                args=(rp.session, c, seen, {"cards": key}),
            )
        return
    if c.needs == ("hands",):
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
                on_click=_clicked,
                args=(rp.session, c, seen, {"hands": keys}),
            )


def card_picker(key: str, free: Sequence[str], count: int, label: str | None = None) -> list[str]:
    """Cards picked one tap each, a row per suit (tablet-friendly); at most ``count``."""
    if label:
        st.caption(md(label))
    picked: list[str] = []
    for suit in reversed(SUITS):  # spades, hearts, diamonds, clubs
        options = [str(c) for c in reversed(FULL_PACK) if str(c)[1] == suit and str(c) in free]
        got = st.pills(
            f"{md(label or '')} {suit}",
            options,
            selection_mode="multi",
            key=f"{key}-{suit}",
            format_func=pretty_card,
            label_visibility="collapsed",
        )
        picked.extend(got or [])
    if len(picked) > count:
        st.warning(f"Pick {count}: {len(picked)} are picked.")
    return picked


def undo_button(rp: Replay) -> None:
    """The undo of the latest recorded action: records a ``voided`` event (FORMAT.md)."""
    k = recorder.undo_index(rp.states)
    if k is None:
        return
    what = sentence(rp.before(k), rp.events[k], rp.states[k])
    event = recorder.undo(rp.final, by=who())
    with st.container(key="undo"):
        st.button(
            f"Undo: {md(what)}",
            key=f"undo-{rp.final.seq}",
            icon=":material/undo:",
            width="stretch",
            help="Records a correction (voided): the log keeps both events, the replay skips them.",
            on_click=_append,
            args=(rp.session, [event], rp.final.seq),
        )
