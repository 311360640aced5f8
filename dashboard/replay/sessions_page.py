"""Sessions: every session with its date, table, players, deals and pots, each opening its replay
by one tap; who won only once "Show results" is on (off by default, remembered per browser);
filters; a page at a time (read from the store's session catalogue)."""

import streamlit as st

from dashboard.common import cache, links, ui

st.title("Sessions")

choices = cache.session_facets()
if not choices[0]:
    st.info(
        "No sessions in the store yet: `brag run` imports the bundled season, "
        "and the Record page starts a new one."
    )
    st.stop()

results = ui.show_results()
players, tables, dates = ui.session_filters(*choices)
kept = cache.session_count(players, tables, dates)
page = ui.page_choice(kept, cache.SESSIONS_PAGE)
shown = cache.session_page(players, tables, dates, page)
st.caption(ui.page_caption(kept, cache.session_count(), page, len(shown), cache.SESSIONS_PAGE))
ui.link_rows(links.session_links(shown, results=results), "Sessions: a tap opens the replay")
