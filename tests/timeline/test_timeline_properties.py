"""Properties of :class:`timeline.Timeline` (issue 32, items 1 to 3) over random sessions of both
card modes (``session_strategies.sessions``) and random corrections (docs/format.md ``amended``):

- the steps in force after a correction are the engine's fold of the corrected log written out
  plainly from the start (:func:`engine.fold.record` of each recorded event in force);
- the labels of the steps the correction did not touch never change;
- :meth:`Timeline.extend` one event at a time is :meth:`Timeline.of` the whole stream.
"""

from __future__ import annotations

import uuid
from dataclasses import fields
from typing import Any

import pytest
from hypothesis import event, given
from hypothesis import strategies as st
from session_strategies import SETTINGS, Session, sessions, showdown_cards
from timeline_helpers import stamped

from engine.fold import record
from engine.legal import legal_actions
from engine.state import State, initial_state
from events.errors import BragError
from events.model import Amended, AnyEvent, Shown, Shuffled, content, is_derived
from timeline import Timeline, Unfit

IGNORED = {"seq", "recorded_seq", "undo", "last_event"}
"""The envelope's bookkeeping in a state: where the event sits in the log, not the table."""


def table_of(state: State) -> dict[str, Any]:
    return {f.name: getattr(state, f.name) for f in fields(State) if f.name not in IGNORED}


def plain_fold(recorded: list[AnyEvent]) -> tuple[list[AnyEvent], list[State]]:
    """The corrected log written out plainly: each recorded event and the engine's conclusions."""
    state = initial_state()
    events: list[AnyEvent] = []
    states: list[State] = []
    for e in recorded:
        before = state
        state, stored = record(state, e)
        s = before
        from engine.apply import apply

        for x in stored:
            s = apply(s, x)
            events.append(x)
            states.append(s)
    return events, states


@st.composite
def corrections(draw: st.DrawFn) -> tuple[Session, list[AnyEvent], Amended]:
    session = draw(sessions())
    events = stamped(session.events)
    t = Timeline.of(events)
    targets = [k for k, s in enumerate(t.steps) if not s.derived and k > 0]
    if draw(st.booleans()):  # near the end, where fewer later steps may stop fitting
        targets = targets[-4:]
    k = draw(st.sampled_from(targets)) if targets else 0
    target = t.steps[k]
    action = draw(st.sampled_from(["withdraw", "replace", "insert"]))
    new: AnyEvent | None = None
    if action != "withdraw":
        options = [
            a.event
            for a in legal_actions(target.before)
            if not a.needs or set(a.needs) <= {"cards"}
        ]
        options = [
            e for e in options if not (action == "replace" and content(e) == content(target.event))
        ]
        if not options:
            action = "withdraw"
        else:
            new = draw(st.sampled_from(options))
            if isinstance(new, Shown):
                cards = draw(showdown_cards(target.before, new.player, len(new.cards)))
                new = Shown(player=new.player, cards=cards)
    if new is not None:
        new = new.model_copy(update={"id": uuid.uuid4()})
    fix = Amended(
        action=action,
        target=target.event.id,
        target_seq=target.row,
        event=new,
    )
    return session, events, fix


def repaired(t: Timeline, fix: Amended) -> tuple[Timeline, list[Amended]] | None:
    """``t`` with ``fix`` and the repairs each later step that no longer fits calls for: a
    ``shuffled`` inserted where one is due (a table that records only the cards shown), else the
    step withdrawn. ``None``: the correction's own event is refused."""
    group = [fix]
    while True:
        try:
            return t.extend_all(group, conclude=False), group
        except Unfit as unfit:
            step = unfit.step
            assert step.id is not None
            if unfit.shuffle_due and step.before.cards_mode == "shown":
                shuffle = Shuffled(id=uuid.uuid4())
                group.append(
                    Amended(action="insert", target=step.id, target_seq=step.row, event=shuffle)
                )
            else:
                group.append(Amended(action="withdraw", target=step.id, target_seq=step.row))
        except BragError:
            return None


def corrected_recorded(t: Timeline, group: list[Amended]) -> list[AnyEvent]:
    """The recorded events in force, with the ``group`` applied, in order."""
    out = [s.event for s in t.steps if not s.derived]
    for fix in group:
        k = next(i for i, e in enumerate(out) if e.id == fix.target)
        if fix.action == "insert" and fix.event is not None:
            out.insert(k, fix.event)
        elif fix.action == "replace" and fix.event is not None:
            out[k] = fix.event
        else:
            del out[k]
    return out


@SETTINGS
@given(corrections())
def test_a_correction_is_the_plain_fold_of_the_corrected_log(
    case: tuple[Session, list[AnyEvent], Amended],
) -> None:
    _, events, fix = case
    t = Timeline.of(events)
    done = repaired(t, fix)
    if done is None:
        event("the correction's own event is refused")
        with pytest.raises(BragError):
            plain_fold(corrected_recorded(t, [fix]))
        return
    after, group = done
    event(f"{fix.action} applied" + (" with repairs" if len(group) > 1 else ""))
    want_events, want_states = plain_fold(corrected_recorded(t, group))
    # The corrected end's new conclusions are due: the log records them next.
    full = after.extend_all([], conclude=True)
    got = list(full.steps)
    assert [content(s.event) for s in got] == [content(e) for e in want_events]
    assert [table_of(s.after) for s in got] == [table_of(s) for s in want_states]
    # Numbers never move: every recorded step still in force keeps its label.
    old = {s.key: s.label for s in t.steps if not s.derived}
    for s in got:
        if s.key in old:
            assert s.label == old[s.key]
    assert len({(s.label.deal, s.label.step, s.label.sub) for s in got}) == len(got)
    assert full.state.seq == full.last_seq
    # The correction and its repairs, the conclusions now due; every earlier event kept.
    assert full.last_seq - t.last_seq <= len(group) + 3
    assert [r.event for r in full.log][: t.last_seq] == [r.event for r in t.log]
    # Extending is the whole fold, corrections included.
    again = Timeline.of(full.events())
    assert [(s.label, s.key) for s in again.steps] == [(s.label, s.key) for s in full.steps]
    assert [table_of(s.after) for s in again.steps] == [table_of(s.after) for s in got]


@SETTINGS
@given(sessions())
def test_extending_one_event_at_a_time_is_the_whole_fold(session: Session) -> None:
    events = stamped(session.events)
    whole = Timeline.of(events)
    t = Timeline()
    for e in events:
        t = t.extend(e)
    assert [(r.label, r.seq) for r in t.log] == [(r.label, r.seq) for r in whole.log]
    assert [(s.label, s.key) for s in t.steps] == [(s.label, s.key) for s in whole.steps]
    assert [table_of(s.after) for s in t.steps] == [table_of(s.after) for s in whole.steps]
    assert table_of(t.state) == table_of(session.states[-1])
    assert not any(is_derived(s.event) != s.derived for s in t.steps)
