"""The Bragbook dashboard: ``streamlit run dashboard/app.py`` (or ``brag dashboard``).

The pages (``dashboard/screens``) describe their screens; the data comes through
:mod:`dashboard.common.cache`. Settings: ``BRAG_DB``, ``BRAG_ANALYTICS``, ``BRAG_ORGANISER_SECRET``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import streamlit as st

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # `streamlit run dashboard/app.py` from a checkout
    sys.path.insert(0, str(ROOT))

# Each page lives in its feature's folder (dashboard.common.pages). No folder here is named "pages":
# a folder of that name beside the entry script turns on Streamlit's older multipage mode, which
# runs the page files directly and never this script's st.navigation.
from dashboard.common.pages import page_file  # noqa: E402 - after the path is set

st.set_page_config(page_title="Bragbook", page_icon=":material/playing_cards:", layout="wide")

page = st.navigation(
    {
        "Sessions": [
            st.Page(
                page_file("sessions"),
                title="Sessions",
                icon=":material/list:",
                url_path="sessions",
                default=True,
            ),
            st.Page(
                page_file("session"),
                title="Session",
                icon=":material/emoji_events:",
                url_path="session",
            ),
            st.Page(
                page_file("replay"),
                title="Replay",
                icon=":material/play_circle:",
                url_path="replay",
            ),
            st.Page(
                page_file("players"), title="Players", icon=":material/group:", url_path="players"
            ),
            st.Page(
                page_file("decisions"),
                title="Decisions",
                icon=":material/alt_route:",
                url_path="decisions",
            ),
            st.Page(
                page_file("mine"), title="My sessions", icon=":material/person:", url_path="mine"
            ),
        ],
        "Organiser and analysts": [
            st.Page(
                page_file("record"), title="Record", icon=":material/edit_note:", url_path="record"
            ),
            st.Page(
                page_file("explore"),
                title="Explore",
                icon=":material/query_stats:",
                url_path="explore",
            ),
        ],
    }
)
if page.url_path == "record":  # the pad takes the whole screen: the sidebar opens on a tap only
    st.set_page_config(initial_sidebar_state="collapsed")

from dashboard.common import faults, prefs, sidebar  # noqa: E402 - after the path is set

sidebar.close_on_pick()  # on a phone, a page picked in the sidebar is not left covered by it
prefs.keep()  # this browser's preferences set by the last callbacks, into its cookies
faults.guarded(page.run)
