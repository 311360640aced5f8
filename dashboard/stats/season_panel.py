"""The season on the Players page (issue 36 items 7, 8): the club nights of the dates picked
(this season without a filter: :func:`season_title`) ranked by two formulas side by side
(:data:`FORMULAS`; ``?formulas=points,best:3:5`` picks others), with the season's state, the
rules' name and the log's position it was made from, so two copies can be told apart. Read from
the store, each night kept by what it was made from (:func:`dashboard.stats.stats_cache.season`),
and drawn in a fragment that reruns every :data:`EVERY` seconds: a correction anywhere shows
within it.
:func:`season_rows` is the view model (no Streamlit)."""

from __future__ import annotations

from datetime import date
from typing import Any

import streamlit as st

from dashboard.common.escape import md
from dashboard.common.params import param
from events.amounts import amount_text, signed_text
from service.season import Season, SeasonRefused, parse_formula, term_of

__all__ = [
    "EVERY",
    "FORMULAS",
    "formulas_asked",
    "season_caption",
    "season_panel",
    "season_rows",
    "season_title",
]

FORMULAS: tuple[str, ...] = ("points", "total")
"""The formulas shown side by side unless the link names others."""

EVERY = 5.0
"""Seconds between two reads of the season (a read folds nothing while the log has not moved)."""


def formulas_asked(text: str | None) -> tuple[tuple[str, ...], str]:
    """The formulas of ``?formulas=`` (comma-separated, at most two, canonical texts) and a line
    saying why the link's were not taken (``""`` when they were, or none was given)."""
    if not text:
        return FORMULAS, ""
    try:
        got = tuple(dict.fromkeys(parse_formula(t).name for t in text.split(",") if t.strip()))
    except SeasonRefused as err:
        return FORMULAS, f"{err}: showing {' and '.join(FORMULAS)}"
    return (got[:2] or FORMULAS), ""


def season_rows(season: Season) -> list[dict[str, str]]:
    """One row a player, in the first formula's order: its place, the player, each formula's
    score (beside the first, with the place under it), the season's net and nights played."""
    first, *others = season.rankings
    by = [{s.player: s for s in r.standings} for r in others]
    out = []
    for s in first.standings:
        row = {"place": str(s.place), "player": s.player, first.formula: amount_text(s.score)}
        for r, k in zip(others, by, strict=True):
            row[r.formula] = f"{amount_text(k[s.player].score)} ({k[s.player].place})"
        row["net"] = signed_text(s.net)
        row["nights"] = str(s.nights)
        out.append(row)
    return out


def season_caption(season: Season) -> str:
    """The line under the table: state, nights, tie-breakers, rules' name, the log's position."""
    nights = len(season.nights)
    return (
        f"{season.state.capitalize()}: {nights} night{'s' if nights != 1 else ''} from "
        f"{season.start.isoformat()} to {season.end.isoformat()}. Ties: score, then the "
        f"season's net, then fewer nights; (n) is the place under that formula; nets in stake "
        f"units. Rules: {'; '.join(season.rules)}. Made from the log at position "
        f"{season.position}."
    ) + (
        " A night still provisional counts what was paid into pots still being played (the "
        "statistics above count finished deals only, so the two nets differ until they end)."
        if season.state == "provisional"
        else ""
    )


def season_title(dates: tuple[date, date] | None, last: date) -> tuple[str, tuple[date, date]]:
    """The section's title and dates: the ``dates`` picked, else this season (the club's term
    holding ``last``, the latest session's date: a term bounds what is folded on a league's
    store, where every date would be every session)."""
    if dates is not None:
        return f"The season, {dates[0].isoformat()} to {dates[1].isoformat()}", dates
    term = term_of(last)
    return f"The season: {term.name}, this season", (term.start, term.end)


@st.fragment(run_every=EVERY)
def season_panel(dates: tuple[date, date] | None, span: tuple[date, date] | None) -> None:
    """The season of ``dates`` (``None``: this season, :func:`season_title`) as a table and its
    caption; nothing when no session is stored."""
    from dashboard.stats import stats_cache, widgets

    if span is None:
        return
    title, start_end = season_title(dates, span[1])
    st.subheader(md(title))
    formulas, refused = formulas_asked(param("formulas"))
    if refused:
        st.caption(md(refused))
    try:
        season: Any = stats_cache.season(*start_end, formulas)
    except SeasonRefused as err:
        st.info(md(str(err)))
        return
    widgets.plain_table(season_rows(season), pin=("place", "player"))  # the name in sight
    st.caption(md(season_caption(season)))
