"""Streamlit pieces the pages are made of: pickers tied to the link, the table, the replay controls.

The replay position lives in ``st.query_params`` (``session``, ``deal``, ``step``, and ``view`` for
a viewer other than everyone, ``log=recorded`` to show corrections), so every step has a link. A
widget's own state is set from the link before it is drawn and its callback writes the link back.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from typing import Any

import streamlit as st

from dashboard import table_svg
from dashboard.view import EVERYONE, Position, Replay, TableView, link
from events.text import inert

_MD_ALWAYS = re.compile(r"([\\`*_\[\]<>!#|~$&{}@])")
_MD_COLON = re.compile(r":(?=\S)")  # :red[...], :material/...:, :smile:, https://
# GFM turns bare URLs and e-mail addresses into links after escapes are read: a word joiner
# (U+2060, invisible) after "://", "www" and "@" keeps them text.
_MD_AUTOLINK = re.compile(r"(?i)(?<=:)(?=//)|(?<=\bwww)(?=\.)|(?<=@)")
_MD_START = re.compile(r"^(\s*)(?:([-+=])|(\d+)([.)]))")  # a list or a heading line


def md(text: object) -> str:
    """Text from a log or a user (a name, a table, a session id, an error naming them) as
    Markdown that shows exactly that text. Backslash escapes (CommonMark) take away what could
    make markup: brackets, ``!``, ``<``, emphasis, code, ``$`` (LaTeX), ``#``, ``|``, ``~``,
    ``&`` (entities), ``@``, a colon before a non-space (Streamlit's ``:red[…]``,
    ``:material/…:``), and a list or heading start; an invisible word joiner (U+2060) after
    ``://``, ``www`` and ``@`` stops GFM's bare-URL and e-mail links. So ``[Log in](https://…)``,
    ``![t](https://…)`` and ``https://…`` stay text, never a link or an image. Characters that
    are not printable (newlines, ESC, bidi overrides) show as escapes
    (:func:`events.text.inert`), so a name never starts a new block. Plain sentences come back
    as they were ("Ann bets level 2: pays 1, blind").

    Use it for every piece of user-supplied text passed to ``st.markdown``, ``st.caption``,
    ``st.subheader``, the messages (``st.error`` ...) and widget labels (buttons, expanders,
    tabs), which Streamlit renders as Markdown."""
    out = _MD_ALWAYS.sub(r"\\\1", inert(str(text)))
    out = _MD_COLON.sub(r"\\:", out)
    out = _MD_AUTOLINK.sub("\u2060", out)
    return _MD_START.sub(_escape_start, out, count=1)


def _escape_start(m: re.Match[str]) -> str:
    if m.group(2):
        return m.group(1) + "\\" + m.group(2)
    return m.group(1) + m.group(3) + "\\" + m.group(4)


SPEEDS = {"slow": 2.0, "normal": 1.0, "fast": 0.5, "very fast": 0.25}
"""Autoplay speeds: seconds per step."""


def param(name: str) -> str | None:
    value = st.query_params.get(name)
    return value if value else None


def set_params(**values: Any) -> None:
    """Writes the link: ``None`` removes a parameter."""
    for k, v in values.items():
        if v is None or v == "":
            st.query_params.pop(k, None)
        else:
            st.query_params[k] = str(v)


# --- pickers tied to the link ---------------------------------------------------------------------


def session_picker(
    ids: Sequence[str],
    label: str = "Session",
    key: str = "pick_session",
    default: str | None = None,
) -> str:
    """A session chosen from ``ids``, kept in ``?session=`` (``default``, else the first one, when
    the link names none)."""
    wanted = param("session")
    current: str = ids[0]
    if wanted is not None and wanted in ids:
        current = wanted
    elif default is not None and default in ids:
        current = default
    st.session_state[key] = current

    def changed() -> None:
        chosen = st.session_state[key]
        set_params(session=None if chosen == default else chosen, deal=None, step=None)

    st.selectbox(label, ids, key=key, on_change=changed)
    if wanted != current and current != default:
        set_params(session=current)
    return current


def viewer_picker(seats: Sequence[str], key: str = "pick_viewer") -> str:
    """Everyone, or one player (``?view=``)."""
    options = [EVERYONE, *seats]
    wanted = param("view")
    st.session_state[key] = wanted if wanted in options else EVERYONE

    def changed() -> None:
        v = st.session_state[key]
        set_params(view=None if v == EVERYONE else v)

    return str(
        st.selectbox(
            "View as",
            options,
            key=key,
            on_change=changed,
            help="Everyone: every card the log knows. A player: only what that player could know "
            "at that moment (their own cards once looked at, and cards shown at a showdown).",
        )
    )


def recorded_toggle(rp_corrections: int, key: str = "pick_recorded") -> bool:
    """``?log=recorded`` shows the log as recorded, corrections and what they withdrew included."""
    st.session_state[key] = param("log") == "recorded"

    def changed() -> None:
        set_params(log="recorded" if st.session_state[key] else None, step=None)

    return bool(
        st.toggle(
            f"Show corrections ({rp_corrections})",
            key=key,
            on_change=changed,
            disabled=rp_corrections == 0,
            help="Off: the log as corrected. On: as recorded, with each voided event and what it "
            "withdrew.",
        )
    )


# --- the table ------------------------------------------------------------------------------------


def table_picture(view: TableView) -> None:
    """The picture of the table, then the pot, the level and whose turn it is as figures."""
    st.markdown(table_svg.render(view), unsafe_allow_html=True)


def table_figures(view: TableView, pot_change: Any = 0) -> None:
    a, b, c, d = st.columns(4)
    delta = None
    if pot_change:
        from dashboard.view import signed

        delta = signed(pot_change)
    a.metric("Pot", view.pot_text, delta=delta)
    b.metric("Level", view.level_text)
    c.metric("To act", view.turn or "nobody")
    d.metric("Pots resolved", f"{view.resolved} of {view.pots}")


# --- the replayer ---------------------------------------------------------------------------------


def _go(rp: Replay, how: str) -> Callable[[], None]:
    def cb() -> None:
        pos = rp.position(param("deal"), param("step"))
        new = rp.move(pos, how)
        set_params(deal=new.deal, step=new.step)

    return cb


def replay_stage(rp: Replay) -> None:
    """The replayer: deal picker, table, sentence, controls, slider, autoplay and the event list.

    Drawn as a fragment: a control redraws only this part, and autoplay reruns it on a timer."""
    playing = bool(st.session_state.get("replay_playing"))
    speed = SPEEDS.get(str(st.session_state.get("replay_speed", "normal")), 1.0)
    st.fragment(run_every=speed if playing else None)(_stage)(rp, playing, speed)


def _stage(rp: Replay, playing: bool, speed: float) -> None:
    pos = rp.position(param("deal"), param("step"))
    if playing and _tick_due(speed):
        if pos.last and pos.deal == rp.slices[-1].deal:
            st.session_state["replay_playing"] = False
            st.rerun(scope="app")
        pos = rp.move(pos, "next")
    set_params(deal=pos.deal, step=pos.step)

    deals = [s.deal for s in rp.slices]
    st.session_state["pick_deal"] = pos.deal

    def deal_changed() -> None:
        set_params(deal=st.session_state["pick_deal"], step=1)

    st.selectbox("Deal", deals, key="pick_deal", format_func=rp.deal_label, on_change=deal_changed)

    viewer = str(st.session_state.get("pick_viewer", EVERYONE))
    view = rp.view(pos, viewer)
    left, right = st.columns([3, 2], gap="medium")
    with left:
        st.markdown(f"**Step {pos.step} of {pos.steps}** · {md(view.sentence)}")
        table_picture(view)
        table_figures(view, rp.pot_change(pos))
        controls(rp, pos)
    with right:
        st.markdown("**Events of this deal**")
        event_list(rp, pos)
        extra = {
            "view": viewer if viewer != EVERYONE else "",
            "log": "recorded" if rp.recorded else "",
        }
        st.markdown(f"[Link to this step]({link(rp.session, pos.deal, pos.step, **extra)})")


def _tick_due(speed: float) -> bool:
    now = time.monotonic()
    last = float(st.session_state.get("replay_tick", 0.0))
    if now - last >= speed * 0.8:
        st.session_state["replay_tick"] = now
        return True
    return False


def controls(rp: Replay, pos: Position) -> None:
    """First, previous, next, last (arrow keys, Home and End), and the slider over the steps."""
    at_start = pos.first and pos.deal == rp.slices[0].deal
    at_end = pos.last and pos.deal == rp.slices[-1].deal
    a, b, c, d = st.columns(4)
    a.button(
        "First",
        icon=":material/first_page:",
        on_click=_go(rp, "first"),
        disabled=pos.first,
        shortcut="Home",
        width="stretch",
        key="ctl_first",
    )
    b.button(
        "Previous",
        icon=":material/chevron_left:",
        on_click=_go(rp, "prev"),
        disabled=at_start,
        shortcut="Left",
        width="stretch",
        key="ctl_prev",
    )
    c.button(
        "Next",
        icon=":material/chevron_right:",
        icon_position="right",
        on_click=_go(rp, "next"),
        disabled=at_end,
        shortcut="Right",
        width="stretch",
        key="ctl_next",
        type="primary",
    )
    d.button(
        "Last",
        icon=":material/last_page:",
        icon_position="right",
        on_click=_go(rp, "last"),
        disabled=pos.last,
        shortcut="End",
        width="stretch",
        key="ctl_last",
    )
    if pos.steps > 1:
        st.session_state["ctl_step"] = pos.step

        def slid() -> None:
            set_params(deal=pos.deal, step=st.session_state["ctl_step"])

        st.slider("Step", 1, pos.steps, key="ctl_step", on_change=slid)


def autoplay_controls() -> None:
    """Play/pause and the speed; drawn outside the fragment, since they change its timer."""
    a, b, _ = st.columns([1, 2, 3], vertical_alignment="center")
    a.toggle("Autoplay", key="replay_playing", on_change=_reset_tick)
    b.select_slider(
        "Speed",
        list(SPEEDS),
        value=st.session_state.get("replay_speed", "normal"),
        key="replay_speed",
        label_visibility="collapsed",
    )


def _reset_tick() -> None:
    st.session_state["replay_tick"] = time.monotonic()


def event_list(rp: Replay, pos: Position) -> None:
    """The deal's events, the current step highlighted, each step a link to itself."""
    rows = rp.rows(pos)
    viewer = str(st.session_state.get("pick_viewer", EVERYONE))
    extra = {"view": viewer if viewer != EVERYONE else "", "log": "recorded" if rp.recorded else ""}
    for r in rows:
        r["link"] = link(rp.session, pos.deal, r["step"], **extra)
    with st.container(height=min(len(rows) * 44 + 60, 560), border=True):
        st.markdown(table_svg.event_list(rows), unsafe_allow_html=True)


def recent_events(rp: Replay, count: int = 8) -> None:
    """The latest events of a session, newest first."""
    lines = [
        f"**{k + 1}** · {md(rp.sentence(k))}"
        for k in range(len(rp.events) - 1, max(len(rp.events) - count, 0) - 1, -1)
    ]
    st.markdown("\n".join(f"- {line}" for line in lines))


# --- sessions -------------------------------------------------------------------------------------


def session_filters(
    players: list[str], tables: list[str], dates: tuple[Any, Any] | None
) -> tuple[list[str], list[str], Any]:
    """The filter widgets of the Sessions page: players, tables, a range of dates."""
    a, b, c = st.columns(3)
    chosen_players = a.multiselect("Players", players, help="Sessions where all of them sat")
    chosen_tables = b.multiselect("Tables", tables)
    chosen_dates = None
    if dates:
        chosen_dates = c.date_input("Dates", value=dates, min_value=dates[0], max_value=dates[1])
    return chosen_players, chosen_tables, chosen_dates


def session_table(rows: list[dict[str, Any]]) -> None:
    """The list of sessions, each with links to its page and its replay."""
    st.dataframe(
        rows,
        hide_index=True,
        column_order=[
            "date",
            "session",
            "table",
            "players",
            "deals",
            "pots",
            "carried",
            "finished",
            "winners",
            "open",
            "replay",
        ],
        column_config={
            "date": st.column_config.TextColumn("Date"),
            "session": st.column_config.TextColumn("Session"),
            "table": st.column_config.TextColumn("Table"),
            "players": st.column_config.TextColumn("Players", width="medium"),
            "deals": st.column_config.NumberColumn("Deals"),
            "pots": st.column_config.NumberColumn("Pots", help="Resolved pots (RULES 1.4)"),
            "carried": st.column_config.NumberColumn("Carried", help="Pots carried (RULES 6.1)"),
            "finished": st.column_config.CheckboxColumn("Finished"),
            "winners": st.column_config.TextColumn("Winner(s)"),
            "open": st.column_config.LinkColumn("Session", display_text="open"),
            "replay": st.column_config.LinkColumn("Replay", display_text="replay"),
        },
        width="stretch",
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


def net_chart(history: dict[str, list[float]]) -> None:
    if not history.get("deal"):
        st.caption("No deal has ended yet.")
        return
    st.line_chart(history, x="deal", x_label="deal", y_label="net (stake units)")


def deal_table(session: str, rows: list[dict[str, Any]]) -> None:
    """The deals of a session; each opens in the replayer."""
    for r in rows:
        r["replay"] = link(session, r["deal"], 1)
    st.dataframe(
        rows,
        hide_index=True,
        column_order=[
            "deal",
            "dealer",
            "carried_in",
            "pot",
            "result",
            "winner",
            "hand",
            "cards",
            "replay",
        ],
        column_config={
            "deal": st.column_config.NumberColumn("Deal"),
            "dealer": st.column_config.TextColumn("Dealer"),
            "carried_in": st.column_config.TextColumn(
                "Carried in", help="The pot carried into this deal (RULES 6.1)"
            ),
            "pot": st.column_config.TextColumn("Pot"),
            "result": st.column_config.TextColumn("Result", width="medium"),
            "winner": st.column_config.TextColumn("Winner"),
            "hand": st.column_config.TextColumn("Showdown hand"),
            "cards": st.column_config.TextColumn("Cards"),
            "replay": st.column_config.LinkColumn("Replay", display_text="replay"),
        },
        width="stretch",
    )


# --- analytics --------------------------------------------------------------------------------


def analytics_or_stop(fetch: Callable[[], Any]) -> Any:
    """``fetch()`` from the projection, or a clear message and the end of the page when the
    projection cannot be read."""
    try:
        return fetch()
    except Exception as err:  # duckdb, a missing or busy file: say so rather than crash
        st.warning(
            f"The statistics are not available: {md(err)}. `brag analytics refresh` builds them "
            "from the store.",
            icon=":material/warning:",
        )
        st.stop()


def plain_table(rows: list[dict[str, Any]]) -> None:
    st.dataframe(rows, hide_index=True, width="stretch")


def link_table(rows: list[dict[str, Any]], column: str, text: str) -> None:
    """A table whose ``column`` holds relative links, shown as ``text``."""
    st.dataframe(
        rows,
        hide_index=True,
        width="stretch",
        column_config={column: st.column_config.LinkColumn(column, display_text=text)},
    )


def statistic_choice(names: Sequence[str], label: Any) -> str:
    """One statistic whose deals to list (``?deals=``), by its label."""
    wanted = param("deals")
    st.session_state["pick_deals"] = wanted if wanted in names else names[0]
    return str(
        st.selectbox(
            "Statistic",
            names,
            key="pick_deals",
            format_func=label,
            on_change=lambda: set_params(deals=st.session_state["pick_deals"]),
        )
    )


ALL_TABLES = "All tables"


def table_choice(tables: Sequence[str]) -> str | None:
    """The table whose sessions the statistics cover (``?table=``), or ``None`` for all of them.
    Shown only when some session records its table (``session_started.table``)."""
    if not tables:
        return None
    options = [ALL_TABLES, *tables]
    wanted = param("table")
    st.session_state["pick_table"] = wanted if wanted in tables else ALL_TABLES
    chosen = st.selectbox(
        "Sessions played at",
        options,
        key="pick_table",
        on_change=lambda: set_params(
            table=None
            if st.session_state["pick_table"] == ALL_TABLES
            else st.session_state["pick_table"]
        ),
        help="The statistics over the sessions of one table, or over every session (the "
        "examples of the rule card, players A to E, are at no table).",
    )
    return None if chosen == ALL_TABLES else str(chosen)


def two_players(names: Sequence[str]) -> tuple[str, str | None]:
    """A player, and another to compare with (``?player=`` and ``?vs=``)."""
    a, b = st.columns(2)
    wanted = param("player")
    st.session_state["pick_player"] = wanted if wanted in names else names[0]
    first = a.selectbox(
        "Player",
        names,
        key="pick_player",
        on_change=lambda: set_params(player=st.session_state["pick_player"]),
    )
    others = ["(nobody)", *[n for n in names if n != first]]
    vs = param("vs")
    st.session_state["pick_vs"] = vs if vs in others else "(nobody)"
    second = b.selectbox(
        "Compare with",
        others,
        key="pick_vs",
        on_change=lambda: set_params(
            vs=None if st.session_state["pick_vs"] == "(nobody)" else st.session_state["pick_vs"]
        ),
    )
    return str(first), (None if second == "(nobody)" else str(second))


def net_over_time(history: dict[str, list[Any]]) -> None:
    if not history.get("session"):
        st.caption("No session played yet.")
        return
    st.line_chart(
        history,
        x="session",
        x_label="sessions played, oldest first",
        y_label="running net (stake units)",
    )


def categories_chart(data: dict[str, list[Any]]) -> None:
    series = [k for k in data if k != "category"]
    st.bar_chart(data, x="category", y=series, stack=False, y_label="% of hands", sort=False)


EXAMPLE_SQL = """SELECT player, count(*) AS deals, sum(net_t / den) AS net
FROM player_deals
GROUP BY player
ORDER BY net DESC"""


def sql_box() -> str | None:
    """The SQL text area (kept in ``?sql=``, so a query has a link) and its Run button."""
    st.session_state.setdefault("sql_text", param("sql") or EXAMPLE_SQL)
    with st.form("sql"):
        st.text_area("SQL", key="sql_text", height=180)
        run = st.form_submit_button("Run", type="primary", icon=":material/play_arrow:")
    text = str(st.session_state.get("sql_text") or "").strip()
    if run:
        set_params(sql=text if len(text) < 1500 else None)
        st.session_state["sql_ran"] = text
    return st.session_state.get("sql_ran") or None


def query_or_refusal(run: Callable[[str], Any], sql: str) -> Any:
    """``run(sql)``, or the refusal (a write, several statements) or DuckDB's error shown."""
    from analytics import ReadOnlyError

    try:
        return run(sql)
    except ReadOnlyError as err:
        st.error(f"Refused: {md(err)}. This page only reads.", icon=":material/block:")
    except Exception as err:  # duckdb.Error: the analyst's SQL, shown as DuckDB words it
        st.error(f"{type(err).__name__}: {md(err)}", icon=":material/error:")
    return None


def schema(tables: list[dict[str, Any]]) -> None:
    for t in tables:
        with st.expander(f"{t['table']} ({t['rows']} rows)"):
            if t.get("comment"):
                st.caption(t["comment"])
            st.dataframe(
                [
                    {"column": c["name"], "type": c["type"], "meaning": c["comment"] or ""}
                    for c in t["columns"]
                ],
                hide_index=True,
                width="stretch",
            )
