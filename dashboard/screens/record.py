"""Record (organiser): start a session, then record the legal next actions at the table."""

import streamlit as st

from dashboard import cache, recorder, ui, ui_record
from dashboard.view import Replay

st.title("Record")
st.markdown(ui_record.BIG_BUTTONS, unsafe_allow_html=True)

if not ui_record.organiser_unlocked():
    st.stop()

ui_record.show_flash()
st.text_input("Recorded by", key="recorded_by", placeholder="organiser")

NEW = "Start a new session"
open_ids = cache.session_ids(cache.PICKER_LIMIT, keep=ui.param("session"), unfinished=True)
session = ui.session_picker(
    [NEW, *open_ids], label="Session to record", key="record_session", default=NEW
)

if session == NEW:
    ui_record.start_form()
    st.stop()

rp = Replay.of(cache.events(session), recorded=True)
state = rp.final
ui.session_heading(rp)
left, right = st.columns([3, 2])
with left:
    ui.table_picture(rp.view(rp.last_position()))
with right:
    st.markdown("**Latest events**")
    ui.recent_events(rp)

if state.finished:
    st.success("The session is over (RULES 1.4): nothing more can be recorded.")

ui_record.action_buttons(rp, recorder.choices(state))
ui_record.undo_button(rp)
