"""Helpers for the store tests and ``bench/append.py``: random legal sessions, deal batches, and the
PostgreSQL test server.

Sessions are drawn only from :func:`engine.legal.legal_actions` (completed where an action needs an
input: a shuffled pack's order), so every generated log is valid. A simulator package is being
written elsewhere; these few lines keep the store's tests independent of it.
"""

from __future__ import annotations

import fcntl
import multiprocessing as mp
import os
import random
import tempfile
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from engine.fold import record
from engine.state import State, initial_state
from events.model import (
    AnyEvent,
    PotCarried,
    PotWon,
    Rules,
    SessionEnded,
    SessionStarted,
    is_derived,
)
from sim.randplay import next_event

PG_DEFAULT = "postgresql://postgres@127.0.0.1:5432/test"
NAMES = ("Ann", "Bob", "Cal", "Dee", "Eve", "Fay", "Gus")


def pg_url() -> str:
    return os.environ.get("BRAG_TEST_PG") or PG_DEFAULT


def pg_problem() -> str | None:
    """Why the PostgreSQL test server cannot be used, or ``None`` when it answers."""
    try:
        import psycopg

        with psycopg.connect(pg_url(), connect_timeout=3) as c:
            c.execute("SELECT 1")
    except Exception as err:  # any failure means: no server for these tests
        return f"PostgreSQL at {pg_url()} is unreachable: {str(err).strip().splitlines()[0]}"
    return None


# The PostgreSQL server is shared by every test worker (and every run on this machine), and one
# test stops it for a few seconds (test_store_down_page.py). A test that uses the server holds a
# shared lock on OUTAGE_LOCK from require_pg() to its end (conftest.py lets it go); the outage
# takes it exclusively. A second file, OUTAGE_GATE, gives the outage precedence: it is held
# while the outage waits, so no new test starts using the server and keeps it waiting forever.
OUTAGE_LOCK = Path(tempfile.gettempdir()) / "bragbook-test-pg.lock"
OUTAGE_GATE = Path(tempfile.gettempdir()) / "bragbook-test-pg.gate"
_shared: list[int] = []  # the file descriptors of the shared locks this process holds


def _lock(path: Path, how: int) -> int:
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    fcntl.flock(fd, how)
    return fd


def share_pg() -> None:
    """Waits for no outage of the PostgreSQL server, then holds it off until :func:`release_pg`
    (at most one shared lock per process: a test calling :func:`require_pg` twice takes one)."""
    if _shared:
        return
    gate = _lock(OUTAGE_GATE, fcntl.LOCK_EX)
    try:
        _shared.append(_lock(OUTAGE_LOCK, fcntl.LOCK_SH))
    finally:
        os.close(gate)


def release_pg() -> None:
    """Lets go of the shared lock :func:`share_pg` took, if any (the end of each test)."""
    while _shared:
        os.close(_shared.pop())


@contextmanager
def pg_outage() -> Iterator[None]:
    """Holds every other test off the PostgreSQL server (see ``OUTAGE_LOCK``) while the caller
    stops and starts it: waits until no test in any worker is using it."""
    release_pg()
    gate = _lock(OUTAGE_GATE, fcntl.LOCK_EX)
    try:
        lock = _lock(OUTAGE_LOCK, fcntl.LOCK_EX)
        try:
            yield
        finally:
            os.close(lock)
    finally:
        os.close(gate)


def require_pg() -> None:
    """Skips the test without a server, except under CI (``CI=true``), where it fails. Holds the
    server for the rest of the test (:func:`share_pg`): it is not stopped under it."""
    import pytest

    share_pg()
    problem = pg_problem()
    if problem is None:
        return
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{problem} (CI=true: the PostgreSQL tests must run)")
    pytest.skip(problem)


def new_schema() -> str:
    """A schema name unique to this run and test, so runs never collide (also with CI)."""
    return f"brag_test_{os.getpid()}_{uuid.uuid4().hex[:10]}"


