"""Thin typed functions over ``analytics/sql/stats.sql``: what the CLI and the dashboard call.

Each function runs one named query with bound parameters and returns a list of dicts, one per
row. Money leaves SQL as an exact numerator over the common denominator and is returned as a
:class:`~fractions.Fraction` in stake units (never a float, RULES 1.2): ``net``,
``net_per_deal``, ``biggest_pot_won``, ``pot_mean`` ... Rates are floats, each beside the count it
is taken over (``blind_rate`` and ``blind_rate_n``). The columns are documented once, in the SQL
file (``-- col:`` lines); :func:`columns` returns that documentation.
"""

from __future__ import annotations

import math
import re
from datetime import date
from fractions import Fraction
from typing import Any

import duckdb

from analytics.prior_rows import session_priors
from analytics.skill_rows import skill_pair, skill_summary
from analytics.sqlfiles import Column, Query, load, query
from analytics.summaries import kept
from events.text import normal

__all__ = [
    "DRILL",
    "DRILL_AT",
    "Dates",
    "columns",
    "dated",
    "deal_lengths",
    "deals_behind",
    "deals_behind_total",
    "decisions",
    "key",
    "leaderboard",
    "overall_leaderboard",
    "player_stats",
    "pot_sizes",
    "public_rows",
    "renumber",
    "run",
    "session_nets",
    "session_priors",
    "showdown_hands",
    "skill_pair",
    "skill_summary",
    "tables",
]

STATS = "stats.sql"
_PARAM = re.compile(r"\$(\w+)")


def columns(name: str) -> tuple[Column, ...]:
    """The documented output columns of the statistic ``name`` (``player_stats``, ...)."""
    return query(STATS, name).columns


def statistics() -> dict[str, Query]:
    """Every statistic query by name, with its documentation."""
    return {k: q for k, q in load(STATS).items() if q.columns}


def common_den(con: duckdb.DuckDBPyConnection) -> int:
    """The least common multiple of the sessions' tick denominators (1 if there are none)."""
    dens = [int(r[0]) for r in con.execute(query(STATS, "dens").sql).fetchall()]
    return math.lcm(*dens) if dens else 1


def key(name: str | None) -> str | None:
    """A player's or table's name as the projection keys it (its :func:`events.text.normal`
    form: ``Ann``, ``ann`` and ``Аnn`` with a Cyrillic A are one player); ``None`` stays."""
    return None if name is None else normal(name)


Dates = tuple[date, date] | None
"""A date filter: the inclusive ``(first, last)`` calendar dates of the sessions' starts
(``session_started.at`` in its own offset, as a club night counts them); ``None``: every
session. A session recorded without times has no date and is left out by a filter."""


def dated(dates: Dates) -> dict[str, str | None]:
    """The bound parameters ``date_from`` and ``date_to`` of ``dates`` (both ``None``: all)."""
    if dates is None:
        return {"date_from": None, "date_to": None}
    return {"date_from": dates[0].isoformat(), "date_to": dates[1].isoformat()}


def run(
    con: duckdb.DuckDBPyConnection, name: str, params: dict[str, Any] | None = None
) -> list[dict[str, Any]]:
    """Runs the named statistic with ``params`` (missing ones bound as NULL; ``den`` computed)
    and returns raw rows (``*_num`` columns are numerators over ``den``)."""
    cur = _executed(con, name, params)
    names = [d[0] for d in cur.description]
    return [dict(zip(names, row, strict=True)) for row in cur.fetchall()]


def _executed(
    con: duckdb.DuckDBPyConnection, name: str, params: dict[str, Any] | None
) -> duckdb.DuckDBPyConnection:
    q = query(STATS, name)
    wanted = set(_PARAM.findall(q.sql))
    given = dict(params or {})
    if "den" in wanted and "den" not in given:
        given["den"] = common_den(con)
    return con.execute(q.sql, {k: given.get(k) for k in wanted})


def _money(rows: list[dict[str, Any]], den: int, **sums: str | tuple[str, str]) -> None:
    """Turns ``*_num`` columns into exact Fractions: ``out=num`` or ``out=(sum_num, count)``."""
    for r in rows:
        for out, spec in sums.items():
            if isinstance(spec, tuple):
                total, count = r[spec[0]], r[spec[1]]
                r[out] = None if total is None or not count else Fraction(int(total), den * count)
            else:
                v = r[spec]
                r[out] = None if v is None else Fraction(int(v), den)


