"""The event store on the command line, one module per command (each with its ``register``):

- ``brag import FILE...``: :mod:`brag.cmd_import`;
- ``brag export SESSION [-o FILE]``: :mod:`brag.cmd_export`;
- ``brag sessions [--json]``: :mod:`brag.cmd_sessions`;
- ``brag replay SESSION [--deal N]``: :mod:`brag.cmd_replay`.

Opening ``--db`` and the console: :mod:`brag.store_access`; a file written whole:
:mod:`brag.output`. Every command takes ``--db`` (before or after the command name). Errors are
one line on stderr and a non-zero exit, never a traceback (``BRAG_DEBUG=1`` shows it):
:func:`brag.cli.main` says them. This module keeps the names it had importable from here.
"""

from __future__ import annotations

import argparse
import importlib
from typing import Any

from brag.cmd_export import cmd_export
from brag.cmd_import import PROGRESS_FROM, _events, _summary, cmd_import
from brag.cmd_replay import _packed, _print_steps, cmd_replay
from brag.cmd_sessions import SESSIONS_PAGE, _count, _time, cmd_sessions
from brag.output import _umask
from brag.output import write_output as _write_output
from brag.store_access import open_event_store as _open
from brag.store_access import sqlite_path as _sqlite_path
from brag.store_access import store_console as _console

__all__ = [
    "PROGRESS_FROM",
    "SESSIONS_PAGE",
    "_console",
    "_count",
    "_events",
    "_open",
    "_packed",
    "_print_steps",
    "_sqlite_path",
    "_summary",
    "_time",
    "_umask",
    "_write_output",
    "cmd_export",
    "cmd_import",
    "cmd_replay",
    "cmd_sessions",
    "register",
]


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    """``import``, ``export``, ``sessions`` and ``replay``, each by its own module."""
    for name in ("cmd_import", "cmd_export", "cmd_sessions", "cmd_replay"):
        importlib.import_module(f"brag.{name}").register(sub, common)
