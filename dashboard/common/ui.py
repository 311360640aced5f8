"""Streamlit pieces the pages are made of: pickers tied to the link, the table, the replay controls.

The replay position lives in ``st.query_params`` (``session``, ``deal``, ``step``, and ``view`` for
a viewer other than everyone, ``log=recorded`` to show corrections), so every step has a link. A
widget's own state is set from the link before it is drawn and its callback writes the link back
(:mod:`dashboard.common.params`). The statistics pages' pieces are :mod:`dashboard.stats.widgets`;
this module
re-exports them, and ``md`` (:mod:`dashboard.common.escape`), so that the pages call ``ui.X``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import streamlit as st

from dashboard.common import cache, prefs
from dashboard.common import state_keys as keys
from dashboard.common.escape import md
from dashboard.common.links import LinkRow, rows_html
from dashboard.common.params import param, set_params
from dashboard.replay.frames import ReplayerData
from dashboard.replay.replayer import replayer
from present import table_svg
from present.narrate import StepLabel
from present.replay import Position, Replay, TableView
from present.steps import latest

__all__ = [
    "LAST_SESSION",
    "REPLAYER",
    "RESULTS",
    "TABLE_CSS",
    "leaderboard",
    "link_rows",
    "organiser_device",
    "page_caption",
    "page_choice",
    "recent_events",
    "replay_position",
    "replay_stage",
    "session_filters",
    "session_heading",
    "session_picker",
    "show_results",
    "table_picture",
]


# --- pickers tied to the link ---------------------------------------------------------------------


LAST_SESSION = keys.LAST_SESSION
"""The session this browser session last showed on the Session or Replay page."""


def session_picker(
    ids: Sequence[str],
    label: str = "Session",
    key: str = keys.PICK_SESSION,
    default: str | None = None,
) -> str:
    """A session chosen from ``ids``, kept in ``?session=`` (``default``, else the session this
    browser session last showed on the Session or Replay page, else the first one, when the
    link names none: the sidebar's menu goes from a session's page to its replay, not to the
    newest session). A link naming a session the store does not hold (``ids`` holds every
    session named in the link that the store holds: ``cache.session_ids(keep=...)``) gets one
    warning naming it, as text, and the address is corrected: that session, its deal and its
    step leave the link, and the picker offers the known ones."""
    wanted = param("session")
    current: str = ids[0]
    last = st.session_state.get(LAST_SESSION)
    if wanted is not None and wanted in ids:
        current = wanted
    elif default is not None and default in ids:
        current = default
    elif wanted is None and last in ids:
        current = str(last)
    st.session_state[LAST_SESSION] = current
    if wanted is not None and wanted not in ids:
        st.warning(
            f"No session {md(wanted)} in the store: showing {md(current)}; pick another below."
        )
        set_params(session=None, deal=None, step=None, seq=None)
        wanted = None
    st.session_state[key] = current

    def changed() -> None:
        chosen = st.session_state[key]
        set_params(session=None if chosen == default else chosen, deal=None, step=None)

    st.selectbox(label, ids, key=key, on_change=changed)
    if wanted != current and current != default:
        set_params(session=current)
    return current


# --- the table ------------------------------------------------------------------------------------


TABLE_CSS = """<style>
.brag-pictures { container-type: inline-size; }
.brag-pictures .brag-compact { display: none; }
@container (max-width: 639px) {
  .brag-pictures .brag-table:not(.brag-compact) { display: none; }
  .brag-pictures .brag-compact { display: block; }
}
</style>"""
"""A picture narrower than 640 px gets the compact grid of seats, as the replayer does
(:func:`present.table_svg.render`), so that its text stays readable (at least 11 px): a phone,
and the Record page's column beside the pad on a tablet (some 340 px, where the oval's text was
6 to 8 px). The width is the picture's own, not the screen's."""


def table_picture(view: TableView) -> None:
    """The picture of the table: round the oval on a wide screen, the seats in a grid on a
    phone."""
    st.markdown(
        TABLE_CSS
        + '<div class="brag-pictures">'
        + table_svg.render(view)
        + table_svg.render(view, compact=True)
        + "</div>",
        unsafe_allow_html=True,
    )


# --- the replayer ---------------------------------------------------------------------------------

REPLAYER = keys.REPLAYER


def _nav_changed() -> None:
    """The browser asks for other frames (another deal, viewer or log): the link follows, and the
    page reruns with them. A request left over from another session is ignored."""
    nav = st.session_state[REPLAYER]["nav"] or {}
    if nav.get("session") != param("session"):
        return
    set_params(
        deal=nav.get("deal"),
        step=nav.get("step"),
        view=nav.get("view") or None,
        log=nav.get("log") or None,
        seq=None,
    )
    st.session_state[keys.REPLAY_NONCE] = int(st.session_state.get(keys.REPLAY_NONCE, 0)) + 1


def organiser_device() -> bool:
    """Whether this device is the organiser's, unlocked:
    :func:`dashboard.access.check.device_unlocked`
    on its token (this browser session's, else its ``brag_device`` cookie unless it was locked
    here), as the Record page's gate reads it; draws nothing and unlocks nothing."""
    from dashboard.access import check as access
    from dashboard.access import gate

    token = st.session_state.get(keys.DEVICE_TOKEN)
    if token is None and not st.session_state.get(keys.LOCKED):
        token = gate.cookie(gate.TOKEN_COOKIE)
    return access.device_unlocked(token)


