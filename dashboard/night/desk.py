"""The director's desk on the Night page (issue 36 items 1, 4 and 5; ``night?date=D&view=desk``),
for the organiser's unlocked device only (:func:`dashboard.access.gate.organiser_device`; anyone
else is told so in one line and sees nothing of it):

- check-in: the club's known players (every name recorded in a session, through the register,
  and anyone checked in before) as pills of at least 44 px in a grid that fits a phone; a tap
  checks a player in, a second tap checks them out; a name box adds a new player; "N present".
  The pills are one fragment: a tap reruns it alone, never the page;
- seating (:mod:`dashboard.night.desk_seating`): "Make tables" seats the players present
  (:func:`service.seating.seat`), the tables shown, a player moved with two selects;
- the night's stake: money per stake unit and the house limit (:func:`service.night_facts
  .set_stake`); the board's settlement is then in money;
- flags: the open flags (session, deal, step and its replay link, reason, by), each dismissed or
  marked corrected with a reason (refused while the deal has no correction since the flag);
- Finalise / Reopen.

Every write goes through :func:`dashboard.access.check.guarded` (the device's token checked
inside the store's write transaction: a device locked meanwhile writes nothing) and
:mod:`service.night_facts`; a refusal is one line (:class:`service.night.NightRefused`). The
flags, the state and the corrections are a fragment run every :data:`EVERY` seconds on the
night-facts position read then (:func:`dashboard.night.nights.facts_position`): a new flag shows
within ``EVERY`` seconds. Text from users and logs goes through
:func:`dashboard.common.escape.md` (Markdown) or :func:`html.escape` (HTML)."""

from __future__ import annotations

import html
from collections.abc import Callable
from datetime import date
from typing import Any

import streamlit as st

from dashboard.access import check as access
from dashboard.access import gate
from dashboard.common import state_keys as keys
from dashboard.common import stores
from dashboard.common.escape import md
from dashboard.common.links import link
from dashboard.night import nights
from dashboard.night.board import money_text, parse_money
from dashboard.night.desk_seating import seating_section
from events.errors import StoreUnavailable
from events.text import inert, normal
from log.night_facts import Flag, NightFacts
from log.register import register_of
from service import night_facts as nf
from service.night import NightRefused

__all__ = ["DESK_CSS", "EVERY", "desk", "known_players"]

EVERY = 1.0
"""Seconds between two looks at the night's facts (flags, state)."""
BY = "organiser"
"""Who the desk's facts are written by (the organiser's device)."""
PILLS = "desk_present"
CHECKIN = "desk_checkin"
SAID = "desk_said"

DESK_CSS = """<style>
.st-key-desk_present, .st-key-desk_present [data-testid="stButtonGroup"] { width: 100% !important; }
.st-key-desk_checkin [data-testid="stButtonGroup"] > div { display: grid !important;
  grid-template-columns: repeat(auto-fill, minmax(6.75rem, 1fr)); gap: .4rem;
  width: 100% !important; max-width: none !important; }
.st-key-desk_checkin [data-testid="stButtonGroup"] button { min-height: 48px; width: 100%;
  margin: 0; justify-content: center; font-size: 1rem; }
.st-key-desk_checkin [data-testid="stButtonGroup"] button p { white-space: normal;
  overflow-wrap: anywhere; line-height: 1.15; }
.st-key-desk_checkin [data-testid="stButtonGroup"] button[aria-pressed="true"],
.st-key-desk_checkin [data-testid="stButtonGroup"] button[aria-pressed="true"]:hover,
.st-key-desk_checkin [data-testid="stButtonGroup"] button[aria-pressed="true"]:focus {
  background: #1d7a2e !important; border-color: #14591f !important; color: #fff !important;
  font-weight: 700; }
.st-key-desk_checkin [data-testid="stButtonGroup"] button[aria-pressed="true"] p::before {
  content: "✓ "; }
.st-key-desk_flags .stButton button, .st-key-desk_final .stButton button,
.st-key-desk_seating .stButton button, .st-key-desk_checkin .stFormSubmitButton button,
.st-key-desk_stake_box .stFormSubmitButton button { min-height: 44px; }
.desk-flag { overflow-wrap: anywhere; }
</style>"""
"""The check-in's pills as a grid of thumb targets (48 px high, three a row on a 390 px phone),
every other button of the desk 44 px high."""


