"""The projection's summaries kept beside its facts (issue 37 item 5: the Players page at league
scale), so that a league's page reads a few rows instead of aggregating 600,000 (session, player)
rows at its first run:

- per player: each player's totals over every session (``player_totals``) and each spelling
  seated with its counts (``player_seated``): the page's first table and its names;
- per night (a date of ``session_started.at`` in its own offset, as a club night counts them):
  its sessions' counts, pots and sums (``night_totals``), the rule sets played
  (``night_rule_sets``) and each name's net (``night_player_nets``): the season panel's nights
  (:mod:`analytics.season_parts`).

All are pure aggregations of tables the projector writes (``player_session_summary``;
``sessions``, ``session_players``): ``analytics/sql/summaries.sql``. They are brought up to date
at the end of a refresh for the players and nights of the sessions it touched (as they stood
before each batch and after it: a correction may change a seat's name), or whole when the
refresh began from nothing, rekeyed every session (a new register version) or found them stale.
While a refresh that commits batch by batch is under way they are marked stale (``meta``
:data:`MARK`), and the readers (:func:`kept`) aggregate the facts themselves, as before: a
reader never takes a summary of another checkpoint than the facts. A catch-up in one
transaction (:func:`analytics.projector.one_transaction`) marks and brings them up to date
inside it.
"""

from __future__ import annotations

from collections.abc import Iterable

import duckdb

from analytics.columns import PLAYER_SESSION_SUMMARY
from analytics.ddl import table
from analytics.sqlfiles import query

__all__ = [
    "MARK",
    "NIGHT_PLAYER_NETS",
    "NIGHT_RULE_SETS",
    "NIGHT_TOTALS",
    "PLAYER_SEATED",
    "PLAYER_TOTALS",
    "SUMMARIES",
    "Following",
    "bring_up_to_date",
    "kept",
    "mark_stale",
    "touched_by",
]

_SQL = "summaries.sql"

MARK = "summaries"
"""``meta`` key: ``kept`` when the :data:`SUMMARIES` agree with the facts at the checkpoint;
anything else (or none) when they may not."""

_SUMMED = tuple(
    c for c in PLAYER_SESSION_SUMMARY.columns if c.name not in ("session", "player", "player_key")
)

