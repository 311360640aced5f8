"""The ``brag`` command: one entry point for everything a user types (DESIGN.md).

Each group of subcommands lives in its own module with a ``register(subparsers)`` function:
``brag.cmd_verify`` (verify), ``brag.cmd_store`` (import, export, sessions, replay),
``brag.cmd_amend`` (amend), ``brag.cmd_share`` (share), ``brag.cmd_sim`` (simulate),
``brag.cmd_analytics`` (stats, leaderboard, analytics), ``brag.cmd_app`` (run, dashboard). Every
command takes the global ``--db``. Errors are one clear line on stderr and a non-zero exit, never
a traceback: :func:`failed` says every one.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from brag.console import shown
from brag.errors import CommandError
from events.errors import DISK_FULL, BragError, disk_full

COMMAND_MODULES = (
    "cmd_verify",
    "cmd_share",
    "cmd_store",
    "cmd_amend",
    "cmd_notes",
    "cmd_sim",
    "cmd_analytics",
    "cmd_decisions",
    "cmd_app",
)


def build_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--db",
        default=argparse.SUPPRESS,
        help="event store: a SQLAlchemy URL (sqlite:///file.db, postgresql://user@host/db) or a "
        "SQLite file path (default: $BRAG_DB or ./brag.db)",
    )
    parser = argparse.ArgumentParser(
        prog="brag",
        description="Bragbook: record, verify, replay and analyse Three-Card Brag sessions.",
        parents=[common],
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(f"brag.{name}")
        except ModuleNotFoundError as err:
            if err.name == f"brag.{name}":
                continue
            raise
        module.register(sub, common)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "db"):
        from log import resolve_url

        args.db = resolve_url(None)  # $BRAG_DB or ./brag.db
    try:
        return int(args.func(args))
    except BaseException as err:
        return failed(err)


def failed(err: BaseException) -> int:
    """The one place an error of any command becomes its line on stderr and its exit status
    (called with the exception being handled; ``BRAG_DEBUG=1`` shows the traceback of a failure
    of ours instead):

    - Ctrl-C: 130; a closed pipe (``brag sessions | head``): 0;
    - :class:`~brag.errors.CommandError` (the command refuses its arguments): leaves as
      ``SystemExit`` with ``brag: message`` (exit 1, said by the interpreter);
    - any other :class:`~events.errors.BragError` (a refusal of the rules, the format, the
      store): ``brag: message``, 1;
    - ``OSError`` (a file that cannot be read or written): ``brag: why: file``, 2;
    - anything else, a failure of ours: ``brag: Type: first line (BRAG_DEBUG=1 shows more)``, 1.
    """
    if isinstance(err, KeyboardInterrupt):
        return 130
    if isinstance(err, BrokenPipeError):
        return 0
    if isinstance(err, CommandError):
        raise SystemExit(shown(err.one_line())) from None
    if isinstance(err, BragError):
        print(f"brag: {shown(err)}", file=sys.stderr)
        return 1
    if disk_full(err):  # ENOSPC, DuckDB's "No space left on device": said one way
        where = getattr(err, "filename", None)
        print(shown(f"brag: {DISK_FULL}" + (f": {where}" if where else "")), file=sys.stderr)
        return 2
    if isinstance(err, OSError):
        text = f"brag: {err.strerror or err}: {err.filename or ''}".rstrip(": ")
        print(shown(text), file=sys.stderr)
        return 2
    if not isinstance(err, Exception) or os.environ.get("BRAG_DEBUG"):
        raise err  # SystemExit (argparse, a command's exit), or the traceback asked for
    msg = str(err).strip().splitlines()[0] if str(err).strip() else ""
    print(f"brag: {type(err).__name__}: {shown(msg)} (BRAG_DEBUG=1 shows more)", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