def known_players(
    recorded: list[str], resolve: Callable[[str], str], facts: NightFacts
) -> list[str]:
    """The club's known players: each name ``recorded`` in a session as it goes by now
    (``resolve``, the register's), and everyone checked in at this night (a new player), once
    each (:func:`events.text.normal`), sorted case-insensitively."""
    out: dict[str, str] = {}
    for name in [*(resolve(p) for p in recorded), *facts.present]:
        out.setdefault(normal(name), name)
    return sorted(out.values(), key=lambda n: (n.casefold(), n))


def _say(where: str, ok: bool, text: str) -> None:
    st.session_state[f"{SAID}_{where}"] = (ok, text)


def _write(act: Callable[[Any], object], done: str, where: str) -> bool:
    """``act(store)`` with the device's token checked inside the write; ``done`` said once, or
    the refusal in one line (nothing stored). True when written."""
    store = access.guarded(stores.writer(), gate.device_token())
    try:
        act(store)
    except access.DeviceLocked as err:  # said here, and the page's next run shows no desk
        gate.locked_out(err.message)
        _say(where, False, err.message)
        return False
    except (NightRefused, ValueError) as err:
        _say(where, False, f"Not done: {err}.")
        return False
    if done:
        _say(where, True, done)
    return True


def _said(where: str) -> None:
    got = st.session_state.pop(f"{SAID}_{where}", None)
    if got:
        (st.success if got[0] else st.error)(md(got[1]))


# --- check-in -------------------------------------------------------------------------------------


def _toggled(day: date, before: tuple[str, ...]) -> None:
    """The pills' callback: each name added to the selection checked in, each taken away checked
    out (a repeat stores nothing: :func:`service.night_facts.check_in`)."""
    now = {normal(n): n for n in st.session_state.get(PILLS) or []}
    was = {normal(n): n for n in before}
    moves = [(now[k], True) for k in now if k not in was]
    moves += [(was[k], False) for k in was if k not in now]
    for name, here in moves:

        def act(store: Any, name: str = name, here: bool = here) -> None:
            nf.check_in(store, day, name, present=here, by=BY)

        if not _write(act, "", "in"):
            return
    if moves:
        name, here = moves[-1]
        _say("in", True, f"{name} {'checked in' if here else 'checked out'}: recorded.")


def _added(day: date) -> None:
    name = str(st.session_state.get("desk_new") or "").strip()
    if not name:
        _say("in", False, "Not done: type the new player's name first.")
        return
    done = f"{name} checked in: recorded."
    if _write(lambda s: nf.check_in(s, day, name, by=BY), done, "in"):
        st.session_state["desk_new"] = ""


@st.cache_data(show_spinner=False, max_entries=4, ttl=60)
def _recorded(url: str, at: int) -> list[str]:
    return list(stores.store().session_facets()[0])


@st.fragment
def checkin(day: date) -> None:
    """The check-in pills (a tap reruns this fragment only) and the new player's box."""
    store = stores.store()
    facts = nights.facts(day)
    names = known_players(
        _recorded(str(store.recorder.store_id), nights.position()),
        register_of(store).resolve,
        facts,
    )
    here = {normal(p) for p in facts.present}
    present = tuple(n for n in names if normal(n) in here)
    st.session_state[PILLS] = list(present)
    with st.container(key=CHECKIN):
        st.markdown(f"#### Check-in · **{len(present)} present**")
        _said("in")
        st.pills(
            "Tap a player to check them in; tap again to check them out.",
            names,
            selection_mode="multi",
            key=PILLS,
            format_func=md,
            on_change=_toggled,
            args=(day, present),
            disabled=facts.state == "final",
        )
        with st.form("desk_new_form", clear_on_submit=False, border=False):
            left, right = st.columns([3, 2], vertical_alignment="bottom")
            left.text_input("New player", key="desk_new", max_chars=64, placeholder="Name")
            right.form_submit_button(
                "Add and check in", on_click=_added, args=(day,), width="stretch"
            )


# --- the stake ------------------------------------------------------------------------------------


def _staked(day: date) -> None:
    money = str(st.session_state.get("desk_stake") or "")
    cap = str(st.session_state.get("desk_limit") or "").strip()

    def act(store: Any) -> None:
        value = parse_money(money, "the stake")
        limit = parse_money(cap, "the house limit") if cap else None
        nf.set_stake(store, day, value, limit, by=BY)

    done = f"The stake is {money.strip()} a stake unit: the settlement is in money."
    _write(act, done, "stake")


