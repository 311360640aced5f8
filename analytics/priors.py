"""A player's earlier sessions as the prior of the luck term's tendencies (issue 37 item 1).

Pure: no DuckDB here (the projection's rows of it: :mod:`analytics.prior_rows`). A session's
luck term reads each seat's posterior over the styles (:mod:`analytics.tendencies`); from the
session's own deals alone that posterior is even in its first deals, and a tight player's seat
is valued as an average player's (docs/luck.md). So each player brings the signature counts of
their latest :data:`HISTORY` earlier sessions:

- **Earlier** is by the session's date: the ``at`` of its ``session_started``, then the global
  position of its first event (a session without a time comes after every one with a time, in
  the order stored): :func:`order_key`. The same whatever order the logs were loaded in.
- **A player** is a name's normal form (:func:`events.text.normal`), as the fold keys names.
- **What a session tells of a player** is the signatures of the player's deals in it (every
  deal that closed; the last too once the session is over), the counts
  :meth:`analytics.tendencies.Tendencies.own` gives.

Why the mean of the term stays exactly 0: the prior is fixed before the session's first deal
and depends on nothing of its cards; the term is the value less its mean over the deals that
could have come given everything the value reads (docs/luck.md "Why its mean is zero"), so any
prior keeps it unbiased; a prior that describes a player badly only removes less spread.

Why the latest :data:`HISTORY` and no more: a correction of a session changes the prior of at
most the next :data:`HISTORY` sessions of each of its players, which the projection then folds
again (the cascade is bounded), and a player who changes their play is followed.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Final

__all__ = ["HISTORY", "Entry", "OrderKey", "digest", "order_key", "window"]

HISTORY: Final = 10
"""The earlier sessions of a player a session's prior reads: the latest ten by date."""

OrderKey = tuple[int, int, int]
"""``(0, microseconds since 1970 UTC, first position)`` for a session with a time, ``(1, 0,
first position)`` without: sessions in this order are "earlier" (:func:`order_key`)."""

_EPOCH: Final = datetime(1970, 1, 1, tzinfo=UTC)


def order_key(at: datetime | None, first_position: int) -> OrderKey:
    """The order of sessions by date: ``at`` (``session_started.at``; a time without an offset
    read as UTC), then ``first_position`` (the global position of its first event); sessions
    without a time after every one with a time.

    >>> from datetime import timezone
    >>> a = order_key(datetime(2026, 12, 1, 20, tzinfo=timezone(timedelta(hours=1))), 900)
    >>> b = order_key(datetime(2026, 12, 1, 19, 30, tzinfo=UTC), 5)
    >>> a < b, order_key(None, 1) > b
    (True, True)
    """
    if at is None:
        return (1, 0, first_position)
    if at.tzinfo is None:
        at = at.replace(tzinfo=UTC)
    return (0, (at - _EPOCH) // timedelta(microseconds=1), first_position)


def digest(counts: Mapping[str, int]) -> str:
    """A short fingerprint of signature counts (the prior a fold took): equal counts, equal
    digests; zero counts left out.

    >>> digest({"L-Fs": 2, "Bb": 0}) == digest({"L-Fs": 2})
    True
    """
    kept = sorted((g, int(n)) for g, n in counts.items() if n)
    return hashlib.blake2b(json.dumps(kept).encode(), digest_size=8).hexdigest()


@dataclass(frozen=True, slots=True)
class Entry:
    """What one session tells of one player, and the prior its fold took for them."""

    key: OrderKey
    """The session's :func:`order_key`."""
    counts: Counter[str]
    """The player's signature counts in the session (its own deals only)."""
    prior: str | None
    """The :func:`digest` of the prior its fold took for the player (``None``: none taken)."""
    luck: bool
    """The session has luck terms (``cards: "all"``): only then does its prior matter."""


def window(entries: Iterable[Entry], before: OrderKey) -> Counter[str]:
    """The prior of a session of order key ``before`` for a player whose sessions are
    ``entries`` (the session's own left out by the caller): the sum of the counts of the latest
    :data:`HISTORY` entries earlier than it.

    >>> e = [Entry((0, t, t), Counter({"L-Fs": 1}), None, True) for t in range(12)]
    >>> window(e, (0, 11, 11))["L-Fs"], window(e, (0, 3, 3))["L-Fs"], window(e, (0, 0, 0))
    (10, 3, Counter())
    """
    earlier = sorted((e for e in entries if e.key < before), key=lambda e: e.key)
    out: Counter[str] = Counter()
    for e in earlier[-HISTORY:]:
        out.update(e.counts)
    return out
