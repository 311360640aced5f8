"""``brag decisions``: the decision explorer in the terminal (:mod:`analytics.spots`).

::

    brag decisions --spot "actor=seen,opp_blind=1,level=3-5" [--player P]
    brag decisions --spot ... --player P --deals player:fold     # the decisions behind a cell
    brag decisions --player P --differences                       # where P strays most

A spot's text is ``key=value`` pairs joined by commas (``players``, ``actor``, ``opp_blind``,
``opp_seen``, ``level``, ``pot``, ``hand``; see :class:`analytics.spots.Spot`). Per action taken
in the spot: the count, the share with its Wilson 95% interval and the mean net in the deal (stake
units, exact where whole, a half or a quarter) with its standard error, for the player, the field
(every other player) and the club's winning players. JSON and CSV write every figure exactly
(amounts as FORMAT.md text, ``"-17/4"``). Errors are one line.

The decisions of a deal still in play are not counted until the deal ends: a decision is stored
with its deal's result (the net it led to). The table output says so in plain words, with the
number of deals in play (:data:`IN_PLAY`), and so does ``--help``.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from typing import Any

from analytics import spots
from analytics.spots import ACTIONS, GROUPS, MIN_DEALS
from brag.cmd_stats import refuse_unknown_table
from brag.console import shown
from brag.errors import CommandError
from brag.projection import open_projection
from brag.stat_tables import wide_console
from brag.tables import fitted_tables
from events.amounts import amount_text, format_amount
from events.text import inert
from present.numbers import count_of

FORMATS = ("table", "json", "csv")

IN_PLAY = (
    "Decisions of a deal still in play are counted once the deal ends (a decision is stored "
    "with the net it led to)"
)
"""The plain statement of what is left out (issue 37)."""


def in_play_line(con: Any, table: str | None = None) -> str:
    """:data:`IN_PLAY` with how many deals are in play now (over one table's sessions or all)."""
    from events.text import normal

    (n,) = con.execute(
        "SELECT count(*) FROM sessions WHERE deals > deals_projected AND NOT finished "
        "AND ($t::VARCHAR IS NULL OR table_key = $t)",
        {"t": None if table is None else normal(table)},
    ).fetchone()
    now = "no deal is in play now" if not n else f"{count_of(int(n), 'deal')} in play now"
    return f"{IN_PLAY}: {now}."


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "decisions",
        parents=[common],
        help="what players do in a spot, how it pays, and where one player strays",
        description="The decisions of one spot (their context as the engine saw it): per action, "
        "its count, its share with a Wilson 95% interval and the mean net in the deal with its "
        "standard error, for one player, the field (every other player) and the club's winning "
        "players (net above 0 over at least --min-deals deals). The projection is refreshed "
        "from the store first. Decisions of a deal still in play are counted once the deal "
        "ends.",
    )
    p.add_argument(
        "--spot",
        default="",
        help="key=value pairs joined by commas: players=N, actor=blind|seen, opp_blind=N, "
        "opp_seen=N, level=N, pot=A-B (A <= pot < B, stake units) or A+, hand=CATEGORY; a number "
        "may be N, A-B (inclusive) or A+; left out or 'any': every value "
        "(e.g. 'actor=seen,opp_blind=1,level=3-5')",
    )
    p.add_argument("--player", help="the player to set beside the field and the winning players")
    p.add_argument("--table", help="the sessions played at one table only")
    p.add_argument("--cards", choices=("all", "shown"), help="the sessions of one cards mode only")
    p.add_argument(
        "--min-deals",
        type=int,
        default=MIN_DEALS,
        metavar="N",
        help=f"a winning player has a net above 0 over at least N deals (default {MIN_DEALS})",
    )
    p.add_argument(
        "--deals",
        metavar="GROUP[:ACTION]",
        help="the decisions behind one cell: GROUP is player, field or winners; with :ACTION "
        "(e.g. player:fold) the cell's count, without it the group's decisions in the spot",
    )
    p.add_argument(
        "--differences",
        action="store_true",
        help="with --player: the spots where the player's shares stray most from the winning "
        "players', weighted by how often each comes up, over the whole grid of spots (not "
        "with --spot)",
    )
    p.add_argument("--top", type=int, default=20, metavar="N", help="--differences: N spots")
    p.add_argument("--format", choices=FORMATS, default="table")
    p.add_argument("--analytics", metavar="PATH", help="the DuckDB projection (default: beside "
                   "the store)")  # fmt: skip
    p.add_argument("--no-refresh", action="store_true", help="do not read the store first")
    p.set_defaults(func=cmd_decisions)


