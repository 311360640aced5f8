"""``brag stats``, ``brag leaderboard`` and ``brag analytics refresh|export|show``.

The statistics come from the DuckDB projection (``--analytics PATH``, default beside the store:
``brag.duckdb`` next to ``brag.db``), brought up to date with the store before ``stats`` and
``leaderboard`` are shown. Money is exact: JSON and CSV write amounts as FORMAT.md does (``"9"``,
``"-17/2"``); every rate is written beside the count it is taken over (``blind_rate_n``).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import sys
from collections.abc import Callable
from fractions import Fraction
from typing import Any, TypeVar

from brag.errors import CommandError
from brag.tables import fitted_tables
from events.amounts import amount_text, rounded_text
from events.text import normal
from present.numbers import share

T = TypeVar("T")

FORMATS = ("table", "json", "csv")
SHOW = ("player_stats", "leaderboard", "overall_leaderboard", "showdown_hands", "pot_sizes",
        "deal_lengths", "decisions")  # fmt: skip


def default_analytics(db: str) -> str:
    """The DuckDB file beside a SQLite store (``x.db`` -> ``x.duckdb``); ``./brag.duckdb`` for a
    server or in-memory store (:func:`analytics.sources.default_projection`)."""
    from analytics.sources import default_projection

    return default_projection(db)


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    opts = argparse.ArgumentParser(add_help=False)
    opts.add_argument(
        "--analytics",
        metavar="PATH",
        help="the DuckDB projection (default: beside the store, e.g. brag.duckdb next to brag.db)",
    )
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


# --- plumbing -------------------------------------------------------------------------------------


def _store_exists(db: str) -> bool:
    """False only for a SQLite store whose file is missing (a server is asked when opened)."""
    from store.sql import sqlite_file

    path = sqlite_file(db)
    return path is None or os.path.exists(path)


def _open(
    args: argparse.Namespace, *, refresh: bool, rebuild: bool = False, create: bool = False
) -> Any:
    """The DuckDB projection beside ``--db`` (or ``--analytics``), brought up to date from the
    store when ``refresh``. Reading without refreshing needs the file (``create``: the refresh
    command makes it); nothing is created for a store that does not exist (a mistyped ``--db``)."""
    import duckdb

    import analytics
    from analytics.building import ProjectionBusy, unlocked

    path = args.analytics or default_analytics(args.db)
    if not refresh and not create and not os.path.exists(path):
        raise CommandError(
            f"no statistics file at {path} (leave out --no-refresh to build it from the "
            "store, or run brag analytics refresh)"
        )
    # No store (a mistyped --db): say so before connecting, which would create the file.
    stale = refresh and not _store_exists(args.db)
    if stale and (rebuild or not os.path.exists(path)):
        raise CommandError(
            f"no event store at {args.db} (store sessions first: brag import FILE...)"
        )
    store = None
    if refresh and not stale:
        from analytics.sources import open_source

        store = open_source(args.db)  # a store it refuses: nothing is made beside it
    try:
        if stale:
            print(f"brag: no event store at {args.db}; showing {path} as it is", file=sys.stderr)
        elif store is not None and (rebuild or not _up_to_date(path, store)):
            build = analytics.rebuild if rebuild else analytics.refresh
            _built(
                path,
                args.db,
                lambda con: build(store, con),
                fresh=rebuild,
                rebuild=lambda con: analytics.rebuild(store, con),
            )
        try:  # another process holding the file (a refresh, a reading command): waited for
            con = unlocked(path, lambda: analytics.connect(path))
        except ProjectionBusy as err:
            raise CommandError(str(err)) from None
        except duckdb.Error as err:
            raise CommandError(_projection_problem(path, err)) from None
        if refresh:
            _say_skipped(con)
        elif _store_exists(args.db):
            _same_store(args.db, con, path)
    finally:
        close = getattr(store, "close", None)
        if close:
            close()
    return con


def _up_to_date(path: str, store: Any) -> bool:
    """Whether the projection at ``path`` is of this store, at the current schema version, and
    has applied every event stored (what the dashboard asks before a catch-up): then a refresh
    would apply nothing, and the file is read as it is instead of copied, caught up and renamed
    into place. Anything in doubt (no file, an unreadable one): ``False``, and the catch-up
    decides (and says what is wrong); a file another process held for the whole wait is the
    catch-up's one line at once (it would wait again)."""
    import duckdb

    from analytics.building import ProjectionBusy, current_checkpoint

    store_id = getattr(store, "store_id", None)
    if store_id is None:
        return False
    try:
        have = current_checkpoint(path, store_id)
    except ProjectionBusy as err:
        raise CommandError(str(err)) from None
    except (duckdb.Error, OSError):
        return False
    return have is not None and have >= store.last_position()


