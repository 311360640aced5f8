"""``brag analytics refresh|export|show``: the DuckDB projection of the log itself.

The projection (``--analytics PATH``, default beside the store: ``brag.duckdb`` next to
``brag.db``) is opened by :mod:`brag.projection`; ``brag stats`` and ``brag leaderboard`` are
:mod:`brag.cmd_stats`. Money is exact: JSON and CSV write amounts as FORMAT.md does (``"9"``,
``"-17/2"``); every rate is written beside the count it is taken over (``blind_rate_n``). The
names this module had before its commands were split keep importable from here.
"""

from __future__ import annotations

import argparse
import inspect
import sys
from typing import Any

from analytics import lake, projector, queries
from analytics.sources import open_source
from brag.cmd_stats import cmd_leaderboard, cmd_stats, refuse_unknown, refuse_unknown_table
from brag.cmd_stats import refuse_unknown as _known
from brag.cmd_stats import refuse_unknown_table as _known_table
from brag.drill import drill as _drill
from brag.errors import CommandError
from brag.projection import (
    analytics_option,
    built,
    close_store,
    default_analytics,
    open_projection,
    say_skipped,
    store_exists,
)
from brag.projection import built as _built
from brag.projection import open_projection as _open
from brag.projection import projection_problem as _projection_problem
from brag.projection import say_skipped as _say_skipped
from brag.projection import store_exists as _store_exists
from brag.stat_tables import FORMATS, print_rows
from brag.stat_tables import ROW_KEYS as _ROW_KEYS
from brag.stat_tables import print_rows as _print
from brag.stat_tables import public as _public
from brag.stat_tables import scope as _scope
from brag.stat_tables import wide_console as _wide_console
from log.open import resolve_url
from present.numbers import count_of, plural
from present.stat_cells import stat_cell

__all__ = [
    "FORMATS",
    "SHOW",
    "_ROW_KEYS",
    "_built",
    "_cell",
    "_drill",
    "_known",
    "_known_table",
    "_open",
    "_print",
    "_projection_problem",
    "_public",
    "_say_skipped",
    "_scope",
    "_store_exists",
    "_wide_console",
    "cmd_export",
    "cmd_leaderboard",
    "cmd_refresh",
    "cmd_show",
    "cmd_stats",
    "default_analytics",
    "register",
]

SHOW = ("player_stats", "leaderboard", "overall_leaderboard", "showdown_hands", "pot_sizes",
        "deal_lengths", "decisions")  # fmt: skip


def _cell(key: str, row: dict[str, Any]) -> str:
    """A statistic's cell as ``brag``'s tables show it (:func:`present.stat_cells.stat_cell`)."""
    return stat_cell(row, key)


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    opts = analytics_option()
    ana = sub.add_parser("analytics", parents=[common], help="the DuckDB projection of the log")
    asub = ana.add_subparsers(dest="analytics_command", required=True, metavar="ACTION")
    ref = asub.add_parser(
        "refresh",
        parents=[common, opts],
        help="bring the projection up to date with the store",
        description="Applies the events stored since the last refresh (resumable after a crash).",
    )
    ref.add_argument("--rebuild", action="store_true", help="drop the projection and start over")
    ref.add_argument(
        "--jobs",
        type=_jobs,
        metavar="N",
        help="with --rebuild: fold the sessions in N processes (default: the machine's cores)",
    )
    ref.set_defaults(func=cmd_refresh)
    exp = asub.add_parser(
        "export",
        parents=[common, opts],
        help="write the fact tables as Hive-partitioned Parquet (a data lake)",
        description="Writes events, deals, player_deals, decisions, sessions and "
        "session_players as DIR/TABLE/table_name=T/month=YYYY-MM/*.parquet, hand_categories "
        "and player_stats, and a "
        "_dictionary of every column (unit, RULES section, count). Plain DuckDB, Polars or "
        "Spark read them. Exporting again into DIR appends only the new sessions.",
    )
    exp.add_argument("--parquet", metavar="DIR", required=True)
    exp.add_argument("--no-refresh", action="store_true", help="do not read the store first")
    exp.set_defaults(func=cmd_export)
    show = asub.add_parser(
        "show",
        parents=[common, opts],
        help="one statistic, or with --describe what each column means",
        description="Runs one statistic of analytics/sql/stats.sql.",
    )
    show.add_argument("name", choices=SHOW)
    show.add_argument("--session", help="one session only (where the statistic allows it)")
    show.add_argument("--player", help="one player only (where the statistic allows it)")
    show.add_argument("--table", help="one table's sessions only (where the statistic allows it)")
    show.add_argument("--format", choices=FORMATS, default="table")
    show.add_argument("--describe", action="store_true", help="print the columns' definitions")
    show.add_argument("--no-refresh", action="store_true", help="do not read the store first")
    show.set_defaults(func=cmd_show)


