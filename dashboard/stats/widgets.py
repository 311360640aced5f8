"""Streamlit pieces of the statistics pages (Players, Decisions, Explore, My sessions) and the
Session page's chart: the charts of nets, the pickers kept in the link (a statistic, a table,
two players), the projection that cannot be read said in one line, the SQL box and its outcome.
:mod:`dashboard.common.ui` re-exports every name here (the pages call ``ui.table_choice``, ...).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import streamlit as st

from dashboard.common import prefs
from dashboard.common import state_keys as keys
from dashboard.common.escape import md
from dashboard.common.params import param, set_params
from present.numbers import count_of, signed

__all__ = [
    "ALL_TABLES",
    "EXAMPLE_SQL",
    "analytics_or_stop",
    "categories_chart",
    "lines_chart",
    "net_chart",
    "net_over_time",
    "plain_table",
    "player_colours",
    "query_or_refusal",
    "schema",
    "sql_box",
    "statistic_choice",
    "table_choice",
    "two_players",
]

# --- charts ---------------------------------------------------------------------------------------


def lines_chart(
    history: dict[str, list[Any]],
    x: str,
    x_label: str,
    y_label: str,
    *,
    frame: bool = False,
    labels: Sequence[str] | None = None,
) -> None:
    """One line per player over ``history[x]`` (whole numbers: deals, sessions), each point drawn,
    so a single point shows as a point (not an empty chart with an axis of "1.000000"). With
    ``frame`` the points go to the browser as a named dataset (Arrow, as Streamlit sends a
    DataFrame) rather than inline in the spec, which altair walks value by value: 25,000 points
    (a league's player) took 30 s that way. ``labels``: what each point of ``history[x]`` is
    (shown in its tooltip as ``which``)."""
    import altair as alt

    players = [k for k in history if k != x]
    names = list(labels) if labels is not None else [str(v) for v in history[x]]
    rows = [
        {x: history[x][i], "which": names[i], "player": p, "net": v, "shown": _signed(v)}
        for p in players
        for i, v in enumerate(history[p])
        if v is not None  # a session the player did not play: no point of theirs
    ]
    if frame:
        import pandas as pd  # type: ignore[import-untyped]  # pandas ships no type hints

        data: Any = pd.DataFrame(rows, columns=[x, "which", "player", "net", "shown"])
    else:
        # alt.Data keeps the values inline in the spec
        data = alt.Data(values=rows)  # type: ignore[no-untyped-call]  # __init__ unannotated
    chart = (
        alt.Chart(data)
        .mark_line(point=alt.OverlayMarkDef(size=60))
        .encode(
            x=alt.X(f"{x}:O", title=x_label, axis=alt.Axis(labelAngle=0)),
            y=alt.Y("net:Q", title=y_label),
            color=alt.Color(
                "player:N",
                title=None,
                scale=player_colours(players),
                legend=alt.Legend(orient="bottom", columns=2, labelLimit=150),  # the plot's width
            ),
            tooltip=[
                *(
                    [alt.Tooltip(f"{x}:O")]
                    if labels is None
                    else [alt.Tooltip(f"{x}:O", title="number"), alt.Tooltip("which:N", title=x)]
                ),
                "player:N",
                alt.Tooltip("shown:N", title=y_label),
            ],
        )
    )
    if labels is None:
        st.altair_chart(chart, width="stretch")
    else:
        _tappable(chart, history, x, names, frame=frame)


def _tappable(
    chart: Any, history: dict[str, list[Any]], x: str, names: list[str], *, frame: bool
) -> None:
    """``chart`` drawn with a see-through column over each ``x`` on top: a tap anywhere in the
    column (a thumb has no hover, and a point is 8 px) picks it, and the page says under the
    chart which session it is and each player's running net there (``st.altair_chart``'s
    selection, one rerun); a mouse over the column shows the same as a tooltip."""
    import altair as alt

    players = [k for k in history if k != x]

    def nets(i: int) -> str:
        """Each player's net in session ``i`` and their running net after it."""
        out = []
        for p in players:
            ran = history[p][i]
            if ran is None:
                continue  # not at that session
            before = next((v for v in reversed(history[p][:i]) if v is not None), 0.0)
            own = _exact(ran) - _exact(before)
            out.append(f"{p} {signed(own)} that session ({_signed(ran)} in all)")
        return ", ".join(out)

    cols = [{x: v, "which": names[i], "nets": nets(i)} for i, v in enumerate(history[x])]
    if frame:
        import pandas as pd

        data: Any = pd.DataFrame(cols, columns=[x, "which", "nets"])
    else:
        data = alt.Data(values=cols)  # type: ignore[no-untyped-call]  # __init__ unannotated
    pick = alt.selection_point(name="pick", fields=[x], on="click")
    hit = (
        alt.Chart(data)
        .mark_rect(opacity=0.001)
        .encode(
            x=alt.X(f"{x}:O"),
            tooltip=[
                alt.Tooltip(f"{x}:O", title="number"),
                alt.Tooltip("which:N", title=x),
                "nets:N",
            ],
        )
        .add_params(pick)
    )
    event = st.altair_chart(
        alt.layer(chart, hit), width="stretch", on_select="rerun", key=keys.NET_POINT
    )
    picked = (event.selection.get("pick") or [{}])[0].get(x) if event else None
    if isinstance(picked, int) and 1 <= picked <= len(names):
        i = picked - 1
        st.caption(f"Tapped: {x} {picked}, {md(names[i])}: {md(nets(i))}.")


