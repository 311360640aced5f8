"""The dates the statistics cover (issue 36 item 8): a named season (the club's terms,
:func:`service.season.terms_between`; the latest is "this season") or two dates, kept in the
link as ``?from=`` and ``?to=`` (ISO dates, inclusive; one alone leaves the other side open, at
the first or last session). A session counts on the calendar date of its recorded start, in its
own offset, as a club night does (:mod:`service.night`); the statistics read it as
``analytics.queries``' ``dates``."""

from __future__ import annotations

from datetime import date

import streamlit as st

from dashboard.common import state_keys as keys
from dashboard.common.params import param, set_params
from service.season import Term, terms_between

__all__ = ["CHOSEN", "EVERY", "date_range", "link_dates"]

EVERY = "Every date"
CHOSEN = "The dates chosen"


def _iso(text: str | None) -> date | None:
    if text is None:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        return None  # a link's bad date is no filter on that side


def link_dates(first: date, last: date) -> tuple[date, date] | None:
    """The link's dates (``?from=``, ``?to=``), in order, a missing or unreadable side taken as
    ``first`` or ``last`` (the sessions' first and last dates); ``None`` when neither is given."""
    start, end = _iso(param("from")), _iso(param("to"))
    if start is None and end is None:
        return None
    a, b = start or min(first, end or first), end or max(last, start or last)
    return (a, b) if a <= b else (b, a)


def _season_picked(terms: dict[str, Term]) -> None:
    picked = st.session_state[keys.PICK_SEASON]
    if picked == EVERY:
        set_params(**{"from": None, "to": None})
    elif picked in terms:
        t = terms[picked]
        set_params(**{"from": t.start.isoformat(), "to": t.end.isoformat()})


def _dates_picked() -> None:
    a, b = st.session_state[keys.PICK_FROM], st.session_state[keys.PICK_TO]
    if a is None or b is None:
        return
    a, b = min(a, b), max(a, b)
    set_params(**{"from": a.isoformat(), "to": b.isoformat()})


def date_range(span: tuple[date, date] | None) -> tuple[date, date] | None:
    """The season or dates picked (a season sets both dates; two dates not a season's show
    :data:`CHOSEN`), or ``None`` for every date. ``span``: the first and last dates of the
    sessions (``None``: no session, nothing shown)."""
    if span is None:
        return None
    first, last = span
    chosen = link_dates(first, last)
    terms = {t.name: t for t in terms_between(first, last)}
    latest = next(iter(terms))
    current = EVERY
    if chosen is not None:
        current = next((n for n, t in terms.items() if (t.start, t.end) == chosen), CHOSEN)
    st.session_state[keys.PICK_SEASON] = current
    st.session_state[keys.PICK_FROM] = chosen[0] if chosen else first
    st.session_state[keys.PICK_TO] = chosen[1] if chosen else last
    # wide enough for a whole date at a tablet's width (a walk: "2026 - 09 - 2" at 820 px)
    season, start, end = st.columns([4, 3, 3])
    season.selectbox(
        "Season",
        [EVERY, *terms, *([CHOSEN] if current == CHOSEN else [])],
        key=keys.PICK_SEASON,
        format_func=lambda n: f"This season ({n})" if n == latest else n,
        on_change=_season_picked,
        args=(terms,),
        help="The club's seasons are its terms: Spring (January to April), Summer (May to "
        "August), Autumn (September to December). A session counts on the date it started.",
    )
    start.date_input("From", key=keys.PICK_FROM, on_change=_dates_picked, format="YYYY-MM-DD")
    end.date_input("To", key=keys.PICK_TO, on_change=_dates_picked, format="YYYY-MM-DD")
    return chosen