def player_stats(
    con: duckdb.DuckDBPyConnection,
    session: str | None = None,
    player: str | None = None,
    table: str | None = None,
    dates: Dates = None,
) -> list[dict[str, Any]]:
    """Per player: deals, net, pots won, rates with their counts (``stats.sql`` player_stats);
    over one session, the sessions played at one ``table`` (``session_started.table``), or all;
    only the sessions started within ``dates`` (:data:`Dates`) when given."""
    den = common_den(con)
    params = {"session": session, "player_key": key(player), "table_key": key(table), "den": den}
    params |= dated(dates)
    params["kept"] = kept(con)  # the per-player rows (analytics/summaries.py) agree with the facts
    params["totals"] = params["kept"] and session is None and table is None and dates is None
    rows = run(con, "player_stats", params)
    _money(
        rows,
        den,
        net="net_num",
        net_per_deal=("net_num", "deals"),
        biggest_pot_won="biggest_pot_num",
        adjusted_net_per_deal=("adjusted_net_num", "luck_deals"),
    )
    return rows


def tables(con: duckdb.DuckDBPyConnection) -> list[str]:
    """The names of the tables the sessions were played at (``session_started.table``), sorted,
    each under one spelling (``Top table`` and ``top  table`` are one table: the same
    :func:`events.text.normal` form); sessions recorded without one are in no table."""
    rows = con.execute("SELECT table_name FROM table_names ORDER BY 1").fetchall()
    return [str(r[0]) for r in rows]


def leaderboard(
    con: duckdb.DuckDBPyConnection, session: str | None = None, table: str | None = None
) -> list[dict[str, Any]]:
    """Each session's standing with the shared win of RULES 1.5 (``stats.sql`` leaderboard); one
    session, the sessions of one ``table``, or all."""
    den = common_den(con)
    rows = run(con, "leaderboard", {"session": session, "table_key": key(table), "den": den})
    _money(rows, den, net="net_num")
    return rows


def overall_leaderboard(con: duckdb.DuckDBPyConnection) -> list[dict[str, Any]]:
    """Wins, shared wins and nets over all finished sessions."""
    den = common_den(con)
    rows = run(con, "overall_leaderboard", {"den": den})
    _money(rows, den, net="net_num")
    return rows


def showdown_hands(
    con: duckdb.DuckDBPyConnection,
    session: str | None = None,
    player: str | None = None,
    table: str | None = None,
    dates: Dates = None,
) -> list[dict[str, Any]]:
    """Hand categories shown at showdowns beside RULES 2.8 (one session, one table's, or all;
    within ``dates``, :data:`Dates`)."""
    params: dict[str, Any] = {
        "session": session,
        "player_key": key(player),
        "table_key": key(table),
    }
    params |= dated(dates)
    return run(con, "showdown_hands", params)


def session_nets(
    con: duckdb.DuckDBPyConnection, player: str, table: str | None = None, dates: Dates = None
) -> list[dict[str, Any]]:
    """The player's net in each session with an ended deal of theirs (``stats.sql``
    session_nets: the sessions and the net ``player_stats`` counts, one row a session), over
    every session or the sessions of one ``table``: ``session``, ``started`` (``session_started.at``
    as a :class:`~datetime.datetime`; ``None`` for a log without times) and ``net`` (an exact
    :class:`~fractions.Fraction` in stake units), ordered by session. Summed over its rows,
    ``net`` is what the player's :func:`deals_behind` ``"net"`` rows of the session add up to,
    read from a few rows a session rather than every deal's events. Within ``dates`` when
    given (:data:`Dates`)."""
    from datetime import datetime

    params = {"player_key": key(player), "table_key": key(table), **dated(dates)}
    return [
        {
            "session": r["session"],
            "started": None if r["started"] is None else datetime.fromisoformat(r["started"]),
            "net": Fraction(int(r["net_t"]), int(r["den"])),
        }
        for r in run(con, "session_nets", params)
    ]


def session_net_ticks(
    con: duckdb.DuckDBPyConnection, player: str, table: str | None = None, dates: Dates = None
) -> list[tuple[str, int | None, int, int]]:
    """:func:`session_nets`' rows as the chart sums them: ``(session, started as UTC
    microseconds since 1970 or None, net in ticks, den)``, the instant computed by DuckDB from
    the recorded text and no Fraction, datetime or dict made in Python (a league's player has
    25,000 sessions: 0.1 s of Python at each first run). ``None``: a log without times (or a
    text DuckDB cannot read as a time with its offset: the caller asks the store)."""
    params = {"player_key": key(player), "table_key": key(table), **dated(dates)}
    return [
        (str(session), None if us is None else int(us), int(net_t), int(den))
        for session, _, us, net_t, den in _executed(con, "session_nets", params).fetchall()
    ]


def pot_sizes(con: duckdb.DuckDBPyConnection, session: str | None = None) -> list[dict[str, Any]]:
    """Pot sizes by how the deal ended (exact Fractions)."""
    den = common_den(con)
    rows = run(con, "pot_sizes", {"session": session, "den": den})
    _money(
        rows,
        den,
        pot_mean=("pot_sum_num", "deals"),
        pot_min="pot_min_num",
        pot_median="pot_median_num",
        pot_max="pot_max_num",
        carried_in_mean=("carried_in_sum_num", "deals"),
    )
    return rows


