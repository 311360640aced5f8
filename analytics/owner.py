"""Which store a projection belongs to: the projection records its store's id in ``meta``, and a
refresh from any other store is refused, so the statistics of two stores never mix.

A store has an id (``brag_meta`` ``store_id``, a UUID written by the first writer:
:data:`store.schema.STORE_ID`; an older store only read since has ``location:`` and where it is,
:attr:`store.sql.SqlRecorder.store_id`). The first refresh of an empty projection records the
store's id and its address as shown to people (``meta`` keys :data:`STORE_KEY`,
:data:`WHERE_KEY`); every later refresh compares. A projection of another store, or one that
has rows but no store recorded (built before projections recorded their store), raises
:class:`ForeignProjection` naming both stores; the caller rebuilds it (the default projection
beside its store: ``brag stats``, the dashboard) or refuses in one line (a projection the user
named, ``--analytics PATH``). A rebuild starts from nothing and records the store it reads.

A copy of a store file (``cp a.db b.db``) keeps the store's id; once the two diverge, the
copy is told apart by the last event projected (issue 33): every checkpoint written also
records the position and the id of the store's event it stands at (``meta`` key
:data:`EVENT_KEY`, :func:`mark`), and a refresh (:func:`claim`) or a reading command
(:func:`diverged`) finds that event at that position of the store, or refuses the projection
naming both stores: the store's log is then not the one the statistics were built from.

Sources without an id (the tests' :class:`~analytics.sources.MemorySource`, a ``.jsonl`` file)
are not checked.
"""

from __future__ import annotations

from typing import Any

import duckdb

from analytics.errors import ProjectionError
from store.address import shown_address

__all__ = [
    "EVENT_KEY",
    "STORE_KEY",
    "WHERE_KEY",
    "ForeignProjection",
    "claim",
    "diverged",
    "mark",
    "mark_at",
    "recorded_store",
]

STORE_KEY = "store_id"
"""``meta`` key: the id of the store the projection was built from."""
WHERE_KEY = "store"
"""``meta`` key: that store's address as shown to people (no password)."""
EVENT_KEY = "store_event"
"""``meta`` key: ``"POSITION ID"``, the store's event the checkpoint stands at (its global
position and its id), written with every checkpoint."""


class ForeignProjection(ProjectionError):
    """A projection built from another store than the one it is refreshed from (or from an
    unrecorded one): ``recorded`` and ``wanted`` are ``(store id, address)``; ``recorded`` is
    ``None`` when the projection names no store."""

    def __init__(
        self, recorded: tuple[str, str] | None, wanted: tuple[str, str], message: str
    ) -> None:
        super().__init__(message)
        self.recorded = recorded
        self.wanted = wanted


def _store_of(source: Any) -> tuple[str, str] | None:
    """``(id, address)`` of the store ``source`` reads, or ``None`` for a source without an id."""
    sid = getattr(source, "store_id", None)
    if not isinstance(sid, str) or not sid:
        return None
    where = getattr(source, "where", None) or getattr(source, "url", None) or sid
    return sid, shown_address(str(where))


def recorded_store(con: duckdb.DuckDBPyConnection) -> tuple[str, str] | None:
    """``(store id, address)`` recorded in the projection ``con``, or ``None``."""
    try:
        rows = con.execute(
            "SELECT key, value FROM meta WHERE key IN ($k, $w)", {"k": STORE_KEY, "w": WHERE_KEY}
        ).fetchall()
    except duckdb.CatalogException:  # no meta table: not a projection (yet)
        return None
    meta = {str(k): str(v) for k, v in rows}
    if STORE_KEY not in meta:
        return None
    return meta[STORE_KEY], shown_address(meta.get(WHERE_KEY, meta[STORE_KEY]))


def _has_rows(con: duckdb.DuckDBPyConnection) -> bool:
    found = con.execute("SELECT count(*) FROM checkpoint").fetchone()
    return bool(found and found[0])


def claim(con: duckdb.DuckDBPyConnection, source: Any) -> None:
    """Checks that the projection ``con`` (tables created) belongs to the store ``source``
    reads, recording it in an empty projection. Raises :class:`ForeignProjection` naming both
    stores when it belongs to another (or to none recorded, but has rows); changes nothing then.
    """
    wanted = _store_of(source)
    if wanted is None:
        return
    have = recorded_store(con)
    if have is not None and have[0] == wanted[0]:
        why = diverged(con, source)
        if why is not None:
            raise ForeignProjection(have, wanted, _copy_said(have, wanted, why))
        return
    if have is None and not _has_rows(con):
        con.execute(
            "INSERT OR REPLACE INTO meta VALUES ($k, $v), ($wk, $wv)",
            {"k": STORE_KEY, "v": wanted[0], "wk": WHERE_KEY, "wv": wanted[1]},
        )
        return
    if have is None:
        said = "was built before statistics files recorded their store"
    else:
        said = f"belongs to the store {have[1]} (id {have[0]})"
    raise ForeignProjection(
        have, wanted, f"{said}, not to {wanted[1]} (id {wanted[0]}): its numbers are not mixed"
    )


def _copy_said(have: tuple[str, str], wanted: tuple[str, str], why: str) -> str:
    return (
        f"belongs to the store {have[1]} (id {have[0]}); {wanted[1]} has that id but another "
        f"log, a copy that has diverged ({why}): its numbers are not mixed"
    )


def mark(con: duckdb.DuckDBPyConnection, event: Any) -> None:
    """Records ``event`` (a stored event: ``position``, ``id``) as the one the checkpoint stands
    at (:data:`EVENT_KEY`), in the caller's transaction; an event without an id (a source that
    is no store) records nothing."""
    eid = getattr(event, "id", None)
    if event is None or eid is None:
        return
    con.execute(
        "INSERT OR REPLACE INTO meta VALUES ($k, $v)",
        {"k": EVENT_KEY, "v": f"{int(event.position)} {eid}"},
    )


def mark_at(con: duckdb.DuckDBPyConnection, source: Any, position: int) -> None:
    """:func:`mark` of the store's event at ``position`` (a rebuild's checkpoint)."""
    if position <= 0 or _store_of(source) is None:
        return
    got = source.read_all(after=position - 1, limit=1)
    if got and got[0].position == position:
        mark(con, got[0])


def _marked(con: duckdb.DuckDBPyConnection) -> tuple[int, str] | None:
    try:
        rows = con.execute("SELECT value FROM meta WHERE key = $k", {"k": EVENT_KEY}).fetchall()
    except duckdb.CatalogException:
        return None
    if not rows:
        return None
    position, _, eid = str(rows[0][0]).partition(" ")
    return (int(position), eid) if position.isdigit() and eid else None


def diverged(con: duckdb.DuckDBPyConnection, source: Any) -> str | None:
    """Why the store ``source`` reads is not the one the projection ``con`` was built from
    although it has its id (a copy that has diverged: the event the checkpoint stands at is not
    the store's at that position), in a few words; ``None`` when it is (or nothing says)."""
    if _store_of(source) is None:
        return None
    marked = _marked(con)
    if marked is None:
        return None
    position, eid = marked
    got = source.read_all(after=position - 1, limit=1)
    if got and got[0].position == position and str(got[0].id) == eid:
        return None
    if not got or got[0].position != position:
        return f"it holds no event at position {position}, the statistics' last"
    return f"its event at position {position} is not the one the statistics were built from"
