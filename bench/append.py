"""How fast the event store appends, beside the eventsourcing library and plain sqlite3.

    .venv/bin/python bench/append.py [--sessions 1000] [--source sim|random] [--ids sim|v4]
                                     [--writers 1,2] [--dir DIR]

Simulated sessions (``sim.batch``, the project's simulator; ``--source random`` draws them from
``engine.legal.legal_actions`` directly), appended one deal per transaction, SQLite in WAL mode with
``synchronous=FULL``, one file per contender on the same disk:

- **bragbook**: ``EventStore.append(session, recorded events of the deal, expected_seq)``: the
  engine validates every event against the cached state, adds the derived events, the store checks
  the seq and ids and inserts in one ``BEGIN IMMEDIATE`` transaction.
- **eventsourcing**: the library's SQLite recorders (``SQLiteApplicationRecorder``, which keeps a
  global order like ours, and ``SQLiteAggregateRecorder``) storing the same payloads in the same
  batches (its ``StoredEvent`` objects built beforehand; no validation).
- **plain sqlite3**: ``executemany`` of the very rows our store writes, into the same table with the
  same settings, prepared beforehand: the limit.

Targets (issue 15, each printed as a ratio): the store's own cost per event, an append's time less
the engine's fold of the same events (both measured in the same run), at most the eventsourcing
recorder's time per event for the same rows (which validates nothing); the validated append at
least 0.5x plain ``executemany`` with 2 writer processes; at least 1,000 single-event commits per
second.

Each runs with one writer, then with two writer processes (the sessions split between them,
started together): SQLite has one write lock, so a second process only helps whoever has CPU work
to do outside it (our validation). Then single-event commits (one recorded event per append,
validated) and the ratios. Every number is events per second of wall time; the same events are
stored in each run. fsync dominates the SQL side: on a busy disk every number drops.

Event ids: the simulator's are UUID version 7 built from each event's time, and the store gives
new events (the derived ones here) version 7 ids too, so the unique index on ``id`` grows at its
end. ``--ids v4`` gives every event a random version 4 id instead (a log made by another tool):
then each event writes a random page of that index, and every SQLite contender but eventsourcing
(which stores no event id) slows down.

Where an append's time goes (300 sessions, one writer, 2026-11-29): about 9.3 µs per event of
Python with no I/O (the engine's fold 4.8, the JSON payload, id and time texts 2.5, the store's
own work 1.5 and the rows), then about 8.9 µs of SQLite (2.5 in ``executemany``, 6.1 in
``COMMIT``, mostly its fsync), against 7.4 µs per event for the whole plain insert.
"""

from __future__ import annotations

import argparse
import gc
import multiprocessing as mp
import os
import platform
import random
import shutil
import sqlite3
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from engine.apply import apply
from engine.fold import conclude
from engine.state import initial_state
from events.model import AnyEvent, is_derived
from log.open import open_store
from log.rows import rows_of as store_rows
from log.service import EventStore
from store.schema import INSERT_COLUMNS, TABLE

Row = tuple[str, int, str, str, int, str, str | None, str | None, str]


# --- the sessions -------------------------------------------------------------------------------


def sessions_from_sim(n: int, seed: str) -> list[list[list[AnyEvent]]]:
    from sim.batch import deal_chunks, generate

    return [list(deal_chunks(s)) for s in generate(seed, n, (2, 10))]


def sessions_from_random(n: int, seed: str) -> list[list[list[AnyEvent]]]:
    from store_helpers import deal_batches, random_session

    rng = random.Random(seed)
    return [deal_batches(random_session(f"rnd-{seed}-{k:04d}", rng)) for k in range(n)]


def rows_of(session: str, chunks: list[list[AnyEvent]], stored_at: str) -> list[list[Row]]:
    """The rows our store writes for these deals (built by the store's own ``_rows``)."""
    rows, _ = store_rows(session, 0, [e for chunk in chunks for e in chunk])
    out: list[list[Row]] = []
    for chunk in chunks:
        batch, rows = rows[: len(chunk)], rows[len(chunk) :]
        out.append(
            [(r.session, r.seq, r.id, r.type, r.v, r.payload, r.at, r.by, stored_at) for r in batch]
        )
    return out


# --- the contenders -----------------------------------------------------------------------------


def recorded_only(sessions: list[list[list[AnyEvent]]]) -> list[list[list[AnyEvent]]]:
    """The events a recorder sends: each deal's recorded events (the store derives the rest)."""
    return [[[e for e in chunk if not is_derived(e)] for chunk in chunks] for chunks in sessions]


def run_bragbook(store: EventStore, sessions: list[list[list[AnyEvent]]]) -> int:
    """Appends each deal's recorded events (:func:`recorded_only`); returns the rows stored."""
    n = 0
    for chunks in sessions:
        first = chunks[0][0]
        name = first.session  # type: ignore[union-attr]
        seq = 0
        for chunk in chunks:
            rows = store.append(name, chunk, seq)
            seq = rows[-1].seq
            n += len(rows)
    return n