def deal_lengths(
    con: duckdb.DuckDBPyConnection, session: str | None = None
) -> list[dict[str, Any]]:
    """Deal lengths in betting actions by how the deal ended."""
    return run(con, "deal_lengths", {"session": session})


def decisions(
    con: duckdb.DuckDBPyConnection,
    session: str | None = None,
    player: str | None = None,
    table: str | None = None,
    dates: Dates = None,
) -> list[dict[str, Any]]:
    """Each player's decisions by action (``stats.sql`` decisions): counts, the share of the
    player's decisions, those made blind, and the mean cost and mean net in the deal as exact
    :class:`~fractions.Fraction` stake units; one session, one ``table``'s sessions, or all;
    within ``dates`` when given (:data:`Dates`)."""
    den = common_den(con)
    params = {"session": session, "player_key": key(player), "table_key": key(table), "den": den}
    params |= dated(dates)
    rows = run(con, "decisions", params)
    _money(
        rows,
        den,
        cost_mean=("cost_sum_num", "decisions"),
        net_mean=("net_sum_num", "decisions"),
    )
    return rows


def public_rows(name: str, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The statistic's documented columns (and the counts beside them), in order, money as
    FORMAT.md amount text (``"9"``, ``"-17/2"``, exact): what ``brag stats --format json``
    prints and the lake's ``player_stats`` holds."""
    from events.amounts import format_amount

    keys: list[str] = []
    for c in columns(name):
        keys.append(c.name)
        if c.count and c.count.endswith("_n") and c.count not in keys:
            keys.append(c.count)
    out = []
    for r in rows:
        o: dict[str, Any] = {}
        for k in keys:
            v = r.get(k)
            o[k] = str(format_amount(v)) if isinstance(v, Fraction) else v
        out.append(o)
    return out


DRILL: dict[str, tuple[str, str, tuple[str, ...], str]] = {
    # statistic: (what a deal adds to its count, to its numerator, the player's events to show,
    #             the count's column in player_stats)
    "deals": ("1", "1", (), "deals"),
    "net": ("1", "net_t", (), "deals"),
    "pots_won": ("won::INT", "won::INT", (), "pots_won"),
    "pots_won_showdown": ("(won AND role IS NOT NULL)::INT", "1", ("saw",), "pots_won_showdown"),
    "pots_won_uncontested": ("(left_how = 'won_uncontested')::INT", "1", (),
                             "pots_won_uncontested"),
    "blind_rate": ("(first_action IS NOT NULL)::INT", "(first_action = 'blind')::INT",
                   ("bet", "folded", "saw"), "blind_rate_n"),
    "avg_bets_before_looking": ("1", "blind_bets", ("bet",), "avg_bets_before_looking_n"),
    "bet_share": ("1", "(bets > 0)::INT", ("bet",), "bet_share_n"),
    "raise_rate": ("bets", "raises", ("bet",), "raise_rate_n"),
    "see_rate": ("see_chances", "saw::INT", ("bet", "folded", "saw"), "see_rate_n"),
    "payer_win_rate": ("(role = 'payer')::INT", "won::INT", ("saw",), "payer_win_rate_n"),
    "seen_win_rate": ("(role = 'seen')::INT", "won::INT", ("saw",), "seen_win_rate_n"),
    "carried_caused": ("(left_how IN ('carried', 'retained'))::INT", "1", (),
                       "carried_caused"),
    "adjusted_net_per_deal": ("(luck_t IS NOT NULL)::INT", "coalesce(adjusted_net_t, 0)", (),
                              "luck_deals"),
}  # fmt: skip
"""Drill-down: for each statistic of ``player_stats``, what one of the player's ended deals adds
to its count (summed over the deals listed, it equals the count column named last) and to its
numerator, as the summary of ``schema.sql`` counts them, and which of the player's events to
point at (their first of those types in the deal, or as :data:`DRILL_AT` says; none: the event
that ended the deal)."""
DRILL_AT: dict[str, tuple[str, bool]] = {"see_rate": ("see_cost_t IS NOT NULL", True)}
"""Which of the player's decisions a drill-down points at, where not their first of its types:
a ``decisions`` condition, and whether the last of them. ``see_rate``: the last made when a see
was possible (RULES 5.7): the see itself, else the fold or the bet that answered the chance (the
chance the rate counts; a deal without a see used to open at its end: a new user's trial)."""
_DRILL_COLUMNS = ("session", "deal", "step", "seq", "event", "counted", "hits", "corrected")
"""The columns of a :func:`deals_behind` row, in order."""
MONEY_DRILLS = ("net", "adjusted_net_per_deal")
"""Drill-downs whose ``hits`` are money: ticks made exact Fractions by :func:`deals_behind`."""


def deals_behind(
    con: duckdb.DuckDBPyConnection,
    player: str,
    statistic: str,
    session: str | None = None,
    table: str | None = None,
    limit: int | None = None,
    offset: int = 0,
    dates: Dates = None,
) -> list[dict[str, Any]]:
    """The player's deals behind ``statistic`` (a key of :data:`DRILL`): ``session``, ``deal``,
    ``step`` (within the deal, as the Replay page counts), ``seq``, ``event``, ``counted`` (what
    the deal adds to the statistic's count) and ``hits`` (to its numerator; for ``net`` the
    deal's net, for the others of :data:`MONEY_DRILLS` their money, as an exact
    :class:`~fractions.Fraction`), ordered by session and deal; with ``limit``, at most that
    many of them from the ``offset``-th (0-based), only their rows read (a page of a league's
    player: the events that ended them by position, the player's decisions, the voids;
    :func:`deals_behind_total` sums them all). Within ``dates`` when given (:data:`Dates`).
    Raises ``KeyError`` for a statistic without a drill-down."""
    from analytics.columns import DECISION_ACTIONS

    weight, hit, types, _ = DRILL[statistic]
    actions = {DECISION_ACTIONS[t]: t for t in types}  # the player's events are decisions
    q = query(STATS, "deals_behind")
    sql = q.sql.replace("{weight}", weight).replace("{hit}", hit)  # our own expressions
    at, last = DRILL_AT.get(statistic, ("TRUE", False))  # ours too
    sql = sql.replace("{at}", at).replace("{order}", "-c.seq" if last else "c.seq")
    params = {
        "player_key": key(player),
        "session": session,
        "table_key": key(table),
        "actions": list(actions),
        "limit": limit,
        "offset": offset,
        **dated(dates),
    }
    cur = con.execute(sql, params)
    names = [d[0] for d in cur.description]
    rows = []
    for got in cur.fetchall():
        r = dict(zip(names, got, strict=True))
        own = r.pop("own_action")
        r["event"] = actions[own] if own is not None else r.pop("end_type")
        rows.append({k: r[k] for k in _DRILL_COLUMNS})
    if statistic in MONEY_DRILLS:
        dens = dict(
            con.execute(
                "SELECT session, den FROM sessions WHERE session IN (SELECT unnest($s::VARCHAR[]))",
                {"s": sorted({r["session"] for r in rows})},
            ).fetchall()
        )
        for r in rows:
            r["hits"] = Fraction(int(r["hits"]), int(dens[r["session"]]))
    return rows


def deals_behind_total(
    con: duckdb.DuckDBPyConnection,
    player: str,
    statistic: str,
    session: str | None = None,
    table: str | None = None,
    dates: Dates = None,
) -> dict[str, Any]:
    """What every row of :func:`deals_behind` adds up to, without reading the deals' events:
    ``deals`` (how many rows), ``counted`` (the sum of their ``counted``: the statistic's count)
    and ``hits`` (the sum of their ``hits``; an exact :class:`~fractions.Fraction` for
    :data:`MONEY_DRILLS`, else an int). Raises ``KeyError`` for a statistic without a
    drill-down."""
    weight, hit, _, _ = DRILL[statistic]
    q = query(STATS, "deals_behind_total")
    sql = q.sql.replace("{weight}", weight).replace("{hit}", hit)  # our own expressions
    den = common_den(con)
    params = {"player_key": key(player), "session": session, "table_key": key(table), "den": den}
    params |= dated(dates)
    deals, counted, hits_num = con.execute(sql, params).fetchone() or (0, 0, 0)
    hits: Any = Fraction(int(hits_num), den) if statistic in MONEY_DRILLS else int(hits_num)
    return {"deals": int(deals), "counted": int(counted), "hits": hits}


def renumber(rows: list[dict[str, Any]], events_of: Any) -> None:
    """Gives the rows of :func:`deals_behind` from sessions with a correction (``corrected``)
    the step every replay shows (``present.steps.numbered``: only the events in force are
    counted, so a withdrawn event does not shift the steps after it). ``events_of(session)``:
    the session's stored events in seq order (the store's ``events``)."""
    from present.steps import numbered

    labels: dict[str, list[Any]] = {}
    for r in rows:
        if not r.get("corrected"):
            continue
        session = str(r["session"])
        if session not in labels:
            events = list(events_of(session))
            labels[session] = numbered(events)  # the session's timeline: one fold
        found = labels[session]
        k = int(r["seq"]) - 1  # stored seqs are 1, 2, 3... in order
        if 0 <= k < len(found):
            r["deal"], r["step"] = found[k].deal, found[k].step