PLAYER_TOTALS = table(
    "player_totals",
    (
        "One row per (player_key, den): player_session_summary's counts and tick sums added up "
        "over every session (biggest_pot_t the largest); player_stats reads it when no filter "
        "is asked and meta summaries is 'kept' (analytics/summaries.py)."
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


_DAY = {"day VARCHAR NOT NULL": "The night: the date (YYYY-MM-DD) of sessions.started."}

NIGHT_TOTALS = table(
    "night_totals",
    "One row per (night, den): the sessions started that night (analytics/season_parts.py).",
    {
        **_DAY,
        "den INTEGER NOT NULL": "Ticks per stake unit of those sessions (RULES 1.2).",
        "sessions BIGINT NOT NULL": "Sessions started that night with that den.",
        "going BIGINT NOT NULL": "Of them, those not over (RULES 1.4).",
        "pot_t BIGINT NOT NULL": "The pots on their tables (sessions.pot_t), ticks (RULES 6.1).",
        "seqs BIGINT NOT NULL": "The sum of their last seqs (sessions.last_seq).",
        "last_position BIGINT NOT NULL": "The highest sessions.last_position among them.",
    },
)

NIGHT_RULE_SETS = table(
    "night_rule_sets",
    "One row per night and set of rule parameters its sessions were played under (FORMAT.md).",
    {
        **_DAY,
        "ante_t BIGINT NOT NULL": "The ante in ticks of den (RULES 4.1).",
        "den INTEGER NOT NULL": "Ticks per stake unit (RULES 1.2).",
        "open_min INTEGER NOT NULL": "The lowest opening level (RULES 5.5).",
        "open_max INTEGER NOT NULL": "The highest opening level (RULES 5.5).",
        "raise_max INTEGER NOT NULL": "The largest raise (RULES 5.5).",
        "pots_rule INTEGER NOT NULL": "Resolved pots that end a session (RULES 1.4).",
        "blind_play BOOLEAN NOT NULL": "Blind play allowed (RULES 5.1).",
    },
)

NIGHT_PLAYER_NETS = table(
    "night_player_nets",
    "One row per (night, name as written in the log, den): the nets over the night's sessions.",
    {
        **_DAY,
        "player VARCHAR NOT NULL": "The name seated (session_players.player).",
        "den INTEGER NOT NULL": "Ticks per stake unit (RULES 1.2).",
        "net_t BIGINT NOT NULL": "sum(session_players.net_t): RULES 1.5 nets, open deals included.",
    },
)

SUMMARIES = (PLAYER_TOTALS, PLAYER_SEATED, NIGHT_TOTALS, NIGHT_RULE_SETS, NIGHT_PLAYER_NETS)
"""The summary tables, in the order they are made."""


def kept(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether the summaries on ``con`` agree with its facts (``meta`` :data:`MARK`)."""
    try:
        got = con.execute("SELECT value FROM meta WHERE key = $k", {"k": MARK}).fetchall()
    except duckdb.CatalogException:
        return False
    return bool(got) and got[0][0] == "kept"


def mark_stale(con: duckdb.DuckDBPyConnection) -> None:
    """Marks the summaries stale (in the caller's transaction, with the batch's facts)."""
    con.execute("INSERT OR REPLACE INTO meta VALUES ($k, 'stale')", {"k": MARK})


def touched_by(con: duckdb.DuckDBPyConnection, sessions: Iterable[str]) -> set[tuple[str, str]]:
    """The players (``("key", player key)``) seated in ``sessions`` and their nights
    (``("day", date)``) as the projection has them now."""
    names = sorted(set(sessions))
    if not names:
        return set()
    rows = con.execute(query(_SQL, "touched_by").sql, {"sessions": names}).fetchall()
    return {(str(kind), str(value)) for kind, value in rows}


def bring_up_to_date(
    con: duckdb.DuckDBPyConnection, touched: Iterable[tuple[str, str]] | None
) -> None:
    """Makes the summaries of the ``touched`` players and nights (:func:`touched_by`) again from
    the facts (``None``: every player's and night's) and marks them kept, in the caller's
    transaction."""
    if touched is None:
        params: dict[str, object] = {"keys": None, "days": None}
        for t in SUMMARIES:
            con.execute(f"DELETE FROM {t.name}")  # our own table names
    else:
        pairs = set(touched)
        params = {
            "keys": sorted(v for k, v in pairs if k == "key"),
            "days": sorted(v for k, v in pairs if k == "day"),
        }
        for t in SUMMARIES:
            _run(con, f"forget_{t.name}", params)
    for t in SUMMARIES:
        _run(con, f"insert_{t.name}", params)
    con.execute("INSERT OR REPLACE INTO meta VALUES ($k, 'kept')", {"k": MARK})


def _run(con: duckdb.DuckDBPyConnection, name: str, params: dict[str, object]) -> None:
    """The statement ``name`` with those of ``params`` it names (DuckDB refuses any other)."""
    sql = query(_SQL, name).sql
    con.execute(sql, {k: v for k, v in params.items() if f"${k}" in sql})


class Following:
    """What one refresh owes the summaries: the players and nights of the sessions its batches
    touched (``touched``, :func:`touched_by`), or ``None`` when every summary is to be made
    again (they were not kept when it began: a projection begun from nothing, a rekey of every
    session, a refresh cut short). A projector that is not refreshing (a parallel rebuild's
    worker) follows nothing: its summaries are made whole after the merge."""

    def __init__(self, con: duckdb.DuckDBPyConnection | None = None) -> None:
        self.touched: set[tuple[str, str]] | None = set() if con is not None and kept(con) else None
        self.active = con is not None
        self.marked = False  # marked stale by a batch of this refresh

    def before(self, con: duckdb.DuckDBPyConnection, sessions: Iterable[str]) -> None:
        """Before a batch writes ``sessions``: their players and nights as they stand (a
        correction may seat another name)."""
        if self.touched is not None:
            self.touched |= touched_by(con, sessions)

    def after(self, con: duckdb.DuckDBPyConnection, sessions: Iterable[str]) -> None:
        """After a batch wrote ``sessions``: their players and nights now; the summaries marked
        stale with the batch's facts (kept again by :meth:`finish`)."""
        if self.touched is not None:
            self.touched |= touched_by(con, sessions)
            mark_stale(con)
            self.marked = True

    def finish(self, con: duckdb.DuckDBPyConnection, *, begun: bool) -> None:
        """At the refresh's end: the summaries owed made again, inside the caller's transaction
        (``begun``) or in one of its own."""
        if not self.active or (self.touched is not None and not self.marked):
            return
        if begun:
            bring_up_to_date(con, self.touched)
            return
        con.begin()
        try:
            bring_up_to_date(con, self.touched)
            con.commit()
        except BaseException:
            con.rollback()
            raise
