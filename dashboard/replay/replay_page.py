"""Replay: a deal stepped in the browser, as one viewer knew it; every step has its link."""

import streamlit as st

from dashboard.common import cache, escape, live, params, ui
from dashboard.common.pages import PAGE_FILES
from dashboard.replay import widgets
from dashboard.replay.flag_panel import flag_panel
from dashboard.replay.notes_panel import notes_panel

st.title("Replay")

ids = cache.session_ids(limit=cache.PICKER_LIMIT, keep=params.param("session"))
if not ids:
    st.info("No sessions in the store yet: `brag run` imports the bundled season.")
    st.stop()

session = ui.session_picker(ids)
seen = cache.last_seq(session)  # before the events drawn: a later one is news
rp = cache.replay(session, recorded=params.param("log") == "recorded")
if rp is None or not rp.states:
    st.warning(f"Session {escape.md(session)} has no events.")
    st.stop()

pos = widgets.replay_stage(rp, seen)
notes_panel(session, pos.deal)  # each step's notes, once it is shown
flag_panel(session, pos.deal)  # a player flags this deal for the night's director (issue 36.4)
if pos.deal == rp.final.deals or rp.final.finished:  # the session's end: its review, one tap
    st.page_link(
        PAGE_FILES["review"],
        label="Review this session's decisions",
        icon=":material/grading:",
        query_params={"session": session},
    )
# A session recorded on another device meanwhile: the page reruns with the new events, the
# browser keeps its step and marks them, or, following live, shows the latest step. A finished
# session is not polled.
if not rp.final.finished:
    live.follow(session, seen)