def cmd_decisions(args: argparse.Namespace) -> int:
    try:
        spot = spots.Spot.parse(args.spot)
    except spots.SpotError as err:
        raise CommandError(f"--spot: {err}") from None
    if args.differences and not args.player:
        raise CommandError("--differences ranks one player's spots: give --player P too")
    if args.differences and spot != spots.Spot():
        raise CommandError(
            "--differences ranks every spot of the player's grid and cannot narrow it to --spot "
            f"{args.spot!r}: leave out --spot, or leave out --differences to see that spot"
        )
    if args.differences and args.deals:
        raise CommandError("--differences and --deals: one at a time")
    cell = _cell(args.deals, args.player) if args.deals else None
    if args.min_deals < 0:
        raise CommandError(f"--min-deals takes 0 or more, not {args.min_deals}")
    con = open_projection(args, refresh=not args.no_refresh)
    refuse_unknown_table(con, args.table)
    scope = {"table": args.table, "cards": args.cards, "min_deals": args.min_deals}
    try:
        if args.differences:
            found = spots.differences(con, args.player, top=args.top, **scope)
            code = _print_differences(args, found)
        elif cell is not None:
            rows = spots.behind(con, spot, cell[0], cell[1], args.player, **scope)
            code = _print_behind(args, spot, cell, rows)
        else:
            code = _print_answer(args, spots.explore(con, spot, args.player, **scope))
        if args.format == "table":
            print(in_play_line(con, args.table))
        return code
    except spots.SpotError as err:
        raise CommandError(str(err)) from None
    finally:
        con.close()


def _cell(text: str, player: str | None) -> tuple[str, str | None]:
    group, _, action = text.partition(":")
    if group not in GROUPS:
        raise CommandError(f"--deals {text!r}: the group is one of {', '.join(GROUPS)}")
    if action and action not in ACTIONS:
        raise CommandError(f"--deals {text!r}: the action is one of {', '.join(ACTIONS)}")
    if group == "player" and not player:
        raise CommandError("--deals player:...: give --player P too")
    return group, action or None


def _table(title: str, rows: list[dict[str, str]], keys: int = 1, empty: str = "") -> None:
    console = wide_console()
    if not rows:
        print(shown(empty))
        return
    headers = [(k, "left" if n < keys else "right") for n, k in enumerate(rows[0])]
    cells = [[shown(str(v)) for v in r.values()] for r in rows]
    for t in fitted_tables(console, shown(title), headers, cells, keys=keys):
        console.print(t)


def _write(fmt: str, rows: list[dict[str, Any]]) -> None:
    if fmt == "json":
        print(json.dumps(rows, ensure_ascii=False, indent=1))
    elif rows:
        w = csv.DictWriter(sys.stdout, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)


def _amount(v: Any) -> str | None:
    return None if v is None else str(format_amount(v))


def _print_answer(args: argparse.Namespace, answer: Any) -> int:
    if args.format != "table":
        cells = [
            {
                "spot": str(answer.spot),
                "group": c.group,
                "action": c.action,
                "count": c.count,
                "total": c.total,
                "share": c.share,
                "share_low": c.low,
                "share_high": c.high,
                "net_mean": _amount(c.net_mean),
                "net_se": c.net_se,
            }
            for c in answer.cells
        ]
        _write(args.format, cells)
        return 0
    who = f"{args.player}, " if args.player else ""
    _table(
        f"{who}{answer.spot.words()}: share of the group's decisions (Wilson 95%), mean net in the "
        "deal ± standard error",
        spots.answer_rows(answer),
        empty=f"no decision in the spot {answer.spot.words()}",
    )
    totals = ", ".join(f"{g} {n}" for g, n in answer.totals.items())
    names = ", ".join(inert(w) for w in answer.winners) or "none"
    print(f"decisions in the spot: {totals}")
    print(
        f"winning players (net > 0 over at least {count_of(answer.min_deals, 'deal')}"
        f"{', the player apart' if args.player else ''}): {names}"
    )
    print("the decisions behind a cell: add --deals GROUP:ACTION (e.g. --deals field:fold)")
    return 0


def _print_behind(
    args: argparse.Namespace, spot: Any, cell: tuple[str, str | None], rows: list[dict[str, Any]]
) -> int:
    if args.format != "table":
        _write(args.format, [{**r, "net": _amount(r["net"])} for r in rows])
        return 0
    group, action = cell
    what = f"{group}, {action or 'every action'}"
    shown_rows = [
        {
            "session": str(r["session"]),
            "deal": str(r["deal"]),
            "step": str(r["step"]),
            "seq": str(r["seq"]),
            "player": str(r["player"]),
            "action": str(r["action"]),
            "net": amount_text(r["net"]),
        }
        for r in rows
    ]
    _table(f"{spot.words()}: {what}", shown_rows, keys=2, empty="no decision behind this cell")
    deals = len({(r["session"], r["deal"]) for r in rows})
    print(
        f"{count_of(len(rows), 'decision')} in {count_of(deals, 'deal')}; "
        "replay one: brag replay SESSION --deal N"
    )
    return 0


def _print_differences(args: argparse.Namespace, found: list[Any]) -> int:
    if args.format != "table":
        _write(
            args.format,
            [
                {
                    "spot": str(d.spot),
                    "action": d.action,
                    "player_count": d.player_count,
                    "player_total": d.player_total,
                    "winners_count": d.winners_count,
                    "winners_total": d.winners_total,
                    "weight": d.weight,
                    "diff": d.diff,
                    "diff_low": d.low,
                    "diff_high": d.high,
                    "score": d.score,
                }
                for d in found
            ],
        )
        return 0
    _table(
        f"{args.player} beside the winning players: biggest differences",
        spots.difference_rows(found),
        empty="no spot to compare (no winning player, or no decision)",
    )
    print(
        "score: of every 100 of the player's decisions, at least this many (95%) are made "
        "differently from the winning players in that spot; difference: share points, 95% "
        "interval (Newcombe)"
    )
    return 0
