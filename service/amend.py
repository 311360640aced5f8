"""Correct a recorded step (issue 19, item 4; issue 32: one ``amended`` event): plan the
correction with its impact (:class:`PlanCorrection`, :func:`plan_correction`), then store the
plan shown (:class:`CorrectStep`, :func:`correct_step`). The plan and its repairs are
:mod:`log.amend`'s; the Record page's "Correct a step" panel (:mod:`dashboard.record.amend`)
shows the plan in :mod:`present.amend`'s words and stores it on the organiser's word.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from events.errors import BragError, ConcurrencyConflict
from events.model import AnyEvent
from log.amend import Amendment, AmendRefused, plan_amendment, store_amendment, touched_by
from log.annotations import Touched
from log.service import EventStore
from timeline import Step, Timeline

__all__ = [
    "CorrectStep",
    "Corrected",
    "PlanCorrection",
    "Planned",
    "correct_step",
    "plan_correction",
]

MEANWHILE = (
    "Another device recorded meanwhile: nothing was stored. The panel now shows the session as "
    "it is; check the correction again."
)
"""Why a correction planned at an older seq than the store's stored nothing."""


@dataclass(frozen=True, slots=True)
class PlanCorrection:
    """The correction of ``step`` (a step in force of ``source``, the session as corrected: its
    timeline, or its stored events) by ``by`` at ``now``: withdrawn (``replacement`` ``None``)
    or replaced by ``replacement``."""

    source: Timeline | list[AnyEvent]
    step: Step
    replacement: AnyEvent | None
    by: str
    now: datetime


@dataclass(frozen=True, slots=True)
class Planned:
    """The plan (``None`` when refused: ``refused`` says why, in one sentence) and the notes and
    remembered cards on the steps it takes out of force (``touched``)."""

    plan: Amendment | None
    touched: tuple[Touched, ...] = ()
    refused: str = ""


def plan_correction(store: EventStore, cmd: PlanCorrection) -> Planned:
    """:func:`log.amend.plan_amendment` of ``cmd`` (nothing stored), with what it touches in
    ``store`` (:func:`log.amend.touched_by`); a plan the rules or the log refuse is
    ``refused``."""
    try:
        plan = plan_amendment(cmd.source, cmd.step, cmd.replacement, by=cmd.by, now=cmd.now)
    except AmendRefused as err:
        return Planned(None, refused=err.message)
    return Planned(plan, tuple(touched_by(store, plan)))


@dataclass(frozen=True, slots=True)
class CorrectStep:
    """Store the correction ``plan`` (as shown, made from the seq shown), with its repairs when
    ``repair`` (the organiser chose them)."""

    plan: Amendment
    repair: bool = False


@dataclass(frozen=True, slots=True)
class Corrected:
    """``stored`` (the one append), ``conflict`` (the session grew since the plan was made),
    ``refused`` or ``locked`` (the guarded store refused the writer), nothing stored; with the
    one-line ``message`` of why not."""

    outcome: Literal["stored", "conflict", "refused", "locked"]
    message: str = ""


def correct_step(
    store: EventStore, cmd: CorrectStep, *, locked: tuple[type[BragError], ...] = ()
) -> Corrected:
    """Stores ``cmd.plan`` in ``store`` in ONE append (:func:`log.amend.store_amendment`):
    :class:`Corrected`. ``locked``: the errors of a guarded store that refuse the writer. A
    failure that is no :class:`~events.errors.BragError` is raised."""
    try:
        store_amendment(store, cmd.plan, repair=cmd.repair)
    except locked as err:
        return Corrected("locked", err.message)
    except ConcurrencyConflict:
        return Corrected("conflict", MEANWHILE)
    except BragError as err:
        return Corrected("refused", f"Refused, nothing was stored: {err}")
    return Corrected("stored")
