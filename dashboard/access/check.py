"""Who may record: one check shared by the Record page (:mod:`dashboard.access.gate`), its widgets'
callbacks and the HTTP routes (:mod:`dashboard.record.routes`,
:mod:`dashboard.replay.notes_routes`), so a device
is unlocked or locked the same way for all of them (issue 33, classes 3 and 4).

A device's token (:func:`dashboard.access.tokens.device_token`) carries an id, the generation of
the
devices it was issued in and the store it unlocks (:func:`dashboard.access.tokens.store_tag` of
the
store's id). The revocations live in the store itself, beside the log (``brag_devices``, store
version 6, :mod:`store.devices`): every dashboard and every path that reaches the store sees the
same ones, and they survive a restart. "Lock this device" revokes the token's id (kept until the
token would have expired anyway); "Lock every device" moves the generation on.

Every write of the dashboard goes through :func:`guarded` (or :func:`guarded_append`): the token
is checked against the store's revocations inside the write transaction that appends, so a widget
drawn before "Lock every device" (Streamlit runs its callback before the page's gate) or a request
that passed its route's check a moment before writes nothing (:class:`DeviceLocked`). What a
device may see (:func:`device_unlocked`) reads the revocations at most
:data:`FRESH_SECONDS` old.

**A device per table** (issue 36, item 2): the organiser's device may unlock another device for
one table only (:func:`issue_token` with ``table``: the token carries the table's name). Such a
device records (taps, a session's start, corrections) at that table only: every write of a
guarded store checks, inside its transaction, the table of the session it writes to
(:class:`OtherTable`, nothing stored). It is not the organiser's device: it sees what a visitor
sees on the other pages (:func:`device_unlocked` is False for it), unlocks and locks no other
device, and keeps the register untouched.
"""

from __future__ import annotations

import copy
import os
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any, cast

from dashboard.access import tokens
from dashboard.common import settings
from events.errors import BragError, PlainError
from events.text import normal
from present import secret as secret_rule
from store.devices import Revocations

__all__ = [
    "FRESH_SECONDS",
    "DeviceLocked",
    "OtherTable",
    "check_in",
    "check_table",
    "checked_claims",
    "checked_unlocked",
    "device_unlocked",
    "guarded",
    "guarded_append",
    "issue_token",
    "recording_unlocked",
    "revocations",
    "revoke",
    "revoke_all",
    "store_answers",
    "table_words",
    "unlocked_claims",
]

FRESH_SECONDS = 1.0
"""How old the revocations a sight check reads may be (a pad polls every second); a write reads
them inside its own transaction, never older."""

LOCKED = (
    "This device is locked (Lock every device, or Lock this device, was used): nothing was "
    "stored. Unlock it with the organiser secret."
)


class DeviceLocked(PlainError):
    """A write by a device whose token does not unlock this store now (revoked, of an earlier
    generation, of another store or secret, expired, or none): nothing was stored."""

    rule_name = "DEVICE"


class OtherTable(PlainError, ValueError):
    """A write by a table's device to a session at another table (or at none), or an organiser's
    act (locking every device) asked by a table's device: nothing was stored (issue 36)."""

    rule_name = "DEVICE"

    def heading(self) -> str:
        return "device"


def table_words(table: str) -> str:
    """A table's name as a sentence says it: ``table 2`` for ``2``, ``Top table`` as it is."""
    return table if "table" in normal(table).split() else f"table {table}"


def check_table(device_table: str, session_table: str | None) -> None:
    """Raises :class:`OtherTable` (one line) unless a device limited to ``device_table``
    (``""``: the organiser's, every table) may record a session at ``session_table`` (names as
    keyed everywhere, :func:`events.text.normal`)."""
    if not device_table or normal(session_table or "") == normal(device_table):
        return
    at = f"at {table_words(session_table)}" if session_table else "at no table"
    raise OtherTable(
        f"This device records {table_words(device_table)} only (this session is {at}): "
        "nothing was stored."
    )


_seen: dict[str, tuple[float, str, Revocations]] = {}  # url -> (read at, store id, revocations)


def _store() -> Any:
    """The store the dashboard serves, opened for writing (:func:`dashboard.common.stores.writer`):
    its revocations table is made or migrated when it is opened."""
    from dashboard.common import stores

    return stores.writer()


