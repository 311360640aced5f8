"""The Record page's start form: a new session's name, table, players in their seats, first
dealer, cards recorded and pots; a refused start says why in one sentence (the start itself:
:func:`service.start.start_session`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import streamlit as st

from dashboard.access import check as access
from dashboard.access import gate
from dashboard.common import state_keys as keys
from dashboard.common import stores
from dashboard.common.escape import md
from dashboard.record import pad, recorder
from dashboard.record.widgets import PANEL, device_now, flash, said_stored, show_flash, who
from events.errors import BragError
from events.model import RecordedEvent, Rules
from events.text import mixed_scripts, normal
from log.register import register_of
from present.names import canonical, whole_number
from service.start import Known, StartSession, questions, start_session

# --- starting a session ---------------------------------------------------------------------------

LOT = "Draw by lot here"


def start_form(known_players: Sequence[str], known_tables: Sequence[str]) -> None:
    """Starts a session: its name, table, players in their seats clockwise (picked from the names
    already in the store or new; ↑ and ↓ set the order), the first dealer (a seat, or drawn by
    lot here: RULES 3.1), which cards are recorded and the pots. A refused start says why and
    leaves the link as it was. A link's ``?name=N&table=T&player=A&player=B`` (the Night desk's
    "Start its session", issue 36) fills the name, the table and the players once."""
    known_players, known_tables = _prefilled(known_players, known_tables)
    _name_table_players(known_players, known_tables)
    # a name close to a known one is asked about where it was typed (issue 35, item 2)
    _questions(_known(known_players, known_tables))
    seats: list[str] = list(st.session_state.get(keys.START_PLAYERS) or [])
    pad.close_list_when_picked(len(seats), key=keys.CLOSE_NAMES)  # the arrows below stay tappable
    if len(seats) > 1:
        _seat_order(seats)
    _how_played(seats)
    for note in _spelling_notes(seats, known_players, table_typed(), known_tables):
        st.caption(md(note))
    show_flash()  # a refused start said over the button the thumb just tapped
    with st.container(key=keys.START_FORM):
        st.button(
            "Start the session",
            type="primary",
            width="stretch",
            on_click=_start,
            args=(tuple(known_players), tuple(known_tables)),
        )


def _linked() -> tuple[str, str, list[str]] | None:
    """A link's session ``name``, ``table`` and ``player`` parameters (``None``: none given)."""
    q = st.query_params
    table = (q.get("table") or "").strip()
    players = list(dict.fromkeys(p.strip() for p in q.get_all("player") if p.strip()))
    if not table and not players:
        return None
    return (q.get("name") or "").strip(), table, players


def _prefilled(
    known_players: Sequence[str], known_tables: Sequence[str]
) -> tuple[list[str], list[str]]:
    """Takes a link's ``name``, ``table`` and ``player`` parameters into the form, once (they
    leave the link), and returns the known names and tables with them added for as long as the
    form is open (a player checked in for the night who never played yet is not known, nor a
    table the seating named)."""
    if (linked := _linked()) is not None:
        name, table, players = linked
        for key, value in ((keys.START_SESSION, name), (keys.START_TABLE, table)):
            if value:
                st.session_state[key] = value
        if players:
            st.session_state[keys.START_PLAYERS] = players
        st.session_state[keys.START_LINKED] = ([table] if table else [], players)
        for param in ("name", "table", "player"):
            st.query_params.pop(param, None)
    tables_linked, players_linked = st.session_state.get(keys.START_LINKED) or ([], [])
    known = [*known_players, *(p for p in players_linked if p not in known_players)]
    return known, [*known_tables, *(t for t in tables_linked if t not in known_tables)]