def replay_position(rp: Replay) -> Position:
    """Where the link points: ``deal`` and ``step`` (the step numbers every replay shows), or the
    older ``seq=N`` (the numbering ``brag replay`` printed before steps), which is rewritten."""
    if param("seq") and not param("step"):
        pos = rp.at_seq(param("seq"))
        if pos is not None:
            set_params(deal=pos.deal, step=rp.label(pos).step, seq=None)
            return pos
    return rp.position(param("deal"), param("step"))


def replay_stage(rp: Replay, seen: int = 0) -> None:
    """The replayer: the deal's frames sent once, stepped in the browser (buttons, slider, arrow
    keys, Home/End, swipes, autoplay) with the link following the step and the view; the server
    is asked again only for another deal, viewer or log. ``seen``: the session's last seq the
    page was drawn from; when a live rerun brings a later one, the browser keeps its step and
    marks the new events. A deal still in play is drawn with only the cards shown, unless this
    device is the organiser's (:meth:`present.replay.Replay.sight`), and one line says so."""
    pos = replay_position(rp)
    viewer = param("view")
    if viewer not in rp.seats:
        viewer = None
    from dashboard.stats.mine import is_me, noted_for  # this browser's player, their own cards

    noted = noted_for(rp, pos.deal, viewer)
    own = is_me(viewer)
    got = cache.frames(rp, pos.deal, viewer, organiser=organiser_device(), noted=noted, own=own)
    if got["note"]:
        st.caption(md(got["note"]), help="RULES 3.5: cards are shown only at a showdown.")
    last = rp.last_position()
    data: ReplayerData = {
        **got,
        "start": pos.step - 1,
        "nonce": int(st.session_state.get(keys.REPLAY_NONCE, 0)),
        "seq": seen,
        "latest": {"deal": last.deal, "step": rp.label(last).step},
    }
    replayer(data, on_nav=_nav_changed, key=REPLAYER)


def recent_events(rp: Replay, count: int = 8) -> None:
    """The latest events of a session as recorded, newest first, numbered by deal and step as
    every replay numbers them, each step in force told as it stands now; what a correction
    withdrew (derived events included) struck through (:func:`present.steps.latest`)."""
    rows: list[tuple[StepLabel, str, str | None]]
    if rp.timeline is None:
        rows = [(lab, lab.text, None) for lab in reversed(rp.labels[-count:])]
    else:
        rows = latest(rp.timeline, rp.labels, count)
    lines = []
    for lab, text, now in rows:
        if lab.withdrawn:  # struck through, and what stands now at that step where it is new
            after = f" → now: {md(now)}" if now else ""
            lines.append(f"~~deal {lab.deal}, step {lab.label} · {md(text)}~~{after}")
        else:
            lines.append(f"**deal {lab.deal}, step {lab.label}** · {md(text)}")
    st.markdown("\n".join(f"- {line}" for line in lines))


