"""The devices table beside the log (store version 7, issue 33 class 4): what keeps the
organiser's devices and dashboards to one store belongs to the store itself, so every dashboard
and every path that reaches the store (another folder, a symlink to the file, another host on the
same PostgreSQL database) sees the same thing.

``brag_devices(kind, name, value, until)``, one row per ``(kind, name)``:

- ``('generation', '', N, 0)``: the devices' generation, which "Lock every device" moves on (a
  token of an earlier generation unlocks nothing);
- ``('revoked', ID, '', EXPIRY)``: a token id "Lock this device" revoked, kept until its token
  would have expired anyway (Unix seconds);
- ``('dashboard', '', HOLDER, UNTIL)``: the dashboard that serves the store (:class:`Holder`,
  JSON: its holder id, process, host and address), held until ``UNTIL`` (Unix seconds), which
  the serving dashboard moves on while it runs.

Never events: the log, ``brag export``, the catalogue and the projection never see a row. Written
only inside the store's write transaction (:meth:`store.port.Recorder.transaction`), so an append
that checks a device's token there (:meth:`DeviceTx.revocations`) and a "Lock every device" are
one before the other, never interleaved.
"""

from __future__ import annotations

import json
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any, Final

__all__ = [
    "DEVICES",
    "DEVICES_DDL",
    "DeviceReads",
    "Holder",
    "Revocations",
    "SqlDevices",
]

DEVICES: Final = "brag_devices"
DEVICES_DDL: Final = (
    f"CREATE TABLE IF NOT EXISTS {DEVICES} (kind TEXT NOT NULL, name TEXT NOT NULL, "
    "value TEXT NOT NULL, until BIGINT NOT NULL, PRIMARY KEY (kind, name))"
)
VERSION: Final = 7
"""The store version that made the table (:data:`store.schema.STORE_VERSION` history)."""
_UPSERT: Final = (
    f"INSERT INTO {DEVICES} (kind, name, value, until) VALUES (?, ?, ?, ?) "
    "ON CONFLICT (kind, name) DO UPDATE SET value = excluded.value, until = excluded.until"
)


@dataclass(frozen=True, slots=True)
class Revocations:
    """The devices' revocations of one store: the current ``generation`` (a token of another
    one is locked) and the ``revoked`` token ids, each with its token's expiry (Unix seconds)."""

    generation: int = 0
    revoked: dict[str, int] = field(default_factory=dict)

    def locks(self, token_id: str, generation: int) -> bool:
        """Whether a token of this id and generation is locked by these revocations."""
        return generation != self.generation or token_id in self.revoked


@dataclass(frozen=True, slots=True)
class Holder:
    """The dashboard serving a store: ``holder`` (a random id of that dashboard), its ``pid`` on
    ``host``, the ``url`` it serves and ``until`` (Unix seconds) it holds the store unless it
    moves that on."""

    holder: str
    pid: int
    host: str
    url: str
    until: int = 0

    def value(self) -> str:
        return json.dumps({"holder": self.holder, "pid": self.pid, "host": self.host,
                           "url": self.url})  # fmt: skip

    @classmethod
    def of(cls, value: str, until: int) -> Holder | None:
        """The holder a row's ``value`` names, or ``None`` for one that cannot be read."""
        try:
            raw = json.loads(value)
            return cls(str(raw["holder"]), int(raw["pid"]), str(raw["host"]), str(raw["url"]),
                       int(until))  # fmt: skip
        except (ValueError, KeyError, TypeError):
            return None


def revocations_of(rows: list[tuple[Any, ...]]) -> Revocations:
    """The revocations in ``(kind, name, value, until)`` rows."""
    generation = 0
    revoked: dict[str, int] = {}
    for kind, name, value, until in rows:
        if kind == "generation":
            generation = int(value)
        elif kind == "revoked":
            revoked[str(name)] = int(until)
    return Revocations(generation, revoked)


class SqlDevices:
    """The devices' reads and writes on one DBAPI connection of a SQL store (inside the write
    transaction for the writes); ``sql`` turns ``?`` into the driver's mark."""

    def __init__(self, conn: Any, sql: Any) -> None:
        self.conn = conn
        self.sql = sql

    def revocations(self) -> Revocations:
        cur = self.conn.execute(
            self.sql(f"SELECT kind, name, value, until FROM {DEVICES} WHERE kind IN (?, ?)"),
            ("generation", "revoked"),
        )
        return revocations_of(list(cur.fetchall()))

    def _put(self, kind: str, name: str, value: str, until: int) -> None:
        self.conn.execute(self.sql(_UPSERT), (kind, name, value, until))

    def revoke(self, token_id: str, expiry: int, now: int) -> None:
        self._put("revoked", token_id, "", int(expiry))
        self.conn.execute(
            self.sql(f"DELETE FROM {DEVICES} WHERE kind = ? AND until <= ?"), ("revoked", now)
        )

    def revoke_all(self) -> int:
        generation = self.revocations().generation + 1
        self._put("generation", "", str(generation), 0)
        return generation

    def holder(self) -> Holder | None:
        cur = self.conn.execute(
            self.sql(f"SELECT value, until FROM {DEVICES} WHERE kind = ? AND name = ''"),
            ("dashboard",),
        )
        got = cur.fetchone()
        return None if got is None else Holder.of(str(got[0]), int(got[1]))

    def hold(self, holder: Holder) -> None:
        self._put("dashboard", "", holder.value(), holder.until)

    def let_go(self, holder: str) -> None:
        found = self.holder()
        if found is not None and found.holder == holder:
            self.conn.execute(
                self.sql(f"DELETE FROM {DEVICES} WHERE kind = ? AND name = ''"), ("dashboard",)
            )


class DeviceReads:
    """The devices' reads of a SQL recorder outside a transaction (mixed into
    :class:`store.sql.SqlRecorder`)."""

    version: int

    def sql(self, text: str) -> str:
        raise NotImplementedError

    def connection(self) -> Any:
        raise NotImplementedError

    def errors(self) -> AbstractContextManager[None]:
        raise NotImplementedError

    def revocations(self) -> Revocations:
        """The devices' revocations now; none in a store older than version 7 read as it is (a
        writer migrates a store before any device of it can be revoked)."""
        if self.version < VERSION:
            return Revocations()
        with self.errors():
            return SqlDevices(self.connection(), self.sql).revocations()