def _same_store(db: str, con: Any, path: str) -> None:
    """``--no-refresh``: the projection is shown as it is, but only for the store it belongs to
    (its recorded id, ``analytics.owner``); a store that cannot be asked now is not checked."""
    from analytics.owner import recorded_store
    from analytics.sources import open_source
    from events.errors import StoreUnavailable

    have = recorded_store(con)
    if have is None:
        return
    try:
        store = open_source(db)
    except StoreUnavailable:
        return
    try:
        sid, where = getattr(store, "store_id", None), getattr(store, "where", db)
    finally:
        close = getattr(store, "close", None)
        if close:
            close()
    if sid is not None and sid != have[0]:
        con.close()
        raise CommandError(
            f"the statistics file {path} belongs to the store {have[1]} (id {have[0]}), not to "
            f"{where} (id {sid}): its numbers are not shown for it; name another file with "
            "--analytics, or rebuild this one for this store with brag analytics refresh --rebuild"
        )


def _projection_problem(path: str, err: BaseException) -> str:
    """What stopped the projection at ``path`` from being opened or written, in one line."""
    from events.errors import DISK_FULL, disk_full

    if disk_full(err):
        return f"{DISK_FULL}: the statistics file {path} was not written (it is as it was)"
    if "not a valid DuckDB database" in str(err):
        return (
            f"{path} is not a statistics file that can be read (brag analytics refresh "
            "--rebuild replaces it)"
        )
    return f"cannot open the analytics file {path}: {err}"


def _built(
    path: str,
    db: str,
    build: Callable[[Any], T],
    *,
    fresh: bool = False,
    rebuild: Callable[[Any], T] | None = None,
) -> T:
    """``build(con)`` on the projection that replaces the one at ``path``, built beside it and
    renamed into place (``analytics.replacing``: a build that fails leaves the file as it was,
    or none); ``fresh`` (``--rebuild``) never reads the old file. A projection of another store
    than ``db``'s is rebuilt (``rebuild``) when ``path`` is ``db``'s default file, saying so on
    stderr, and refused in one line naming both stores when the user named it
    (``analytics.caught_up``). Its faults in one line."""
    import duckdb

    from analytics.building import ProjectionBusy, caught_up
    from analytics.owner import ForeignProjection
    from events.errors import disk_full

    try:
        done, note = caught_up(path, db, build, fresh=fresh, rebuild=rebuild)
        if note:
            print(f"brag: {note}", file=sys.stderr)
        return done
    except ForeignProjection as err:
        raise CommandError(
            f"the statistics file {path} {err}; name another file with --analytics, or "
            "rebuild this one for this store with brag analytics refresh --rebuild"
        ) from None
    except ProjectionBusy as err:
        raise CommandError(str(err)) from None
    except duckdb.Error as err:
        raise CommandError(_projection_problem(path, err)) from None
    except OSError as err:
        if disk_full(err):
            raise CommandError(_projection_problem(path, err)) from None
        raise


def _say_skipped(con: Any) -> None:
    """One line on stderr for each session left out of the statistics, and why."""
    from analytics.projector import skipped
    from brag.console import shown as inert_text

    for session, position, reason in skipped(con):
        print(
            inert_text(
                f"brag: session {session!r} is not in the statistics (from position {position}): "
                f"{reason}"
            ),
            file=sys.stderr,
        )