def _exact(v: float) -> Fraction:
    """The exact amount behind a running net drawn as a float (an exact sum of ticks divided
    once: its fraction is found again exactly)."""
    return Fraction(v).limit_denominator(10_000)


def _signed(v: float | None) -> str:
    """A running net as the page writes money (``+948½``)."""
    return "" if v is None else signed(_exact(v))


def net_chart(history: dict[str, list[float]]) -> None:
    if not history.get("deal"):
        st.caption("No deal has ended yet.")
        return
    lines_chart(history, "deal", "deal", "net (stake units)")


# --- the statistics' pickers, the projection, the SQL box --------------------------------------


def analytics_or_stop(fetch: Callable[[], Any]) -> Any:
    """``fetch()`` from the projection, or a clear message and the end of the page when the
    projection cannot be read (a store that cannot be reached is the page's one line,
    :mod:`dashboard.common.faults`) or is not ready yet (its writer's first catch-up still
    running: ``dashboard.stats.stats_cache.Preparing``)."""
    from dashboard.stats.stats_cache import Preparing
    from events.errors import StoreUnavailable

    try:
        return fetch()
    except StoreUnavailable:
        raise
    except Preparing as err:
        st.info(f"The statistics are not ready yet: {err}.", icon=":material/hourglass_top:")
        st.stop()
    except Exception as err:  # duckdb, a missing or busy file: say so rather than crash
        from analytics.explore import without_paths
        from events.errors import DISK_FULL, disk_full
        from store.address import masked

        why = DISK_FULL if disk_full(err) else without_paths(masked(str(err)))
        st.warning(
            f"The statistics are not available: {md(why)}. `brag analytics refresh` builds them "
            "from the store.",
            icon=":material/warning:",
        )
        st.stop()


def plain_table(rows: list[dict[str, Any]], pin: Sequence[str] | None = None) -> None:
    """``rows`` as a table, the columns that name a row pinned (``pin``; by default the first:
    the player, the statistic, the action, the category), so that on a phone a table wider than
    the screen scrolls sideways inside its frame with each row's name still in sight."""
    names = list(pin) if pin is not None else [next(iter(rows[0]))] if rows and rows[0] else []
    pinned = {n: st.column_config.Column(pinned=True) for n in names} or None
    st.dataframe(rows, hide_index=True, width="stretch", column_config=pinned)


def wrapped_table(rows: list[dict[str, Any]]) -> None:
    """``rows`` (a few, short: a statistic a row) as a static table whose cells wrap, so that two
    players side by side fit a phone's 390 px without a cell cut off (``st.dataframe`` cuts a
    cell at its column's width). Every heading and cell escaped: a player's name is data, and
    ``st.table`` reads Markdown."""
    st.table(
        [{md(str(k)): md(str(v)) for k, v in r.items()} for r in rows],
        hide_index=True,
        border="horizontal",
    )


