"""A player flags a deal from the Replay page (issue 36 item 4): "Flag this deal", a reason and
the player's name (and the step, optional, as the replayer labels it: ``7``, ``7a``), kept as a
fact of the night the session belongs to (:func:`service.night_facts.flag`) for the director's
desk (:mod:`dashboard.night.desk`). Any device may flag: a flag is a claim beside the log, never
a write to it, and it needs no unlocked device; so each device's flags are slowed by a throttle
of the house's kind (:class:`dashboard.access.throttle.Throttle`, one of its own: the first
:data:`~dashboard.access.throttle.FREE` free, then each waits longer, slept in the flagging
session's own thread). A refusal is one line (:class:`service.night.NightRefused`); what the
player typed is shown back through :func:`dashboard.common.escape.md` only.

In ``dashboard/replay/`` (not ``dashboard/night/``): the Replay page calls it, and a folder
never imports one above it (tests/test_architecture.py: record > night > replay)."""

from __future__ import annotations

import secrets

import streamlit as st

from dashboard.access.throttle import Throttle
from dashboard.common import params, prefs, stores
from dashboard.common import state_keys as keys
from dashboard.common.escape import md
from events.errors import StoreUnavailable
from service import night_facts as nf
from service.night import NightRefused

__all__ = ["FLAGS", "flag_panel"]

FLAGS = Throttle()
"""The dashboard process's throttle on flags, shared by every session (per address, per session
and in all)."""
_SAID = "flag_said"
_CSS = "<style>.st-key-flag_box button { min-height: 44px; }</style>"
"""The panel's button a thumb's target on a phone."""
_CLIENT = "flag_client"


def _client_keys() -> list[str]:
    try:
        ip = st.context.ip_address
    except Exception:  # no browser behind the run
        ip = None
    if _CLIENT not in st.session_state:
        st.session_state[_CLIENT] = secrets.token_hex(4)
    return [
        f"ip:{ip if isinstance(ip, str) and ip else 'local'}",
        f"session:{st.session_state[_CLIENT]}",
    ]


def _flagged(session: str, deal: int) -> None:
    reason = str(st.session_state.get("flag_reason") or "")
    by = str(st.session_state.get("flag_by") or "")
    step = str(st.session_state.get("flag_step") or "").strip() or None
    who = _client_keys()
    wait = FLAGS.attempt(who).wait
    if wait > 0:
        FLAGS.sleep(wait)
    FLAGS.failed(who)  # every flag counted: the next ones from this device wait longer
    store = stores.writer()
    try:
        info = store.session_info(session)
        if info is None or info.started is None:
            raise NightRefused(f"session {session!r} has no start date: it is of no night")
        fact = nf.flag(store, info.started.date(), session, deal, step, reason, by=by)
    except (NightRefused, StoreUnavailable) as err:
        st.session_state[_SAID] = (False, f"Not flagged: {err}.")
        return
    st.session_state["flag_reason"] = ""
    st.session_state[_SAID] = (
        True,
        f"Flagged (flag {fact.position}): deal {deal} of session {session}. The director sees it "
        "on the night's desk.",
    )


def flag_panel(session: str, deal: int) -> None:
    """ "Flag this deal" under the replayer: deal ``deal`` of ``session``, for a reason."""
    said = st.session_state.pop(_SAID, None)
    with st.expander("Flag this deal", icon=":material/flag:", expanded=said is not None):
        if said:
            (st.success if said[0] else st.error)(md(said[1]))
        if "flag_by" not in st.session_state:
            st.session_state["flag_by"] = prefs.get_pref(keys.ME) or ""
        if "flag_step" not in st.session_state:
            st.session_state["flag_step"] = params.param("step") or ""
        st.markdown(_CSS, unsafe_allow_html=True)
        with st.container(key="flag_box"), st.form("flag_form", border=False):
            st.caption(md(f"Deal {deal} of session {session}: the director checks it."))
            st.text_input("What is wrong", key="flag_reason", max_chars=nf.MAX_REASON)
            a, b = st.columns(2)
            a.text_input("Flagged by", key="flag_by", max_chars=64, placeholder="the player")
            b.text_input("Step (optional)", key="flag_step", max_chars=8, placeholder="7 or 7a")
            st.form_submit_button("Flag this deal", on_click=_flagged, args=(session, deal))