def run_plain(path: str, sessions: list[list[list[Row]]]) -> int:
    batches = [b for s in sessions for b in s]
    conn = sqlite3.connect(path, isolation_level=None, timeout=10)
    assert conn.execute("PRAGMA journal_mode=WAL").fetchone()[0] == "wal"
    conn.execute("PRAGMA synchronous=FULL")
    sql = f"INSERT INTO {TABLE} ({INSERT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
    n = 0
    for b in batches:
        conn.execute("BEGIN IMMEDIATE")
        conn.executemany(sql, b)
        conn.execute("COMMIT")
        n += len(b)
    conn.close()
    return n


def es_batches(batches: list[list[Row]]) -> list[list[Any]]:
    """The same payloads as the library's ``StoredEvent`` (aggregate id from the session id)."""
    from eventsourcing.persistence import StoredEvent as ESStoredEvent

    ids: dict[str, uuid.UUID] = {}
    out = []
    for b in batches:
        out.append(
            [
                ESStoredEvent(
                    originator_id=ids.setdefault(r[0], uuid.uuid5(uuid.NAMESPACE_URL, r[0])),
                    originator_version=r[1],
                    topic=r[3],
                    state=r[5].encode(),
                )
                for r in b
            ]
        )
    return out


def es_recorder(path: str, kind: str) -> tuple[Any, Any]:
    from eventsourcing.sqlite import (
        SQLiteAggregateRecorder,
        SQLiteApplicationRecorder,
        SQLiteDatastore,
    )

    ds = SQLiteDatastore(path)
    cls = SQLiteApplicationRecorder if kind == "application" else SQLiteAggregateRecorder
    rec = cls(ds)
    rec.create_table()
    with ds.transaction(commit=False) as c:  # the same settings: WAL (set by the library), FULL
        c.execute("PRAGMA synchronous")
        sync = int(c.fetchone()[0])
    assert sync == 2, f"eventsourcing would run with synchronous={sync}"
    return ds, rec


def run_eventsourcing(path: str, kind: str, sessions: list[list[list[Any]]]) -> int:
    ds, rec = es_recorder(path, kind)
    n = 0
    for s in sessions:
        for b in s:
            rec.insert_events(b)
            n += len(b)
    ds.close()
    return n


def run_single(store: EventStore, seconds: float, seed: int) -> tuple[int, float]:
    """Sessions played one recorded event per append (each validated, each a commit)."""
    from store_helpers import advance, choose, start

    rng = random.Random(seed)
    n, k = 0, 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        name = f"single-{seed}-{k}"
        k += 1
        first = start(name, rng, pots=2)
        state, _ = advance(initial_state(), first)
        seq = store.append(name, [first], 0)[-1].seq
        while (e := choose(state, rng)) is not None and time.perf_counter() - t0 < seconds:
            state, _ = advance(state, e)
            seq = store.append(name, [e], seq)[-1].seq
            n += 1
    return n, time.perf_counter() - t0


def parallel(writers: int, work: Callable[[int], int]) -> tuple[int, float]:
    """``work(i)`` in ``writers`` forked processes started together: (events, wall seconds)."""
    if writers == 1:
        return timed(lambda: work(0))
    ctx = mp.get_context("fork")
    start_line = ctx.Barrier(writers + 1)
    done = ctx.Queue()

    def child(i: int) -> None:
        start_line.wait()
        done.put(work(i))

    procs = [ctx.Process(target=child, args=(i,)) for i in range(writers)]
    for p in procs:
        p.start()
    start_line.wait()
    t0 = time.perf_counter()
    n = sum(done.get() for _ in procs)
    dt = time.perf_counter() - t0
    for p in procs:
        p.join()
        assert p.exitcode == 0
    return n, dt


def timed(fn: Callable[[], int]) -> tuple[int, float]:
    t0 = time.perf_counter()
    n = fn()
    return n, time.perf_counter() - t0


def fold_only(sessions: list[list[list[AnyEvent]]]) -> int:
    """The engine's share: the fold of the same recorded events, deal by deal, with the derived
    events it concludes, as an append folds them (``engine.apply.apply``,
    ``engine.fold.conclude``); no I/O, no payloads. Returns the events, derived ones counted."""
    n = 0
    for chunks in sessions:
        state = initial_state()
        for chunk in chunks:
            for e in chunk:
                if is_derived(e):
                    continue
                if state.pending:
                    state, derived = conclude(state)
                    n += len(derived)
                state = apply(state, e)
                n += 1
            if state.pending:
                state, derived = conclude(state)
                n += len(derived)
    return n


