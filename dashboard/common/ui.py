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

from dashboard.common import prefs
from dashboard.common import state_keys as keys
from dashboard.common.escape import md
from dashboard.common.links import BOX_KEY, LinkRow, rows_html
from dashboard.common.params import param, set_params
from present.numbers import count_of
from present.replay import Replay

__all__ = [
    "LAST_SESSION",
    "RESULTS",
    "leaderboard",
    "link_rows",
    "page_caption",
    "page_choice",
    "session_filters",
    "session_heading",
    "session_picker",
    "show_results",
]


# --- pickers tied to the link ---------------------------------------------------------------------


LAST_SESSION = keys.LAST_SESSION
"""The session this browser session last showed on the Session or Replay page."""


def _short(text: str, most: int = 60) -> str:
    """``text`` cut to ``most`` characters with an ellipsis: a link's junk is named, not echoed
    whole (a walk: 5,000 characters filled a phone's screen)."""
    return text if len(text) <= most else text[: most - 1] + "…"


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
            f"No session {md(_short(wanted))} in the store: showing {md(current)}; pick another "
            "below."
        )
        set_params(session=None, deal=None, step=None, seq=None, follow=None)
        wanted = None
    st.session_state[key] = current

    def changed() -> None:
        chosen = st.session_state[key]
        set_params(session=None if chosen == default else chosen, deal=None, step=None, follow=None)

    st.selectbox(label, ids, key=key, on_change=changed)
    if wanted != current and current != default:
        set_params(session=current)
    return current


# --- the table ------------------------------------------------------------------------------------


# --- the replayer ---------------------------------------------------------------------------------


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


def page_choice(
    total: int, size: int, key: str = keys.SESSIONS_PAGE, link: str | None = None
) -> int:
    """Which page of ``total`` rows, ``size`` a page, to show (1-based; no control for one
    page); ``key`` names the control: one per list, so that it names what the list holds (its
    statistic, player, filters) and another list starts at its first page.

    With ``link``, the page is kept in the page's link as ``?{link}=N``, so that Back from a
    row's replay (a new load of the page) comes to the same page of the list: read once, on the
    browser session's first list; a list chosen later starts at its first page and writes its
    own number."""
    pages = max(1, -(-total // size))
    if pages == 1:
        return 1
    if link is not None and key not in st.session_state:
        read = f"{keys.LINKED_PAGE}{link}"
        wanted = param(link) or ""
        if read not in st.session_state and wanted.isdigit() and 1 <= int(wanted) <= pages:
            st.session_state[key] = int(wanted)
        elif read in st.session_state:
            set_params(**{link: None})  # the link's page was another list's
        st.session_state[read] = True

    def kept() -> None:
        if link is not None:
            set_params(**{link: st.session_state[key]})

    return int(st.number_input(f"Page (of {pages})", 1, pages, key=key, on_change=kept))


def page_caption(kept: int, total: int, page: int, shown: int, size: int) -> str:
    """``"40 of 43 sessions"``, or with pages ``"sessions 101-200 of 12,273 (of 12,300), newest
    first"``."""
    if kept <= size:
        return f"{kept:,} of {count_of(total, 'session')}"
    first = (page - 1) * size + 1
    of = f" (of {total:,})" if kept != total else ""
    return f"sessions {first:,}-{first + shown - 1:,} of {kept:,}{of}, newest first"


def link_rows(rows: Sequence[LinkRow], label: str) -> None:
    """Rows a thumb opens (:func:`dashboard.common.links.rows_html`): each a plain link, its
    text wrapping on a phone, every name escaped."""
    st.markdown(rows_html(rows, label), unsafe_allow_html=True)


BOXED = 8
"""Rows up to which :func:`link_box` draws them in the page; above, in a box of its own."""


def link_box(rows: Sequence[LinkRow], label: str, key: str) -> None:
    """:func:`link_rows`, in a box 520 px high that scrolls on its own when there are more than
    :data:`BOXED`, on a wide screen; on a phone the rows stay part of the page
    (:data:`dashboard.common.links.ROWS_CSS`: a box in the page traps a thumb), so a list on a
    phone should come a page at a time. ``key`` names the box (one per list on a page)."""
    if len(rows) <= BOXED:
        link_rows(rows, label)
        return
    with st.container(height=520, key=f"{BOX_KEY}{key}"):
        link_rows(rows, label)


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

    # No help icon on the switch: on a phone a tap on a toggle's (?) turns the toggle (its label
    # holds the icon), so "what is this?" showed the results (fresh-user check at 390 px).
    shown = bool(st.toggle("Show results", key=RESULTS, on_change=changed))
    if not shown:
        st.caption(
            "Results hidden: no winner, net or standings here or on the Session page, so "
            "that a replay is not spoiled. Remembered on this browser."
        )
    return shown


def session_heading(rp: Replay) -> None:
    s = rp.final
    where = f" at table {s.table}" if s.table else ""
    status = "finished" if s.finished else "in progress"
    st.caption(
        f"{md(rp.session)}{md(where)} · {md(', '.join(s.seats))} · "
        f"{count_of(s.deals, 'deal')} · {s.resolved} of {count_of(s.rules.pots, 'pot')} "
        f"resolved, {s.carried} carried · {status} · cards recorded: {s.cards_mode}"
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
