"""From a club to a league: listing sessions and rebuilding statistics at 10k, 100k and 1M deals.

    .venv/bin/python bench/scale.py [--sizes 10000,100000,1000000] [--rebuild-at 100000]
                                    [--base 100] [--dir DIR] [--keep]

One SQLite store grows through the sizes. It starts with ``--base`` sessions from the simulator
stored through the validated ``import_log`` (2 to 10 players); then, as ``bench/dashboard.py``
does, its sessions are copied under new names and new event ids, here entirely in SQL (each copy
of a session is the same valid log; the session catalogue gets each copy's row, its positions
moved to the copy's), until the store holds the size's deals. The bulk load runs without fsync
(``synchronous=OFF``); the store's own appends keep ``FULL``.

At each size, median of 5 (each in this process, so Python's start-up is left out):

- ``brag sessions``: the command's whole work (open the store read-only, read one page of the
  catalogue and count it, print the table to a null device), and apart the store's part of it
  (open, the page, the count: what grows with the store; the table's drawing by rich does not);
- a cold session picker: the dashboard's ``cache.session_ids(limit=PICKER_LIMIT)`` with every
  Streamlit cache cleared (a server's first page: the store opened, a page of the catalogue read).

Targets: each under 100 ms at 1M deals, and within 2x between 10k and 1M deals.

When the store holds ``--rebuild-at`` deals: ``brag analytics refresh --rebuild --jobs 1`` and
``--jobs 2`` on it, each into its own DuckDB file, timed; target: ``--jobs 2`` at least 1.8x
faster, and the two projections hold the same rows (compared table by table).

Disk: about 260 bytes an event; 1M deals are about 33M events, some 9 GB (``df -h`` first). The
store is deleted at the end unless ``--keep`` (or ``--dir`` names where to keep it).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.stores import count_deals  # noqa: E402
from dashboard.common import stores  # noqa: E402
from events.codec import dumps  # noqa: E402
from log.open import open_store  # noqa: E402
from store.schema import CATALOGUE, CATALOGUE_COLUMNS, TABLE  # noqa: E402

LIST_TARGET_MS = 100.0
SPREAD_TARGET = 2.0
JOBS_TARGET = 1.8


def seed_store(path: str, base: int, seed: str) -> None:
    from sim.batch import generate

    t = time.perf_counter()
    with open_store(path) as store:
        for events in generate(seed, base, (2, 10)):
            store.import_log(dumps(e) for e in events)
    print(f"  {base} simulated sessions stored in {time.perf_counter() - t:.1f} s")


def grow(path: str, target: int) -> int:
    """Copies sessions (whole, in the order stored) until the store holds ``target`` deals."""
    conn = sqlite3.connect(path, isolation_level=None, timeout=60)
    conn.execute("PRAGMA synchronous=OFF")  # a bulk load of copies; the store's appends stay FULL
    have = int(conn.execute(f"SELECT coalesce(sum(deals), 0) FROM {CATALOGUE}").fetchone()[0])
    copy = int(conn.execute(f"SELECT count(*) FROM {CATALOGUE}").fetchone()[0])
    t = time.perf_counter()
    cols = CATALOGUE_COLUMNS.split(", ")
    while have < target:
        need = target - have
        found = conn.execute(
            f"""SELECT last_position, cum FROM (SELECT last_position,
                sum(deals) OVER (ORDER BY first_position) AS cum FROM {CATALOGUE})
                WHERE cum >= ? ORDER BY cum LIMIT 1""",
            (need,),
        ).fetchone()
        if found is None:
            cutoff, adds = conn.execute(
                f"SELECT max(last_position), sum(deals) FROM {CATALOGUE}"
            ).fetchone()
        else:
            cutoff, adds = found
        copy += 1
        suffix = f"-c{copy}"
        conn.execute("BEGIN IMMEDIATE")
        start = int(conn.execute(f"SELECT max(position) FROM {TABLE}").fetchone()[0])
        # Sessions are stored one after another (import and copy), so the rows up to a
        # session's last position are whole sessions; the copy's positions follow on.
        conn.execute(
            f"""INSERT INTO {TABLE} (session, seq, id, type, v, payload, at, by, stored_at)
            SELECT session || ?1, seq, printf('%08x-%04x-7000-8000-%012x', ?2, 0, position),
                   type, v,
                   CASE WHEN type = 'session_started'
                        THEN json_set(payload, '$.session', session || ?1) ELSE payload END,
                   at, by, stored_at
            FROM {TABLE} WHERE position <= ?3 ORDER BY position""",
            (suffix, copy, cutoff),
        )
        moved = {
            "session": "session || ?1",
            "first_position": "first_position + ?2",
            "last_position": "last_position + ?2",
        }
        select = ", ".join(moved.get(c, c) for c in cols)
        conn.execute(
            f"INSERT INTO {CATALOGUE} ({CATALOGUE_COLUMNS}) SELECT {select} FROM {CATALOGUE} "
            "WHERE last_position <= ?3",
            (suffix, start, cutoff),
        )
        conn.execute("COMMIT")
        have += int(adds)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    print(f"  grown to {have:,} deals in {time.perf_counter() - t:.1f} s")
    return have


def median_ms(fn: Callable[[], object], runs: int = 5) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def brag_sessions(path: str) -> None:
    from brag.cli import main

    with open(os.devnull, "w") as null, contextlib.redirect_stdout(null):
        assert main(["sessions", "--db", path]) == 0


def store_part(path: str) -> None:
    from brag.cmd_store import SESSIONS_PAGE

    with open_store(path, readonly=True) as store:
        store.sessions(order="oldest", limit=SESSIONS_PAGE)
        store.session_count()


def cold_picker(path: str) -> list[str]:
    import streamlit as st

    from dashboard.common import cache

    st.cache_resource.clear()
    st.cache_data.clear()
    os.environ["BRAG_DB"] = path
    ids = cache.session_ids(limit=cache.PICKER_LIMIT)
    stores.store().close()  # the next run is cold again (and the bulk load may write)
    return ids


def rebuild_pair(path: str, work: str) -> tuple[float, float, bool]:
    """``refresh --rebuild --jobs 1`` and ``--jobs 2`` on the store; seconds, and equal rows."""
    import duckdb

    from analytics.parallel import PROJECTED_TABLES
    from brag.cli import main

    out = {}
    for jobs in (1, 2):
        target = os.path.join(work, f"jobs{jobs}.duckdb")
        with contextlib.suppress(FileNotFoundError):
            os.remove(target)
        t = time.perf_counter()
        with contextlib.redirect_stdout(io.StringIO()):
            argv = ["analytics", "refresh", "--rebuild", "--jobs", str(jobs)]
            assert main([*argv, "--db", path, "--analytics", target]) == 0
        out[jobs] = (time.perf_counter() - t, target)
    same = True
    a = duckdb.connect(out[1][1], read_only=True)
    b = duckdb.connect(out[2][1], read_only=True)
    for table in (*PROJECTED_TABLES, "checkpoint"):
        q = f"SELECT * FROM {table} ORDER BY ALL"
        if a.execute(q).fetchall() != b.execute(q).fetchall():
            same = False
            print(f"  {table}: the two projections differ")
    a.close()
    b.close()
    return out[1][0], out[2][0], same


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument(
        "--sizes",
        type=lambda t: [int(x) for x in t.split(",")],
        default=[10_000, 100_000, 1_000_000],
    )
    ap.add_argument("--rebuild-at", type=int, default=100_000)
    ap.add_argument("--base", type=int, default=100, help="simulated sessions to start from")
    ap.add_argument("--seed", default="bench-scale")
    ap.add_argument("--dir", help="where the store goes (kept); default a temporary folder")
    ap.add_argument("--keep", action="store_true")
    args = ap.parse_args(argv)

    work = args.dir or tempfile.mkdtemp(prefix="brag-scale-")
    os.makedirs(work, exist_ok=True)
    path = os.path.join(work, "league.db")
    print(
        f"store {path}; {os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f}; "
        f"free disk {shutil.disk_usage(work).free / 1e9:.0f} GB"
    )
    try:
        if count_deals(path) == 0:
            seed_store(path, args.base, args.seed)
        listing: dict[int, tuple[float, float, float]] = {}
        rebuild: tuple[float, float, bool] | None = None
        for size in sorted(args.sizes):
            if count_deals(path) > size * 1.05:
                print(f"{size:>9,} deals: skipped (the store in {work} already holds more)")
                continue
            have = grow(path, size)
            brag_sessions(path)  # the first run opens the file (the OS cache); then timed
            s_ms = median_ms(lambda: brag_sessions(path))
            part_ms = median_ms(lambda: store_part(path))
            p_ms = median_ms(lambda: cold_picker(path))
            listing[size] = (s_ms, p_ms, part_ms)
            with open_store(path, readonly=True) as store:
                n = store.session_count()
                events = store.last_position()
            print(
                f"{have:>9,} deals, {n:,} sessions, {events:,} events: brag sessions "
                f"{s_ms:.1f} ms (the store's part {part_ms:.1f} ms); cold session picker "
                f"{p_ms:.1f} ms"
            )
            if rebuild is None and have >= args.rebuild_at:
                rebuild = rebuild_pair(path, work)
                one, two, same = rebuild
                print(
                    f"  refresh --rebuild at {have:,} deals: --jobs 1 {one:.1f} s, --jobs 2 "
                    f"{two:.1f} s: {one / two:.2f}x (target >= {JOBS_TARGET}: "
                    f"{'met' if one / two >= JOBS_TARGET and same else 'MISSED'}); "
                    f"results {'equal' if same else 'DIFFERENT'}"
                )
        if not listing:
            return 0
        small, big = min(listing), max(listing)
        print()
        whats = ("brag sessions", "cold session picker", "brag sessions, the store's part")
        for i, what in enumerate(whats):
            at_big = listing[big][i]
            spread = at_big / listing[small][i]
            print(
                f"{what}: {at_big:.1f} ms at {big:,} deals (target < {LIST_TARGET_MS:.0f} ms: "
                f"{'met' if at_big < LIST_TARGET_MS else 'MISSED'}); {big:,} / {small:,} deals "
                f"= {spread:.2f}x (target <= {SPREAD_TARGET}: "
                f"{'met' if spread <= SPREAD_TARGET else 'MISSED'})"
            )
    finally:
        if not (args.keep or args.dir):
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
