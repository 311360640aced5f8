"""Where the projector reads events: anything with the event store's reading interface.

The projector needs only :class:`Source`: ``read_all(after, limit)`` (events in global position
order, holes allowed) and ``read(session)`` (one session's stream). ``log.EventStore`` provides it;
:class:`MemorySource` and :class:`JsonlSource` are stand-ins for tests and the benchmark, built from
scenario files (:func:`from_logs`) or random sessions.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:  # the engine and the codec are imported by the log files' readers below
    from events.model import AnyEvent

__all__ = [
    "JsonlSource",
    "MemorySource",
    "Source",
    "SourceEvent",
    "StoredLike",
    "default_projection",
    "from_logs",
    "interleave",
    "is_default_projection",
    "open_source",
]


class StoredLike(Protocol):
    """What the projector reads of a stored event (``store.records.StoredEvent``)."""

    @property
    def position(self) -> int: ...
    @property
    def session(self) -> str: ...
    @property
    def seq(self) -> int: ...
    @property
    def event(self) -> AnyEvent: ...


class Source(Protocol):
    """The reading half of the event store."""

    def read_all(self, after: int = 0, limit: int = 10_000) -> Sequence[StoredLike]: ...

    def read(self, session: str) -> Sequence[StoredLike]: ...


@dataclass(frozen=True, slots=True)
class SourceEvent:
    position: int
    session: str
    seq: int
    event: AnyEvent

    @property
    def type(self) -> str:
        return self.event.type


class MemorySource:
    """Events in memory, in position order (the projector's fake store)."""

    def __init__(self, events: Iterable[SourceEvent] = ()) -> None:
        self.events: list[SourceEvent] = sorted(events, key=lambda e: e.position)
        self._positions = [e.position for e in self.events]

    def append(self, session: str, events: Iterable[AnyEvent], *, gap: int = 0) -> None:
        """Appends events to ``session``'s stream at the next positions (``gap`` skips some)."""
        last = self.events[-1].position if self.events else 0
        seq = max((e.seq for e in self.events if e.session == session), default=0)
        for e in events:
            last += 1 + gap
            seq += 1
            self.events.append(SourceEvent(last, session, seq, e))
            self._positions.append(last)

    def read_all(self, after: int = 0, limit: int = 10_000) -> list[SourceEvent]:
        from bisect import bisect_right

        k = bisect_right(self._positions, after)
        return self.events[k : k + limit]

    def read(self, session: str) -> list[SourceEvent]:
        return [e for e in self.events if e.session == session]

    def sessions(self) -> list[str]:
        return list(dict.fromkeys(e.session for e in self.events))

    def last_position(self) -> int:
        return self._positions[-1] if self._positions else 0


def interleave(
    streams: dict[str, list[AnyEvent]], *, seed: int = 0, gap_every: int = 7
) -> MemorySource:
    """A store holding ``streams`` (session -> complete stream) appended in an interleaved order,
    as several tables recording at once would; every ``gap_every``-th position is a hole."""
    import random

    rng = random.Random(seed)
    cursors = {s: 0 for s in streams}
    seqs = {s: 0 for s in streams}
    out: list[SourceEvent] = []
    position = 0
    live = [s for s in streams if streams[s]]
    while live:
        s = rng.choice(live)
        stream = streams[s]
        k = cursors[s]
        n = min(len(stream) - k, rng.randint(1, 4))
        for e in stream[k : k + n]:
            position += 1
            if gap_every and position % gap_every == 0:
                position += 1
            seqs[s] += 1
            out.append(SourceEvent(position, s, seqs[s], e))
        cursors[s] = k + n
        if cursors[s] >= len(stream):
            live.remove(s)
    return MemorySource(out)


def from_logs(paths: Iterable[str], **kw: Any) -> MemorySource:
    """A store holding the session logs at ``paths`` (FORMAT.md files), each completed with the
    engine's derived events (:func:`engine.fold.complete`) and keyed by its ``session`` id."""
    from engine.fold import complete
    from events.codec import read_file

    streams: dict[str, list[AnyEvent]] = {}
    for path in paths:
        steps = list(complete(read_file(path)))
        session = steps[-1].state.session
        streams[session] = [st.event for st in steps]
    return interleave(streams, **kw)


class JsonlSource:
    """A store kept as a JSON Lines file of ``{"position", "session", "seq", "event"}`` objects,
    appended in position order (tests run the projector in another process against it)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._cache: list[SourceEvent] = []
        self._positions: list[int] = []
        self._offset = 0

    @staticmethod
    def write(path: str, events: Iterable[SourceEvent]) -> None:
        from events.codec import to_json

        with open(path, "a", encoding="utf-8") as fp:
            for e in events:
                row = {"position": e.position, "session": e.session, "seq": e.seq}
                row["event"] = to_json(e.event)
                fp.write(json.dumps(row) + "\n")

    def _load(self) -> list[SourceEvent]:
        from events.codec import parse_raw

        if not os.path.exists(self.path):
            return self._cache
        with open(self.path, "rb") as fp:
            fp.seek(self._offset)
            for line in fp:
                if not line.endswith(b"\n"):
                    break  # a line still being written
                raw = json.loads(line)
                self._cache.append(
                    SourceEvent(
                        raw["position"], raw["session"], raw["seq"], parse_raw(raw["event"])
                    )
                )
                self._positions.append(raw["position"])
                self._offset += len(line)
        return self._cache

    def read_all(self, after: int = 0, limit: int = 10_000) -> list[SourceEvent]:
        from bisect import bisect_right

        events = self._load()
        k = bisect_right(self._positions, after)
        return events[k : k + limit]

    def read(self, session: str) -> list[SourceEvent]:
        return [e for e in self._load() if e.session == session]


def default_projection(db: str) -> str:
    """The DuckDB projection's default file for the store ``db`` (a URL or a SQLite path).

    Beside a SQLite store: ``x.db`` -> ``x.duckdb``. A server store gets a file of its own in
    the working folder, named by its host, port (when not the default) and database, e.g.
    ``postgresql://club@db.example:5433/brag`` -> ``brag-db.example-5433-brag.duckdb``, with the
    schema a ``search_path`` option names after it (each character outside letters, digits,
    ``.``, ``-`` and ``_`` becomes ``_``): two stores never share a default projection.
    ``memory://`` -> ``brag-memory.duckdb``.

    >>> default_projection("club.db"), default_projection("sqlite:///x/club.sqlite")
    ('club.duckdb', 'x/club.duckdb')
    >>> default_projection("postgresql://ann:secret@127.0.0.1/test")
    'brag-127.0.0.1-test.duckdb'
    >>> default_projection("postgresql+psycopg://u@db.club:6000/season 2026")
    'brag-db.club-6000-season_2026.duckdb'
    >>> default_projection("postgresql://u@h/test?options=-csearch_path%3Dclub")
    'brag-h-test-club.duckdb'
    """
    path = db
    if path.startswith("sqlite:///"):
        path = path[len("sqlite:///") :]
    if path.startswith("memory:") or not path or path.startswith(":memory:"):
        return "brag-memory.duckdb"
    if "://" in path:
        return _server_projection(db)
    base, ext = os.path.splitext(path)
    return (base if ext in (".db", ".sqlite", ".sqlite3") else path) + ".duckdb"


def _server_projection(url: str) -> str:
    import re

    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        u = make_url(url)
        parts = [u.host or "local", str(u.port) if u.port and u.port != 5432 else "", u.database]
        schema = re.search(r"search_path\s*=\s*([^\s,]+)", str(u.query.get("options", "")))
        parts.append(schema.group(1) if schema else "")
    except (ArgumentError, ValueError):
        parts = [url.split("://", 1)[1].rsplit("@", 1)[-1].split("?")[0]]  # never a secret
    name = "-".join(p for p in parts if p)
    return "brag-" + (re.sub(r"[^A-Za-z0-9._-]", "_", name).strip(".") or "server") + ".duckdb"


def is_default_projection(path: str, db: str) -> bool:
    """Whether ``path`` is the store ``db``'s default projection file (:func:`default_projection`):
    one that belongs to that store by its name, so a projection of another store found there is
    rebuilt, where a file the user named is refused (:mod:`analytics.owner`)."""
    return os.path.abspath(path) == os.path.abspath(default_projection(db))


def open_source(url: str) -> Source:
    """The event store at ``url`` opened for reading (``log.open_store(url,
    readonly=True)``: nothing is created or migrated); a ``.jsonl`` file is read as a
    :class:`JsonlSource`."""
    if url.endswith(".jsonl"):
        return JsonlSource(url)
    from log.open import open_store

    return open_store(url, readonly=True)