def _name_table_players(known_players: Sequence[str], known_tables: Sequence[str]) -> None:
    """The session's name and table, then its players (picked or typed)."""
    a, b = st.columns(2)
    a.text_input("Session name", placeholder="e.g. 2025-06-14-oak", key=keys.START_SESSION)
    b.selectbox(
        "Table",
        list(known_tables),
        index=None,
        key=keys.START_TABLE,
        accept_new_options=True,
        placeholder="e.g. Oak (type a new one)",
    )
    st.multiselect(
        "Players, in their seats clockwise from the first picked",
        list(known_players),
        key=keys.START_PLAYERS,
        accept_new_options=True,
        placeholder="Pick or type the names",
    )


def _seat_order(seats: Sequence[str]) -> None:
    """The players in their seats, each with ↑ and ↓ to move it one seat."""
    with st.container(key=keys.SEAT_ORDER):
        for n, name in enumerate(seats):
            row = st.container(horizontal=True, vertical_alignment="center", gap="small")
            row.text(f"{n + 1}. {name}")
            row.button(
                "↑",
                key=f"seat-up-{n}",
                disabled=n == 0,
                help="One seat earlier (anticlockwise)",
                on_click=_move_seat,
                args=(n, -1),
            )
            row.button(
                "↓",
                key=f"seat-down-{n}",
                disabled=n == len(seats) - 1,
                help="One seat later (clockwise)",
                on_click=_move_seat,
                args=(n, 1),
            )


def _how_played(seats: Sequence[str]) -> None:
    """Which cards are recorded, the first dealer and the pots to play."""
    c, d, e = st.columns(3)
    c.radio(
        "Cards recorded",
        ["shown", "all"],
        key=keys.START_CARDS,
        format_func=lambda m: (
            "only cards shown at a showdown (a real table)"
            if m == "shown"
            else "every card (a digital table)"
        ),
    )
    d.selectbox(
        "First dealer (RULES 3.1)",
        [LOT, *seats],
        key=keys.START_DEALER,
        help="The seat the lot at the table chose, or draw the lot here.",
    )
    e.number_input(
        "Pots to play (RULES 1.4)", min_value=1, max_value=50, value=8, key=keys.START_POTS
    )


def table_typed() -> str:
    return str(st.session_state.get(keys.START_TABLE) or "").strip()


def _spelling_notes(
    seats: Sequence[str], known: Sequence[str], table: str, tables: Sequence[str]
) -> list[str]:
    """What the start will record instead of what was typed: a name or table already in the
    store under another spelling (one name, one player), and names mixing look-alike scripts."""
    notes = []
    register = register_of(stores.store())  # the club's register (issue 35): merges, renames
    for typed in seats:
        same = canonical(str(typed), known)
        now = register.resolve(same or str(typed))
        if normal(now) != normal(same or str(typed)):
            notes.append(f"{typed} is {now} in the club's register: counted as {now}.")
        if same is not None:
            notes.append(f"{typed} is {same}, already in the store: recorded as {same}.")
        elif (mixed := mixed_scripts(str(typed))) is not None:
            notes.append(f"Check the spelling: {mixed}.")
    same_table = canonical(table, tables) if table else None
    if same_table is not None:
        notes.append(f"Table {table} is {same_table}, already in the store: recorded as it.")
    return notes


def _known(known_players: Sequence[str], known_tables: Sequence[str]) -> Known:
    """What the store knows, and the new names kept although close to it."""
    kept = frozenset(st.session_state.get(keys.START_KEPT) or ())
    return Known(tuple(known_players), tuple(known_tables), kept)


def _questions(known: Known) -> None:
    """Before a new player or table close to a known one is taken, one question each
    (:func:`service.start.questions`): a button per known name, and one to keep the new name
    (the start refuses until each is answered)."""
    _, seats, table, _ = _typed(known.players, known.tables)
    asked = questions(seats, table, known)
    if not asked:
        return
    with st.container(key=keys.START_ASK, border=True):
        for q in asked:
            st.markdown(f"**{md(q.sentence())}**")
            row = st.container(horizontal=True, gap="small")
            for n, name in enumerate(q.offered):
                row.button(md(name), key=f"ask-{q.what}-{q.typed}-{n}", type="primary",
                           on_click=_take, args=(q.what, q.typed, name))  # fmt: skip
            row.button(md(f"Keep {q.typed} (a new {q.what})"), key=f"keep-{q.what}-{q.typed}",
                       on_click=_keep, args=(q.typed,))  # fmt: skip