def fresh_dir(base: Path, name: str) -> str:
    d = base / name
    d.mkdir(parents=True, exist_ok=True)
    return str(d / "events.db")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--sessions", type=int, default=1000)
    ap.add_argument("--source", choices=("sim", "random"), default="sim")
    ap.add_argument("--seed", default="1")
    ap.add_argument(
        "--ids",
        choices=("sim", "v4"),
        default="sim",
        help="event ids: the simulator's (UUID version 7, time-ordered, as the store gives new "
        "events) or random version 4 (a log made elsewhere); default sim",
    )
    ap.add_argument("--single-seconds", type=float, default=5.0)
    ap.add_argument(
        "--slices",
        type=int,
        default=20,
        help="the contenders take turns over this many slices of the sessions (default 20)",
    )
    ap.add_argument(
        "--writers",
        type=lambda t: [int(x) for x in t.split(",")],
        default=[1, 2],
        help="writer processes per run, comma-separated (default 1,2)",
    )
    ap.add_argument("--dir", help="where the databases go (default: a new temporary directory)")
    args = ap.parse_args(argv)

    base = Path(args.dir or tempfile.mkdtemp(prefix="brag-bench-"))
    base.mkdir(parents=True, exist_ok=True)
    try:
        return _run(args, base)
    finally:
        if not args.dir:
            shutil.rmtree(base, ignore_errors=True)


