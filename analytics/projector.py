"""The projector: follows the event store by global position and writes the DuckDB tables.

Each batch of events read with ``source.read_all(after=checkpoint)`` is folded into rows
(:class:`analytics.facts.SessionFolder`, one per session) and written, with the new checkpoint, in
ONE DuckDB transaction: after a crash at any point the tables and the checkpoint agree, and the
next refresh starts after the last committed position, so every event is applied exactly once.
In the same transaction, ``player_session_summary`` (the counts and tick sums ``player_stats``
reads) is re-aggregated from ``player_deals`` for every session whose facts the batch changed
(rows added or retracted by a void): plain SQL aggregation, so it always equals a full build.

Per-session folding state is not stored: it lives in memory while the projector runs and is
rebuilt when needed by re-folding the session's earlier events from the store
(``source.read(session)``), which is exact because the fold is deterministic. A full rebuild and an
incremental refresh therefore give the same rows.

A catch-up of an existing projection runs inside :func:`one_transaction`: every batch is then
written in ONE transaction, begun before the first and committed after the last, so a catch-up
that fails anywhere leaves the projection at its old checkpoint with its old rows
(:mod:`analytics.building` writes the file itself so, instead of copying it).

Otherwise a batch is one transaction, written in named steps: the events' rows, then
:meth:`_write_deals` (the deals it retracts and adds, the players' summaries, the sessions), then
:meth:`_write_checkpoint`, then :meth:`_commit`; a crash at any point leaves the previous batch's
checkpoint in force (``tests/test_analytics_crash.py`` kills a child at each of them).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import duckdb

from analytics.errors import ProjectionError
from analytics.inserts import Inserter
from analytics.owner import claim, mark
from analytics.prior_rows import PriorKeeper, foreseen, out_of_order
from analytics.refreshing import (
    ONE_TRANSACTION,
    RefreshReport,
    Refused,
    Restart,
    one_line,
    one_transaction,
)
from analytics.register import follow, rekey
from analytics.relucking import Relucking
from analytics.rules_bounds import check_rules
from analytics.summaries import Following
from analytics.tables import (
    SCHEMA_VERSION,
    TABLES,
    checkpoint,
    connect,
    drop_schema,
    ensure_schema,
    quietly_rolled_back,
    skipped,
)
from analytics.tables import schema_sql as _sql
from log.gc_pause import paused_gc
from log.register import Register

if TYPE_CHECKING:
    # The fold (analytics.facts, the engine) is imported by the first batch to apply: opening,
    # checking and reading a projection that is up to date never loads it.
    from analytics.facts import Rows, SessionFolder
    from analytics.sources import Source, StoredLike

__all__ = [
    "SCHEMA_VERSION",
    "Projector",
    "RefreshReport",
    "checkpoint",
    "connect",
    "drop_schema",
    "ensure_schema",
    "one_transaction",
    "rebuild",
    "refresh",
    "skipped",
]


class Projector(Relucking):
    """Follows ``source`` into the DuckDB projection ``con``; keep one alive to keep the folders.

    ``batch_size`` events are read and committed at a time; at most ``max_sessions`` folders stay
    in memory (finished sessions are dropped at once and re-folded if a void ever follows)."""

    def __init__(
        self,
        source: Source,
        con: duckdb.DuckDBPyConnection,
        *,
        batch_size: int = 10_000,
        max_sessions: int = 10_000,
        arrow: bool | None = None,
    ) -> None:
        self.source = source
        self.con = con
        self.batch_size = batch_size
        self.max_sessions = max_sessions
        self._inserter = Inserter(arrow)
        self._priors = PriorKeeper()
        """Each player's earlier sessions, the luck terms' priors (analytics/prior_rows.py)."""
        self._upto = 0
        """The last position of the batch being written."""
        self._foreseen = False
        """The priors' head start was given (:meth:`foresee`)."""
        self._count: int | None = None
        self.folders: dict[str, SessionFolder] = {}
        self._skipped: dict[str, str] = {}
        self._newly: dict[str, str] = {}
        self._pending_skips: list[tuple[str, int, str]] = []
        self._skips: list[tuple[str, int, str]] = []
        self._whole = False
        self._anchor: Any = None
        self._register = Register()
        self._rows = Following()  # the summaries a refresh owes (analytics/summaries.py)
        if ensure_schema(con):
            self._forget()

    def refresh(self, *, max_batches: int | None = None) -> RefreshReport:
        """Applies every event after the checkpoint; returns what was done. Inside
        :func:`one_transaction`, in one transaction: committed at the end, rolled back whole
        when anything fails."""
        start = time.perf_counter()
        self._whole = id(self.con) in ONE_TRANSACTION
        newly: dict[str, str] = {}
        self._newly = newly
        self._skips = []
        while True:
            if self._whole:
                self.con.begin()
            try:
                applied, batches, position = self._apply(max_batches)
                if self._whole:
                    self._commit()
            except Restart:
                self._pending_skips = list(self._skips)  # rolled back: written again
                continue
            except BaseException:
                if self._whole:
                    self._forget()
                    self._count = None
                    quietly_rolled_back(self.con)
                raise
            return RefreshReport(
                applied, batches, position, time.perf_counter() - start, tuple(newly.items())
            )

    def _apply(self, max_batches: int | None) -> tuple[int, int, int]:
        """The batches after the checkpoint: ``(events applied, batches, last position)``."""
        if ensure_schema(self.con):
            self._forget()
        claim(self.con, self.source)  # a projection of another store: refused, never mixed
        self._register = follow(self.con, self.source, begun=self._whole)  # analytics/register.py
        self._rows = Following(self.con)
        position, self._count = checkpoint(self.con)
        if position == 0 and not self._foreseen:  # from nothing: every session's prior at once
            late = out_of_order(self.source)  # the sessions stored after later-dated ones
            self._priors.foresee(foreseen(self.source, late) if late else {})
        self._skipped = {s: r for s, _, r in skipped(self.con)}
        self._skipped.update(self._newly)
        applied = batches = 0
        # The fold makes no reference cycles (states are immutable and chain only backwards): the
        # cyclic collector, left on, would scan every live state again and again for nothing.
        with paused_gc():  # in a command's main thread only (log/gc_pause.py)
            while max_batches is None or batches < max_batches:
                events = self.source.read_all(after=position, limit=self.batch_size)
                if not events:
                    break
                try:
                    self.project(events)
                except BaseException:
                    self._forget()  # ahead of the database: re-fold from the store next time
                    raise
                position = events[-1].position
                applied += len(events)
                batches += 1
        self._settle(position)
        self._rows.finish(self.con, begun=self._whole)
        return applied, batches, position

    def rebuild(self) -> RefreshReport:
        """Drops the projection and projects the whole store again."""
        drop_schema(self.con)
        self._forget()
        self._count = None
        return self.refresh()

    def _forget(self) -> None:
        """Drops what is held in memory ahead of the database (re-read from the store)."""
        self.folders.clear()
        self._priors.clear()

    # --- one batch -----------------------------------------------------------------------------

    def _folder(self, e: StoredLike) -> SessionFolder:
        folder = self.folders.get(e.session)
        if folder is not None:
            return folder
        from analytics.facts import SessionFolder

        if e.seq == 1:
            folder = SessionFolder(e.session, self._prior_of)
        else:
            earlier = [
                (x.position, x.seq, x.event) for x in self.source.read(e.session) if x.seq < e.seq
            ]
            folder = SessionFolder.from_events(
                e.session, earlier, self._prior_of, self._priors.digests(self.con, e.session)
            )
        self.folders[e.session] = folder
        return folder

    def project(self, events: list[StoredLike] | Any) -> None:
        """Projects a batch of stored events (in position order; a session's from its first
        event or from where this projector left it). A session the projector cannot take (its
        stream no longer folds, its values do not fit the projection, its rules are outside
        docs/format.md's bounds) is left out, named with the reason in ``skipped_sessions``, and
        the batch is projected without it: one session never blocks the others' statistics."""
        events = list(events)
        self._anchor = events[-1]  # recorded with the checkpoint (analytics.owner.mark)
        while True:
            todo = [e for e in events if e.session not in self._skipped]
            try:
                self._fold_and_write_once(todo, events[-1].position)
                return
            except Refused as r:
                self._skip(r.session, r.position, r.reason, todo)
            except duckdb.Error as err:
                if self._whole:  # the error ended the transaction: find the culprit outside it
                    self._count = None
                    quietly_rolled_back(self.con)
                found = self._culprit(todo)
                if found is None:
                    raise
                self._skip(found[0], found[1], f"its values do not fit the projection "
                           f"({one_line(err)})", todo)  # fmt: skip
                if self._whole:
                    self._forget()
                    raise Restart from None

    def _skip(self, session: str, position: int, reason: str, batch: list[Any]) -> None:
        self._skipped[session] = reason
        self._newly[session] = reason
        self._pending_skips.append((session, position, reason))
        self._skips.append((session, position, reason))
        for e in batch:  # folded ahead of the database: fold again from the store
            self.folders.pop(e.session, None)

    def _culprit(self, events: list[Any]) -> tuple[str, int] | None:
        """The first session of ``events`` whose rows alone the projection refuses (each tried in
        a transaction rolled back), with its first position."""
        sessions: dict[str, int] = {}
        for e in events:
            sessions.setdefault(e.session, e.position)
        for session, first in sessions.items():
            for e in events:
                self.folders.pop(e.session, None)
            mine = [e for e in events if e.session == session]
            try:
                self._fold_and_write_once(mine, mine[-1].position, dry=True)
            except (duckdb.Error, Refused):
                return session, first
        for e in events:
            self.folders.pop(e.session, None)
        return None

    def _fold_and_write_once(
        self, events: list[Any], last_position: int, *, dry: bool = False
    ) -> None:
        rows, touched = self._folded(events)
        self._upto = max(self._upto, last_position)
        if dry:
            self._tried(rows, touched)
            return
        con = self.con
        whole = self._whole  # inside one_transaction: begun and committed by refresh
        if not whole:
            con.begin()
        try:
            for session, position, reason in self._pending_skips:
                con.execute(
                    "INSERT OR REPLACE INTO skipped_sessions VALUES ($s, $p, $r)",
                    {"s": session, "p": position, "r": reason},
                )
            if rows.event_rows:
                self._insert("events", rows.events)
            self._write_deals(rows, touched)
            self._write_checkpoint(last_position, len(events))
            if not whole:
                self._commit()
        except BaseException:
            self._count = None
            if not whole:
                quietly_rolled_back(con)
            raise
        self._pending_skips.clear()
        self._evict(touched)

    def _folded(self, events: list[Any]) -> tuple[Rows, dict[str, SessionFolder]]:
        """The rows of ``events`` and the folders of their sessions; raises :class:`Refused`
        for the first event whose session cannot be folded (nothing is written)."""
        from analytics.facts import Rows

        rows = Rows()
        touched: dict[str, SessionFolder] = {}
        self._priors.live = touched  # the batch's sessions, for the priors of later ones
        for e in events:
            try:
                folder = touched.get(e.session) or self._folder(e)
                if e.seq == 1:
                    check_rules(e.event)
                folder.apply(e.position, e.seq, e.event, rows)
            except Exception as err:  # this session only: left out, the batch goes on
                raise Refused(e.session, e.position, one_line(err)) from None
            touched[e.session] = folder
        for folder in touched.values():
            folder.written.flush(rows)  # the batch's veiled rows (analytics.veil)
        return rows, touched

    def _tried(self, rows: Rows, touched: dict[str, SessionFolder]) -> None:
        """Writes ``rows`` in a transaction rolled back (a dry run: raises what the projection
        refuses); outside :func:`one_transaction`'s, which an error has ended by then."""
        con = self.con
        con.begin()
        try:
            if rows.event_rows:
                self._insert("events", rows.events)
            if rows.deals["session"]:
                self._insert("deals", rows.deals)
                self._insert("player_deals", rows.player_deals)
            if rows.decision_rows:
                self._insert("decisions", rows.decisions)
            self._summarize(set(rows.player_deals["session"]))
            if touched:
                self._write_sessions(touched)
        finally:
            quietly_rolled_back(con)

    def _write_deals(self, rows: Rows, touched: dict[str, SessionFolder]) -> None:
        """A batch's rows after its events: the deals it retracts and adds, the players'
        summaries, the sessions; then what they tell of their players, and the luck of the
        sessions whose prior that changed, folded again (:mod:`analytics.prior_rows`)."""
        self._write_rows(rows, touched)
        players = self._priors.write(self.con, touched)
        self._reluck(self._priors.stale(self.con, players, self._skipped), touched)

    def _write_rows(self, rows: Rows, touched: Mapping[str, SessionFolder]) -> None:
        """Rows of deals retracted and added, the players' summaries, the sessions."""
        con = self.con
        sessions = {*rows.retract, *rows.player_deals["session"], *touched}
        self._rows.before(con, sessions)
        for session, deal in rows.retract.items():
            con.execute(_sql("retract_deals"), {"session": session, "deal": deal})
            con.execute(_sql("retract_player_deals"), {"session": session, "deal": deal})
            con.execute(_sql("retract_decisions"), {"session": session, "deal": deal})
        if rows.deals["session"]:
            self._insert("deals", rows.deals)
            self._insert("player_deals", rows.player_deals)
        if rows.decision_rows:
            self._insert("decisions", rows.decisions)
        self._summarize({*rows.retract, *rows.player_deals["session"]})
        if touched:
            self._write_sessions(touched)
            rekey(con, self._register, touched)  # each name keyed as the register has it now
        self._rows.after(con, sessions)

    def _write_checkpoint(self, last_position: int, applied: int) -> None:
        """The checkpoint at the batch's last position, with the events counted so far."""
        self._count = self._counted() + applied
        self.con.execute(
            _sql("write_checkpoint"), {"position": last_position, "events": self._count}
        )
        mark(self.con, self._anchor)  # which event of the store the checkpoint is (issue 33)

    def _commit(self) -> None:
        self.con.commit()

    def _summarize(self, sessions: set[str]) -> None:
        """Re-aggregates ``player_session_summary`` for the sessions whose facts changed."""
        if not sessions:
            return
        names = sorted(sessions)
        self.con.execute(_sql("forget_summary"), {"sessions": names})
        self.con.execute(_sql("insert_summary"), {"sessions": names})

    def _counted(self) -> int:
        self._count = checkpoint(self.con)[1] if self._count is None else self._count
        return self._count

    def _insert(self, name: str, columns: dict[str, list[Any]]) -> None:
        self._inserter.insert(self.con, name, columns)

    def _write_sessions(self, touched: Mapping[str, SessionFolder]) -> None:
        names = list(touched)
        self.con.execute(_sql("forget_sessions"), {"sessions": names})
        self.con.execute(_sql("forget_session_players"), {"sessions": names})
        srows = [f.session_row() for f in touched.values()]
        prows = [r for f in touched.values() for r in f.player_rows()]
        self.con.execute(TABLES["sessions"].insert_sql, _columns(srows))
        if prows:
            self.con.execute(TABLES["session_players"].insert_sql, _columns(prows))

    def _evict(self, touched: dict[str, SessionFolder]) -> None:
        for name, folder in touched.items():
            self.folders.pop(name, None)
            if not folder.state.finished:
                self.folders[name] = folder  # most recently used last
        while len(self.folders) > self.max_sessions:
            self.folders.pop(next(iter(self.folders)))


def _columns(rows: Sequence[Mapping[str, Any]]) -> dict[str, list[Any]]:
    return {k: [r[k] for r in rows] for k in rows[0]}


def refresh(
    source: Source, con: duckdb.DuckDBPyConnection, *, batch_size: int = 10_000
) -> RefreshReport:
    """Brings the projection ``con`` up to date with ``source`` (one-shot :class:`Projector`)."""
    return Projector(source, con, batch_size=batch_size).refresh()


def rebuild(
    source: Source, con: duckdb.DuckDBPyConnection, *, batch_size: int = 10_000
) -> RefreshReport:
    """Drops the projection and projects the whole ``source`` again."""
    return Projector(source, con, batch_size=batch_size).rebuild()


__all__ += ["ProjectionError"]