def statistic_choice(names: Sequence[str], label: Any) -> str:
    """One statistic whose deals to list (``?deals=``), by its label."""
    wanted = param("deals")
    st.session_state[keys.PICK_DEALS] = wanted if wanted in names else names[0]
    return str(
        st.selectbox(
            "Statistic",
            names,
            key=keys.PICK_DEALS,
            format_func=label,
            on_change=lambda: set_params(deals=st.session_state[keys.PICK_DEALS]),
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
    st.session_state[keys.PICK_TABLE] = wanted if wanted in tables else ALL_TABLES
    chosen = st.selectbox(
        "Sessions played at",
        options,
        key=keys.PICK_TABLE,
        on_change=lambda: set_params(
            table=None
            if st.session_state[keys.PICK_TABLE] == ALL_TABLES
            else st.session_state[keys.PICK_TABLE]
        ),
        help="The statistics over the sessions of one table, or over every session (the "
        "examples of the rule card, players A to E, are at no table).",
    )
    return None if chosen == ALL_TABLES else str(chosen)


def two_players(names: Sequence[str]) -> tuple[str, str | None]:
    """A player, and another to compare with (``?player=`` and ``?vs=``); without a player in
    the link, the one this browser is on My sessions (``me``), else the first."""
    a, b = st.columns(2)
    wanted = param("player") or prefs.get_pref(keys.ME)
    st.session_state[keys.PICK_PLAYER] = wanted if wanted in names else names[0]
    first = a.selectbox(
        "Player",
        names,
        key=keys.PICK_PLAYER,
        on_change=lambda: set_params(player=st.session_state[keys.PICK_PLAYER]),
    )
    others = ["(nobody)", *[n for n in names if n != first]]
    vs = param("vs")
    st.session_state[keys.PICK_VS] = vs if vs in others else "(nobody)"
    second = b.selectbox(
        "Compare with",
        others,
        key=keys.PICK_VS,
        on_change=lambda: set_params(
            vs=None
            if st.session_state[keys.PICK_VS] == "(nobody)"
            else st.session_state[keys.PICK_VS]
        ),
    )
    return str(first), (None if second == "(nobody)" else str(second))


def net_over_time(
    history: dict[str, list[Any]],
    *,
    frame: bool = False,
    labels: Sequence[str] | None = None,
) -> None:
    """Each player's running net over their sessions (``frame``: see :func:`lines_chart`;
    ``labels``: each session's date and id, ``dashboard.stats.tables.session_labels``, in the
    tooltips and, first and last, under the chart)."""
    if not history.get("session"):
        st.caption("No session played yet.")
        return
    label = "running net (stake units)"
    players = len(history) - 1
    axis = (
        "sessions played, oldest first" if players == 1 else "sessions either played, oldest first"
    )
    lines_chart(history, "session", axis, label, frame=frame, labels=labels)
    if labels:
        first, last = md(labels[0]), md(labels[-1])
        span = f"Session 1 is {first}" + (
            f"; session {len(labels)}, {last}" if len(labels) > 1 else ""
        )
        st.caption(f"{span}. A tap on a point says which session it is.")


PLAYER_COLOURS = ("#1f77b4", "#d62728")
"""The first and the compared player's colour in every chart of the page (Tableau's blue and red,
told apart by the colour-blind): the net over time and the hands shown agree."""
PACK_COLOUR = "#a6a6a6"
"""The pack's own shares (RULES 2.8): grey, a reference and not a player."""


def player_colours(players: Sequence[str]) -> Any:
    """The colour scale of the players in the page's order (:data:`PLAYER_COLOURS`), the same in
    each chart; past two, Vega's own."""
    import altair as alt

    if len(players) > len(PLAYER_COLOURS):
        return alt.Undefined
    return alt.Scale(domain=list(players), range=list(PLAYER_COLOURS[: len(players)]))


def categories_chart(data: dict[str, list[Any]], pack: str, players: Sequence[str]) -> None:
    """Grouped bars: each hand category's share (%) among the hands each of ``players`` showed
    (``data["{player} (shown)"]``) beside the pack's (``data[pack]``, RULES 2.8), in the players'
    colours of the net over time; the legend one entry a line under the chart, so a phone's
    390 px cuts none."""
    import altair as alt

    series = [*players, pack]
    columns = [*(f"{p} (shown)" for p in players), pack]
    rows = [
        {"category": c, "series": name, "share": data[col][i]}
        for name, col in zip(series, columns, strict=True)
        for i, c in enumerate(data["category"])
    ]
    colours = [*PLAYER_COLOURS[: len(players)], PACK_COLOUR]
    scale = (
        alt.Scale(domain=series, range=colours)
        if len(players) <= len(PLAYER_COLOURS)
        else alt.Undefined
    )
    chart = (
        alt.Chart(alt.Data(values=rows))  # type: ignore[no-untyped-call]  # __init__ unannotated
        .mark_bar()
        .encode(
            x=alt.X("category:N", sort=list(data["category"]), title=None),
            xOffset=alt.XOffset("series:N", sort=series),
            y=alt.Y("share:Q", title="% of hands"),
            color=alt.Color(
                "series:N",
                title=None,
                sort=series,
                scale=scale,
                legend=alt.Legend(orient="bottom", direction="vertical", labelLimit=320),
            ),
            tooltip=["category:N", alt.Tooltip("series:N", title="of"), "share:Q"],
        )
    )
    st.altair_chart(chart, width="stretch")


EXAMPLE_SQL = """SELECT player, count_of(*) AS deals, sum(net_t / den) AS net
FROM player_deals
GROUP BY player
ORDER BY net DESC"""


def sql_box() -> str | None:
    """The SQL text area (kept in ``?sql=``, so a query has a link) and its Run button."""
    st.session_state.setdefault(keys.SQL_TEXT, param("sql") or EXAMPLE_SQL)
    with st.form(keys.SQL_FORM):
        st.text_area("SQL", key=keys.SQL_TEXT, height=180)
        run = st.form_submit_button("Run", type="primary", icon=":material/play_arrow:")
    text = str(st.session_state.get(keys.SQL_TEXT) or "").strip()
    if run:
        set_params(sql=text if len(text) < 1500 else None)
        st.session_state[keys.SQL_RAN] = text
        st.session_state[keys.SQL_RUNS] = (
            st.session_state.get(keys.SQL_RUNS, 0) + 1
        )  # Run runs again
    return st.session_state.get(keys.SQL_RAN) or None


def query_or_refusal(run: Callable[[str], Any], sql: str, *, key: Any = None) -> Any:
    """``run(sql)``, or the refusal (a write, several statements), the limit it hit, or DuckDB's
    error shown. The outcome is kept in the browser session under ``(sql, key)``: a rerun of
    the page (any widget) shows it again without running the query again."""
    from analytics.explore import LimitReached, QueryError, ReadOnlyError, without_paths
    from events.errors import DISK_FULL, StoreUnavailable, disk_full

    kept = st.session_state.get(keys.SQL_RESULT)
    if kept is not None and kept[0] == (sql, key):
        outcome = kept[1]
    else:
        try:
            outcome = ("ok", run(sql))
        except StoreUnavailable:  # the page's one line (dashboard.common.faults), not kept
            raise
        except ReadOnlyError as err:
            outcome = ("refused", str(err))
        except LimitReached as err:
            outcome = ("limit", str(err))
        except QueryError as err:  # DuckDB's words, one line, without the server's paths
            outcome = ("error", str(err))
        except Exception as err:  # duckdb.Error: the analyst's SQL, shown as DuckDB words it,
            # without the server's paths (the snapshot, the spill folder, the extensions)
            outcome = (
                "error",
                DISK_FULL if disk_full(err) else without_paths(f"{type(err).__name__}: {err}"),
            )
        st.session_state[keys.SQL_RESULT] = ((sql, key), outcome)
    kind, value = outcome
    if kind == "refused":
        st.error(f"Refused: {md(value)}. This page only reads.", icon=":material/block:")
    elif kind == "limit":
        st.warning(f"The query was {md(value)}.", icon=":material/timer_off:")
    elif kind == "error":
        st.error(md(value), icon=":material/error:")
    else:
        return value
    return None


def schema(tables: list[dict[str, Any]]) -> None:
    for t in tables:
        with st.expander(f"{t['table']} ({count_of(int(t['rows']), 'row')})"):
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
