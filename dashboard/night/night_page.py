"""Night: the live board of one date's tables (issue 36.3): the standings across the tables, each
table's session (a link follows it live on the Replay page), the pot on the tables, marked
"Provisional"; who pays whom once money in equals money out (36.5); the night's report to print
or download (36.6, ``view=report``).

The link: ``night?date=YYYY-MM-DD`` (default: the latest date with sessions), ``&display=tv``
(the TV display: no controls, no sidebar, large type), ``&view=report``, ``&view=desk`` (the
director's desk, :mod:`dashboard.night.desk`: the organiser's unlocked device only).

The board follows the store live: a fragment run every :data:`EVERY` seconds reads the store's
polled position and the night's facts' polled position and draws the board of that pair (kept
per pair, so a board that did not move costs one cached lookup), so a new pot, a check-in or
finalising reaches it within ``EVERY`` + the poll's freshness (under 2 s)."""

from __future__ import annotations

from datetime import date

import streamlit as st

from dashboard.access.gate import organiser_device
from dashboard.common import params
from dashboard.common.escape import md
from dashboard.common.faults import unreachable_line
from dashboard.night import nights
from dashboard.night.board import board_html
from dashboard.night.desk import desk
from events.errors import StoreUnavailable
from service.night import NightRefused

EVERY = 1.0  # seconds between two looks at the store's position

PRINT_CSS = """<style> @media print {
[data-testid="stSidebar"], [data-testid="stHeader"], [data-testid="stToolbar"],
[data-testid="stDecoration"],
[data-testid="stElementContainer"]:not(:has(.brag-report)):not(:has(style)) { display: none
!important; }
[data-testid="stMainBlockContainer"], .block-container { padding: 0 !important; max-width: none
!important; } } </style>"""
# (on paper the Report view is the report alone: the menu, the controls and the buttons go; a
# bare string here would be drawn by Streamlit's magic, so these are comments)


def _day(latest: date) -> date:
    text = params.param("date")
    if text is None:
        return latest
    try:
        return date.fromisoformat(text)
    except ValueError:
        st.warning(md(f"date={text!r} is not YYYY-MM-DD: the latest night is shown."))
        return latest


def _controls(day: date) -> tuple[date, str]:
    span = nights.span()
    left, right = st.columns([1, 2], vertical_alignment="bottom")
    with left:
        picked = st.date_input(
            "Night of",
            value=day,
            min_value=min(span[0], day) if span else None,
            max_value=max(span[1], day) if span else None,
        )
    with right:
        asked = {"report": "Report", "desk": "Desk"}.get(str(params.param("view")), "Board")
        views = ["Board", "Report"] + (["Desk"] if asked == "Desk" or organiser_device() else [])
        view = st.segmented_control("View", views, default=asked, label_visibility="collapsed")
    if isinstance(picked, date) and picked != day:
        params.set_params(date=picked.isoformat())
        day = picked
    view = view or "Board"
    params.set_params(view=None if view == "Board" else view.lower())
    tv = f"night?date={day.isoformat()}&display=tv"
    st.caption(f"[TV display]({tv}): the board alone, large, for a screen in the room.")
    return day, view


@st.fragment(run_every=EVERY)
def _board(day: date, tv: bool) -> None:
    try:
        at = nights.polled_position()
        night = nights.night(day, at, nights.polled_facts(day))
    except StoreUnavailable as err:  # one line until the store answers again
        st.error(md(unreachable_line(err)), icon=":material/cloud_off:")
        return
    except NightRefused as err:
        st.info(md(f"{err}."))
        return
    st.markdown(board_html(night, at, tv=tv), unsafe_allow_html=True)


def _base() -> str:
    """The dashboard's address as this browser reached it (``http://host:8501/``), or ``""``."""
    from urllib.parse import urlsplit

    url = urlsplit(str(getattr(st.context, "url", "") or ""))
    if url.scheme not in ("http", "https") or not url.netloc:
        return ""
    return f"{url.scheme}://{url.netloc}{url.path.rsplit('/', 1)[0]}/"


def _report(day: date) -> None:
    from service.report_html import REPORT_CSS, report_fragment

    at, facts_at = nights.position(), nights.facts_position(day)
    try:
        report = nights.report(day, at, facts_at)
    except NightRefused as err:
        st.info(md(f"{err}."))
        return
    name = f"night-{day.isoformat()}"
    page, pdf = nights.report_files(day, at, facts_at, _base())
    row = st.container(horizontal=True, gap="small")
    row.download_button("Page to publish (HTML)", page, file_name=f"{name}.html", mime="text/html")
    row.download_button("PDF", pdf, file_name=f"{name}.pdf", mime="application/pdf")
    st.caption("Print this page for the report on paper: only the report is printed.")
    st.markdown(
        PRINT_CSS.replace("\n", " ")
        + f"<style>{REPORT_CSS}</style>".replace("\n", " ")
        + report_fragment(report),
        unsafe_allow_html=True,
    )


latest = nights.latest_day()
if latest is None:
    st.title("Night")
    st.info("No sessions in the store yet: `brag run` imports the bundled season.")
    st.stop()

tv = params.param("display") == "tv"
day = _day(latest)
if tv:
    _board(day, True)
else:
    day, view = _controls(day)  # the board's own title heads the page
    if view == "Report":
        _report(day)
    elif view == "Desk":
        desk(day)
    else:
        _board(day, False)
