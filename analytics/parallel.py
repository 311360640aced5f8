"""A full rebuild of the projection in several processes (``brag analytics refresh --rebuild
--jobs N``).

Sessions are independent streams (RULES 1: a session is played and scored on its own), so their
folds can run apart. The rebuild:

1. notes the store's last global position ``P`` and lists the sessions with their event counts;
2. deals the sessions out to ``jobs`` worker processes, longest first onto the lightest worker;
3. each worker reads its sessions' events with ``position <= P`` (one session at a time, in
   seq order), folds them with the same :class:`~analytics.projector.Projector` as a sequential
   refresh, and writes its rows into a DuckDB file of its own;
4. the parent drops the projection, copies every worker's tables into it and writes the
   checkpoint ``(P, events)``, all in ONE DuckDB transaction.

The luck terms read each player's earlier sessions (:mod:`analytics.priors`), which may be
another worker's: before step 3 the workers read what every session tells of its players
(:func:`analytics.prior_rows.foreseen`, about a seventh of a fold) and each worker folds with all
of it; after the merge, any session whose prior still differs (a session the read ahead could
not take) is folded again by the parent (:meth:`Projector.reluck_all`).

The result holds the same rows as a sequential rebuild up to ``P`` (the fold is deterministic and
each table's rows belong to one session), and events stored meanwhile are applied by the next
refresh after ``P``, exactly once. A worker that fails fails the rebuild and leaves the projection
as it was (nothing is dropped before every worker has finished). A store that other processes
cannot open (``memory://``), or one job, is rebuilt sequentially.

The workers end with the rebuild (:func:`log.children.end_with_parent`: killed by the kernel
the moment the parent dies, on Linux), and the workers' folder is named with the parent's id,
so what a killed rebuild leaves is removed by the next refresh (:mod:`analytics.building`).

Workers are started with ``spawn`` (never a fork of a process holding DuckDB and store handles),
so a script that calls :func:`rebuild_parallel` directly needs Python's usual
``if __name__ == "__main__":`` guard; ``brag`` and notebooks have it. Measured on a 30k-deal store
(1M events) with both cores shared with other work: listing the sessions 0.2 s, the merge 1.4 s,
the rest the workers' folds.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from typing import Any

import duckdb

from analytics.building import REBUILD_PREFIX
from analytics.owner import claim, mark_at
from analytics.prior_rows import Foreseen, foreseen
from analytics.projector import Projector, RefreshReport
from analytics.register import follow
from analytics.sources import Source
from analytics.summaries import bring_up_to_date
from analytics.tables import checkpoint, drop_schema, ensure_schema, quietly_rolled_back
from log.children import end_with_parent
from log.gc_pause import paused_gc

__all__ = ["PROJECTED_TABLES", "default_jobs", "plan_jobs", "rebuild_parallel"]

PROJECTED_TABLES = (
    "events",
    "deals",
    "player_deals",
    "decisions",
    "player_session_summary",
    "sessions",
    "session_players",
    "skipped_sessions",
    "luck_history",
)
"""The tables a worker fills (``hand_categories``, ``meta`` and ``checkpoint`` are the parent's)."""

CLUSTERED: dict[str, str] = {
    "player_deals": "player_key, session, deal",
    "decisions": "player_key, session, deal, seq",
    "session_players": "player_key, session",
    "player_session_summary": "player_key, session",
}
"""The tables the Players page reads one player at a time, merged in the player's order: each of
DuckDB's row groups then holds few players, and a player's rows are found from the groups'
min/max (zonemaps) instead of scanning every row (a league's 5M player-deals, 27M decisions:
issue 37 item 5). Rows a later catch-up appends go at the end, as before."""


def default_jobs() -> int:
    """The processes a rebuild uses by default: the machine's cores."""
    return max(1, os.cpu_count() or 1)


def plan_jobs(sizes: dict[str, int], jobs: int) -> list[list[str]]:
    """Sessions dealt to ``jobs`` workers by event count: longest first onto the lightest worker
    (greedy; the heaviest worker is within one session of the mean). Empty workers are dropped."""
    bins: list[tuple[int, int, list[str]]] = [(0, k, []) for k in range(max(1, jobs))]
    for session, n in sorted(sizes.items(), key=lambda kv: (-kv[1], kv[0])):
        bins.sort()
        load, k, names = bins[0]
        names.append(session)
        bins[0] = (load + n, k, names)
    return [names for _, _, names in sorted(bins, key=lambda b: b[1]) if names]


def _session_sizes(store: Any) -> dict[str, int]:
    """Each session's number of events, from the store's session catalogue (they only balance
    the workers: events stored after the rebuild's position are left to the next refresh)."""
    return {info.session: int(info.last_seq) for info in store.sessions()}


def _foresee(url: str, sessions: list[str]) -> Foreseen:
    """What ``sessions`` tell of their players, read ahead (:func:`analytics.prior_rows.foreseen`):
    the first round of a rebuild, so that every worker's folds take their final priors."""
    from analytics.sources import open_source

    store = open_source(url)
    try:
        return foreseen(store, sessions)
    finally:
        close = getattr(store, "close", None)
        if close:
            close()


def _worker(
    url: str, sessions: list[str], upto: int, path: str, batch_size: int, ahead: Foreseen
) -> int:
    """Folds ``sessions`` (events up to position ``upto``) into the DuckDB file ``path``, every
    session's priors read from ``ahead`` and what the worker wrote; returns the number of events
    applied."""
    from analytics.sources import open_source

    store = open_source(url)
    # One DuckDB thread per worker: the workers are the parallelism (DuckDB's own pool, one
    # thread per core in every worker, would oversubscribe the cores).
    con = duckdb.connect(path, config={"threads": 1})
    applied = 0
    try:
        proj = Projector(store, con, batch_size=batch_size)
        proj.foresee(ahead, upto)
        pending: list[Any] = []
        with paused_gc():  # a worker process's main thread (log/gc_pause.py)
            for name in sessions:
                rows = [e for e in store.read(name) if e.position <= upto]
                pending += rows
                if len(pending) >= batch_size:
                    proj.project(pending)
                    applied += len(pending)
                    pending = []
            if pending:
                proj.project(pending)
                applied += len(pending)
    finally:
        con.close()
        close = getattr(store, "close", None)
        if close:
            close()
    return applied


def rebuild_parallel(
    url: str,
    source: Source,
    con: duckdb.DuckDBPyConnection,
    *,
    jobs: int | None = None,
    batch_size: int = 10_000,
) -> RefreshReport:
    """Drops the projection ``con`` and projects the store at ``url`` (``source`` is the same
    store, opened by the caller) again in ``jobs`` processes (default: the cores). Returns what
    was done, as :meth:`Projector.rebuild` does; raises the first worker's error (the projection
    is then unchanged)."""
    start = time.perf_counter()
    jobs = default_jobs() if jobs is None else jobs
    if jobs < 1:
        raise ValueError(f"--jobs must be at least 1, not {jobs}")
    last_position = getattr(source, "last_position", None)
    if jobs == 1 or url.startswith("memory:") or last_position is None:
        return Projector(source, con, batch_size=batch_size).rebuild()
    upto = int(last_position())
    groups = plan_jobs(_session_sizes(source), jobs)
    found = con.execute(
        "SELECT path FROM duckdb_databases() WHERE database_name = current_database()"
    ).fetchone()
    parent = os.path.dirname(os.path.abspath(found[0])) if found and found[0] else None
    # named with this process's id: what a killed rebuild leaves is removed by the next refresh
    # (analytics.building.remove_leftovers), never the folder of one still running
    tmp = tempfile.mkdtemp(prefix=f"{REBUILD_PREFIX}{os.getpid()}-", dir=parent)
    try:
        paths = [os.path.join(tmp, f"part{k}.duckdb") for k in range(len(groups))]
        applied = 0
        if groups:
            ctx = get_context("spawn")  # never fork a process holding DuckDB and store handles
            with ProcessPoolExecutor(
                max_workers=len(groups),
                mp_context=ctx,
                initializer=end_with_parent,  # killed with this process (log/children.py)
                initargs=(os.getpid(),),
            ) as pool:
                ahead: Foreseen = {}
                for part in pool.map(_foresee, [url] * len(groups), groups):
                    ahead.update(part)
                futures = [
                    pool.submit(_worker, url, names, upto, path, batch_size, ahead)
                    for names, path in zip(groups, paths, strict=True)
                ]
                applied = sum(f.result() for f in futures)
        _merge(con, paths, upto, applied, source)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return RefreshReport(applied, len(groups), upto, time.perf_counter() - start)


def _merge(
    con: duckdb.DuckDBPyConnection, paths: list[str], upto: int, applied: int, source: Source
) -> None:
    """Replaces the projection by the workers' rows and the checkpoint ``(upto, applied)``, in one
    transaction; the projection records the store ``source`` reads (``analytics.owner.claim``)."""
    drop_schema(con)
    ensure_schema(con)
    claim(con, source)
    attached: list[str] = []
    try:
        for k, path in enumerate(paths):
            alias = f"brag_part{k}"
            quoted = path.replace("'", "''")
            con.execute(f"ATTACH '{quoted}' AS {alias} (READ_ONLY)")
            attached.append(alias)
        con.begin()
        try:
            for table in PROJECTED_TABLES:
                parts = " UNION ALL ".join(f"SELECT * FROM {a}.main.{table}" for a in attached)
                order = f" ORDER BY {CLUSTERED[table]}" if table in CLUSTERED else ""
                con.execute(f"INSERT INTO main.{table} SELECT * FROM ({parts}){order}")
            con.execute(
                "INSERT OR REPLACE INTO checkpoint VALUES (1, $position, $events)",
                {"position": upto, "events": applied},
            )
            mark_at(con, source, upto)  # which event of the store the checkpoint is
            register = follow(con, source, begun=True)  # the register's names (analytics.register)
            # each worker knew only its own sessions' players: the luck of the sessions whose
            # earlier sessions were another worker's, folded again with them (analytics.priors)
            Projector(source, con).reluck_all(upto, register)
            bring_up_to_date(con, None)  # every summary (analytics/summaries.py)
            con.commit()
        except BaseException:
            quietly_rolled_back(con)
            raise
    finally:
        for alias in attached:
            con.execute(f"DETACH {alias}")
    assert checkpoint(con) == (upto, applied)