def _run(args: argparse.Namespace, base: Path) -> int:
    t0 = time.perf_counter()
    make = sessions_from_sim if args.source == "sim" else sessions_from_random
    try:
        sessions = make(args.sessions, args.seed)
    except ImportError:
        sessions = sessions_from_random(args.sessions, args.seed)
        args.source = "random"
    if args.ids == "v4":
        sessions = [
            [[e.model_copy(update={"id": uuid.uuid4()}) for e in chunk] for chunk in chunks]
            for chunks in sessions
        ]
    gen = time.perf_counter() - t0
    deals = sum(len(c) for c in sessions)
    events = sum(len(ch) for c in sessions for ch in c)
    print(
        f"{len(sessions)} sessions ({args.source}), {deals} deals, {events} events "
        f"({events / deals:.1f} per deal, ids {args.ids}); generated in {gen:.1f} s; python "
        f"{platform.python_version()}, sqlite {sqlite3.sqlite_version}, {os.cpu_count()} cores; "
        f"load average {os.getloadavg()[0]:.1f}; databases in {base}"
    )
    stamp = "2026-11-29T00:00:00+00:00"
    rows = [rows_of(c[0][0].session, c, stamp) for c in sessions]  # type: ignore[union-attr]
    es_rows = [es_batches(r) for r in rows]
    recorded = recorded_only(sessions)
    # The prebuilt inputs (every contender's events and rows, held for the whole run) would not
    # exist in an importer reading one file at a time; out of the collector's sight, they do not
    # make each full collection during the bragbook runs scan a million objects.
    gc.collect()
    gc.freeze()

    labels = {
        "bragbook": "bragbook EventStore.append (validated)",
        "es-application": "eventsourcing SQLiteApplicationRecorder",
        "es-aggregate": "eventsourcing SQLiteAggregateRecorder",
        "plain": "plain sqlite3 executemany, our rows (the limit)",
    }
    rates: dict[int, dict[str, float]] = {}
    slices = max(1, min(args.slices, len(sessions)))
    for writers in args.writers:
        tag = f"w{writers}"
        paths = {
            "plain": fresh_dir(base, f"plain-{tag}"),
            "es-application": fresh_dir(base, f"es-application-{tag}"),
            "es-aggregate": fresh_dir(base, f"es-aggregate-{tag}"),
            "bragbook": fresh_dir(base, f"bragbook-{tag}"),
        }
        open_store(paths["plain"]).close()  # our very table, triggers and all
        with open_store(paths["bragbook"]) as store:
            assert store.settings()["synchronous"] == 2  # type: ignore[attr-defined]
        for kind in ("application", "aggregate"):
            es_recorder(paths[f"es-{kind}"], kind)[0].close()

        def work(
            name: str, lo: int, hi: int, w: int = writers, paths: dict[str, str] = paths
        ) -> Callable[[int], int]:
            """Sessions lo..hi of the run, split between the ``w`` writer processes."""

            def run(i: int) -> int:
                mine = range(lo + i, hi, w)
                p = paths[name]
                if name == "plain":
                    return run_plain(p, [rows[k] for k in mine])
                if name.startswith("es-"):
                    return run_eventsourcing(p, name[3:], [es_rows[k] for k in mine])
                with open_store(p) as store:
                    return run_bragbook(store, [recorded[k] for k in mine])

            return run

        # The contenders take turns slice by slice (in rotating order), so that a change in the
        # machine's load during the run falls on all of them alike.
        order = ["bragbook", "es-application", "es-aggregate", "plain"]
        results: dict[str, tuple[int, float]] = {k: (0, 0.0) for k in order}
        bounds = [len(sessions) * j // slices for j in range(slices + 1)]
        for j in range(slices):
            turn = order[j % len(order) :] + order[: j % len(order)]
            for name in turn:
                n, dt = parallel(writers, work(name, bounds[j], bounds[j + 1]))
                results[name] = (results[name][0] + n, results[name][1] + dt)
        for k, (n, _) in results.items():
            assert n == events, (k, n, events)
        rates[writers] = {k: n / dt for k, (n, dt) in results.items()}
        print()
        who = "1 writer" if writers == 1 else f"{writers} writer processes (sessions split)"
        print(f"{'one deal per transaction, ' + who:<58} {'events/s':>10} {'seconds':>8}")
        for k in ("bragbook", "es-application", "es-aggregate", "plain"):
            n, dt = results[k]
            print(f"  {labels[k]:<56} {n / dt:>10,.0f} {dt:>8.2f}")

    fold_n, fold_dt = timed(lambda: fold_only(sessions))
    assert fold_n == events, (fold_n, events)
    print(
        f"  {'(the engine folding the same deals, no I/O)':<56} {fold_n / fold_dt:>10,.0f} "
        f"{fold_dt:>8.2f}"
    )

    single_path = fresh_dir(base, "single")
    with open_store(single_path) as store:
        sn, sdt = run_single(store, args.single_seconds, seed=7)
    s_rate = sn / sdt
    plain_single = _plain_single(fresh_dir(base, "plain-single"), rows, args.single_seconds)
    print()
    print(f"{'one event per transaction, 1 writer':<58} {'commits/s':>10}")
    print(f"  {'bragbook EventStore.append (validated)':<56} {s_rate:>10,.0f}")
    print(f"  {'plain sqlite3 single-row commits':<56} {plain_single:>10,.0f}")

    # The targets (issue 15): what the store itself costs per event (an append's time less the
    # engine's fold of the same events, both measured in this run) against what the
    # eventsourcing recorder takes for the same rows, which validates nothing; the whole
    # validated append against the bare insert with two writers; single-event commits.
    one = rates[min(rates)]
    append_us = 1e6 / one["bragbook"]
    fold_us = 1e6 * fold_dt / fold_n
    own_us = append_us - fold_us
    print()
    print(
        f"per event, 1 writer: append {append_us:.1f} µs = engine fold {fold_us:.1f} µs + the "
        f"store's own {own_us:.1f} µs"
    )
    print("ratios (each target beside it)")
    for name, key in (
        ("eventsourcing application recorder", "es-application"),
        ("eventsourcing aggregate recorder", "es-aggregate"),
    ):
        es_us = 1e6 / one[key]
        value = es_us / own_us if own_us > 0 else float("inf")
        ok = "met" if value >= 1.0 else "MISSED"
        print(
            f"  {name} µs per event / the store's own µs per event: {es_us:.1f} / {own_us:.1f} "
            f"= {value:.2f} (target >= 1: {ok})"
        )
    # What the first ratio can reach: the plain insert of our rows into our table (its unique
    # ``id`` and ``(session, seq)`` indexes and the append-only trigger, no Python at all) is the
    # floor of the store's own cost; the catalogue row and the payload JSON come on top of it.
    floor_us = 1e6 / one["plain"]
    es_us = 1e6 / one["es-application"]
    print(
        f"  (the floor: eventsourcing application recorder µs per event / plain executemany of "
        f"our rows µs per event: {es_us:.1f} / {floor_us:.1f} = {es_us / floor_us:.2f}; below 1, "
        "no store over our table can meet the first target)"
    )
    for writers, r in rates.items():
        who = "1 writer" if writers == 1 else f"{writers} writers"
        value = r["bragbook"] / r["plain"]
        target = 0.5 if writers == 2 else None
        ok = f" (target >= 0.5: {'met' if value >= 0.5 else 'MISSED'})" if target else ""
        print(f"  {who}: validated append / plain sqlite3 executemany = {value:.2f}{ok}")
    ok = "met" if s_rate >= 1000 else "MISSED"
    print(
        f"  single-event commits: {s_rate:,.0f} per second / 1,000 = {s_rate / 1000:.2f} "
        f"(target >= 1: {ok})"
    )
    return 0


def _plain_single(path: str, sessions: list[list[list[Row]]], seconds: float) -> float:
    batches = [b for s in sessions for b in s]
    open_store(path).close()
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA synchronous=FULL")
    sql = f"INSERT INTO {TABLE} ({INSERT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
    rows: Iterator[Row] = (r for b in batches for r in b)
    n = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute(sql, next(rows))
        conn.execute("COMMIT")
        n += 1
    dt = time.perf_counter() - t0
    conn.close()
    return n / dt


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
