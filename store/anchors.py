"""Store version 6 (issue 32): the annotations beside a stream point at an event, not at a step
number. The migration's step shared by both backends (:data:`store.schema.SQLITE_MIGRATIONS`,
:data:`store.schema.PG_MIGRATIONS`): each row of an older store is given its event once, by the
numbering it was written under (:func:`store.annotations.v5_anchors`)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from store.annotations import ANNOTATIONS, StreamEntry, v5_anchors

__all__ = ["annotations_point_at_events", "pg_v6", "sqlite_v6"]


def _stream(store: Any, conn: Any, table: str, session: str) -> list[StreamEntry]:
    """The session's stored events as :func:`store.annotations.v5_anchors` reads them."""
    payload = f"CASE WHEN type = 'voided' THEN {store.PAYLOAD_TEXT} END"
    got = conn.execute(
        store.sql(f"SELECT seq, id, type, {payload} FROM {table} WHERE session = ? ORDER BY seq"),
        (session,),
    ).fetchall()
    out = []
    for seq, id_, type_, voided in got:
        withdraws = json.loads(voided).get("seq") if voided is not None else None
        out.append(StreamEntry(str(type_), str(id_), int(seq), withdraws))
    return out


def annotations_point_at_events(store: Any, conn: Any, table: str) -> None:
    """Version 6's step (issue 32): each ``note`` row gets the id of the event at its ``(deal,
    step)`` and each ``cards`` row that of its deal's ``dealt``, as versions 4 and 5 numbered them
    (:func:`store.annotations.v5_anchors`, on the stream as it stands: the best that can be known
    for a row written before this version, which kept only the numbers). A row whose step is no
    longer there keeps ``event`` ``NULL`` (shown on a withdrawn step). Inside the opening
    transaction, with the caller lifting the table's UPDATE trigger around it; ``table``: the
    events table."""
    rows = conn.execute(
        f"SELECT position, session, kind, deal, step FROM {ANNOTATIONS} "
        "WHERE kind IN ('note', 'cards') AND event IS NULL ORDER BY position"
    ).fetchall()
    sessions: dict[str, dict[tuple[int, int], str]] = {}
    updates: list[tuple[str, int]] = []
    for position, session, kind, deal, step in rows:
        if session not in sessions:
            sessions[session] = v5_anchors(_stream(store, conn, table, session))
        key = (int(deal), 1 if kind == "cards" else int(step or 0)) if deal is not None else None
        event = sessions[session].get(key) if key is not None else None
        if event is not None:
            updates.append((event, int(position)))
    if updates:
        conn.cursor().executemany(
            store.sql(f"UPDATE {ANNOTATIONS} SET event = ? WHERE position = ?"), updates
        )


def sqlite_v6(
    store: Any, conn: Any, *, table: str, annotations_ddl: Callable[[], list[str]]
) -> None:
    """Version 6 (:mod:`store.anchors`), the UPDATE trigger lifted to fill the new column."""
    cols = {r[1] for r in conn.execute(f"PRAGMA table_info({ANNOTATIONS})")}
    if "event" not in cols:
        conn.execute(f"ALTER TABLE {ANNOTATIONS} ADD COLUMN event TEXT")
    conn.execute(f"DROP TRIGGER IF EXISTS {ANNOTATIONS}_no_update")
    annotations_point_at_events(store, conn, table)
    for stmt in annotations_ddl()[2:]:
        conn.execute(stmt)


def pg_v6(store: Any, conn: Any, *, table: str) -> None:
    """Version 6 (:mod:`store.anchors`), the UPDATE trigger lifted to fill the new column."""
    conn.execute(f"ALTER TABLE {ANNOTATIONS} ADD COLUMN IF NOT EXISTS event TEXT")
    conn.execute(f"ALTER TABLE {ANNOTATIONS} DISABLE TRIGGER {ANNOTATIONS}_no_update_delete")
    annotations_point_at_events(store, conn, table)
    conn.execute(f"ALTER TABLE {ANNOTATIONS} ENABLE TRIGGER {ANNOTATIONS}_no_update_delete")
