"""The Record page's "Correct a step" panel: any recorded step of the session, removed or replaced
by another legal action at that point, with the impact shown before anything is stored
(issue 19, item 4; issue 32: one ``amended`` event; planned and stored by :mod:`service.amend`,
the plan :mod:`log.amend`'s, its words :mod:`present.amend`).

The organiser picks the deal and the step (each with its sentence, numbered as the Replay page
and ``brag replay`` number them, ``7`` or ``7a``), then "Remove this step" or one of the actions
the engine allows at that point (:func:`engine.legal.legal_actions` on the state before the
step). A showdown's cards at a real table and a deal's hands are not picked here (use ``brag
amend --as``). The panel shows the later steps the rules now refuse, each with the repair
proposed (a shuffle inserted where one is now due, else the step withdrawn), the deals whose
outcome changes, the nets and standings before and after; "Store the correction" is one append
of the plan shown (refused if another device recorded meanwhile), with its repairs only when the
organiser ticks "Store the repairs too".
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import streamlit as st

from dashboard.access import check as access
from dashboard.access import gate
from dashboard.common import cache, stores
from dashboard.common import state_keys as keys
from dashboard.common.escape import md
from dashboard.record import widgets as ui_record
from engine.legal import LegalAction, legal_actions
from events.model import AnyEvent, content
from log.amend import Amendment, AmendRefused
from present.amend import AmendView, describe, step_choices, target_step
from present.replay import Replay
from service.amend import CorrectStep, PlanCorrection, correct_step, plan_correction
from timeline import Step

__all__ = ["REMOVE", "amend_panel"]

REMOVE = "Remove this step"
"""The choice that withdraws the step and records nothing in its place."""
SKIPPED_NEEDS = frozenset({"cards", "hands"})
"""Inputs the panel does not ask for (a real table's showdown cards, a deal's hands)."""
DONE = keys.AMEND_DONE


def _replacements(step: Step) -> list[LegalAction]:
    """The legal actions at the step's place other than the one recorded there."""
    recorded = step.event
    return [
        a
        for a in legal_actions(step.before)
        if not (SKIPPED_NEEDS & set(a.needs))
        and not (type(a.event) is type(recorded) and content(a.event) == content(recorded))
    ]


def _as_corrected(session: str, recorded: Replay) -> Replay | None:
    """The session as corrected: with nothing withdrawn (no ``voided``) the stream as corrected
    is the stream as recorded, so its replay is ``recorded``'s, with no second fold; else the
    versioned cached replay (:func:`dashboard.common.cache.replay`)."""
    if recorded.corrections == 0:
        return replace(recorded, recorded=False)
    return cache.replay(session)


def amend_panel(session: str, recorded: Replay | None = None) -> None:
    """The panel for ``session`` (recording or finished): pick, preview, store. ``recorded``:
    the session replayed as recorded when the page has it already (the page's one fold),
    else the versioned cached replay."""
    done = st.session_state.get(DONE)
    if done and done[0] == session and done[1] == cache.last_seq(session):
        show = {"success": st.success, "warning": st.warning}.get(done[2], st.error)
        show(md(done[3]))
    if recorded is None:
        recorded = cache.replay(session, recorded=True)
    rp = _as_corrected(session, recorded) if recorded is not None else None
    if recorded is None or rp is None or not recorded.events:
        st.caption("Nothing is recorded in this session yet.")
        return
    key = f"amend-{session}"
    picked = _pick_step(rp, key)
    if picked is None:
        return
    deal, number = picked
    try:
        step = target_step(rp, deal, number)
    except AmendRefused as err:
        st.error(md(err.message))
        return
    replacement = _pick_replacement(step, f"{key}-as-{deal}-{number}")
    st.caption(
        "A showdown's cards at a real table and a deal's hands are not offered here: "
        "use `brag amend --as`."
    )
    source = rp.timeline if rp.timeline is not None else list(recorded.events)
    asked = PlanCorrection(source, step, replacement, ui_record.who(), ui_record.device_now())
    planned = plan_correction(stores.store(), asked)
    if planned.plan is None:
        st.error(md(planned.refused))
        return
    plan = planned.plan
    view = describe(plan, touched=list(planned.touched))
    _show(view)
    repair = bool(view.repairs) and st.checkbox(
        "Store the repairs too", key=f"{key}-repair-{deal}-{number}"
    )
    st.button(
        "Store the correction",
        type="primary",
        key=f"{key}-store",
        on_click=_store,
        args=(plan, view.summary, repair),  # the plan shown, made from the seq shown
        disabled=bool(view.repairs) and not repair,
    )