def _jobs(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"--jobs takes a number of processes, 1 or more: {text!r}")
    return n


def cmd_refresh(args: argparse.Namespace) -> int:
    if args.jobs is not None and not args.rebuild:
        raise CommandError("--jobs is for --rebuild (a catch-up applies the new events in order)")
    if not store_exists(args.db):
        print(f"brag: no event store at {args.db}", file=sys.stderr)
        return 2
    store = open_source(args.db)  # before the projection file is made
    path = args.analytics or default_analytics(args.db)

    def build(con: Any, *, again: bool = False) -> Any:
        if args.rebuild or again:
            # A rebuild's process pool: `brag analytics show` must not load multiprocessing.
            from analytics.parallel import rebuild_parallel

            done = rebuild_parallel(resolve_url(args.db), store, con, jobs=args.jobs)
        else:
            done = projector.refresh(store, con)
        say_skipped(con)
        return done

    try:
        report = built(
            path, args.db, build, fresh=args.rebuild, rebuild=lambda con: build(con, again=True)
        )
    finally:
        close_store(store)
    rate = report.events / report.seconds if report.seconds > 0 else 0.0
    print(
        f"{count_of(report.events, 'event')} applied in "
        f"{count_of(report.batches, 'batch', 'batches')} "
        f"({rate:,.0f} events/s); checkpoint at position {report.position}"
    )
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    con = open_projection(args, refresh=not args.no_refresh)
    try:
        report = lake.export_lake(con, args.parquet)
    except OSError as err:
        raise CommandError(f"cannot write {args.parquet}: {err.strerror or err}") from None
    for table, path in report.tables.items():
        print(f"{table}: {path}")
    if report.full:
        how = "written in full"
        if report.kept_sessions == 0 and report.new_sessions:
            how += f" ({count_of(report.new_sessions, 'session')})"
    else:
        how = (
            f"{report.new_sessions:,} new {plural(report.new_sessions, 'session')} appended, "
            f"{report.kept_sessions:,} already there"
        )
    print(f"{args.parquet}: {how}; partitions table_name=…/month=… (read with hive_partitioning)")
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    if args.describe:
        for c in queries.columns(args.name):
            count = f" Count: {c.count}." if c.count else ""
            rules = f" ({c.rules})" if c.rules else ""
            print(f"{c.name} [{c.unit}]{rules}: {c.definition}{count}")
        return 0
    con = open_projection(args, refresh=not args.no_refresh)
    params: dict[str, Any] = {"session": args.session, "player": args.player, "table": args.table}
    fn = getattr(queries, args.name)
    takes = inspect.signature(fn).parameters
    for k, v in params.items():
        if v is not None and k not in takes:
            raise CommandError(f"{args.name} has no --{k}: it covers every {k} (see --describe)")
    params["player"] = refuse_unknown(con, args.session, args.player)
    refuse_unknown_table(con, args.table)
    accepted = {k: v for k, v in params.items() if k in takes}
    print_rows(args.name, fn(con, **accepted), args.format, args.name.replace("_", " "))
    return 0