def drop_schema(schema: str) -> None:
    import psycopg
    from psycopg import sql

    with psycopg.connect(pg_url(), autocommit=True, connect_timeout=5) as c:
        c.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


@contextmanager
def pg_store(**options: Any) -> Iterator[Any]:
    """A PostgreSQL store in a fresh schema, dropped afterwards."""
    from log.open import open_store

    schema = new_schema()
    store = open_store(pg_url(), schema=schema, **options)
    try:
        yield store
    finally:
        store.close()
        drop_schema(schema)


# --- fault injection -----------------------------------------------------------------------------


class _FaultyTx:
    """A recorder's write transaction that calls ``hook(info)`` after the catalogue row is
    written: inside the transaction, after the insert (a delay, or an exception that rolls back)."""

    def __init__(self, tx: Any, hook: Callable[[Any], None]) -> None:
        self.tx = tx
        self.hook = hook

    def find(self, ids: list[str]) -> Any:
        return self.tx.find(ids)

    def last_seq(self, session: str) -> int:
        return int(self.tx.last_seq(session))

    def insert(self, rows: Any, stored_at: Any) -> list[int]:
        return list(self.tx.insert(rows, stored_at))

    def record(self, info: Any, *, first: bool) -> None:
        self.tx.record(info, first=first)
        self.hook(info)


class FaultyRecorder:
    """A recorder whose write transactions run ``hook`` just before they commit (the store tests'
    fault injection; production code has no seam for it). Everything else is the wrapped one's."""

    def __init__(self, inner: Any, hook: Callable[[Any], None]) -> None:
        self.inner = inner
        self.hook = hook

    @contextmanager
    def transaction(self) -> Iterator[_FaultyTx]:
        with self.inner.transaction() as tx:
            yield _FaultyTx(tx, self.hook)

    def reopen(self) -> FaultyRecorder:
        return FaultyRecorder(self.inner.reopen(), self.hook)

    def __getattr__(self, name: str) -> Any:  # the rest of the port, as the wrapped recorder
        return getattr(self.inner, name)


def faulty(store: Any, hook: Callable[[Any], None]) -> Any:
    """``store`` (an :class:`log.EventStore`) again, its writes running ``hook`` before commit."""
    from log.service import EventStore

    return EventStore(FaultyRecorder(store.recorder, hook))  # type: ignore[arg-type]


# --- random legal play -------------------------------------------------------------------------


def start(
    session: str,
    rng: random.Random,
    *,
    players: int | None = None,
    cards: str | None = None,
    pots: int = 8,
    table: str | None = None,
) -> SessionStarted:
    n = players or rng.randint(2, 6)
    return SessionStarted(
        session=session,
        table=table,
        seats=tuple(NAMES[:n]),
        cards=cards or rng.choice(("all", "shown")),  # type: ignore[arg-type]
        rules=Rules(pots=pots) if pots != 8 else None,
    )


def choose(state: State, rng: random.Random) -> AnyEvent | None:
    """A random legal next recorded event (inputs completed), or ``None`` when there is none
    (the shared random player, :func:`sim.randplay.next_event`)."""
    return next_event(rng, state)


def advance(state: State, event: AnyEvent) -> tuple[State, list[AnyEvent]]:
    """Applies a recorded event and its conclusions: the new state and the events (with them)."""
    return record(state, event)


def random_session(
    session: str, rng: random.Random, *, max_events: int = 2_000, **kw: Any
) -> list[AnyEvent]:
    """A whole legal session (derived events included), ending when the rules end it."""
    state = initial_state()
    first = start(session, rng, **kw)
    state, events = advance(state, first)
    while len(events) < max_events:
        e = choose(state, rng)
        if e is None:
            break
        state, new = advance(state, e)
        events += new
    return events


def deal_batches(events: list[AnyEvent]) -> list[list[AnyEvent]]:
    """The stream cut after each deal's conclusion: one batch per deal (what happens before a
    deal, such as the shuffle or a retained hand, goes with it). Derived events included."""
    out: list[list[AnyEvent]] = []
    cur: list[AnyEvent] = []
    for k, e in enumerate(events):
        cur.append(e)
        nxt = events[k + 1] if k + 1 < len(events) else None
        if isinstance(e, PotWon | PotCarried | SessionEnded) and not isinstance(nxt, SessionEnded):
            out.append(cur)
            cur = []
    if cur:
        out.append(cur)
    return out


