"""The ``brag`` command: one entry point for everything a user types (DESIGN.md).

Each group of subcommands lives in its own module with a ``register(subparsers)`` function:
``brag.cmd_verify`` (verify), ``brag.cmd_store`` (import, export, sessions, replay),
``brag.cmd_sim`` (simulate), ``brag.cmd_analytics`` (stats, leaderboard, analytics),
``brag.cmd_app`` (run, dashboard). Every command takes the global ``--db``.
Errors are one clear line on stderr and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from brag.console import shown
from events.errors import BragError

COMMAND_MODULES = ("cmd_verify", "cmd_store", "cmd_sim", "cmd_analytics", "cmd_app")
DEFAULT_DB = "brag.db"


def default_db() -> str:
    """The store URL: ``$BRAG_DB`` or ``./brag.db`` (SQLite)."""
    return os.environ.get("BRAG_DB") or DEFAULT_DB


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
        args.db = default_db()
    try:
        return int(args.func(args))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except BragError as err:
        print(f"brag: {shown(err)}", file=sys.stderr)
        return 1
    except OSError as err:
        text = f"brag: {err.strerror or err}: {err.filename or ''}".rstrip(": ")
        print(shown(text), file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
