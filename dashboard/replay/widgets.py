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
from present.positions import link_number
from present.replay import Position, Replay, TableView
from present.steps import latest

__all__ = [
    "REPLAYER",
    "TABLE_CSS",
    "following",
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
        follow="1" if nav.get("follow") else None,
        seq=None,
    )
    st.session_state[keys.REPLAY_NONCE] = int(st.session_state.get(keys.REPLAY_NONCE, 0)) + 1


def _follow_changed() -> None:
    """The viewer turned "Following live" on (the link says ``follow=1``: the page draws the
    session's latest step at every rerun) or off (a step back: the link keeps the step the
    browser stands on). The browser keeps its step: no new request."""
    got = st.session_state[REPLAYER].get("follow") or {}
    if got.get("session") != param("session"):
        return
    if got.get("on"):
        set_params(follow="1", seq=None)
    else:
        set_params(follow=None, deal=got.get("deal"), step=got.get("step"), seq=None)


def following(rp: Replay) -> bool:
    """Whether the Replay page follows ``rp`` live: the link says ``follow=1`` (the Sessions
    page's link to a session in progress does) and the session is not over (RULES 1.4)."""
    return param("follow") == "1" and not rp.final.finished


def replay_position(rp: Replay) -> tuple[Position, str]:
    """Where the link points, and the line that says what it lacks (``""``: nothing): ``deal``
    and ``step`` (the step numbers every replay shows), or the older ``seq=N`` (the numbering
    ``brag replay`` printed before steps), which is rewritten. A deal, step or seq the session
    does not have opens its start, never its end (:meth:`present.replay.Replay.opened`)."""
    if param("seq") and not param("step"):
        pos = rp.at_seq(param("seq"))
        if pos is not None:
            set_params(deal=pos.deal, step=rp.label(pos).step, seq=None)
            return pos, ""
        if not param("deal"):
            n = link_number(param("seq"))
            what = f"event {n}" if n is not None else "such event"
            return rp.opened(None, None)[0], f"This session has no {what}. Showing the start."
    return rp.opened(param("deal"), param("step"))


def _link_line(rp: Replay, pos: Position, said: str) -> None:
    """The one line a link that named no real place gets, shown while the replayer stands
    where it opened (the link is corrected to that place)."""
    if said:
        set_params(deal=pos.deal, step=rp.label(pos).step, seq=None)
        st.session_state[keys.LINK_SAID] = (rp.session, pos.index, said)
    kept = st.session_state.get(keys.LINK_SAID)
    if kept and kept[0] == rp.session and kept[1] == pos.index:
        st.info(md(kept[2]), icon=":material/link_off:")
    elif kept:  # the replayer has moved on: the line is said once
        del st.session_state[keys.LINK_SAID]


def replay_stage(rp: Replay, seen: int = 0) -> Position:
    """The replayer: the deal's frames sent once, stepped in the browser (buttons, slider, arrow
    keys, Home/End, swipes, autoplay) with the link following the step and the view; the server
    is asked again only for another deal, viewer or log. ``seen``: the session's last seq the
    page was drawn from; when a live rerun brings a later one, the browser keeps its step and
    marks the new events, or, "Following live" (:func:`following`), shows the latest step, in
    the next deal once it is dealt. A deal still in play is drawn with only the cards shown,
    unless this device is the organiser's (:meth:`present.replay.Replay.sight`), and one line
    says so; following draws the same frames, so it never shows more than the step does. A
    link to a deal or step the session does not have says so in one line and opens the start.
    Returns where the replayer opens."""
    follow = following(rp)
    if follow:
        pos, said = rp.last_position(), ""
    else:
        pos, said = replay_position(rp)
    _link_line(rp, pos, said)
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
        "live": not rp.final.finished,
        "follow": follow,
    }
    replayer(data, on_nav=_nav_changed, on_follow=_follow_changed, key=REPLAYER)
    return pos


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
