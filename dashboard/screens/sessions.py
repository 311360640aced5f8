"""Sessions: every session with its date, table, players, deals, pots and winners; filters."""

import streamlit as st

from dashboard import cache, ui, view

st.title("Sessions")

infos = cache.sessions()
if not infos:
    st.info(
        "No sessions in the store yet: `brag run` imports the bundled season, "
        "and the Record page starts a new one."
    )
    st.stop()

players, tables, dates = ui.session_filters(*view.session_filters(infos))
shown = view.filter_sessions(infos, players=players, tables=tables, dates=dates)
st.caption(f"{len(shown)} of {len(infos)} sessions")
ui.session_table(view.session_rows(shown))
