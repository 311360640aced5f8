"""A correction as the organiser makes it (:mod:`service.amend`), shared by the season's tests
(``tests/service``): service layer."""

from __future__ import annotations

from datetime import datetime

from log.service import EventStore
from service.amend import CorrectStep, PlanCorrection, correct_step, plan_correction


def withdraw_last(store: EventStore, session: str, at: datetime) -> None:
    """Withdraws the session's last recorded step as its organiser at ``at`` (planned, then
    stored); fails the test if it is refused."""
    timeline = store.timeline(session)
    last = next(s for s in reversed(list(timeline.steps)) if not s.derived)
    planned = plan_correction(store, PlanCorrection(timeline, last, None, "organiser", at))
    assert planned.plan is not None, planned.refused
    assert correct_step(store, CorrectStep(planned.plan)).outcome == "stored"
