"""Replay: a session step by step, the table as one viewer knows it, every step with its link."""

import streamlit as st

from dashboard import cache, ui

st.title("Replay")

ids = cache.session_ids(limit=cache.PICKER_LIMIT, keep=ui.param("session"))
if not ids:
    st.info("No sessions in the store yet: `brag run` imports the bundled season.")
    st.stop()

top = st.columns([2, 1, 1])
with top[0]:
    session = ui.session_picker(ids)
recorded = ui.param("log") == "recorded"
rp = cache.replay(session, recorded=recorded)
if rp is None or not rp.states:
    st.warning(f"Session {ui.md(session)} has no events.")
    st.stop()
with top[1]:
    ui.viewer_picker(rp.seats)
with top[2]:
    ui.recorded_toggle(rp.corrections)

ui.autoplay_controls()

ui.replay_stage(rp)
