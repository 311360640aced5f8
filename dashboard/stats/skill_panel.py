"""The Players page's panel "Skill apart from luck" (issue 37), in a club player's words: each
chosen player stacked (name and the main figure, per deal with the luck of the cards taken out,
give or take, then a small line of the rest), so nothing hides off a phone's 390 px; the two
players "too close to call yet" until the range of their difference over the sessions both played
excludes 0 ("never met" when they never sat at the same table); a warning where taking the luck
out makes a player's figure swing more; the ratings (3 narrow columns) and the first player's
rating on entering each session; the club's skill meter. The technical names (95% interval
clustered by session, Gaussian rating, split-half reliability) only in the captions' help
tooltips. Words and figures from :mod:`analytics.skill_text` (as ``brag stats`` prints them);
names escaped (they are data)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

import streamlit as st

from analytics.skill_text import (
    INTERVALS,
    INTERVALS_HOW,
    RATINGS,
    RATINGS_HOW,
    figure_lines,
    meter_how,
    meter_sentence,
    rating_rows,
    step_rows,
    widening_lines,
)
from dashboard.common import escape
from dashboard.stats import stats_cache, widgets
from present.numbers import count_of

__all__ = ["skill_panel"]


AT_ONCE = 20_000
"""Player-sessions up to which the panel is drawn at once (a club's seasons: well under a second);
above (a league: about 1 CPU s per 50,000, ``bench/ratings.py``) the reader turns it on, so the
page's first answer does not wait for it."""


def _wanted(stats: Sequence[Mapping[str, Any]]) -> bool:
    """The toggle: on at once up to :data:`AT_ONCE` player-sessions."""
    size = sum(int(r.get("sessions") or 0) for r in stats)
    # No help icon on the switch: on a phone a tap on a toggle's (?) turns the toggle.
    on = bool(
        st.toggle(
            "Skill apart from luck: how sure each figure is, ratings, skill or luck",
            value=size <= AT_ONCE,
        )
    )
    if not on and size > AT_ONCE:
        st.caption(
            f"Off at first for {size:,} player-sessions, so that the page answers at once: "
            "turned on, it takes about a second for every 50,000."
        )
    return on


def _ratings(summary: Any, pair: Any, chosen: list[str]) -> None:
    """The chosen players' ratings, and the first one's on entering each session."""
    rated = [r for p in chosen for r in summary.ratings if r.player == p]
    if rated:
        widgets.plain_table(rating_rows(rated))
        st.caption(
            f"{RATINGS} {count_of(summary.rated_sessions, 'session')} rated in all, every "
            "player's.",
            help=RATINGS_HOW,
        )
    if pair.steps and pair.steps[0]:
        st.markdown(f"**{escape.md(chosen[0])}: rating on entering each session** (newest first)")
        # cells wrap: "change" in sight at 390 px (a no-break space would show as "\\xa0": md)
        widgets.wrapped_table(step_rows(pair.steps[0]))


def skill_panel(
    first: str,
    second: str | None,
    table: str | None,
    stats: Sequence[Mapping[str, Any]],
    dates: tuple[date, date] | None = None,
) -> None:
    """Draws the panel for ``first`` (and ``second``) over the sessions the page covers
    (``stats``: the page's ``player_stats`` rows, whose ``sessions`` say how much there is;
    ``dates``: the page's first and last date, ``None`` for every date): the figures, the
    ratings and the meter follow the page's dates as its other charts do (issue 36 item 8)."""
    if not _wanted(stats):
        return
    since, until = dates if dates else (None, None)
    summary = stats_cache.stat("skill_summary", table=table, since=since, until=until)
    chosen = [first, *([second] if second and second != first else [])]
    figs = [f for p in chosen for f in summary.figures if f.player == p]
    if not figs:
        return
    st.subheader("Skill apart from luck")
    for f in figs:  # stacked, not a wide table: the main figure in sight on a phone
        main, detail = figure_lines(f)
        st.markdown(f"**{escape.md(f.player)}**: {escape.md(main)}  \n:small[{escape.md(detail)}]")
    st.caption(INTERVALS, help=INTERVALS_HOW)
    pair = stats_cache.stat("skill_pair", first=first, second=chosen[-1], table=table)
    if pair.comparison is not None:
        st.markdown("**Who is ahead:** " + escape.md(pair.comparison.sentence()))
    for line in widening_lines(figs):
        st.warning(escape.md(line))
    _ratings(summary, pair, chosen)
    st.caption(escape.md(meter_sentence(summary.meter)), help=meter_how(summary.meter))
