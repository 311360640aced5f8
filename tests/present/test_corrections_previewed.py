"""Corrections as the screens plan them (present.amend): the preview is what the stored correction
folds to; what cannot be corrected is refused in one sentence. The log's side of corrections is in
tests/log/test_corrections.py."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest
from corrections_helpers import finished as _finished
from corrections_helpers import last_step as _last_step
from corrections_helpers import stored as _stored
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from engine.legal import legal_actions, possible_cards
from engine.state import State
from events.cards import FULL_PACK
from events.model import AnyEvent, Shown, Shuffled, content, is_derived
from log.amend import AmendRefused, plan_amendment, plan_stored, store_amendment
from present.amend import step_choices, target_seq, target_step
from present.replay import Replay
from sim.randplay import random_session
from timeline import Timeline

EXAMPLES = 100


def _session(seed: int, session: str = "s") -> list[AnyEvent]:
    rng = random.Random(seed)
    return random_session(
        rng,
        session,
        players=rng.randint(2, 5),
        cards=rng.choice(("all", "shown")),
        pots=rng.randint(1, 3),
        ante=rng.choice((1, Fraction(1, 2))),
        void_rate=rng.choice((0.0, 0.05)),
        max_events=rng.choice((None, None, 40)),
    )


def _fill(state: State, event: AnyEvent, rng: random.Random) -> AnyEvent | None:
    """A legal action's template completed as a recorder would (None: the hands of a deal)."""
    if isinstance(event, Shuffled) and state.cards_mode == "all":
        order = [str(c) for c in FULL_PACK]
        rng.shuffle(order)
        return Shuffled(order=tuple(order))
    if isinstance(event, Shown) and state.cards_mode == "shown":
        # cards the tracked pack lets this hand hold (RULES 3.3), one at a time beside those
        # drawn before, as a recorder at a real table can only show (engine.legal.possible_cards)
        mine = {str(FULL_PACK[c]) for c in state.players[state.seat(event.player)].shown}
        cards: tuple[str, ...] = ()
        for _ in event.cards:
            fits = sorted(possible_cards(state, event.player, cards) - mine - set(cards))
            if not fits:
                return None
            cards += (rng.choice(fits),)
        return Shown(player=event.player, cards=cards)
    return event


def _outcomes(state: State) -> dict[int, tuple[Any, ...]]:
    return {o.deal: (o.result, o.winner, o.amount) for o in state.outcomes}


@pytest.mark.slow
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(seed=st.integers(0, 2**31), data=st.data())
def test_the_preview_is_what_the_stored_correction_folds_to(seed: int, data: st.DataObject) -> None:
    store = _stored(_session(seed))
    rows = store.read("s")
    old = [r.event for r in rows]
    t = store.timeline("s")
    targets = [(s.label.deal, n) for s in t.steps for n, _ in step_choices(t, s.label.deal)]
    if not targets:
        return
    deal, number = data.draw(st.sampled_from(sorted(set(targets))), label="deal, step")
    target = target_step(t, deal, number)
    assert target.label.deal == deal and target.label.text == number
    rng = random.Random(seed)
    others = [
        a.event
        for a in legal_actions(target.before)
        if "hands" not in a.needs and content(a.event) != content(target.event)
    ]
    replacement: AnyEvent | None = None
    if others and data.draw(st.booleans(), label="replace"):
        replacement = _fill(target.before, data.draw(st.sampled_from(others)), rng)
        # A template's cards filled at random can be the very cards recorded (a one-card show,
        # RULES 5.8): that is no correction, and plan_amendment refuses it (tested below).
        assume(replacement is not None and content(replacement) != content(target.event))
    plan = plan_stored(store, "s", target, replacement, by="organiser")
    imp = plan.impact
    event("replaced" if replacement is not None else "removed")
    event("some later steps repaired" if plan.repairs else "every later step fits")
    event("an outcome changes" if imp.changed else "no outcome changes")

    stored = store_amendment(store, plan, repair=True)
    assert stored[0].seq == rows[-1].seq + 1  # one append, right after the stream planned from
    assert len(stored) <= 1 + len(plan.repairs) + 3  # one fact a repair, the new conclusions
    new = store.events("s")
    assert len(new) == len(old) + len(stored)
    assert [(r.seq, r.id) for r in store.read("s")[: len(rows)]] == [(r.seq, r.id) for r in rows]
    # What the preview said would be stored is what was stored (envelope aside).
    assert [(e.type, content(e)) for e in plan.preview] == [
        (r.event.type, content(r.event)) for r in stored
    ]
    # Recomputed from the stored streams alone.
    before, after = Timeline.of(old).state, Timeline.of(new).state
    assert imp.nets_before == before.nets and imp.pot_before == before.pot
    assert imp.nets_after == after.nets and imp.pot_after == after.pot
    assert sum(imp.nets_after.values()) + imp.pot_after == 0
    assert imp.winners_after == after.winners and imp.finished_after == after.finished
    ob, oa = _outcomes(before), _outcomes(after)
    assert {c.deal for c in imp.changed} == {
        d for d in ob.keys() | oa.keys() if ob.get(d) != oa.get(d)
    }
    # Every recorded step in force before keeps its number, and stays in force unless it was
    # the target or a repair withdrew it.
    gone = {target.key} | {r.step.key for r in plan.repairs if r.action == "withdraw"}
    now = {s.key: s.label for s in store.timeline("s").steps}
    for s in t.steps:
        if not s.derived and s.key not in gone:
            assert now[s.key] == s.label
    # The replacement takes its target's number; the log as recorded replays.
    if replacement is not None:
        put = store.timeline("s").log[plan.expected_seq].put
        assert put is not None and put.label == target.label
    shown = Replay.from_timeline(store.timeline("s"), recorded=True)
    assert shown.final.nets == after.nets
    assert sum(1 for lab in shown.labels if lab.correction) == shown.corrections


def test_what_cannot_be_corrected_is_refused_in_one_sentence() -> None:
    store = _stored(_finished())
    old = store.events("s")
    t = store.timeline("s")
    derived = next(e for e in old if is_derived(e))
    with pytest.raises(AmendRefused, match="conclusion"):
        plan_amendment(t, derived.seq or 0)
    with pytest.raises(AmendRefused, match="start"):
        plan_amendment(t, 1)
    with pytest.raises(AmendRefused, match="no step 999"):
        target_seq(t, 1, 999)
    with pytest.raises(AmendRefused, match="no deal 99"):
        target_seq(t, 99, 1)
    last = _last_step(store)
    with pytest.raises(AmendRefused, match="already recorded"):
        plan_amendment(t, last, last.event)
