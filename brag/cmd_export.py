"""``brag export SESSION [-o FILE]``: the FORMAT.md log (envelope and derived events included);
``brag export --parquet DIR``: the analytics fact tables instead (``brag analytics export``)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from brag.console import shown
from brag.errors import CommandError
from brag.output import write_output
from brag.store_access import open_event_store
from present.numbers import count_of

__all__ = ["cmd_export", "register"]


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "export",
        parents=[common],
        help="write a stored session as a FORMAT.md log",
        description="Write SESSION as JSON Lines (FORMAT.md, envelope and derived events "
        "included) to stdout or FILE. Importing it again is a no-op; import, export and import "
        "again is a fixed point.",
    )
    p.add_argument("session", nargs="?", help="the session id (see brag sessions)")
    p.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help="write to FILE instead of stdout: a regular file is replaced atomically (a symlink "
        "is written through); a device or FIFO (e.g. /dev/stdout) is written as a stream; a "
        "folder is refused",
    )
    p.add_argument(
        "--parquet",
        metavar="DIR",
        help="instead: write the analytics fact tables as Hive-partitioned Parquet in DIR, "
        "with a _dictionary; again into DIR appends only new sessions "
        "(same as brag analytics export --parquet DIR)",
    )
    p.add_argument("--analytics", metavar="PATH", help="the DuckDB projection, with --parquet")
    p.set_defaults(func=cmd_export)


def cmd_export(args: argparse.Namespace) -> int:
    if args.parquet:
        from brag import cmd_analytics  # DuckDB: `brag export SESSION` must not load it

        if args.session or args.output:
            raise CommandError(
                "--parquet writes the fact tables of every session; give it alone "
                "(a SESSION is exported as its log: brag export SESSION [-o FILE])",
                command="export",
            )
        args.no_refresh = False
        return cmd_analytics.cmd_export(args)
    if not args.session:
        raise CommandError(
            "name a SESSION (see brag sessions), or give --parquet DIR", command="export"
        )
    with open_event_store(args) as store:
        lines = list(store.export_lines(args.session))
    text = "".join(line + "\n" for line in lines)
    if args.output:
        write_output(args.output, text)
        print(
            shown(f"{args.output}: session {args.session}: {count_of(len(lines), 'event')}"),
            file=sys.stderr,
        )
    else:
        sys.stdout.write(text)
        sys.stdout.flush()
    return 0