def _pick_step(rp: Replay, key: str) -> tuple[int, str] | None:
    """The deal and the step of it to correct, as picked; ``None`` until a step is picked."""
    deals = [s.deal for s in rp.slices]
    deal = st.selectbox(
        "Deal", deals, index=len(deals) - 1, format_func=rp.deal_label, key=f"{key}-deal"
    )
    steps = dict(step_choices(rp, deal))
    if not steps:
        st.caption("No step of this deal can be corrected (the session's start, conclusions).")
        return None
    step = st.selectbox(
        "Step",
        list(steps),
        index=None,
        format_func=steps.__getitem__,
        placeholder="Pick the step to correct",
        key=f"{key}-step-{deal}",
    )
    return None if step is None else (deal, step)


def _pick_replacement(step: Step, key: str) -> AnyEvent | None:
    """What to record in place of ``step``: ``None`` to remove it."""
    actions = _replacements(step)
    labels = [REMOVE, *(a.label or a.event.type for a in actions)]
    # a radio's labels are Markdown: the names in them are shown as written (md)
    choice = st.radio("Instead", labels, format_func=md, key=key)
    if choice == REMOVE:
        return None
    return actions[labels.index(choice) - 1].event


def _show(v: AmendView) -> None:
    # our labels in bold, the log's text (names) escaped: shown as written, never Markdown
    if v.replacement is not None and v.action == "insert":
        st.markdown("**Inserted before it:** " + md(f"{v.replacement.where}: {v.replacement.text}"))
    elif v.replacement is not None:
        st.markdown("**In its place:** " + md(f"{v.replacement.where}: {v.replacement.text}"))
    else:
        st.markdown("**Withdrawn:** " + md(f"{v.target.where} ({v.target.text})"))
    st.caption("Every later step keeps its number; the rules decide each again.")
    if v.repairs:
        st.warning(
            md(
                "No longer fit; the repair proposed for each: "
                + "; ".join(
                    f"{n}. {ln.where} ({ln.text}): {ln.why} -> {ln.repair}"
                    for n, ln in enumerate(v.repairs, start=1)
                )
            )
        )
    if v.touched:
        st.info(
            md(
                "Notes and remembered cards on the steps withdrawn (they stay on their action, "
                "shown withdrawn): " + "; ".join(f"{t.where}: {t.text}" for t in v.touched)
            )
        )
    if v.deals:
        st.markdown("**Deals whose outcome changes**")
        st.dataframe(list(v.deals), hide_index=True)
    else:
        st.caption("No deal's outcome changes.")
    st.markdown("**Nets** (RULES 1.5)")
    st.dataframe(list(v.nets), hide_index=True)
    before, after = st.columns(2)
    with before:
        st.markdown("**Standings before** " + md(f"(winners {v.winners_before})"))
        st.dataframe(_rows(v.standings_before), hide_index=True)
    with after:
        st.markdown("**Standings after** " + md(f"(winners {v.winners_after})"))
        st.dataframe(_rows(v.standings_after), hide_index=True)


def _rows(rows: tuple[dict[str, Any], ...]) -> list[dict[str, Any]]:
    return [dict(r) for r in rows]


def _store(plan: Amendment, summary: str, repair: bool = False) -> None:
    """The button's one append (a widget callback, before the page is drawn again, and before
    the page's gate: the device's token is checked inside the append's transaction,
    :func:`dashboard.access.check.guarded`; a device locked since stores nothing). ``repair``: the
    plan's repairs are stored with the correction (the organiser chose them)."""
    session = plan.session
    store = access.guarded(stores.writer(), gate.device_token())
    done = correct_step(store, CorrectStep(plan, repair), locked=(access.DeviceLocked,))
    if done.outcome == "locked":
        gate.locked_out(done.message)
        return
    kind = {"stored": "success", "conflict": "warning"}.get(done.outcome, "error")
    if done.outcome == "stored":
        for k in [k for k in st.session_state if str(k).startswith(f"amend-{session}-step")]:
            del st.session_state[k]
    text = summary if done.outcome == "stored" else done.message
    st.session_state[DONE] = (session, cache.last_seq(session), kind, text)
