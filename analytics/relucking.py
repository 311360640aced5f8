"""The projector's part in each player's earlier sessions as the luck terms' prior (issue 37
item 1, :mod:`analytics.priors`): the fold's question answered, the sessions whose prior an
earlier-dated session changed folded again, and a refresh from nothing given every session's
counts ahead (:mod:`analytics.prior_rows`). A mixin of :class:`analytics.projector.Projector`,
whose state it names below."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING

import duckdb

from analytics.prior_rows import Foreseen, PriorKeeper
from analytics.priors import OrderKey
from analytics.tables import quietly_rolled_back, skipped
from analytics.tables import schema_sql as _sql
from log.register import Register

if TYPE_CHECKING:
    from analytics.facts import Rows, SessionFolder
    from analytics.sources import Source

__all__ = ["Relucking"]


class Relucking:
    """What :class:`~analytics.projector.Projector` does for the priors."""

    con: duckdb.DuckDBPyConnection
    source: Source
    folders: dict[str, SessionFolder]
    _priors: PriorKeeper
    _skipped: dict[str, str]
    _upto: int
    _foreseen: bool
    _whole: bool
    _register: Register

    def _write_rows(self, rows: Rows, touched: Mapping[str, SessionFolder]) -> None:
        raise NotImplementedError  # the projector's

    def _commit(self) -> None:
        raise NotImplementedError  # the projector's

    def foresee(self, ahead: Foreseen, upto: int) -> None:
        """What the store's sessions tell of their players, read ahead
        (:func:`analytics.prior_rows.foreseen`: a parallel rebuild's workers read it together),
        ``upto`` the last position the rebuild folds (a worker's sessions come in any order)."""
        self._priors.foresee(ahead)
        self._foreseen = True
        self._upto = upto

    def _prior_of(self, session: str, key: OrderKey, name: str) -> Counter[str]:
        """A player's prior in ``session`` (:mod:`analytics.priors`), for the fold."""
        return self._priors.prior(self.con, session, key, name, self._skipped)

    def _settle(self, position: int) -> None:
        """After a refresh from nothing: the sessions read ahead let go, and any session whose
        prior is not that of the sessions now written (one that grew or was corrected while the
        refresh ran) folded again, in a transaction of its own unless inside one."""
        if not self._priors.ahead():
            return
        self._priors.foresee({})
        players = [r[0] for r in self.con.execute(_sql("luck_history_players")).fetchall()]
        stale = self._priors.stale(self.con, players, self._skipped)
        if not stale:
            return
        self._upto = max(self._upto, position)
        if not self._whole:
            self.con.begin()
        try:
            self._reluck(stale, {})
            if not self._whole:
                self._commit()
        except BaseException:
            if not self._whole:
                quietly_rolled_back(self.con)
            raise

    def reluck_all(self, upto: int, register: Register) -> int:
        """Every session whose luck terms took another prior than the projection's earlier
        sessions now give, written again (after a parallel rebuild's merge: the workers knew
        only their own sessions); ``upto`` the checkpoint's position, ``register`` the names'
        keys. Returns how many."""
        self._upto, self._register = upto, register
        self._skipped = {s: r for s, _, r in skipped(self.con)}
        players = [r[0] for r in self.con.execute(_sql("luck_history_players")).fetchall()]
        stale = self._priors.stale(self.con, players, self._skipped)
        self._reluck(stale, {})
        return len(stale)

    def _reluck(self, sessions: set[str], touched: Mapping[str, SessionFolder]) -> None:
        """Writes again the rows of ``sessions`` with the luck terms of their priors now."""
        if not sessions:
            return
        from analytics.facts import Rows, SessionFolder

        rows = Rows()
        again: dict[str, SessionFolder] = {}
        for session in sorted(sessions):
            folder = touched.get(session) or self.folders.get(session)
            if folder is None:
                stored = [
                    (x.position, x.seq, x.event)
                    for x in self.source.read(session)
                    if x.position <= self._upto
                ]
                folder = SessionFolder.from_events(
                    session, stored, self._prior_of, self._priors.digests(self.con, session)
                )
            folder.relucked(rows)
            folder.written.flush(rows)
            again[session] = folder
        self._write_rows(rows, again)
        self._priors.write(self.con, again)
        for session, folder in again.items():
            if session not in touched and not folder.state.finished:
                self.folders[session] = folder
