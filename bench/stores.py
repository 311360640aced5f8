"""Big SQLite stores for the benchmarks, built in seconds rather than hours.

``build(path, deals, base, seed)``: ``base`` sessions from the simulator (``sim.batch.generate``,
2 to 10 players) are stored through the store's validated ``import_log``; then the store's rows
are copied under new session names (``NAME-copyNNN``) and new event ids, straight into the table
in SQL, until it holds ``deals`` deals. Every copy is a valid log (the same events), and the
session catalogue (store version 3) gets each copy's row in the same transaction, its positions
moved to the copy's, so that the catalogue equals what the appends would have written.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from datetime import UTC, datetime

from events.codec import dumps
from log.open import open_store
from store.records import new_ids
from store.schema import CATALOGUE, CATALOGUE_COLUMNS, INSERT_COLUMNS, TABLE

__all__ = ["build", "count_deals"]


def count_deals(path: str) -> int:
    """Deals dealt in the store at ``path`` (0 when there is no store)."""
    if not os.path.exists(path):
        return 0
    with sqlite3.connect(path) as conn:
        try:
            row = conn.execute(f"SELECT count(*) FROM {TABLE} WHERE type = 'dealt'").fetchone()
        except sqlite3.OperationalError:
            return 0
    return int(row[0])


def build(path: str, deals: int, base: int, seed: str, *, quiet: bool = False) -> None:
    """Fills the store at ``path`` with at least ``deals`` deals (see the module doc)."""
    from sim.batch import generate

    t0 = time.perf_counter()
    with open_store(path) as store:
        for events in generate(seed, base, (2, 10)):
            store.import_log(dumps(e) for e in events)
    have = count_deals(path)
    if not quiet:
        print(
            f"  {base} simulated sessions, {have:,} deals, "
            f"stored in {time.perf_counter() - t0:.1f} s"
        )
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA synchronous=OFF")  # a bulk load of copies; the store's appends stay FULL
    rows = conn.execute(
        f"SELECT position, session, seq, type, v, payload, at, by FROM {TABLE} ORDER BY position"
    ).fetchall()
    index = {r[0]: k for k, r in enumerate(rows)}
    catalogue = conn.execute(f"SELECT {CATALOGUE_COLUMNS} FROM {CATALOGUE}").fetchall()
    per_copy = have
    stamp = datetime.now(UTC).isoformat()
    sql = f"INSERT INTO {TABLE} ({INSERT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
    marks = ", ".join("?" * len(CATALOGUE_COLUMNS.split(", ")))
    cat_sql = f"INSERT INTO {CATALOGUE} ({CATALOGUE_COLUMNS}) VALUES ({marks})"
    copy = 0
    t1 = time.perf_counter()
    while have < deals:
        copy += 1
        ids = new_ids(len(rows))
        batch = []
        for (_, session, seq, type_, v, payload, at, by), id_ in zip(rows, ids, strict=True):
            name = f"{session}-copy{copy:03d}"
            if type_ == "session_started":
                data = json.loads(payload)
                data["session"] = name
                payload = json.dumps(data, separators=(",", ":"))
            batch.append((name, seq, id_, type_, v, payload, at, by, stamp))
        conn.execute("BEGIN IMMEDIATE")
        start = int(conn.execute(f"SELECT coalesce(max(position), 0) FROM {TABLE}").fetchone()[0])
        conn.executemany(sql, batch)
        # AUTOINCREMENT inside one write transaction: the copy's positions follow on.
        cats = []
        for r in catalogue:
            c = list(r)
            c[0] = f"{c[0]}-copy{copy:03d}"
            c[6] = stamp
            c[15] = start + 1 + index[c[15]]
            c[16] = start + 1 + index[c[16]]
            cats.append(tuple(c))
        conn.executemany(cat_sql, cats)
        conn.execute("COMMIT")
        have += per_copy
    conn.close()
    if not quiet:
        print(f"  {copy} copies written in {time.perf_counter() - t1:.1f} s: {have:,} deals")
