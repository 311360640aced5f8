"""Record (organiser): start a session, then record it at the table with the pad, on a phone or a
tablet; other devices on the same session follow it live."""

from urllib.parse import quote

import streamlit as st

from dashboard.access import check as access
from dashboard.access import gate
from dashboard.common import cache, live, params, ui
from dashboard.common import state_keys as keys
from dashboard.common.escape import md
from dashboard.record import amend as ui_amend
from dashboard.record import start as ui_start
from dashboard.record import widgets as ui_record
from dashboard.replay import widgets
from events.text import normal
from present.replay import Replay

st.title("Record")
st.markdown(ui_record.PAGE_CSS, unsafe_allow_html=True)

if not gate.organiser_unlocked():
    st.stop()

NEW = "Start a new session"
open_ids = cache.session_ids(cache.PICKER_LIMIT, keep=params.param("session"), unfinished=True)
if only := gate.device_table():  # a table's device (issue 36) is offered its table's sessions
    at_table = {i.session for i in cache.sessions() if normal(i.table or "") == normal(only)}
    linked = params.param("session")  # a link to another table's: told so below, not hidden
    open_ids = [s for s in open_ids if s in at_table or s == linked]
    mine = [s for s in open_ids if s in at_table]
    if not linked and len(mine) == 1 and st.session_state.get(keys.RECORDING) not in mine:
        st.session_state[keys.RECORDING] = mine[0]  # its one session in progress, opened
with st.expander(
    "This device: session, who records, lock, join", key=ui_record.PANEL, on_change="rerun"
):
    session = ui_record.device_settings(open_ids, NEW)
    gate.join_and_lock()

if session == NEW:
    infos = cache.sessions()
    ui_start.start_form(
        sorted({p for i in infos for p in i.players}), sorted({i.table for i in infos if i.table})
    )
    st.stop()

# The one fold of this drawing: the versioned replay as recorded (the Replay page's cache), shared
# by the pad, the table, the latest events and the correction panel.
rp = cache.replay(session, recorded=True)
if rp is None:  # removed since the list was read: nothing recorded in it to show
    rp = Replay.of([], recorded=True)
seen = len(rp.events)  # seq N is the N-th event: the seq this drawing shows
if only := gate.device_table():  # a table's device (issue 36): its own table's sessions only
    try:
        access.check_table(only, rp.final.table)
    except access.OtherTable:
        where = access.table_words(rp.final.table) if rp.final.table else "no table"
        st.error(
            f"This device records {md(access.table_words(only))} only: {md(session)} is at "
            f"{md(where)}. Choose a session of your table under *This device*.",
            icon=":material/table_restaurant:",
        )
        st.stop()
pad_side, table_side = st.columns([5, 4])
with pad_side:
    ui_record.show_pad(rp)
with table_side:
    widgets.table_picture(rp.view(rp.last_position(), organiser=True))  # behind the gate
    ui.session_heading(rp)
    widgets.recent_events(rp, count=10)
# The same pad on a page of its own, which opens without the network where the address is a
# secure one (issue 35, item 3); under the table, so that on a phone the pad and the table's top
# stay on the first screen
st.markdown(
    f'<a href="/pad?session={quote(session, safe="")}" target="_self" '
    'data-testid="pad-app-link">Open the pad as an app</a> (it reopens without the network)',
    unsafe_allow_html=True,
)
with st.expander("Correct a step"):
    ui_amend.amend_panel(session, recorded=rp)

if not rp.final.finished:  # a finished session takes no more play (RULES 1.4): not polled
    live.follow(session, seen)