def _take(what: str, typed: str, name: str) -> None:
    """The known ``name`` in place of ``typed`` (a seat, or the table)."""
    if what == "table":
        st.session_state[keys.START_TABLE] = name
        return
    seats = [str(p) for p in st.session_state.get(keys.START_PLAYERS) or []]
    st.session_state[keys.START_PLAYERS] = [name if p.strip() == typed else p for p in seats]


def _keep(typed: str) -> None:
    kept = set(st.session_state.get(keys.START_KEPT) or ())
    st.session_state[keys.START_KEPT] = sorted(kept | {normal(typed)})


def _move_seat(n: int, step: int) -> None:
    seats = list(st.session_state.get(keys.START_PLAYERS) or [])
    m = n + step
    if 0 <= m < len(seats):
        seats[n], seats[m] = seats[m], seats[n]
        st.session_state[keys.START_PLAYERS] = seats


def _typed(
    known_players: Sequence[str], known_tables: Sequence[str]
) -> tuple[str, tuple[str, ...], str, str | None]:
    """What the form says, as the start will record it: the session's name, the seats and the
    table (a name or table typed as another spelling of one already in the store: the stored
    one) and the first dealer (``None``: drawn by lot here)."""
    name = str(st.session_state.get(keys.START_SESSION) or "").strip()
    typed = [str(p).strip() for p in st.session_state.get(keys.START_PLAYERS) or []]
    seats = tuple(canonical(p, known_players) or p for p in typed)
    table = table_typed()
    table = canonical(table, known_tables) or table if table else table
    dealer = st.session_state.get(keys.START_DEALER)
    if dealer not in (None, LOT) and str(dealer).strip() in typed:
        dealer = seats[typed.index(str(dealer).strip())]
    return name, seats, table, None if dealer in (None, LOT) else str(dealer)


def _start_events(start: StartSession) -> list[RecordedEvent]:
    """The start's events (:func:`dashboard.record.recorder.start_events`), timed at the start's
    time in the organiser's zone (:func:`dashboard.record.recorder.stamped`)."""
    events = recorder.start_events(
        start.name,
        start.seats,
        start.cards,
        table=start.table or None,
        dealer=start.dealer,
        rules=Rules(pots=start.pots) if start.pots != 8 else None,
        by=start.by,
    )
    return recorder.stamped(events, start.at)


def _start(known_players: Sequence[str] = (), known_tables: Sequence[str] = ()) -> None:
    """The start button: records ``session_started`` and ``dealer_chosen``
    (:func:`service.start.start_session`), or says why not (nothing stored, the link untouched).
    A name or table typed as another spelling of one already in the store is recorded as the
    stored one (one name, one player)."""
    name, seats, table, dealer = _typed(known_players, known_tables)
    try:
        pots = whole_number(st.session_state.get(keys.START_POTS, 8), "Pots to play", 1, 50)
    except BragError as err:
        flash("error", f"Refused: {err.message}")
        return
    cards: Literal["all", "shown"] = (
        "all" if st.session_state.get(keys.START_CARDS) == "all" else "shown"
    )
    start = StartSession(name, seats, table, dealer, cards, pots, who(), device_now())
    store = access.guarded(stores.writer(), gate.device_token())  # checked inside the append
    known = _known(known_players, known_tables)
    started = start_session(store, start, _start_events, locked=(access.DeviceLocked,),
                            known=known)  # fmt: skip
    if started.outcome == "locked":
        gate.locked_out(started.message)
    elif started.outcome in ("refused", "ask"):
        flash("error", started.message)
    else:
        said_stored(name, started.rows)
        st.session_state[keys.RECORDING] = name
        st.query_params["session"] = name
        st.session_state[PANEL] = False  # the pad on the first screen, as the session opens
        st.session_state.pop(keys.START_KEPT, None)
