"""The Bragbook dashboard: ``streamlit run dashboard/app.py`` (or ``brag dashboard``).

The pages (``dashboard/screens``) describe their screens; the data comes through
:mod:`dashboard.common.cache`. Settings: ``BRAG_DB``, ``BRAG_ANALYTICS``, ``BRAG_ORGANISER_SECRET``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import streamlit as st

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # `streamlit run dashboard/app.py` from a checkout
    sys.path.insert(0, str(ROOT))

# Each page lives in its feature's folder (dashboard.common.pages). No folder here is named "pages":
# a folder of that name beside the entry script turns on Streamlit's older multipage mode, which
# runs the page files directly and never this script's st.navigation.
from dashboard.common.pages import PAGES, page_file  # noqa: E402 - after the path is set

# an emoji icon is drawn in the page (a data: URL); a :material/...: one is fetched from
# fonts.gstatic.com, which a club's offline network cannot reach (a walk)
st.set_page_config(page_title="Bragbook", page_icon="🃏", layout="wide")

menu: dict[str, list[Any]] = {}
for n, (name, entry) in enumerate(PAGES.items()):
    menu.setdefault(entry.group, []).append(
        st.Page(
            page_file(name),
            title=entry.title,
            icon=f":material/{entry.icon}:",
            url_path=name,
            default=n == 0,
        )
    )
page = st.navigation(menu)
if page.url_path == "record":  # the pad takes the whole screen: the sidebar opens on a tap only
    st.set_page_config(initial_sidebar_state="collapsed")

from dashboard.common import faults, prefs, sidebar  # noqa: E402 - after the path is set

sidebar.close_on_pick()  # on a phone, a page picked in the sidebar is not left covered by it
prefs.keep()  # this browser's preferences set by the last callbacks, into its cookies
faults.guarded(page.run)
