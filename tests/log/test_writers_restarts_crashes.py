"""The store under several writers, restarts and crashes.

- SQLite: two writer *processes* race for the same seq 300 times; a retry after a process restart;
  a writer process killed with SIGKILL at random moments 40 times.
- PostgreSQL: two connections race 300 times; a reader following global positions while 4 writers
  append (some transactions rolled back after their insert) misses nothing.

Processes are forked from a clean process server (``store_helpers.PROCESSES``: the modules already
imported there, so a child starts in milliseconds; never a fork of the test process and its
threads).
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
from store_helpers import PROCESSES, advance, choose, faulty, pg_store, play_deal, require_pg, start

from engine.fold import fold
from engine.state import initial_state
from events.errors import ConcurrencyConflict
from events.model import is_derived
from log.open import open_store
from log.service import EventStore

RACES = 300


# --- two writers race for the same seq ------------------------------------------------------------


def race(
    store: EventStore, session: str, seed: int, rounds: int, b1: Any, b2: Any, out: Any
) -> None:
    """One racer: each round both read the same state, then both append a legal event after it."""
    rng = random.Random(seed)
    for r in range(rounds):
        b1.wait()
        st = store.state(session)
        e = choose(st, rng)
        b2.wait()
        try:
            rows = store.append(session, [e], st.seq)
            out.put((r, seed, "ok", rows[0].seq, 0))
        except ConcurrencyConflict as c:
            out.put((r, seed, "conflict", c.expected, c.actual))
        except Exception as err:  # reported, never swallowed: the parent fails the test
            out.put((r, seed, "error", repr(err), 0))


def _race_process(
    path: str, session: str, seed: int, rounds: int, b1: Any, b2: Any, q: Any
) -> None:
    store = open_store(path)
    try:
        race(store, session, seed, rounds, b1, b2, q)
    finally:
        store.close()


def check_races(results: list[tuple[Any, ...]], rounds: int) -> None:
    errors = [r for r in results if r[2] == "error"]
    assert not errors, errors[:5]
    assert not any("locked" in str(r) for r in results)
    by_round: dict[int, list[tuple[Any, ...]]] = {}
    for r in results:
        by_round.setdefault(r[0], []).append(r)
    assert sorted(by_round) == list(range(rounds))
    for n, pair in by_round.items():
        kinds = sorted(p[2] for p in pair)
        assert kinds == ["conflict", "ok"], (n, pair)
        ok = next(p for p in pair if p[2] == "ok")
        lost = next(p for p in pair if p[2] == "conflict")
        assert lost[3] == ok[3] - 1 and lost[4] >= ok[3], (n, pair)  # expected, actual


def check_stream(store: EventStore, session: str) -> None:
    rows = store.read(session)
    assert [r.seq for r in rows] == list(range(1, len(rows) + 1))
    assert len({r.id for r in rows}) == len(rows)
    assert not fold([r.event for r in rows]).pending


def new_race_session(store: EventStore, session: str) -> None:
    first = start(session, random.Random(0), players=3, cards="all", pots=1_000)
    store.append(session, [first], 0)


@pytest.mark.slow
def test_sqlite_two_writer_processes_race_300_times(tmp_path: Path) -> None:
    path = str(tmp_path / "race.db")
    store = open_store(path)
    new_race_session(store, "race")
    b1, b2 = PROCESSES.Barrier(2, timeout=60), PROCESSES.Barrier(2, timeout=60)
    q = PROCESSES.Queue()
    procs = [
        PROCESSES.Process(target=_race_process, args=(path, "race", seed, RACES, b1, b2, q))
        for seed in (1, 2)
    ]
    for p in procs:
        p.start()
    results = [q.get(timeout=120) for _ in range(2 * RACES)]
    for p in procs:
        p.join(timeout=30)
        assert p.exitcode == 0
    check_races(results, RACES)
    check_stream(store, "race")
    conn = sqlite3.connect(path)
    dup = conn.execute("SELECT session, seq FROM events GROUP BY session, seq HAVING count(*) > 1")
    assert dup.fetchall() == []
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()
    assert store.last_seq("race") >= RACES + 1


@pytest.mark.postgres
def test_postgres_two_connections_race_300_times() -> None:
    require_pg()
    with pg_store() as store:
        new_race_session(store, "race")
        other = store.reopen()  # a second connection (its own store object)
        b1, b2 = threading.Barrier(2, timeout=60), threading.Barrier(2, timeout=60)
        import queue

        q: queue.Queue[tuple[Any, ...]] = queue.Queue()
        threads = [
            threading.Thread(target=race, args=(s, "race", seed, RACES, b1, b2, q))
            for s, seed in ((store, 1), (other, 2))
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=180)
        results = [q.get_nowait() for _ in range(q.qsize())]
        other.close()
        check_races(results, RACES)
        check_stream(store, "race")
        assert store.last_seq("race") >= RACES + 1


# --- a retry after a restart ----------------------------------------------------------------------


def _append_then_die(path: str, events: list[Any], expected: int, conn: Any) -> None:
    try:
        store = open_store(path)
        rows = store.append("s", events, expected)
        conn.send([(r.seq, str(r.id), r.position) for r in rows])
    except Exception as err:
        conn.send(repr(err))
    os._exit(0)  # no clean shutdown: as if the process died right after answering


def test_sqlite_retry_with_the_same_ids_after_a_process_restart(tmp_path: Path) -> None:
    path = str(tmp_path / "retry.db")
    rng = random.Random(4)
    state, first = advance(initial_state(), start("s", rng, players=3, cards="shown"))
    state, deal = play_deal(state, rng)
    events = [e.model_copy(update={"id": uuid.uuid4()}) for e in first[:1] + deal]
    runs = []
    for _ in range(2):  # the second process retries the very same call (expected seq 0)
        here, there = PROCESSES.Pipe(duplex=False)
        p = PROCESSES.Process(target=_append_then_die, args=(path, events, 0, there))
        p.start()
        assert here.poll(60)
        runs.append(here.recv())
        p.join(timeout=30)
    assert runs[0] == runs[1]
    store = open_store(path)
    assert store.last_position() == len(runs[0]) == store.last_seq("s")
    check_stream(store, "s")


# --- SIGKILL at random moments --------------------------------------------------------------------


def _writer(path: str, seed: int, conn: Any) -> None:
    """Appends deal after deal to sessions of its own; acknowledges each append after it returns."""
    store = open_store(path)
    rng = random.Random(seed)
    if seed % 2:  # half the writers linger inside the transaction, after the insert
        store = faulty(store, lambda info: time.sleep(0.002))
    conn.send(("ready",))
    n = 0
    while True:
        session = f"w{seed}-{n}"
        n += 1
        first = start(session, rng, pots=3)
        state, _ = advance(initial_state(), first)
        batch: list[Any] = [first]
        seq, k = 0, 0
        while True:
            state, deal = play_deal(state, rng)
            batch += deal
            if not batch:
                break
            tag = f"{session}#{k}:{len(batch)}"
            batch = [e.model_copy(update={"by": tag}) for e in batch]
            rows = store.append(session, batch, seq)
            seq = rows[-1].seq
            conn.send((session, seq, str(rows[-1].id)))
            batch, k = [], k + 1
            if state.finished:
                break


@pytest.mark.slow
def test_sqlite_writer_killed_at_random_moments_40_times(tmp_path: Path) -> None:
    path = str(tmp_path / "kill.db")
    open_store(path).close()
    rng = random.Random(2024)
    acked: dict[str, tuple[int, str]] = {}
    kills = 0
    for i in range(40):
        here, there = PROCESSES.Pipe(duplex=False)
        p = PROCESSES.Process(target=_writer, args=(path, i + 1, there))
        p.start()
        there.close()
        assert here.poll(30) and here.recv() == ("ready",)
        time.sleep(rng.uniform(0.0, 0.25))
        os.kill(p.pid, signal.SIGKILL)
        p.join(timeout=30)
        assert p.exitcode == -signal.SIGKILL
        kills += 1
        while True:  # every acknowledgement that reached us
            try:
                if not here.poll(0):
                    break
                session, seq, last_id = here.recv()
            except (EOFError, OSError):
                break
            acked[session] = (seq, last_id)
        here.close()
        check_after_kill(path, acked)
    assert kills == 40 and len(acked) >= 10  # most runs had appends acknowledged
    store = open_store(path)
    for info in store.sessions():  # every session folds and ends on a deal's conclusion
        rows = store.read(info.session)
        assert [r.seq for r in rows] == list(range(1, len(rows) + 1))
        st = fold([r.event for r in rows])
        assert not st.pending
        assert len(rows) == 1 or is_derived(rows[-1].event), info.session


def check_after_kill(path: str, acked: dict[str, tuple[int, str]]) -> None:
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        for session, (seq, last_id) in acked.items():  # nothing acknowledged is lost
            got = conn.execute(
                "SELECT id FROM events WHERE session = ? AND seq = ?", (session, seq)
            ).fetchone()
            assert got is not None and got[0] == last_id, (session, seq)
        # no partial batch: each batch's recorded events are all there, or none
        for by, n in conn.execute(
            "SELECT by, count(*) FROM events WHERE by IS NOT NULL GROUP BY by"
        ).fetchall():
            assert n == int(by.rsplit(":", 1)[1]), by
    finally:
        conn.close()


# --- PostgreSQL: a follower of global positions never skips ---------------------------------------


class Boom(Exception):
    pass


@pytest.mark.postgres
def test_postgres_follower_misses_nothing_while_4_writers_append() -> None:
    require_pg()
    with pg_store() as first:
        stop = threading.Event()
        seen: list[tuple[int, uuid.UUID]] = []
        errors: list[BaseException] = []
        rolled_back = [0]

        def writer(w: int) -> None:
            rng = random.Random(w)

            def linger(info: Any) -> None:  # inside the transaction, after the insert
                time.sleep(rng.uniform(0, 0.004))
                if rng.random() < 0.2:
                    rolled_back[0] += 1
                    raise Boom  # rolled back: its positions become holes

            store = faulty(first.reopen(), linger)
            try:
                for s in range(3):
                    session = f"w{w}-{s}"
                    state = initial_state()
                    batch: list[Any] = [start(session, rng, pots=4)]
                    state, _ = advance(state, batch[0])
                    seq = 0
                    while not state.finished:
                        state, deal = play_deal(state, rng)
                        batch += deal
                        while True:
                            try:
                                seq = store.append(session, batch, seq)[-1].seq
                                break
                            except Boom:
                                continue
                        batch = []
            except BaseException as err:
                errors.append(err)
            finally:
                store.close()

        def follower() -> None:
            store = first.reopen()
            after = 0
            try:
                while True:
                    done = stop.is_set()
                    page = store.read_all(after=after, limit=50)
                    seen.extend((r.position, r.id) for r in page)
                    if page:
                        after = page[-1].position
                    elif done:
                        return
            except BaseException as err:
                errors.append(err)
            finally:
                store.close()

        f = threading.Thread(target=follower)
        f.start()
        ws = [threading.Thread(target=writer, args=(w,)) for w in range(4)]
        for t in ws:
            t.start()
        for t in ws:
            t.join(timeout=300)
        stop.set()
        f.join(timeout=60)
        assert not errors, errors
        every = [(r.position, r.id) for r in first.read_all(limit=1_000_000)]
        assert rolled_back[0] > 0
        assert every[-1][0] > len(every)  # the rollbacks left holes
        positions = [p for p, _ in seen]
        assert positions == sorted(set(positions))
        assert seen == every  # the follower saw every committed event, in order
