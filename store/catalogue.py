"""The session catalogue's reads on the SQL recorders (store version 3): one row per session in
``brag_sessions``, kept by every append (:meth:`store.sql.SqlTx.record`), so that listing sessions
reads one small table instead of every event; from version 5 the filter choices in
``brag_facets``, kept by the same appends, so that they are not read from every session's seats.
The DDL and the row conversions: :mod:`store.schema`."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import replace
from datetime import date, datetime
from typing import Any, ClassVar

from store.records import (
    Facets,
    Listing,
    SessionFilter,
    SessionInfo,
    facets_from,
    parse_stored_at,
)
from store.schema import (
    CATALOGUE,
    CATALOGUE_COLUMNS,
    FACETS,
    TABLE,
    UPSERT,
    catalogue_info,
    catalogue_params,
    fill_facets,
)

__all__ = ["CatalogueReads"]

_ORDER_BY = {
    "stored": "first_position",
    "oldest": "started_us, first_position",
    "newest": "started_us DESC, first_position DESC",
}


class CatalogueReads:
    """The catalogue half of a SQL recorder (mixed into :class:`store.sql.SqlRecorder`)."""

    MARK: ClassVar[str]
    version: int

    def query(self, text: str, params: tuple[Any, ...] = ()) -> list[Any]:
        raise NotImplementedError

    def sql(self, text: str) -> str:
        raise NotImplementedError

    def check_writable(self) -> None:
        raise NotImplementedError

    def transaction(self) -> AbstractContextManager[Any]:
        raise NotImplementedError

    @property
    def catalogued(self) -> bool:
        """A store of version 3 (a version 2 store opened for reading is not migrated)."""
        return int(self.version) >= 3

    def _where(self, f: SessionFilter) -> tuple[str, tuple[Any, ...]]:
        """The catalogue's WHERE clause for a :class:`SessionFilter` (values bound)."""
        conds: list[str] = []
        params: list[Any] = []
        if f.unfinished:
            conds.append("NOT finished")
        for p in f.players:  # seats is a JSON array: the quoted name, LIKE's wildcards escaped
            text = json.dumps(p, ensure_ascii=False)
            text = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
            conds.append("seats LIKE ? ESCAPE '\\'")
            params.append(f"%{text}%")
        if f.tables:
            named = [t for t in f.tables if t is not None]
            alts = [f"table_name IN ({', '.join('?' * len(named))})"] if named else []
            if None in f.tables:
                alts.append("table_name IS NULL")
            conds.append("(" + " OR ".join(alts) + ")")
            params += named
        if f.dates is not None:  # the recorded start's own calendar date: its ISO text's head
            conds.append("substr(coalesce(first_at, stored), 1, 10) BETWEEN ? AND ?")
            params += [f.dates[0].isoformat(), f.dates[1].isoformat()]
        return (" WHERE " + " AND ".join(conds) if conds else ""), tuple(params)

    def page(self, listing: Listing) -> list[SessionInfo]:
        by = _ORDER_BY[listing.order]
        cond, params = self._where(listing.where)
        limit, offset = listing.limit, listing.offset
        page = " LIMIT ? OFFSET ?" if limit is not None or offset else ""
        everything = -1 if self.MARK == "?" else None  # SQLite: LIMIT -1; PostgreSQL: NULL
        if page:
            params += (everything if limit is None else limit, offset)
        rows = self.query(
            f"SELECT {CATALOGUE_COLUMNS} FROM {CATALOGUE}{cond} ORDER BY {by}{page}", params
        )
        return [catalogue_info(r) for r in rows]

    def info(self, session: str) -> SessionInfo | None:
        rows = self.query(
            f"SELECT {CATALOGUE_COLUMNS} FROM {CATALOGUE} WHERE session = ?", (session,)
        )
        return catalogue_info(rows[0]) if rows else None

    def infos(self, sessions: Sequence[str]) -> list[SessionInfo]:
        names = sorted(set(sessions))
        if not names:
            return []
        # The names as one bound value, however many: a JSON array (SQLite), a text[] (PostgreSQL).
        param: Any = json.dumps(names) if self.MARK == "?" else names
        cond = "IN (SELECT value FROM json_each(?))" if self.MARK == "?" else "= ANY(?)"
        return [
            catalogue_info(r)
            for r in self.query(
                f"SELECT {CATALOGUE_COLUMNS} FROM {CATALOGUE} WHERE session {cond}", (param,)
            )
        ]

    def first_stored(self) -> list[str]:
        """Every stored session's id, in the order their first events were stored (one query
        of the catalogue: not the events, 33M at league scale)."""
        rows = self.query(f"SELECT session FROM {CATALOGUE} ORDER BY first_position")
        return [str(r[0]) for r in rows]

    def night_sums(self, first: date, last: date) -> list[tuple[date, int, int, int]]:
        day = "substr(coalesce(first_at, stored), 1, 10)"
        cond, params = self._where(SessionFilter(dates=(first, last)))
        rows = self.query(
            f"SELECT {day}, count(*), sum(last_seq), max(last_position) FROM {CATALOGUE}{cond} "
            f"GROUP BY {day} ORDER BY {day}",
            params,
        )
        return [(date.fromisoformat(str(d)), int(n), int(q), int(p)) for d, n, q, p in rows]

    def days(self, first: date, last: date) -> list[tuple[str, date, int]]:
        cond, params = self._where(SessionFilter(dates=(first, last)))
        rows = self.query(
            f"SELECT session, substr(coalesce(first_at, stored), 1, 10), last_seq FROM "
            f"{CATALOGUE}{cond} ORDER BY {_ORDER_BY['oldest']}",
            params,
        )
        return [(str(s), date.fromisoformat(str(d)), int(q)) for s, d, q in rows]

    def count(self, where: SessionFilter) -> int:
        cond, params = self._where(where)
        return int(self.query(f"SELECT count(*) FROM {CATALOGUE}{cond}", params)[0][0])

    @property
    def faceted(self) -> bool:
        """A store of version 5: the filter choices kept in :data:`~store.schema.FACETS`."""
        return int(self.version) >= 5

    def facets(self) -> Facets:
        if self.faceted:  # a few hundred rows, however many sessions
            got: dict[str, list[str]] = {"player": [], "table": [], "untabled": [], "day": []}
            for kind, value in self.query(f"SELECT kind, value FROM {FACETS}"):
                got.setdefault(str(kind), []).append(str(value))
            untabled: list[str | None] = [None] if got["untabled"] else []
            days = map(date.fromisoformat, got["day"])
            return facets_from(got["player"], [*got["table"], *untabled], days)
        seats = (
            f"SELECT DISTINCT j.value FROM {CATALOGUE}, json_each({CATALOGUE}.seats) j"
            if self.MARK == "?"
            else f"SELECT DISTINCT jsonb_array_elements_text(seats::jsonb) FROM {CATALOGUE}"
        )
        players = [str(r[0]) for r in self.query(seats)]
        names = [r[0] for r in self.query(f"SELECT DISTINCT table_name FROM {CATALOGUE}")]
        day = "substr(coalesce(first_at, stored), 1, 10)"
        lo, hi = self.query(f"SELECT min({day}), max({day}) FROM {CATALOGUE}")[0]
        span = [date.fromisoformat(lo), date.fromisoformat(hi)] if lo and hi else []
        return facets_from(players, [None if n is None else str(n) for n in names], span)

    def first_of(self, conn: Any, info: SessionInfo) -> SessionInfo:
        """``info`` with the session's first event's time, store time and position, for a session
        the catalogue does not hold yet although it has events (only a row written by a program
        other than Bragbook; the catalogue is filled when a store is migrated)."""
        got = conn.execute(
            self.sql(f"SELECT at, stored_at, position FROM {TABLE} WHERE session = ? AND seq = 1"),
            (info.session,),
        ).fetchone()
        if got is None:
            return info
        stored = parse_stored_at(got[1])
        first_at = datetime.fromisoformat(got[0]) if got[0] else None
        return replace(
            info,
            started=first_at or stored,
            stored=stored,
            first_position=int(got[2]),
            first_at=first_at,
        )

    def rewrite_catalogue(self, infos: Callable[[], list[SessionInfo]]) -> int:
        """Writes the catalogue again from ``infos()`` (one transaction): for rows written around
        Bragbook (a bulk copy). Returns the number of sessions."""
        self.check_writable()
        rows = infos()
        with self.transaction() as tx:
            tx.conn.execute(f"DELETE FROM {CATALOGUE}")
            if rows:
                tx.conn.cursor().executemany(self.sql(UPSERT), [catalogue_params(i) for i in rows])
            if self.faceted:
                fill_facets(self, tx.conn)
        return len(rows)
