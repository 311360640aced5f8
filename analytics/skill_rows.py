"""The projection's rows behind the skill figures and the ratings (issue 37): DuckDB in,
plain values out (``analytics/sql/skill.sql``).

- :func:`session_rows`: one :class:`analytics.skill.SessionRow` per (session, player), with the
  session's start; in order of play (by start, sessions without a time last, then by id).
- :func:`skill_summary` and :func:`skill_pair`: what ``brag stats`` and the Players page show,
  small and picklable (the page keeps them per checkpoint).
- :func:`rated_sessions`: the sessions the ratings rate (``analytics/ratings.py``): finished,
  every deal with a luck term, two players or more; each as ``(session, ((player, adjusted net
  in stake units), ...))`` in order of play, read as floats without building a Fraction (a
  rebuild of 10,000 sessions must take under a second, ``bench/ratings.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from typing import TYPE_CHECKING

from analytics.ratings import Rated, Step, rebuild
from analytics.skill import (
    Comparison,
    Figures,
    Meter,
    SessionRow,
    compare,
    figures_and_neighbours,
    meter,
)
from analytics.sqlfiles import query
from events.text import normal

if TYPE_CHECKING:
    import duckdb

__all__ = [
    "PlayedRow",
    "SkillPair",
    "SkillSummary",
    "rated_sessions",
    "session_rows",
    "skill_pair",
    "skill_summary",
]


def key(name: str | None) -> str | None:
    """A name in its normal form (:func:`events.text.normal`), as the projection keys it."""
    return None if name is None else normal(name)


@dataclass(frozen=True, slots=True)
class PlayedRow:
    """A :class:`SessionRow` with its session's ``finished``, and whether every one of its deals
    has a luck term (``whole``)."""

    row: SessionRow
    finished: bool

    @property
    def whole(self) -> bool:
        return self.row.deals > 0 and self.row.luck_deals == self.row.deals


def session_rows(
    con: duckdb.DuckDBPyConnection,
    table: str | None = None,
    since: date | None = None,
    until: date | None = None,
) -> list[PlayedRow]:
    """Every (session, player) row with an ended deal, over all sessions or one ``table``'s, and
    with ``since``/``until`` only the sessions started on those dates or between (a season;
    sessions without a time are then left out), in order of play (``skill.sql`` skill_rows).
    Money exact (Fractions of the session's ``den``)."""
    params = {
        "table_key": key(table),
        "since": since.isoformat() if since else None,
        "until": until.isoformat() if until else None,
    }
    out = []
    for (
        session,
        player,
        _started,
        finished,
        _cards,
        den,
        deals,
        net_t,
        luck,
        luck_net_t,
        adj_t,
    ) in con.execute(query("skill.sql", "skill_rows").sql, params).fetchall():
        row = SessionRow(
            session, player, deals, Fraction(net_t, den), luck or 0,
            Fraction(luck_net_t, den) if luck else None,
            Fraction(adj_t, den) if luck else None,
        )  # fmt: skip
        out.append(PlayedRow(row, bool(finished)))
    return out


def rated_sessions(
    con: duckdb.DuckDBPyConnection, table: str | None = None
) -> list[tuple[str, tuple[tuple[str, float], ...]]]:
    """The sessions the ratings rate (module doc; ``skill.sql`` rated_rows), over all sessions
    or one ``table``'s, in order of play: each ``(session, ((player, adjusted net in stake
    units), ...))``; a name seated twice in one session (two spellings merged since) counts
    once, its parts summed. Sessions of one player are left out."""
    cur = con.execute(query("skill.sql", "rated_rows").sql, {"table_key": key(table)})
    out: list[tuple[str, tuple[tuple[str, float], ...]]] = []
    session: str | None = None
    part: list[tuple[str, float]] = []
    for s, player, ticks, den in cur.fetchall():
        if s != session:
            if session is not None and len(part) >= 2:
                out.append((session, tuple(part)))
            session, part = s, []
        part.append((player, int(ticks) / int(den)))
    if session is not None and len(part) >= 2:
        out.append((session, tuple(part)))
    return out


@dataclass(frozen=True, slots=True)
class SkillSummary:
    """Every player's :class:`~analytics.skill.Figures`, rating now, and the club's
    :class:`~analytics.skill.Meter` (``None`` below three players with two sessions)."""

    figures: tuple[Figures, ...]
    ratings: tuple[Rated, ...]
    meter: Meter | None
    rated_sessions: int
    neighbours: tuple[Comparison, ...] = ()


def skill_summary(
    con: duckdb.DuckDBPyConnection,
    table: str | None = None,
    since: date | None = None,
    until: date | None = None,
) -> SkillSummary:
    """The figures over every session (or one ``table``'s; with ``since``/``until``, a season's),
    the ratings rebuilt from the log (the season's sessions only when given one), and the meter
    of the finished sessions' adjusted nets (each session wholly measured)."""
    rows = session_rows(con, table, since, until)
    rated = rated_sessions(con, table)
    if since or until:
        keep = {r.row.session for r in rows}
        rated = [s for s in rated if s[0] in keep]
    values: dict[str, list[float]] = {}
    for r in rows:
        if r.finished and r.whole and r.row.adjusted is not None:
            values.setdefault(r.row.player, []).append(float(r.row.adjusted))
    figs, neighbours = figures_and_neighbours([r.row for r in rows])
    return SkillSummary(
        tuple(figs), rebuild(rated).now, meter(values, draws=500), len(rated), tuple(neighbours)
    )


@dataclass(frozen=True, slots=True)
class SkillPair:
    """Two players side by side: the :class:`~analytics.skill.Comparison` (``None`` without a
    second player or a deal) and each one's rating steps, in order (the rating on entering
    each session)."""

    comparison: Comparison | None
    steps: tuple[tuple[Step, ...], ...]


def skill_pair(
    con: duckdb.DuckDBPyConnection, first: str, second: str | None = None, table: str | None = None
) -> SkillPair:
    """:class:`SkillPair` of ``first`` and ``second`` (names as the statistics show them)."""
    rows = [r.row for r in session_rows(con, table) if r.row.player in (first, second)]
    comparison = compare(rows, first, second) if second and second != first else None
    ratings = rebuild(rated_sessions(con, table))
    chosen = [first, *([second] if second and second != first else [])]
    return SkillPair(comparison, tuple(ratings.of(p) for p in chosen))
