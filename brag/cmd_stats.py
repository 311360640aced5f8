"""``brag stats`` and ``brag leaderboard``: the players' statistics and the sessions' standings,
from the DuckDB projection (``--analytics PATH``, default beside the store: ``brag.duckdb`` next to
``brag.db``), brought up to date with the store before they are shown (:mod:`brag.projection`).
Money is exact: JSON and CSV write amounts as FORMAT.md does (``"9"``, ``"-17/2"``); every rate is
written beside the count it is taken over (``blind_rate_n``). ``brag stats --player P --deals
STAT``: the deals behind one statistic (:mod:`brag.drill`).
"""

from __future__ import annotations

import argparse
from typing import Any

from analytics import queries
from analytics.luck import luck_note
from brag.drill import drill
from brag.errors import CommandError
from brag.projection import analytics_option, open_projection
from brag.stat_tables import FORMATS, print_rows, scope, wide_console
from events.text import normal

__all__ = [
    "cmd_leaderboard",
    "cmd_stats",
    "no_player",
    "refuse_unknown",
    "refuse_unknown_table",
    "register",
]


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    opts = analytics_option()
    stats = sub.add_parser(
        "stats",
        parents=[common, opts],
        help="players' statistics (each rate with its count)",
        description="Per player: deals, net, pots won, blind rate, see rate and more, for one "
        "session or all. The projection is refreshed from the store first.",
    )
    stats.add_argument("--session", help="one session only")
    stats.add_argument("--player", help="one player only")
    stats.add_argument(
        "--table", help="the sessions played at one table only (as recorded, e.g. 'Top table')"
    )
    stats.add_argument("--format", choices=FORMATS, default="table")
    stats.add_argument("--no-refresh", action="store_true", help="do not read the store first")
    stats.add_argument(
        "--deals",
        metavar="STAT",
        help="with --player: list the deals behind one statistic (e.g. see_rate, blind_rate, "
        "pots_won): session, deal, step and what each adds to the count",
    )
    stats.set_defaults(func=cmd_stats)

    board = sub.add_parser(
        "leaderboard",
        parents=[common, opts],
        help="session standings with the shared win of RULES 1.5",
        description="Each session's players by net (RULES 1.5: equal highest nets share the "
        "win); without --session, also the players over all finished sessions.",
    )
    board.add_argument("--session", help="one session only")
    board.add_argument("--table", help="the sessions played at one table only")
    board.add_argument(
        "--format",
        choices=FORMATS,
        default="table",
        help="table (the sessions, then the standings over all finished sessions), or json/csv "
        "of the sessions' rows (the standings: brag analytics show overall_leaderboard)",
    )
    board.add_argument("--no-refresh", action="store_true", help="do not read the store first")
    board.set_defaults(func=cmd_leaderboard)


def refuse_unknown(con: Any, session: str | None, player: str | None) -> str | None:
    """One clear error for a session or player the projection has never seen; returns the
    player's name to ask the statistics for: ``player`` itself, or, for a name recorded once
    that the club's register merged or renamed since (``brag players``), the name it goes by
    now ("Jaen" -> "Jean")."""
    known = con.execute("SELECT 1 FROM sessions WHERE session = ?", [session]).fetchone()
    if session and not known:
        raise CommandError(f"no session {session!r} in the store (see brag sessions)")
    if not player:
        return player
    key = normal(player)
    if not con.execute(
        "SELECT 1 FROM session_players WHERE player_key = ? LIMIT 1", [key]
    ).fetchone():
        player = _now_called(con, player)
        key = normal(player)
    if (
        session
        and not con.execute(
            "SELECT 1 FROM session_players WHERE session = ? AND player_key = ?", [session, key]
        ).fetchone()
    ):
        raise CommandError(f"{player} did not play in session {session!r}")
    return player


def _now_called(con: Any, player: str) -> str:
    """The name a recorded ``player`` goes by now in the statistics (a merge, a rename); else
    the one line of :func:`no_player`."""
    rows = con.execute(
        "SELECT DISTINCT sp.player, n.player FROM session_players sp "
        "JOIN player_names n USING (player_key)"
    ).fetchall()
    now = next((str(n) for recorded, n in rows if normal(str(recorded)) == normal(player)), None)
    if now is None:
        raise CommandError(no_player(con, player))
    return now


def no_player(con: Any, player: str) -> str:
    """The one line for a player the statistics do not know, offering the nearest name they do
    (:func:`log.near.nearest`: "no player named Jon; did you mean Jean?")."""
    from events.text import inert
    from log.near import nearest

    known = [str(r[0]) for r in con.execute("SELECT player FROM player_names").fetchall()]
    offer = nearest(player, known)
    return f"no player named {inert(player)}" + (f"; did you mean {inert(offer)}?" if offer else "")


def refuse_unknown_table(con: Any, table: str | None) -> None:
    """One clear error for a table no session was played at, naming the known ones."""
    known = queries.tables(con)
    if table is not None and normal(table) not in {normal(t) for t in known}:
        listed = ", ".join(known) if known else "no session records its table"
        raise CommandError(f"no table {table!r} in the store (tables: {listed})")


def cmd_stats(args: argparse.Namespace) -> int:
    if args.deals is not None:
        if not args.player:
            raise CommandError("--deals lists one player's deals: give --player P too")
        if args.deals not in queries.DRILL:
            known = ", ".join(queries.DRILL)
            raise CommandError(f"no drill-down for {args.deals!r} (statistics: {known})")
    con = open_projection(args, refresh=not args.no_refresh)
    args.player = refuse_unknown(con, args.session, args.player)
    refuse_unknown_table(con, args.table)
    if args.deals is not None:
        return drill(con, args)
    rows = queries.player_stats(con, session=args.session, player=args.player, table=args.table)
    where = scope(args.session, args.table)
    filtered = args.session or args.table or args.player
    empty = f"no ended deals in {scope(args.session, args.table, args.player)}"
    print_rows(
        "player_stats",
        rows,
        args.format,
        f"Players, {where} (rates: share of N)",
        empty if filtered else "(no ended deals yet)",
    )
    if args.format == "table" and (note := luck_note(rows)):
        wide_console().print(note, markup=False, highlight=False)  # wrapped to the terminal
    if args.format == "table" and not args.session and rows:  # issue 37: intervals, ratings
        from brag.skill_report import print_skill

        print_skill(con, wide_console(), args.player, args.table)
    return 0


def cmd_leaderboard(args: argparse.Namespace) -> int:
    con = open_projection(args, refresh=not args.no_refresh)
    refuse_unknown(con, args.session, None)
    refuse_unknown_table(con, args.table)
    rows = queries.leaderboard(con, session=args.session, table=args.table)
    if args.format != "table":
        print_rows("leaderboard", rows, args.format, "")
        return 0
    print_rows(
        "leaderboard", rows, "table", "Sessions (RULES 1.5: equal highest nets share the win)"
    )
    if not args.session and not args.table:
        print_rows("overall_leaderboard", queries.overall_leaderboard(con), "table",
               "Over all finished sessions")  # fmt: skip
    return 0
