"""A correction that makes a shuffle due (issue 31): the plan proposes the shuffle and keeps the
later deals, as present.amend describes it. The brag amend test of one fact stored is in
tests/cli/test_amend_one_fact.py."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from events.model import PotWon, Shown
from log.amend import AmendRefused, plan_stored, store_amendment
from log.open import open_store
from log.service import EventStore
from present.amend import describe
from sim.randplay import random_session
from timeline import Step, Timeline


def _prial_showdown(t: Timeline) -> tuple[Step, tuple[str, ...]] | None:
    """The winner's ``shown`` at a showdown before the last deal, and a prial of a rank never
    shown in the session to show instead (RULES 2.2, 3.2)."""
    seen = {c[0] for s in t.steps if isinstance(s.event, Shown) for c in s.event.cards}
    free = [r for r in "3AKQJT98765432" if r not in seen]
    if not free:
        return None
    last = t.state.deals
    for k, s in enumerate(t.steps):
        e = s.event
        if isinstance(e, PotWon) and e.showdown and e.hand != "prial" and e.deal < last - 1:
            shown = [
                x for x in list(t.steps)[:k]
                if isinstance(x.event, Shown) and x.event.player == e.player
                and x.label.deal == e.deal and len(x.event.cards) == 3
            ]  # fmt: skip
            if shown:
                r = free[0]
                return shown[-1], (f"{r}c", f"{r}d", f"{r}h")
    return None


def test_a_correction_that_makes_a_shuffle_due_proposes_it_and_keeps_the_later_deals(
    tmp_path: Path,
) -> None:
    for seed in range(300):
        events = random_session(random.Random(seed), "night", players=3, cards="shown", pots=8)
        t = Timeline.of(events)
        found = _prial_showdown(t)
        if found is not None:
            break
    else:
        raise AssertionError("no seed gives such a session")
    step, prial = found
    store: EventStore = open_store(str(tmp_path / "brag.db"))
    store.append("night", events, 0)
    t = store.timeline("night")
    target = next(s for s in t.steps if s.label == step.label)
    assert isinstance(target.event, Shown)
    plan = plan_stored(store, "night", target, Shown(player=target.event.player, cards=prial))
    inserted = [r for r in plan.repairs if r.action == "insert"]
    assert inserted, [(r.step.label, r.rule, r.action) for r in plan.repairs]
    first = inserted[0]
    assert first.rule == "3.2" and first.step.event.type == "dealt"
    assert first.step.label.deal == step.label.deal + 1
    view = describe(plan)
    assert any("insert a shuffle" in ln.repair for ln in view.repairs)
    # Nothing is dropped unless the organiser chooses the repairs.
    with pytest.raises(AmendRefused, match="repair"):
        store_amendment(store, plan)
    assert store.last_seq("night") == t.last_seq
    rows = store_amendment(store, plan, repair=True)
    assert len(rows) <= 1 + len(plan.repairs) + 3
    after = store.timeline("night")
    deals_before = [s.label for s in t.steps if s.event.type == "dealt"]
    deals_after = [s.label for s in after.steps if s.event.type == "dealt"]
    withdrawn = {r.step.label for r in plan.repairs if r.action == "withdraw"}
    assert deals_after == [d for d in deals_before if d not in withdrawn]
    assert len(deals_after) >= len(deals_before) - 1
    # The shuffle sits at the end of the deal of the prial, with a letter.
    dealt = next(k for k, s in enumerate(after.steps) if s.id == first.step.id)
    shuffle = after.steps[dealt - 1]  # inserted just before the deal that needed it
    assert shuffle.event.type == "shuffled"
    assert shuffle.event.type == "shuffled"
    # a letter after a number of the prial's deal ("10a", or "10b" when the corrected showdown's
    # own new conclusion took "10a"): no other step's number moved
    assert shuffle.label.deal == step.label.deal and shuffle.label.sub >= 1
    assert shuffle.label.step == after.steps[dealt - 2].label.step
    assert after.state.deals == t.state.deals - len([d for d in withdrawn])
    store.close()
