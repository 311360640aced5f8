"""The Record page's latest events after a correction (:func:`present.steps.latest`): a step
still in force is told as it stands now, not as it was recorded (a raised bet earlier in the deal
changes what a later see pays, RULES 5.4, 5.7), and the pot won again for another amount shows
beside the withdrawn one."""

from __future__ import annotations

import random

from events.model import Bet, PotWon, Saw
from log.amend import plan_stored, store_amendment
from log.open import open_store
from present.steps import in_force_labels, latest, recorded_labels
from sim.randplay import random_session


def _raised() -> tuple[object, int]:
    """A stored random session whose first bet of some deal, followed by a see in that deal, is
    replaced by a bet three levels higher (the plan's repairs taken); the store and the deal."""
    for seed in range(200):
        events = random_session(random.Random(seed), "s", players=2, cards="shown", pots=3)
        store = open_store("memory://")
        store.append("s", events, 0)
        steps = list(store.timeline("s").steps)
        for k, s in enumerate(steps):
            later = steps[k + 1 :]
            if isinstance(s.event, Bet) and any(
                isinstance(x.event, Saw) and x.label.deal == s.label.deal for x in later
            ):
                new = Bet(player=s.event.player, level=s.event.level + 3)
                try:
                    plan = plan_stored(store, "s", s, new)
                    store_amendment(store, plan, repair=True)
                except ValueError:
                    break
                return store, s.label.deal
        store.close()
    raise AssertionError("no seed of 200 has a bet then a see in one deal")


def test_latest_tells_each_step_in_force_as_it_stands_now() -> None:
    store, deal = _raised()
    t = store.timeline("s")  # type: ignore[attr-defined]
    labels = recorded_labels(t)
    rows = latest(t, labels, len(labels))
    assert [lab for lab, _, _ in rows] == list(reversed(labels))  # every row, newest first
    now = {(lab.deal, lab.number): lab.text for lab in in_force_labels(t)}
    changed = 0
    for lab, text, _ in rows:
        if not lab.withdrawn and not lab.correction:
            assert text == now[(lab.deal, lab.number)]
            changed += text != lab.text
    assert changed >= 1  # a later see of the deal pays more than when it was recorded
    sees = [text for lab, text, _ in rows if lab.deal == deal and " sees " in text]
    assert sees and all(lab.text != text for lab, text, _ in rows if text in sees)


def test_a_pot_won_again_for_another_amount_shows_beside_the_withdrawn_one() -> None:
    store, deal = _raised()
    t = store.timeline("s")  # type: ignore[attr-defined]
    labels = recorded_labels(t)
    won = [
        (lab, text, new)
        for lab, text, new in latest(t, labels, len(labels))
        if lab.withdrawn and lab.deal == deal and "wins the pot" in text
    ]
    assert won, "the old pot won is withdrawn"
    lab, text, new = won[0]
    in_force = [s for s in t.steps if isinstance(s.event, PotWon) and s.label.deal == deal]
    assert new is not None and "wins the pot" in new and new != text
    assert len(in_force) == 1 and in_force[0].label.step == lab.step
