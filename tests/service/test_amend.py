"""Correct a step (:mod:`service.amend`): the plan with what it touches, then ONE append of it;
a plan made before another device recorded, or one whose repairs were not chosen, stores
nothing."""

from __future__ import annotations

import uuid
from typing import Any

from service_fakes import Locked, keys, later, start

from events.model import Shuffled
from log.service import EventStore
from service.amend import CorrectStep, PlanCorrection, correct_step, plan_correction
from service.tap import RecordTap, record_tap
from timeline import Step


def tapped(store: EventStore, *spots: str) -> None:
    start(store)
    for spot in spots:
        seq = store.last_seq("friday")
        assert (
            record_tap(store, RecordTap("friday", seq, spot, str(uuid.uuid4())), keys).outcome
            == "recorded"
        )


def last_step(store: EventStore) -> Step:
    t = store.timeline("friday")
    return next(s for s in reversed(t.steps) if not s.derived)


def withdraw(store: EventStore) -> PlanCorrection:
    t = store.timeline("friday")
    return PlanCorrection(t, last_step(store), None, "Ann", later(30))


def test_a_correction_is_planned_then_stored_in_one_append(store: EventStore) -> None:
    tapped(store, "shuffle", "deal")
    planned = plan_correction(store, withdraw(store))
    assert planned.plan is not None and planned.refused == "" and planned.touched == ()
    before = store.last_seq("friday")
    done = correct_step(store, CorrectStep(planned.plan))
    assert (done.outcome, done.message) == ("stored", "")
    assert [e.type for e in store.events("friday")[before:]] == ["amended"]


def test_a_plan_refused_says_why(store: EventStore) -> None:
    tapped(store, "shuffle")
    same = PlanCorrection(store.timeline("friday"), last_step(store), Shuffled(), "Ann", later(30))
    planned = plan_correction(store, same)
    assert planned.plan is None and "already recorded" in planned.refused


def test_a_plan_made_before_another_tap_stores_nothing(store: EventStore) -> None:
    tapped(store, "shuffle", "deal")
    planned = plan_correction(store, withdraw(store))
    assert planned.plan is not None
    tapped_meanwhile = store.last_seq("friday")
    record_tap(store, RecordTap("friday", tapped_meanwhile, "undo", str(uuid.uuid4())), keys)
    n = store.last_seq("friday")
    done = correct_step(store, CorrectStep(planned.plan))
    assert done.outcome == "conflict" and done.message.startswith("Another device recorded")
    assert store.last_seq("friday") == n


def test_a_locked_device_corrects_nothing(store: EventStore) -> None:
    tapped(store, "shuffle", "deal")
    planned = plan_correction(store, withdraw(store))
    assert planned.plan is not None

    class Guarded:
        def __getattr__(self, name: str) -> Any:
            return getattr(store, name)

        def append(self, *args: Any, **kw: Any) -> Any:
            raise Locked("This device is locked")

    n = store.last_seq("friday")
    done = correct_step(Guarded(), CorrectStep(planned.plan), locked=(Locked,))  # type: ignore[arg-type]  # a fake of the store
    assert (done.outcome, done.message) == ("locked", "This device is locked")
    refused = correct_step(Guarded(), CorrectStep(planned.plan))  # type: ignore[arg-type]  # a fake of the store
    assert refused.outcome == "refused" and refused.message.startswith(
        "Refused, nothing was stored"
    )
    assert store.last_seq("friday") == n


def test_a_correction_whose_repairs_were_not_chosen_stores_nothing(store: EventStore) -> None:
    tapped(store, "shuffle", "deal")
    t = store.timeline("friday")
    shuffle = next(s for s in t.steps if s.event.type == "shuffled")
    planned = plan_correction(store, PlanCorrection(t, shuffle, None, "Ann", later(30)))
    assert planned.plan is not None and planned.plan.repairs  # the deal needs its shuffle
    n = store.last_seq("friday")
    done = correct_step(store, CorrectStep(planned.plan))
    assert done.outcome == "refused" and "repair(s) the organiser has not chosen" in done.message
    assert store.last_seq("friday") == n
    assert correct_step(store, CorrectStep(planned.plan, repair=True)).outcome == "stored"
    assert store.last_seq("friday") > n
