"""Streamlit pieces of the Replay and Record pages' replay: the picture of the table, the replayer
stage (a deal's frames sent once, stepped in the browser, the link following), the latest events
of a session, and where the link points."""

from __future__ import annotations

import streamlit as st

from dashboard.access import gate
from dashboard.common import cache
from dashboard.common import state_keys as keys
from dashboard.common.escape import md
from dashboard.common.params import param, set_params
from dashboard.replay.frames import ReplayerData
from dashboard.replay.replayer import replayer
from present import table_svg
from present.narrate import StepLabel
from present.replay import Position, Replay, TableView
from present.steps import latest

__all__ = [
    "REPLAYER",
    "TABLE_CSS",
    "recent_events",
    "replay_position",
    "replay_stage",
    "table_picture",
]


TABLE_CSS = """<style>
.brag-pictures { container-type: inline-size; }
.brag-pictures .brag-compact { display: none; }
@container (max-width: 639px) {
  .brag-pictures .brag-table:not(.brag-compact) { display: none; }
  .brag-pictures .brag-compact { display: block; }
}
</style>"""
"""A picture narrower than 640 px gets the compact grid of seats, as the replayer does
(:func:`present.table_svg.render`), so that its text stays readable (at least 11 px): a phone,
and the Record page's column beside the pad on a tablet (some 340 px, where the oval's text was
6 to 8 px). The width is the picture's own, not the screen's."""


def table_picture(view: TableView) -> None:
    """The picture of the table: round the oval on a wide screen, the seats in a grid on a
    phone."""
    st.markdown(
        TABLE_CSS
        + '<div class="brag-pictures">'
        + table_svg.render(view)
        + table_svg.render(view, compact=True)
        + "</div>",
        unsafe_allow_html=True,
    )


REPLAYER = keys.REPLAYER


def _nav_changed() -> None:
    """The browser asks for other frames (another deal, viewer or log): the link follows, and the
    page reruns with them. A request left over from another session is ignored."""
    nav = st.session_state[REPLAYER]["nav"] or {}
    if nav.get("session") != param("session"):
        return
    set_params(
        deal=nav.get("deal"),
        step=nav.get("step"),
        view=nav.get("view") or None,
        log=nav.get("log") or None,
        seq=None,
    )
    st.session_state[keys.REPLAY_NONCE] = int(st.session_state.get(keys.REPLAY_NONCE, 0)) + 1


def replay_position(rp: Replay) -> Position:
    """Where the link points: ``deal`` and ``step`` (the step numbers every replay shows), or the
    older ``seq=N`` (the numbering ``brag replay`` printed before steps), which is rewritten."""
    if param("seq") and not param("step"):
        pos = rp.at_seq(param("seq"))
        if pos is not None:
            set_params(deal=pos.deal, step=rp.label(pos).step, seq=None)
            return pos
    return rp.position(param("deal"), param("step"))


def replay_stage(rp: Replay, seen: int = 0) -> None:
    """The replayer: the deal's frames sent once, stepped in the browser (buttons, slider, arrow
    keys, Home/End, swipes, autoplay) with the link following the step and the view; the server
    is asked again only for another deal, viewer or log. ``seen``: the session's last seq the
    page was drawn from; when a live rerun brings a later one, the browser keeps its step and
    marks the new events. A deal still in play is drawn with only the cards shown, unless this
    device is the organiser's (:meth:`present.replay.Replay.sight`), and one line says so."""
    pos = replay_position(rp)
    viewer = param("view")
    if viewer not in rp.seats:
        viewer = None
    from dashboard.stats.mine import is_me, noted_for  # this browser's player, their own cards

    noted = noted_for(rp, pos.deal, viewer)
    own = is_me(viewer)
    got = cache.frames(
        rp, pos.deal, viewer, organiser=gate.organiser_device(), noted=noted, own=own
    )
    if got["note"]:
        st.caption(md(got["note"]), help="RULES 3.5: cards are shown only at a showdown.")
    last = rp.last_position()
    data: ReplayerData = {
        **got,
        "start": pos.step - 1,
        "nonce": int(st.session_state.get(keys.REPLAY_NONCE, 0)),
        "seq": seen,
        "latest": {"deal": last.deal, "step": rp.label(last).step},
    }
    replayer(data, on_nav=_nav_changed, key=REPLAYER)


def recent_events(rp: Replay, count: int = 8) -> None:
    """The latest events of a session as recorded, newest first, numbered by deal and step as
    every replay numbers them, each step in force told as it stands now; what a correction
    withdrew (derived events included) struck through (:func:`present.steps.latest`)."""
    rows: list[tuple[StepLabel, str, str | None]]
    if rp.timeline is None:
        rows = [(lab, lab.text, None) for lab in reversed(rp.labels[-count:])]
    else:
        rows = latest(rp.timeline, rp.labels, count)
    lines = []
    for lab, text, now in rows:
        if lab.withdrawn:  # struck through, and what stands now at that step where it is new
            after = f" → now: {md(now)}" if now else ""
            lines.append(f"~~deal {lab.deal}, step {lab.label} · {md(text)}~~{after}")
        else:
            lines.append(f"**deal {lab.deal}, step {lab.label}** · {md(text)}")
    st.markdown("\n".join(f"- {line}" for line in lines))
