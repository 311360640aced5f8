"""The projector's transactions and reports: :func:`one_transaction` (a catch-up written in ONE
transaction) and :class:`RefreshReport` (what a refresh did), with the internal signals a batch
raises (:mod:`analytics.projector`)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import duckdb

__all__ = ["ONE_TRANSACTION", "RefreshReport", "Refused", "Restart", "one_line", "one_transaction"]

ONE_TRANSACTION: set[int] = set()
"""The connections (their ``id``) inside :func:`one_transaction`."""


@contextmanager
def one_transaction(con: duckdb.DuckDBPyConnection) -> Iterator[None]:
    """Inside the block, a :class:`Projector` on ``con`` writes every batch of a refresh in ONE
    transaction: begun before its first batch, committed after its last, rolled back whole when
    the refresh fails (the projection keeps its old checkpoint and rows). The schema must be the
    current one (a schema of another version is rebuilt beside: :mod:`analytics.building`)."""
    ONE_TRANSACTION.add(id(con))
    try:
        yield
    finally:
        ONE_TRANSACTION.discard(id(con))


class Restart(Exception):
    """A session's rows were refused inside :func:`one_transaction`: the transaction is rolled
    back and the refresh starts again from the checkpoint without that session (internal)."""


class Refused(Exception):
    """Folding one session's event failed: that session is left out (internal)."""

    def __init__(self, session: str, position: int, reason: str) -> None:
        super().__init__(reason)
        self.session, self.position, self.reason = session, position, reason


def one_line(err: BaseException) -> str:
    text = str(err).strip().splitlines()
    return f"{type(err).__name__}: {text[0] if text else ''}"[:300]


@dataclass(frozen=True, slots=True)
class RefreshReport:
    """What a refresh did: events applied, batches committed, the checkpoint after, seconds."""

    events: int
    batches: int
    position: int
    seconds: float
    skipped: tuple[tuple[str, str], ...] = ()
    """``(session, reason)`` of the sessions this refresh left out (see :func:`skipped`)."""