def recorded(batch: list[AnyEvent]) -> list[AnyEvent]:
    return [e for e in batch if not is_derived(e)]


def play_deal(state: State, rng: random.Random) -> tuple[State, list[AnyEvent]]:
    """Plays until the next deal ends (or the session does): the state and the recorded events."""
    out: list[AnyEvent] = []
    while True:
        e = choose(state, rng)
        if e is None:
            return state, out
        state, new = advance(state, e)
        out.append(e)
        if any(is_derived(d) for d in new[1:]):
            return state, out


def store_a_correction(store: Any, session: str = "fix") -> None:
    """A session with a correction: A bets level 5 by mistake (seq 6), the bet is voided, A bets
    level 2, B folds and A takes the pot uncontested (the store adds the pot_won). Deal 1 is then
    steps 1, 2, 3 (withdrawn), ↺3, 3, 4, 5 as recorded, and 1 to 5 as corrected."""
    from fractions import Fraction

    from events.model import Bet, DealerChosen, Dealt, Folded, Looked, Shuffled, Voided

    store.append(
        session,
        [
            SessionStarted(session=session, seats=("A", "B"), cards="shown"),
            DealerChosen(player="B"),
            Shuffled(),
            Dealt(),
            Looked(player="A"),
            Bet(player="A", level=Fraction(5)),
        ],
        0,
    )
    store.append(session, [Voided(seq=6)], 6)
    store.append(session, [Bet(player="A", level=Fraction(2)), Folded(player="B")], 7)


CHILDREN_FROM = ("test_amend", "test_catalogue", "test_hostile_import", "test_store_processes")
"""The test modules whose functions run in child processes (:data:`PROCESSES`)."""
PRELOAD = [
    *("log", "log.service", "events.codec", "events.upcast", "store.open", "store.sqlite"),
    *("store.postgres", "store.orm", "store.schema", "brag.cli", "brag.cmd_store"),
    *("rich.progress", "rich.table", "sqlmodel", "psycopg", "store_helpers", *CHILDREN_FROM),
]
"""What the process server imports once, before it forks any child."""
_server: list[int] = []


def clean_processes() -> Any:
    """``multiprocessing``'s ``forkserver`` context, its server started (once a test process)
    with :data:`PRELOAD` imported: a child process (a writer to kill, a racer, an import) is
    forked from that server, a process of one thread, never from the test process. By the time a
    test runs, its process (a pytest-xdist worker above all) runs threads of the tests before it
    (Streamlit's, DuckDB's, gRPC's), and a plain fork copies the locks those threads hold: a
    forked racer died of a segmentation fault in a parallel run. The server is given this
    folder on ``PYTHONPATH`` (Python 3.11's server does not take the parent's ``sys.path``), so
    that it imports the test modules, and a child starts as fast as a fork of a warm process."""
    ctx = mp.get_context("forkserver")
    if not _server:
        from multiprocessing import forkserver

        ctx.set_forkserver_preload(PRELOAD)
        outer = os.environ.get("PYTHONPATH")
        here = str(Path(__file__).resolve().parent)
        os.environ["PYTHONPATH"] = os.pathsep.join([here, *([outer] if outer else [])])
        try:
            forkserver.ensure_running()
        finally:
            if outer is None:
                del os.environ["PYTHONPATH"]
            else:
                os.environ["PYTHONPATH"] = outer
        _server.append(os.getpid())
    return ctx


class _Processes:
    """:func:`clean_processes`' context, its server started on first use (``PROCESSES.Process``,
    ``PROCESSES.Queue`` ...), not when a test module is imported (the server imports them)."""

    def __getattr__(self, name: str) -> Any:
        return getattr(clean_processes(), name)


PROCESSES = _Processes()