def _public(name: str, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    from analytics.queries import public_rows

    return public_rows(name, rows)


def _cell(key: str, row: dict[str, Any]) -> str:
    v = row.get(key)
    if v is None:
        return "-"
    if isinstance(v, bool):
        return "yes" if v else ""
    n = row.get(f"{key}_n")
    if isinstance(v, float):
        if "rate" in key or "share" in key:  # a share of n: "99.6% of 231"
            text = share(v)
            return f"{text} of {n}" if n is not None else text
        return f"{v:.2f} over {n}" if n is not None else f"{v:.2f}"  # an average over n
    if (key.endswith("net_per_deal") or key.endswith("_mean")) and v not in ("", None):
        # An average: exact where it is whole, a half or a quarter, else "≈" two decimals (exact
        # in JSON and CSV); the dashboard shows it with the same helper.
        return rounded_text(Fraction(v), sign=key.endswith("net_per_deal"))
    if (isinstance(v, str) and "/" in v) or key in ("net", "net_per_deal", "biggest_pot_won"):
        try:
            return amount_text(Fraction(v))
        except (ValueError, ZeroDivisionError):
            return str(v)
    return str(v)


def _wide_console() -> Any:
    """A rich console; wide when the output is a file or a pipe (rich would assume 80 columns)."""
    from brag.console import console

    width = None if sys.stdout.isatty() else int(os.environ.get("COLUMNS") or 200)
    return console(width=width)


_ROW_KEYS: dict[str, list[str]] = {
    "leaderboard": ["session", "player"],
    "decisions": ["player", "action"],
}
"""The columns that name a row and lead every part of a split table (default: the first)."""


def _print(
    name: str,
    rows: list[dict[str, Any]],
    fmt: str,
    title: str,
    empty: str = "(no ended deals yet)",
) -> None:
    public = _public(name, rows)
    if fmt == "json":
        print(json.dumps(public, ensure_ascii=False, indent=1))
        return
    if fmt == "csv":
        if public:
            w = csv.DictWriter(sys.stdout, fieldnames=list(public[0]))
            w.writeheader()
            w.writerows(public)
        return
    from analytics.queries import columns

    console = _wide_console()
    shown = [c.name for c in columns(name)]
    lead = _ROW_KEYS.get(name, shown[:1])
    shown = [*lead, *(k for k in shown if k not in lead)]
    if name == "player_stats" and 0 < len(public) <= 6:
        # Few players: one column each, one line per statistic.
        headers = [("statistic", "left")] + [(str(r["player"]), "right") for r in public]
        cells = [[k.replace("_", " "), *(_cell(k, r) for r in public)] for k in shown[1:]]
    else:
        headers = [
            (
                k.replace("_", " "),
                "left" if k in ("player", "session", "category", "kind") else "right",
            )
            for k in shown
        ]
        cells = [[_cell(k, r) for k in shown] for r in public]
    for table in fitted_tables(console, title, headers, cells, keys=len(lead)):
        console.print(table)
    if not public:
        print(empty)


# --- commands -------------------------------------------------------------------------------------


def _known(con: Any, session: str | None, player: str | None) -> None:
    """One clear error for a session or player the projection has never seen."""
    known = con.execute("SELECT 1 FROM sessions WHERE session = ?", [session]).fetchone()
    if session and not known:
        raise CommandError(f"no session {session!r} in the store (see brag sessions)")
    key = normal(player) if player else None
    if (
        player
        and not con.execute(
            "SELECT 1 FROM session_players WHERE player_key = ? LIMIT 1", [key]
        ).fetchone()
    ):
        raise CommandError(f"no player {player!r} in the store")
    if (
        session
        and player
        and not con.execute(
            "SELECT 1 FROM session_players WHERE session = ? AND player_key = ?", [session, key]
        ).fetchone()
    ):
        raise CommandError(f"{player} did not play in session {session!r}")


def _known_table(con: Any, table: str | None) -> None:
    """One clear error for a table no session was played at, naming the known ones."""
    from analytics import queries

    known = queries.tables(con)
    if table is not None and normal(table) not in {normal(t) for t in known}:
        listed = ", ".join(known) if known else "no session records its table"
        raise CommandError(f"no table {table!r} in the store (tables: {listed})")


def _scope(session: str | None, table: str | None, player: str | None = None) -> str:
    """``session S``, ``all sessions, table T``...: what a filtered statistic covers."""
    where = f"session {session}" if session else "all sessions"
    if table is not None:
        where += f", table {table}"
    return where + (f", {player}" if player else "")


def cmd_stats(args: argparse.Namespace) -> int:
    from analytics import queries
    from analytics.luck import luck_note

    if args.deals is not None:
        if not args.player:
            raise CommandError("--deals lists one player's deals: give --player P too")
        if args.deals not in queries.DRILL:
            known = ", ".join(queries.DRILL)
            raise CommandError(f"no drill-down for {args.deals!r} (statistics: {known})")
    con = _open(args, refresh=not args.no_refresh)
    _known(con, args.session, args.player)
    _known_table(con, args.table)
    if args.deals is not None:
        return _drill(con, args)
    rows = queries.player_stats(con, session=args.session, player=args.player, table=args.table)
    where = _scope(args.session, args.table)
    filtered = args.session or args.table or args.player
    empty = f"no ended deals in {_scope(args.session, args.table, args.player)}"
    _print(
        "player_stats",
        rows,
        args.format,
        f"Players, {where} (rates: share of N)",
        empty if filtered else "(no ended deals yet)",
    )
    if args.format == "table" and (note := luck_note(rows)):
        _wide_console().print(note, markup=False, highlight=False)  # wrapped to the terminal
    return 0


def _drill(con: Any, args: argparse.Namespace) -> int:
    """``brag stats --player P --deals STAT``: the deals behind the statistic's count."""
    from analytics import queries

    stat, player = args.deals, args.player
    rows = queries.deals_behind(con, player, stat, session=args.session, table=args.table)
    if any(r["corrected"] for r in rows) and _store_exists(args.db):
        from log import open_store

        with open_store(args.db, readonly=True) as store:  # steps as every replay numbers them
            queries.renumber(rows, store.events)
    for r in rows:
        r.pop("corrected", None)
    count_col = queries.DRILL[stat][3]
    stats = queries.player_stats(con, session=args.session, player=player, table=args.table)
    shown = stats[0] if stats else {}
    counted = sum(int(r["counted"]) for r in rows)
    hits = sum(r["hits"] for r in rows)
    money = stat in queries.MONEY_DRILLS
    if args.format == "json":
        out = [{**r, "hits": str(r["hits"])} if money else r for r in rows]
        print(json.dumps(out, ensure_ascii=False, indent=1))
        return 0
    if args.format == "csv":
        w = csv.DictWriter(sys.stdout, fieldnames=["session", "deal", "step", "seq", "event",
                                                   "counted", "hits"])  # fmt: skip
        w.writeheader()
        w.writerows(rows)
        return 0
    col = next((c for c in queries.columns("player_stats") if c.name == stat), None)
    what = f"{stat} ({col.rules})" if col and col.rules else stat
    value = _cell(stat, shown) if shown else "-"
    title = f"{player}, {_scope(args.session, args.table)}: {what} = {value}"
    headers = [("session", "left"), ("deal", "right"), ("step", "right"), ("seq", "right"),
               ("event", "left"), ("counted", "right"), ("hits", "right")]  # fmt: skip
    cells = [
        [str(r["session"]), str(r["deal"]), str(r["step"]), str(r["seq"]), str(r["event"]),
         str(r["counted"]), amount_text(r["hits"]) if money else str(r["hits"])]
        for r in rows
    ]  # fmt: skip
    console = _wide_console()
    for table in fitted_tables(console, title, headers, cells, keys=2):
        console.print(table)
    total = amount_text(hits) if money else str(hits)
    print(
        f"{len(rows)} deals; counted {counted} (= {count_col} {shown.get(count_col, 0)}), "
        f"hits {total}; replay one: brag replay SESSION --deal N"
    )
    return 0


def cmd_leaderboard(args: argparse.Namespace) -> int:
    from analytics import queries

    con = _open(args, refresh=not args.no_refresh)
    _known(con, args.session, None)
    _known_table(con, args.table)
    rows = queries.leaderboard(con, session=args.session, table=args.table)
    if args.format != "table":
        _print("leaderboard", rows, args.format, "")
        return 0
    _print("leaderboard", rows, "table", "Sessions (RULES 1.5: equal highest nets share the win)")
    if not args.session and not args.table:
        _print("overall_leaderboard", queries.overall_leaderboard(con), "table",
               "Over all finished sessions")  # fmt: skip
    return 0


def _jobs(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"--jobs takes a number of processes, 1 or more: {text!r}")
    return n


def cmd_refresh(args: argparse.Namespace) -> int:
    import analytics
    from analytics.parallel import rebuild_parallel
    from analytics.sources import open_source
    from log import resolve_url

    if args.jobs is not None and not args.rebuild:
        raise CommandError("--jobs is for --rebuild (a catch-up applies the new events in order)")
    if not _store_exists(args.db):
        print(f"brag: no event store at {args.db}", file=sys.stderr)
        return 2
    store = open_source(args.db)  # before the projection file is made
    path = args.analytics or default_analytics(args.db)

    def build(con: Any, *, again: bool = False) -> Any:
        if args.rebuild or again:
            done = rebuild_parallel(resolve_url(args.db), store, con, jobs=args.jobs)
        else:
            done = analytics.refresh(store, con)
        _say_skipped(con)
        return done

    try:
        report = _built(
            path, args.db, build, fresh=args.rebuild, rebuild=lambda con: build(con, again=True)
        )
    finally:
        close = getattr(store, "close", None)
        if close:
            close()
    rate = report.events / report.seconds if report.seconds > 0 else 0.0
    print(
        f"{report.events} events applied in {report.batches} batches "
        f"({rate:,.0f} events/s); checkpoint at position {report.position}"
    )
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    import analytics

    con = _open(args, refresh=not args.no_refresh)
    try:
        report = analytics.export_lake(con, args.parquet)
    except OSError as err:
        raise CommandError(f"cannot write {args.parquet}: {err.strerror or err}") from None
    for table, path in report.tables.items():
        print(f"{table}: {path}")
    if report.full:
        how = "written in full"
        if report.kept_sessions == 0 and report.new_sessions:
            how += f" ({report.new_sessions} sessions)"
    else:
        how = f"{report.new_sessions} new sessions appended, {report.kept_sessions} already there"
    print(f"{args.parquet}: {how}; partitions table_name=…/month=… (read with hive_partitioning)")
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    from analytics import queries

    if args.describe:
        for c in queries.columns(args.name):
            count = f" Count: {c.count}." if c.count else ""
            rules = f" ({c.rules})" if c.rules else ""
            print(f"{c.name} [{c.unit}]{rules}: {c.definition}{count}")
        return 0
    con = _open(args, refresh=not args.no_refresh)
    params: dict[str, Any] = {"session": args.session, "player": args.player, "table": args.table}
    fn = getattr(queries, args.name)
    import inspect

    takes = inspect.signature(fn).parameters
    for k, v in params.items():
        if v is not None and k not in takes:
            raise CommandError(f"{args.name} has no --{k}: it covers every {k} (see --describe)")
    _known(con, args.session, args.player)
    _known_table(con, args.table)
    accepted = {k: v for k, v in params.items() if k in takes}
    _print(args.name, fn(con, **accepted), args.format, args.name.replace("_", " "))
    return 0
