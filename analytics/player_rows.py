"""The projection's rows per player (issue 37 item 5: the Players page at league scale): each
player's totals over every session (``player_totals``) and each spelling seated with its
counts (``player_seated``), so that the page's first table and the names it shows are read from
a row or two a player instead of aggregating a league's 600,000 (session, player) rows.

Both are pure aggregations of tables the projector writes (``player_session_summary``;
``session_players`` joined to ``sessions``): ``analytics/sql/players.sql``. They are brought up
to date at the end of a refresh for the players whose sessions it touched (their keys before and
after the batch: a correction may change a seat's name), or whole when the refresh began from
nothing, rekeyed every session (a new register version), or found them stale. While a refresh
that commits batch by batch is under way they are marked stale (``meta`` :data:`MARK`), and the
readers (:func:`kept`) aggregate the tables themselves, as before: a reader never sees totals of
another checkpoint than the facts. A catch-up in one transaction
(:func:`analytics.projector.one_transaction`) marks and brings them up to date inside it.
"""

from __future__ import annotations

from collections.abc import Iterable

import duckdb

from analytics.columns import PLAYER_SESSION_SUMMARY
from analytics.ddl import table
from analytics.sqlfiles import query

__all__ = [
    "MARK",
    "PLAYER_SEATED",
    "PLAYER_TOTALS",
    "Following",
    "bring_up_to_date",
    "kept",
    "keys_of",
    "mark_stale",
]

_SQL = "players.sql"

MARK = "player_rows"
"""``meta`` key: ``kept`` when :data:`PLAYER_TOTALS` and :data:`PLAYER_SEATED` agree with the
facts at the checkpoint; anything else (or none) when they may not."""

_SUMMED = tuple(
    c for c in PLAYER_SESSION_SUMMARY.columns if c.name not in ("session", "player", "player_key")
)

PLAYER_TOTALS = table(
    "player_totals",
    (
        "One row per (player_key, den): player_session_summary's counts and tick sums added up "
        "over every session (biggest_pot_t the largest); player_stats reads it when no filter "
        "is asked and meta player_rows is 'kept' (analytics/player_rows.py)."
    ),
    {
        "player_key VARCHAR NOT NULL": "The player's name in its normal form (events.text.normal).",
        **{c.ddl: c.comment for c in _SUMMED},
    },
)

PLAYER_SEATED = table(
    "player_seated",
    (
        "One row per (player_key, player): how often each spelling of a key was seated, for "
        "player_names_kept (the view player_names of these rows)."
    ),
    {
        "player_key VARCHAR NOT NULL": "The player's name in its normal form (events.text.normal).",
        "player VARCHAR NOT NULL": "A spelling seated (session_players.player).",
        "seated BIGINT NOT NULL": "Sessions in which that spelling was seated.",
        "first_started VARCHAR": "The earliest sessions.started among them (NULL: none timed).",
        "first_position BIGINT NOT NULL": "The least sessions.last_position among them.",
    },
)


def kept(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether the per-player rows on ``con`` agree with its facts (``meta`` :data:`MARK`)."""
    try:
        got = con.execute("SELECT value FROM meta WHERE key = $k", {"k": MARK}).fetchall()
    except duckdb.CatalogException:
        return False
    return bool(got) and got[0][0] == "kept"


def mark_stale(con: duckdb.DuckDBPyConnection) -> None:
    """Marks the per-player rows stale (in the caller's transaction, with the batch's facts)."""
    con.execute("INSERT OR REPLACE INTO meta VALUES ($k, 'stale')", {"k": MARK})


def keys_of(con: duckdb.DuckDBPyConnection, sessions: Iterable[str]) -> set[str]:
    """The player keys seated in ``sessions`` (``session_players``) as the projection has them."""
    names = sorted(set(sessions))
    if not names:
        return set()
    rows = con.execute(query(_SQL, "keys_of").sql, {"sessions": names}).fetchall()
    return {str(r[0]) for r in rows}


def bring_up_to_date(con: duckdb.DuckDBPyConnection, keys: Iterable[str] | None) -> None:
    """Makes the rows of ``keys`` again from the facts (``None``: every player's) and marks them
    kept, in the caller's transaction."""
    if keys is None:
        con.execute("DELETE FROM player_totals")
        con.execute("DELETE FROM player_seated")
        params: dict[str, object] = {"keys": None}
    else:
        params = {"keys": sorted(set(keys))}
        con.execute(query(_SQL, "forget_totals").sql, params)
        con.execute(query(_SQL, "forget_seated").sql, params)
    con.execute(query(_SQL, "insert_totals").sql, params)
    con.execute(query(_SQL, "insert_seated").sql, params)
    con.execute("INSERT OR REPLACE INTO meta VALUES ($k, 'kept')", {"k": MARK})


class Following:
    """What one refresh owes the per-player rows: the keys of the players whose sessions its
    batches touched (``keys``), or ``None`` when every player's rows are to be made again (they
    were not kept when it began: a projection begun from nothing, a rekey of every session, a
    refresh cut short). A projector that is not refreshing (a parallel rebuild's worker) follows
    nothing: its rows are made whole after the merge."""

    def __init__(self, con: duckdb.DuckDBPyConnection | None = None) -> None:
        self.keys: set[str] | None = set() if con is not None and kept(con) else None
        self.active = con is not None
        self.marked = False  # marked stale by a batch of this refresh

    def before(self, con: duckdb.DuckDBPyConnection, sessions: Iterable[str]) -> None:
        """Before a batch writes ``sessions``: their players as they stand (a correction may
        seat another name)."""
        if self.keys is not None:
            self.keys |= keys_of(con, sessions)

    def after(self, con: duckdb.DuckDBPyConnection, sessions: Iterable[str]) -> None:
        """After a batch wrote ``sessions``: their players now; the rows marked stale with the
        batch's facts (kept again by :meth:`finish`)."""
        if self.keys is not None:
            self.keys |= keys_of(con, sessions)
            mark_stale(con)
            self.marked = True

    def finish(self, con: duckdb.DuckDBPyConnection, *, begun: bool) -> None:
        """At the refresh's end: the rows owed made again, inside the caller's transaction
        (``begun``) or in one of its own."""
        if not self.active or (self.keys is not None and not self.marked):
            return
        if begun:
            bring_up_to_date(con, self.keys)
            return
        con.begin()
        try:
            bring_up_to_date(con, self.keys)
            con.commit()
        except BaseException:
            con.rollback()
            raise