def _secret() -> str | None:
    """The organiser secret, when it is one the dashboard accepts (:mod:`present.secret`)."""
    secret = settings.organiser_secret()
    return None if not secret or secret_rule.problem(secret) else secret


def _current(fresh: bool = False) -> tuple[str, Revocations]:
    """``(store id, revocations)`` of the store served, read at most :data:`FRESH_SECONDS` ago
    (``fresh``: now). A store that cannot be read now (locked by another program, down) answers
    the revocations read last, unless ``fresh``: a write checks them again inside its own
    transaction, which waits for the store. Raises what opening or reading the store raises
    when nothing was read before."""
    url = settings.db_url()
    hit = _seen.get(url)
    if not fresh and hit is not None and time.monotonic() - hit[0] < FRESH_SECONDS:
        return hit[1], hit[2]
    try:
        store = _store()
        found = (time.monotonic(), str(store.store_id), store.recorder.revocations())
    except (BragError, OSError):
        if fresh or hit is None:
            raise
        _seen[url] = (time.monotonic(), hit[1], hit[2])  # asked again in FRESH_SECONDS
        return hit[1], hit[2]
    _seen[url] = found
    return found[1], found[2]


def store_answers() -> None:
    """Raises what opening or reading the store served raises (a store that cannot be reached:
    :class:`~events.errors.StoreUnavailable`), so the Record page says so rather than ask for a
    secret it could not take; a SQLite store not made yet is not made here."""
    from store.sql import sqlite_file

    path = sqlite_file(settings.db_url())
    if path is None or os.path.exists(path):
        _current(fresh=True)


def revocations() -> Revocations:
    """The revocations now in force for the store served (read now)."""
    return _current(fresh=True)[1]


def issue_token(table: str = "") -> str:
    """A new device token under the secret now configured, for the store served, in its current
    generation; with ``table``, for a device that records that table only (issue 36). Raises
    ``ValueError`` without a secret (the app is read-only)."""
    secret = _secret()
    if secret is None:
        raise ValueError("no organiser secret: the app is read-only")
    store_id, now = _current(fresh=True)
    tag = tokens.store_tag(store_id)
    return tokens.device_token(secret, generation=now.generation, store=tag, table=table.strip())


def _locks(claims: tokens.TokenClaims, store_id: str, now: Revocations) -> bool:
    """Whether the store ``store_id`` with revocations ``now`` refuses a token of ``claims``."""
    return claims.store != tokens.store_tag(store_id) or now.locks(claims.id, claims.generation)


def checked_claims(token: str | None) -> tokens.TokenClaims | None:
    """:func:`checked_unlocked`'s claims: what ``token`` says when it unlocks a device now (a
    table's device too), else ``None``; raises as :func:`checked_unlocked` does."""
    claims = tokens.token_claims(_secret(), token)
    if claims is None:
        return None
    store_id, now = _current()
    return None if _locks(claims, store_id, now) else claims


def checked_unlocked(token: str | None) -> bool:
    """Whether ``token`` unlocks a device now (:func:`device_unlocked`), for the pad's routes:
    a token signed under the secret that cannot be checked, because the store has never been read
    and cannot be read now (down, locked by another program), raises what reading the store
    raised (:class:`~events.errors.StoreUnavailable`), never answers "locked": a store that
    cannot answer refuses no tap (issue 33, class 2; the route says 503 and the pad keeps the
    tap queued)."""
    claims = tokens.token_claims(_secret(), token)
    if claims is None:
        return False
    store_id, now = _current()
    return not _locks(claims, store_id, now)


def unlocked_claims(token: str | None) -> tokens.TokenClaims | None:
    """What ``token`` says when it unlocks a device now (:func:`device_unlocked`), else ``None``."""
    claims = tokens.token_claims(_secret(), token)
    if claims is None:
        return None
    try:
        store_id, now = _current()
    except (BragError, OSError):  # the store cannot be read: locked
        return None
    return None if _locks(claims, store_id, now) else claims


def recording_unlocked(token: str | None) -> bool:
    """True when ``token`` (a device's ``brag_device`` cookie) is a valid unlock token under the
    organiser secret now configured (:func:`dashboard.access.tokens.token_claims`), for the store
    served, of its current generation and not revoked (revocations read at most
    :data:`FRESH_SECONDS` ago), the organiser's or a table's (issue 36); False without a secret
    (the app is read-only), a token, or when the store cannot be read."""
    return unlocked_claims(token) is not None