def stake(day: date, facts: NightFacts) -> None:
    """The night's stake (money per stake unit) and the house limit, set with one button."""
    now = facts.stake
    with st.container(key="desk_stake_box"):
        st.markdown("#### Stake")
        _said("stake")
        if now is None:
            st.caption("No stake set: the settlement is in stake units.")
        else:
            cap = "" if now.limit is None else f", house limit {money_text(now.limit)}"
            st.caption(f"{money_text(now.money)} a stake unit{cap}.")
        with st.form("desk_stake_form", border=False):
            a, b = st.columns(2)
            a.text_input("Money per stake unit", key="desk_stake", placeholder="0.50")
            b.text_input("House limit (optional)", key="desk_limit", placeholder="5")
            st.form_submit_button("Set the stake", on_click=_staked, args=(day,))


# --- flags, finalise ------------------------------------------------------------------------------


def _resolved(day: date, position: int, corrected: bool) -> None:
    reason = str(st.session_state.get(f"desk_reason_{position}") or "")
    how = "corrected" if corrected else "dismissed"

    def act(store: Any) -> None:
        do = nf.mark_corrected if corrected else nf.dismiss
        do(store, day, position, reason, by=BY)

    _write(act, f"Flag {position} {how}: recorded.", "flags")


def _flag_line(f: Flag) -> str:
    step = "" if f.step is None else f" step {f.step}"
    href = link(f.session, f.deal, f.step)  # type: ignore[arg-type]  # a label: "7a" too
    return (
        f"<div class='desk-flag' data-flag='{f.position}'><b>Flag {f.position}</b> · session "
        f"{html.escape(inert(f.session))} · deal {f.deal}{html.escape(inert(step))} · "
        f"<a href='{html.escape(href, quote=True)}' target='_self'>replay ▶</a><br>"
        f"“{html.escape(inert(f.reason))}” — by {html.escape(inert(f.by))}</div>"
    )


def _finalised(day: date, final: bool) -> None:
    if final:
        _write(lambda s: nf.finalise(s, day, by=BY), "The night is final.", "flags")
    else:
        again = "The night is provisional again."
        _write(lambda s: nf.reopen(s, day, by=BY, reason="reopened at the desk"), again, "flags")


@st.fragment(run_every=EVERY)
def flags(day: date) -> None:
    """The night's state, its corrections after final, the open flags with Dismiss and
    Corrected, and Finalise / Reopen; redrawn every :data:`EVERY` seconds."""
    try:
        # the facts read now (one device: its own write shows at once), the events polled
        night = nights.night(day, nights.polled_position(), nights.facts_position(day))
    except StoreUnavailable as err:
        st.error(md(f"The store does not answer: {err}"))
        return
    except NightRefused as err:
        st.info(md(f"{err}."))
        return
    facts = night.facts
    final = facts.state == "final"
    with st.container(key="desk_flags"):
        badge = ":green-badge[Final]" if final else ":orange-badge[Provisional]"
        st.markdown(f"#### The night {badge}")
        _said("flags")
        for c in night.corrections:
            st.caption(md(c.text()))
        opened = facts.open_flags
        st.markdown(f"**{len(opened)} open flag{'s' * (len(opened) != 1)}**")
        for f in opened:
            with st.container(border=True, key=f"desk_flag_{f.position}"):
                st.markdown(_flag_line(f), unsafe_allow_html=True)
                st.text_input(
                    "Reason", key=f"desk_reason_{f.position}", max_chars=nf.MAX_REASON,
                    placeholder="why: checked the cards, a correction stored",
                )  # fmt: skip
                row = st.container(horizontal=True, gap="small")
                row.button("Dismiss", key=f"desk_dismiss_{f.position}", on_click=_resolved,
                           args=(day, f.position, False))  # fmt: skip
                row.button("Corrected", key=f"desk_fixed_{f.position}", on_click=_resolved,
                           args=(day, f.position, True))  # fmt: skip
    with st.container(key="desk_final"):
        if final:
            st.button("Reopen the night", on_click=_finalised, args=(day, False))
        else:
            st.button("Finalise the night", type="primary", on_click=_finalised, args=(day, True))


def desk(day: date) -> None:
    """The desk of the night of ``day`` (see the module docstring); one line for a device that
    is not the organiser's unlocked one."""
    if not gate.organiser_device():
        refused = st.session_state.get(keys.LOCKED_OUT)  # a write refused: the device is locked
        if refused:
            st.error(md(refused), icon=":material/lock:")
        st.info(
            "The desk is the organiser's: unlock this device on the [Record page](record), "
            "then open the desk again.",
            icon=":material/lock:",
        )
        return
    st.markdown(DESK_CSS.replace("\n", " "), unsafe_allow_html=True)
    checkin(day)
    facts = nights.facts(day)
    seating_section(day, facts, _write, _said, BY)
    stake(day, facts)
    flags(day)
