"""The ``brag`` command: one entry point for everything a user types (DESIGN.md).

Each group of subcommands lives in its own module with a ``register(subparsers)`` function:
``brag.cmd_verify`` (verify), ``brag.cmd_import``, ``brag.cmd_export``, ``brag.cmd_sessions``,
``brag.cmd_replay`` (the event store: import, export, sessions, replay), ``brag.cmd_amend``
(amend), ``brag.cmd_notes`` (notes), ``brag.cmd_share`` (share), ``brag.cmd_sim`` (simulate),
``brag.cmd_stats`` (stats, leaderboard), ``brag.cmd_analytics`` (analytics refresh|export|show),
``brag.cmd_decisions`` (decisions), ``brag.cmd_players`` (players: the register), ``brag.cmd_night``
(night), ``brag.cmd_report`` (report: the night's report to publish), ``brag.cmd_season``
(season), ``brag.cmd_seat`` (seat), ``brag.cmd_solve`` (solve, review: the solved heads-up game),
``brag.cmd_app`` (run, dashboard). Every command takes the global ``--db``. A command line
imports only its command's module (the others are listed from :data:`COMMANDS`, so ``brag
sessions`` never loads DuckDB or the engine). Errors are one clear line on stderr and a non-zero
exit, never a traceback: :func:`failed` says every one.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import Any, Final

from brag.console import shown
from brag.errors import CommandError
from events.errors import DISK_FULL, BragError, disk_full
from log.open import resolve_url
from store.address import masked

COMMANDS: Final[tuple[tuple[str, tuple[tuple[str, str], ...]], ...]] = (
    ("cmd_verify", (("verify", "check a session log against the rules and summarise it"),)),
    (
        "cmd_share",
        (("share", "a picture of a deal to share: .svg, .png, or a .gif stepping through it"),),
    ),
    (
        "cmd_import",
        (("import", "store session logs (FORMAT.md JSON Lines), each whole or not at all"),),
    ),
    ("cmd_export", (("export", "write a stored session as a FORMAT.md log"),)),
    ("cmd_sessions", (("sessions", "list the stored sessions"),)),
    ("cmd_replay", (("replay", "step through a stored session in the terminal"),)),
    (
        "cmd_amend",
        (
            (
                "amend",
                "correct a recorded step of a stored session (remove, replace, insert before)",
            ),
        ),
    ),
    (
        "cmd_notes",
        (("notes", "list, add or hide the notes on a session's steps (kept beside its log)"),),
    ),
    (
        "cmd_sim",
        (("simulate", "play sessions with simulated players and write or store their logs"),),
    ),
    (
        "cmd_stats",
        (
            ("stats", "players' statistics (each rate with its count)"),
            ("leaderboard", "session standings with the shared win of RULES 1.5"),
        ),
    ),
    ("cmd_analytics", (("analytics", "the DuckDB projection of the log"),)),
    (
        "cmd_players",
        (
            (
                "players",
                "the register of players' names: list, merge, rename, undo (kept beside the logs)",
            ),
        ),
    ),
    (
        "cmd_night",
        (("night", "a club night: the standings of one date's sessions, and who pays whom"),),
    ),
    (
        "cmd_report",
        (
            (
                "report",
                "a night's report to publish: standings, biggest pots, best hands shown "
                "(HTML, PDF)",
            ),
        ),
    ),
    (
        "cmd_season",
        (("season", "the season: the nights between two dates ranked by a formula, side by side"),),
    ),
    (
        "cmd_seat",
        (("seat", "a club night's tables from the players present, repeating opponents least"),),
    ),
    (
        "cmd_decisions",
        (("decisions", "what players do in a spot, how it pays, and where one player strays"),),
    ),
    (
        "cmd_solve",
        (
            ("solve", "solve heads-up Brag by CFR+ and measure the solution's exploitability"),
            ("review", "grade a session's decisions against the solved heads-up game"),
        ),
    ),
    (
        "cmd_app",
        (
            ("dashboard", "serve the dashboard on localhost"),
            ("run", "import the bundled sessions, refresh the statistics, serve the dashboard"),
        ),
    ),
)
"""Each command module and the commands it registers (``register(sub, common)``), in the order
``brag --help`` lists them, with the one-line help each gives to ``add_parser`` (the same words:
``tests/test_cli_lazy.py`` compares them). A command line imports only its command's module; the
others are listed from here."""
COMMAND_MODULES: Final = tuple(module for module, _ in COMMANDS)


def _top() -> tuple[argparse.ArgumentParser, Any, argparse.ArgumentParser]:
    """The ``brag`` parser, its subcommands' action and the options every command takes."""
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
    return parser, sub, common


def build_parser(*, only: str | None = None) -> argparse.ArgumentParser:
    """The ``brag`` parser. Every command module is imported and registers its commands; with
    ``only`` (a command's name), only that command's module is, and the other commands are
    listed by name and help (:data:`COMMANDS`) without their arguments: enough to parse a
    command line of ``only`` and to print ``brag --help`` as the full parser does."""
    parser, sub, common = _top()
    for name, commands in COMMANDS:
        if only is not None and only not in (c for c, _ in commands):
            for command, text in commands:
                sub.add_parser(command, help=text, add_help=False)
            continue
        try:
            module = importlib.import_module(f"brag.{name}")
        except ModuleNotFoundError as err:
            if err.name == f"brag.{name}":
                continue
            raise
        module.register(sub, common)
    return parser


def _command(argv: Sequence[str] | None) -> str:
    """The command a command line names, read by a parser that lists every command without its
    arguments (so its usage errors and ``brag --help`` are the full parser's)."""
    parser = build_parser(only="")
    args, _ = parser.parse_known_args(argv)
    return str(args.command)


PLUGINS_OFF: Final = ("PYDANTIC_DISABLE_PLUGINS", "__all__")
"""Set for a ``brag`` process unless the environment sets it: pydantic then does not look
through every installed distribution's entry points for its plugins when the event models are
built (about 10 ms of each command's start; Bragbook uses none). A user who wants a pydantic
plugin sets ``PYDANTIC_DISABLE_PLUGINS`` to anything else (e.g. empty)."""


def main(argv: Sequence[str] | None = None) -> int:
    os.environ.setdefault(*PLUGINS_OFF)
    parser = build_parser(only=_command(argv))
    args = parser.parse_args(argv)
    if not hasattr(args, "db"):
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
        raise SystemExit(shown(masked(err.one_line()))) from None
    if isinstance(err, BragError):
        print(f"brag: {shown(masked(str(err)))}", file=sys.stderr)
        return 1
    if disk_full(err):  # ENOSPC, DuckDB's "No space left on device": said one way
        where = getattr(err, "filename", None)
        print(
            shown(masked(f"brag: {DISK_FULL}" + (f": {where}" if where else ""))), file=sys.stderr
        )
        return 2
    if isinstance(err, OSError):
        text = f"brag: {err.strerror or err}: {err.filename or ''}".rstrip(": ")
        print(shown(masked(text)), file=sys.stderr)
        return 2
    if not isinstance(err, Exception) or os.environ.get("BRAG_DEBUG"):
        raise err  # SystemExit (argparse, a command's exit), or the traceback asked for
    msg = str(err).strip().splitlines()[0] if str(err).strip() else ""
    print(
        f"brag: {type(err).__name__}: {shown(masked(msg))} (BRAG_DEBUG=1 shows more)",
        file=sys.stderr,
    )
    return 1


if __name__ == "__main__":
    sys.exit(main())