def device_unlocked(token: str | None) -> bool:
    """True when ``token`` unlocks the organiser's device now (:func:`recording_unlocked`, and
    not limited to one table): what the sight rule calls the organiser's unlocked device. A
    table's device (issue 36) sees what a visitor sees."""
    claims = unlocked_claims(token)
    return claims is not None and not claims.table


def _now() -> int:
    return int(datetime.now(UTC).timestamp())


def revoke(token: str | None) -> bool:
    """Revokes ``token`` ("Lock this device") in the store served, here and in every copy of it,
    for every dashboard of the store; True when it was a valid token to revoke."""
    claims = tokens.token_claims(_secret(), token)
    if claims is None:
        return False
    store = _store()
    with store.recorder.transaction() as tx:
        tx.devices().revoke(claims.id, claims.expiry, _now())
    _seen.pop(settings.db_url(), None)
    return True


def revoke_all(by: str | None = None) -> int:
    """Revokes every device's token ("Lock every device") in the store served: its generation
    moves on, for every dashboard of the store; returns the new generation. Asked by a device
    (``by``: its token), the token is checked in the same transaction: a device locked since
    its button was drawn locks nobody (:class:`DeviceLocked`)."""
    store = _store()
    with store.recorder.transaction() as tx:
        if by is not None:
            check_in(tx, str(store.store_id), by)
            claims = tokens.token_claims(_secret(), by)
            if claims is not None and claims.table:
                raise OtherTable(
                    f"This device records {table_words(claims.table)} only: only the "
                    "organiser's device locks every device; nothing was changed."
                )
        generation = int(tx.devices().revoke_all())
    _seen.pop(settings.db_url(), None)
    return generation


# --- the writes -----------------------------------------------------------------------------------


def check_in(tx: Any, store_id: str, token: str | None) -> None:
    """Inside a write transaction ``tx`` of the store ``store_id``: raises
    :class:`DeviceLocked` unless ``token`` unlocks that store now (signed under the secret now
    configured, unexpired, naming this store, of its current generation, not revoked: the
    revocations read in ``tx``)."""
    claims = tokens.token_claims(_secret(), token)
    if claims is None or _locks(claims, store_id, tx.devices().revocations()):
        raise DeviceLocked(LOCKED)


class _TableTx:
    """A write transaction whose sessions' rows are checked against a table's device
    (:func:`check_table` on each session's catalogue row, written with every append);
    everything else is the wrapped transaction's."""

    def __init__(self, inner: Any, table: str) -> None:
        self.inner = inner
        self.table = table

    def record(self, info: Any, *, first: bool) -> None:
        check_table(self.table, info.table)
        self.inner.record(info, first=first)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


class _Guarded:
    """A recorder whose write transactions first check a device's token (:func:`check_in`),
    and for a table's device the table of every session written (:class:`_TableTx`);
    everything else is the wrapped recorder's."""

    def __init__(self, inner: Any, check: Callable[[Any], None], table: str = "") -> None:
        self.inner = inner
        self.check = check
        self.table = table

    @contextmanager
    def transaction(self) -> Iterator[Any]:
        with self.inner.transaction() as tx:
            self.check(tx)
            yield _TableTx(tx, self.table) if self.table else tx

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def guarded(store: Any, token: str | None) -> Any:
    """``store`` (a :class:`log.EventStore`) again, sharing its state cache, whose every write
    (an append, a correction, an annotation) checks ``token`` inside its own transaction and
    raises :class:`DeviceLocked` (nothing stored) when it does not unlock the store now; for a
    table's device, an append to a session at another table raises :class:`OtherTable`
    (nothing stored, issue 36)."""
    inner = store.recorder
    store_id = str(inner.store_id)
    claims = tokens.token_claims(_secret(), token)
    table = claims.table if claims is not None else ""
    out = copy.copy(store)
    out.recorder = cast(Any, _Guarded(inner, lambda tx: check_in(tx, store_id, token), table))
    return out


def guarded_append(
    token: str | None, store: Any, session: str, events: Sequence[Any], expected_seq: int
) -> list[Any]:
    """``store.append(session, events, expected_seq)`` checked for ``token`` inside the append's
    transaction (:func:`guarded`): the stored rows, or :class:`DeviceLocked` and nothing stored."""
    return list(guarded(store, token).append(session, list(events), expected_seq))
