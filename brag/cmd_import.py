"""``brag import FILE...``: each file is one session, stored whole or not at all; a summary line
per file (a progress bar on a terminal for many files); an invalid file prints the line, the
event and the rule, stores nothing, and makes the exit status 1 once every file has been tried.
"""

from __future__ import annotations

import argparse
import contextlib
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.text import Text

from brag.console import shown
from brag.store_access import open_event_store, sqlite_path, store_console
from events.errors import BragError, StoreError, StoreUnavailable
from log.folds import checked_log
from log.open import resolve_url
from present.numbers import count_of

if TYPE_CHECKING:
    from log.rows import ImportResult
    from log.service import EventStore

__all__ = ["PROGRESS_FROM", "cmd_import", "register"]

PROGRESS_FROM = 5
"""Show a progress bar (on a terminal) when importing at least this many files."""


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "import",
        parents=[common],
        help="store session logs (FORMAT.md JSON Lines), each whole or not at all",
        description="Store each FILE (one session) in the event store. A file is checked in full "
        "first: an invalid one prints the line, the event and the rule and stores nothing. "
        "Importing the same file again changes nothing; a file that extends a stored session "
        "adds the rest. Exit 1 if any file was refused.",
    )
    p.add_argument("files", nargs="+", metavar="FILE", help="session logs (.jsonl)")
    p.set_defaults(func=cmd_import)


def _summary(path: str, r: ImportResult) -> str:
    ids = f"; {r.other_ids} under other ids, which are kept" if r.other_ids else ""
    if r.other_envelope:
        ids += (
            f"; {r.other_envelope} with another time (at) or recorder (by) in the file: "
            "the stored ones are kept"
        )
    if r.stored == 0:
        kept = count_of(r.unchanged, "event")
        return f"{path}: session {r.session}: unchanged ({kept} already stored{ids})"
    if r.unchanged:
        return (
            f"{path}: session {r.session}: stored {_events(r.stored)} new after the "
            f"{r.unchanged} already stored (seq {r.last_seq}{ids})"
        )
    return f"{path}: session {r.session}: stored {_events(r.stored)}"


def _events(n: int) -> str:
    return count_of(n, "event")


def _first_store(args: argparse.Namespace) -> tuple[str | None, EventStore | None]:
    """The SQLite file of ``--db`` (``None``: a server or in-memory store) and the store, opened
    now unless it is a file that does not exist yet: that is made only for a file that will be
    stored, so refusing every file (or a mistyped --db) leaves no empty store behind."""
    new_store = sqlite_path(resolve_url(getattr(args, "db", None)))
    if (
        new_store is None
        or os.path.exists(new_store)
        or not os.path.isdir(os.path.dirname(os.path.abspath(new_store)))  # said at once
    ):
        return new_store, open_event_store(args, create=True)
    return new_store, None


def _progress(err_console: Any, show: bool) -> Any:
    """The progress bar on stderr (``show``: many files, on a terminal), else a silent one."""
    return Progress(
        TextColumn("importing"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[name]}"),
        console=err_console,
        transient=True,
        disable=not show,
    )


def _ours(e: Exception) -> bool:
    """A failure of ours (not a refusal of the file, not a file that cannot be read)."""
    return not isinstance(e, (BragError, OSError, UnicodeDecodeError))


def _refusal(path: str, e: Exception) -> str:
    """The line saying why the file at ``path`` was not stored."""
    if isinstance(e, StoreError):
        return f"{path}: refused: {e}"
    if isinstance(e, BragError):
        return f"{path}: invalid, nothing stored: {e}"
    if isinstance(e, (OSError, UnicodeDecodeError)):
        why = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        return f"{path}: cannot read: {why}"
    text = str(e).strip().splitlines()
    why = f"{type(e).__name__}: {text[0] if text else ''}"
    return f"{path}: not imported ({why}; BRAG_DEBUG=1 shows more)"


def cmd_import(args: argparse.Namespace) -> int:
    files: list[str] = args.files
    new_store, store = _first_store(args)
    out = store_console()
    err_console = store_console(stderr=True)
    show = len(files) >= PROGRESS_FROM and err_console.is_terminal
    stored = unchanged = refused = 0
    progress = _progress(err_console, show)
    with progress, contextlib.ExitStack() as closing:
        closing.callback(lambda: store.close() if store is not None else None)
        task = progress.add_task("import", total=len(files), name="")
        for path in files:
            progress.update(task, name=Path(path).name)
            try:
                if store is None:
                    checked_log(path)  # the import's own check, storing nothing
                    store = open_event_store(args, create=True)
                r = store.import_log(path)
            except StoreUnavailable:
                raise
            except Exception as e:  # a failure of ours too: this file is refused, the next tried
                if _ours(e) and os.environ.get("BRAG_DEBUG"):
                    raise
                refused += 1
                line = Text(shown(_refusal(path, e)), style="red")
                progress.console.print(line, soft_wrap=True)
            else:
                if r.stored:
                    stored += 1
                else:
                    unchanged += 1
                (progress.console if show else out).print(_summary(path, r), soft_wrap=True)
            progress.advance(task)
    files_text = f"{len(files)} files" if len(files) > 1 else "1 file"
    where = f"no store made at {new_store}" if store is None else f"store {store.where}"
    out.print(
        f"{files_text}: {stored} stored, {unchanged} unchanged, {refused} refused; {where}",
        soft_wrap=True,
    )
    return 1 if refused else 0
