"""The one error family (issue 14): every error of ours is a ``BragError``; refusals are also
``ValueError``, a store that cannot be reached is not; every one survives a trip between
processes."""

from __future__ import annotations

import pickle

import pytest

from analytics.explore import LimitReached, ReadOnlyError
from analytics.facts import ProjectionError
from brag.errors import CommandError
from dashboard.record.recorder import TapRefused
from events.amounts import AmountError
from events.cards import CardError
from events.errors import (
    BragError,
    ConcurrencyConflict,
    CorruptSession,
    FormatError,
    IdConflict,
    ImportConflict,
    RuleViolation,
    StoreError,
    StoreUnavailable,
    UnknownSession,
)
from sim.table import SimulationError

REFUSALS = [
    RuleViolation("5.7", "B is seen and cannot see a blind player", player="B").at(line=4),
    FormatError("not an amount", field="amount", line=2, event="bet"),
    CardError("card code 99 is not in 0..51"),
    AmountError("1.5 is a binary float"),
    ReadOnlyError("only SELECT is allowed here"),
    LimitReached("stopped after 1 s"),
    TapRefused("nothing to record at 'see' now"),
    ConcurrencyConflict("s", 3, 4),
    IdConflict(__import__("uuid").UUID(int=1), "s", 2, "id stored with other content"),
    ImportConflict("the file's session is stored with other events", session="s"),
    UnknownSession("s"),
    CorruptSession("s", 2, "bet", "not JSON"),
]
FAILURES = [
    StoreUnavailable("server down"),
    StoreError("SQLite store x.db: disk I/O error"),
    ProjectionError("session s: seq 3 does not follow seq 1"),
    SimulationError("A chose 'x', which was not offered"),
    CommandError("cannot write x", command="export"),
]


@pytest.mark.parametrize("err", REFUSALS + FAILURES, ids=lambda e: type(e).__name__)
def test_every_error_is_of_the_family_and_pickles(err: BragError) -> None:
    assert isinstance(err, BragError)
    back = pickle.loads(pickle.dumps(err))
    assert type(back) is type(err)
    assert str(back) == str(err) and back.args == err.args and back.__dict__ == err.__dict__


@pytest.mark.parametrize("err", REFUSALS, ids=lambda e: type(e).__name__)
def test_refusals_are_value_errors(err: BragError) -> None:
    assert isinstance(err, ValueError)


@pytest.mark.parametrize("err", FAILURES, ids=lambda e: type(e).__name__)
def test_failures_are_not_value_errors(err: BragError) -> None:
    assert not isinstance(err, ValueError)


def test_runtime_failures_stay_runtime_errors() -> None:
    assert isinstance(ProjectionError("x"), RuntimeError)
    assert isinstance(SimulationError("x"), RuntimeError)