# --- sessions -------------------------------------------------------------------------------------


def session_filters(
    players: list[str], tables: list[str], dates: tuple[Any, Any] | None
) -> tuple[list[str], list[str], Any]:
    """The filter widgets of the Sessions page: players, tables, a range of dates; folded
    under one line, so that on a phone the first sessions are on the first screen."""
    with st.expander("Find sessions: players, tables, dates", icon=":material/filter_list:"):
        a, b, c = st.columns(3)
        chosen_players = a.multiselect("Players", players, help="Sessions where all of them sat")
        chosen_tables = b.multiselect("Tables", tables)
        chosen_dates = None
        if dates:
            chosen_dates = c.date_input(
                "Dates", value=dates, min_value=dates[0], max_value=dates[1]
            )
    return chosen_players, chosen_tables, chosen_dates


def page_choice(total: int, size: int, key: str = keys.SESSIONS_PAGE) -> int:
    """Which page of ``total`` rows, ``size`` a page, to show (1-based; no control for one
    page); ``key`` names the control (one per list on a page)."""
    pages = max(1, -(-total // size))
    if pages == 1:
        return 1
    return int(st.number_input(f"Page (of {pages})", 1, pages, 1, key=key))


def page_caption(kept: int, total: int, page: int, shown: int, size: int) -> str:
    """``"40 of 43 sessions"``, or with pages ``"sessions 101-200 of 12,273 (of 12,300), newest
    first"``."""
    if kept <= size:
        return f"{kept:,} of {total:,} sessions"
    first = (page - 1) * size + 1
    of = f" (of {total:,})" if kept != total else ""
    return f"sessions {first:,}-{first + shown - 1:,} of {kept:,}{of}, newest first"


def link_rows(rows: Sequence[LinkRow], label: str) -> None:
    """Rows a thumb opens (:func:`dashboard.common.links.rows_html`): each a plain link, its
    text wrapping on a phone, every name escaped."""
    st.markdown(rows_html(rows, label), unsafe_allow_html=True)


RESULTS = keys.RESULTS
"""The per-browser preference (:mod:`dashboard.common.prefs`) that shows the results: ``"1"``, or
unset (off, the default)."""


def show_results() -> bool:
    """The "Show results" switch of the Sessions and Session pages: off unless this browser
    turned it on (remembered per browser, :mod:`dashboard.common.prefs`, on every device alike; the
    organiser's device too, which may be showing the room a screen). Off, the pages name no
    winner, no net and no standings; the switch is the one tap that shows them."""
    st.session_state[RESULTS] = prefs.get_pref(RESULTS) == "1"

    def changed() -> None:
        prefs.set_pref(RESULTS, "1" if st.session_state[RESULTS] else None)

    return bool(
        st.toggle(
            "Show results",
            key=RESULTS,
            on_change=changed,
            help="Off: no winner, net or standings here or on the Session page, so that a "
            "replay is not spoiled. Remembered on this browser.",
        )
    )


def session_heading(rp: Replay) -> None:
    s = rp.final
    where = f" at table {s.table}" if s.table else ""
    status = "finished" if s.finished else "in progress"
    st.caption(
        f"{md(rp.session)}{md(where)} · {md(', '.join(s.seats))} · {s.deals} deals · "
        f"{s.resolved} of {s.rules.pots} pots resolved, {s.carried} carried · {status} · "
        f"cards recorded: {s.cards_mode}"
    )


def leaderboard(rows: list[dict[str, Any]]) -> None:
    st.dataframe(
        rows,
        hide_index=True,
        column_config={
            "player": st.column_config.TextColumn("Player"),
            "net": st.column_config.TextColumn("Net", help="Won minus paid (RULES 1.5)"),
            "pots won": st.column_config.NumberColumn("Pots won"),
            "winner": st.column_config.TextColumn(
                "", help="Equal highest nets share the win (RULES 1.5)"
            ),
        },
        width="stretch",
    )
