"""Session: the deals, each opening its replay by one tap; the standings, each player's net over
the deals and who won each deal once "Show results" is on (off by default, remembered per
browser)."""

import streamlit as st

from dashboard.common import cache, escape, links, live, params, ui
from dashboard.common.pages import PAGE_FILES
from dashboard.stats import widgets

st.title("Session")

ids = cache.session_ids(limit=cache.PICKER_LIMIT, keep=params.param("session"))
if not ids:
    st.info("No sessions in the store yet: `brag run` imports the bundled season.")
    st.stop()

session = ui.session_picker(ids)
seen = cache.last_seq(session)
rp = cache.replay(session)
if rp is None or not rp.states:
    st.warning(f"Session {escape.md(session)} has no events.")
    st.stop()

ui.session_heading(rp)
results = ui.show_results()

if results:
    left, right = st.columns([2, 3])
    with left:
        st.subheader("Leaderboard")
        ui.leaderboard(rp.leaderboard())
    with right:
        st.subheader("Net over the deals")
        widgets.net_chart(rp.net_history())
else:
    st.caption("The standings, the nets and who won each deal are hidden: Show results shows them.")

st.subheader("Deals")
ui.link_rows(
    links.deal_links(rp.session, rp.deal_rows(), results=results), "Deals: a tap opens the replay"
)
# the session's end: its review (graded decisions, luck apart, the moments), one tap
st.page_link(
    PAGE_FILES["review"],
    label="Review this session's decisions",
    icon=":material/grading:",
    query_params={"session": rp.session},
)

if not rp.final.finished:  # a session in progress: show what another device records
    live.follow(session, seen)
