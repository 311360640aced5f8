"""``brag import``, ``brag export``, ``brag sessions`` and ``brag replay``: the event store on the
command line. Every command takes ``--db`` (before or after the command name).

- ``brag import FILE...``: each file is one session, stored whole or not at all; a summary line per
  file (a progress bar on a terminal for many files); an invalid file prints the line, the event
  and the rule, stores nothing, and makes the exit status 1 once every file has been tried.
- ``brag export SESSION [-o FILE]``: the FORMAT.md log (envelope and derived events included).
- ``brag sessions [--json]``: a table of the stored sessions.
- ``brag replay SESSION [--deal N]``: the events step by step with the pot, the level, whose turn
  it is and each player's status and what they paid in the deal.

Errors are one line on stderr and a non-zero exit, never a traceback (``BRAG_DEBUG=1`` shows it):
:func:`brag.cli.main` says them.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from brag.console import shown
from brag.errors import CommandError
from events.errors import BragError, StoreError, StoreUnavailable, UnknownSession

if TYPE_CHECKING:
    # Each command imports what it uses when it runs (``brag sessions`` loads no engine, no
    # pydantic models, no rich for --json): the module itself is quick to import.
    from rich.console import JustifyMethod

    from log import EventStore, ImportResult, SessionInfo
    from present.replay import StepTable

PROGRESS_FROM = 5
"""Show a progress bar (on a terminal) when importing at least this many files."""
SESSIONS_PAGE = 50
"""Sessions ``brag sessions`` lists at a time (``--limit``, ``--offset``, ``--all``)."""


def _count(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = -1
    if n < 0:
        raise argparse.ArgumentTypeError(f"a whole number 0 or more, not {text!r}")
    return n


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

    p = sub.add_parser(
        "sessions",
        parents=[common],
        help="list the stored sessions",
        description="A table of the stored sessions: id, table, first event time, players, "
        "deals, resolved pots, finished, winners; oldest first (by the recorded time of "
        "session_started, or by when it was stored for a log without times). Read from the "
        "store's session catalogue, a page at a time.",
    )
    p.add_argument("--json", action="store_true", help="one JSON object per session")
    p.add_argument(
        "--limit",
        type=_count,
        default=SESSIONS_PAGE,
        metavar="N",
        help=f"at most N sessions (default {SESSIONS_PAGE})",
    )
    p.add_argument(
        "--offset", type=_count, default=0, metavar="K", help="skip the first K sessions"
    )
    p.add_argument("--newest", action="store_true", help="newest first")
    p.add_argument("--all", action="store_true", help="every session, however many")
    p.set_defaults(func=cmd_sessions)

    p = sub.add_parser(
        "replay",
        parents=[common],
        help="step through a stored session in the terminal",
        description="Every event of SESSION (or of deal N) with the pot, the level, whose turn "
        "it is, and for each player: blind, seen, folded or two hands, and what they have paid "
        "in this deal.",
    )
    p.add_argument("session", help="the session id (see brag sessions)")
    p.add_argument("--deal", type=int, metavar="N", help="only deal N (1-based)")
    p.set_defaults(func=cmd_replay)


def _sqlite_path(url: str) -> str | None:
    """The file of a SQLite URL or plain path; ``None`` for a server or in-memory store."""
    from store.sql import sqlite_file

    return sqlite_file(url)


def _open(args: argparse.Namespace, *, create: bool = False, write: bool = False) -> EventStore:
    """The store of ``--db``. Reading commands open it read-only (they create, change and migrate
    nothing, and work for a user who may not write it) and refuse a SQLite file that does not
    exist (a typo in ``--db`` must not silently make an empty store); ``brag import`` creates
    it; ``write`` (``brag amend --yes``) writes a store that exists already."""
    from log import open_store, resolve_url

    db = getattr(args, "db", None)
    url = resolve_url(db)
    if not url.strip():
        raise StoreUnavailable("--db is empty: give a SQLite file path or a database URL")
    if not create:
        path = _sqlite_path(url)
        if path and not os.path.exists(path):
            raise StoreUnavailable(
                f"no event store at {path} (store sessions first: brag import FILE...)"
            )
    return open_store(db, readonly=not (create or write))


def _console(*, stderr: bool = False) -> Any:
    """A rich console showing text from the store inert (:mod:`brag.console`); wide when the
    output is not a terminal (a file, a pipe)."""
    from brag.console import console

    stream = sys.stderr if stderr else sys.stdout
    width = None if stream.isatty() else int(os.environ.get("COLUMNS") or 160)
    return console(stderr=stderr, width=width, soft_wrap=False)


# --- import ---------------------------------------------------------------------------------------


def _summary(path: str, r: ImportResult) -> str:
    ids = f"; {r.other_ids} under other ids, which are kept" if r.other_ids else ""
    if r.other_envelope:
        ids += (
            f"; {r.other_envelope} with another time (at) or recorder (by) in the file: "
            "the stored ones are kept"
        )
    if r.stored == 0:
        return f"{path}: session {r.session}: unchanged ({r.unchanged} events already stored{ids})"
    if r.unchanged:
        return (
            f"{path}: session {r.session}: stored {_events(r.stored)} new after the "
            f"{r.unchanged} already stored (seq {r.last_seq}{ids})"
        )
    return f"{path}: session {r.session}: stored {_events(r.stored)}"


def _events(n: int) -> str:
    return "1 event" if n == 1 else f"{n} events"


def cmd_import(args: argparse.Namespace) -> int:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
    from rich.text import Text

    from log import checked_log, resolve_url

    files: list[str] = args.files
    # A store that does not exist yet is made only for a file that will be stored: refusing every
    # file (or a mistyped --db) leaves no empty store behind.
    new_store = _sqlite_path(resolve_url(getattr(args, "db", None)))
    if (
        new_store is None
        or os.path.exists(new_store)
        or not os.path.isdir(os.path.dirname(os.path.abspath(new_store)))  # said at once
    ):
        store: EventStore | None = _open(args, create=True)
    else:
        store = None
    out = _console()
    err_console = _console(stderr=True)
    show = len(files) >= PROGRESS_FROM and err_console.is_terminal
    stored = unchanged = refused = 0
    progress = Progress(
        TextColumn("importing"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[name]}"),
        console=err_console,
        transient=True,
        disable=not show,
    )
    with progress, contextlib.ExitStack() as closing:
        closing.callback(lambda: store.close() if store is not None else None)
        task = progress.add_task("import", total=len(files), name="")
        for path in files:
            progress.update(task, name=Path(path).name)
            try:
                if store is None:
                    checked_log(path)  # the import's own check, storing nothing
                    store = _open(args, create=True)
                r = store.import_log(path)
            except StoreUnavailable:
                raise
            except StoreError as e:
                refused += 1
                progress.console.print(
                    Text(shown(f"{path}: refused: {e}"), style="red"), soft_wrap=True
                )
            except BragError as e:
                refused += 1
                progress.console.print(
                    Text(shown(f"{path}: invalid, nothing stored: {e}"), style="red"),
                    soft_wrap=True,
                )
            except (OSError, UnicodeDecodeError) as e:
                refused += 1
                why = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
                progress.console.print(
                    Text(shown(f"{path}: cannot read: {why}"), style="red"), soft_wrap=True
                )
            except Exception as e:  # a failure of ours: this file is refused, the next tried
                if os.environ.get("BRAG_DEBUG"):
                    raise
                refused += 1
                text = str(e).strip().splitlines()
                why = f"{type(e).__name__}: {text[0] if text else ''}"
                progress.console.print(
                    Text(
                        shown(f"{path}: not imported ({why}; BRAG_DEBUG=1 shows more)"), style="red"
                    ),
                    soft_wrap=True,
                )
            else:
                if r.stored:
                    stored += 1
                else:
                    unchanged += 1
                line = _summary(path, r)
                (progress.console if show else out).print(line, soft_wrap=True)
            progress.advance(task)
    files_text = f"{len(files)} files" if len(files) > 1 else "1 file"
    where = f"no store made at {new_store}" if store is None else f"store {store.where}"
    out.print(
        f"{files_text}: {stored} stored, {unchanged} unchanged, {refused} refused; {where}",
        soft_wrap=True,
    )
    return 1 if refused else 0


# --- export ---------------------------------------------------------------------------------------


def cmd_export(args: argparse.Namespace) -> int:
    if args.parquet:
        from brag import cmd_analytics

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
    with _open(args) as store:
        lines = list(store.export_lines(args.session))
    text = "".join(line + "\n" for line in lines)
    if args.output:
        _write_output(args.output, text)
        print(shown(f"{args.output}: session {args.session}: {len(lines)} events"), file=sys.stderr)
    else:
        sys.stdout.write(text)
        sys.stdout.flush()
    return 0


def _write_output(name: str, text: str | bytes, command: str = "export") -> None:
    """Writes ``text`` (UTF-8, or ``bytes`` as they are) to the path ``name``: a regular file
    (new or existing, a symlink followed to it) is replaced atomically, through a temporary file
    beside it, so a reader never sees half a file; a device, FIFO or socket (``/dev/stdout``, a
    pipe) is written as a stream, never replaced; a folder is refused. Raises
    :class:`~brag.errors.CommandError` (one line, naming ``command``)."""
    import stat
    import tempfile

    data = text.encode("utf-8") if isinstance(text, str) else text
    real = Path(os.path.realpath(name))  # a symlink is written through, not replaced
    try:
        mode: int | None = real.stat().st_mode
    except FileNotFoundError:
        mode = None
    except OSError as err:
        raise CommandError(f"cannot write {name}: {err.strerror}", command=command) from None
    if mode is not None and stat.S_ISDIR(mode):
        raise CommandError(f"{name} is a folder; give a file name", command=command)
    try:
        if mode is not None and not stat.S_ISREG(mode):  # a device, a FIFO: a stream
            with open(real, "wb") as fp:
                fp.write(data)
            return
        if not real.parent.is_dir():
            raise CommandError(f"no folder {str(real.parent)!r} for {name}", command=command)
        fd, tmp = tempfile.mkstemp(dir=real.parent, prefix=f".{real.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as fp:
                fp.write(data)
                fp.flush()
                os.fsync(fp.fileno())
            # mkstemp makes the file 0600; a new one gets what open() would give (0666 less
            # the umask), so a picture made to share can be read by others.
            os.chmod(tmp, stat.S_IMODE(mode) if mode is not None else 0o666 & ~_umask())
            os.replace(tmp, real)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
    except OSError as err:
        why = err.strerror or str(err)
        raise CommandError(f"cannot write {name}: {why}", command=command) from None


def _umask() -> int:
    """The process's umask (read by setting it and putting it back at once)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


# --- sessions -------------------------------------------------------------------------------------


def _time(info: SessionInfo) -> str:
    if info.started is None:
        return ""
    return info.started.strftime("%Y-%m-%d %H:%M")


def cmd_sessions(args: argparse.Namespace) -> int:
    from brag.tables import fitted_tables

    limit = None if getattr(args, "all", False) else getattr(args, "limit", SESSIONS_PAGE)
    offset = getattr(args, "offset", 0)
    with _open(args) as store:
        # Oldest first: the recorded start, else when the session was stored (the order stored
        # would put a log imported late anywhere). One page of the store's catalogue.
        order = "newest" if getattr(args, "newest", False) else "oldest"
        infos = store.sessions(order=order, limit=limit, offset=offset)
        total = store.session_count() if limit is not None else len(infos)
        where = store.where
    if args.json:
        for i in infos:
            print(
                json.dumps(
                    {
                        "session": i.session,
                        "table": i.table,
                        "started": i.started.isoformat() if i.started else None,
                        "players": list(i.players),
                        "cards": i.cards,
                        "deals": i.deals,
                        "resolved_pots": i.resolved_pots,
                        "carried_pots": i.carried_pots,
                        "finished": i.finished,
                        "winners": list(i.winners),
                        "events": i.last_seq,
                    },
                    ensure_ascii=False,
                )
            )
        return 0
    console = _console()
    if not infos:
        console.print(f"no sessions in {where}", highlight=False)
        return 0
    # Split into parts led by the session id (what `replay` and `export` take) when the
    # terminal is too narrow, never cut; players last, as the widest column.
    headers = [
        ("session", "left"),
        ("first event", "left"),
        ("table", "left"),
        ("deals", "right"),
        ("resolved pots", "right"),
        ("finished", "left"),
        ("winners", "left"),
        ("players", "left"),
    ]
    rows = [
        [
            i.session,
            _time(i),
            i.table or "",
            str(i.deals),
            str(i.resolved_pots),
            "yes" if i.finished else "no",
            ", ".join(i.winners),
            ", ".join(i.players),
        ]
        for i in infos
    ]
    for t in fitted_tables(console, f"Sessions in {where}", headers, rows, title_justify="left"):
        console.print(t)
    if len(infos) < total:
        end = offset + len(infos)
        more = f"; --offset {end} for the next" if end < total else ""
        console.print(
            f"sessions {offset + 1}-{end} of {total:,}{more} (--all lists every one)",
            highlight=False,
        )
    return 0


# --- replay ---------------------------------------------------------------------------------------


def _packed(items: list[str], width: int, sep: str = "; ") -> list[str]:
    """``items`` joined by ``sep`` into lines of at most ``width`` cells, never breaking an item
    (one longer than ``width`` gets a line of its own)."""
    from rich.cells import cell_len

    lines: list[str] = []
    for item in items:
        if lines and cell_len(lines[-1] + sep + item) <= width:
            lines[-1] += sep + item
        else:
            lines.append(item)
    return lines


def cmd_replay(args: argparse.Namespace) -> int:
    from log import stored_states
    from present.replay import Replay, step_table

    with _open(args) as store:
        rows = store.read(args.session)
    if not rows:
        raise UnknownSession(args.session)
    events = [r.event for r in rows]
    states = stored_states(args.session, rows)  # a tampered stream: one line, session and seq
    last = states[-1]
    if args.deal is not None and not 1 <= args.deal <= last.deals:
        raise StoreError(
            f"session {args.session!r} has {last.deals} deal(s); there is no deal {args.deal}"
        )
    table = step_table(Replay.of(events, recorded=True, states=states), args.deal)
    console = _console()
    _print_steps(console, table)
    console.print(table.summary)
    return 0


def _print_steps(console: Any, tab: StepTable) -> None:
    """The steps as a table, a column per player; on a terminal too narrow for that, each step
    as a few lines, nothing cut."""
    from rich.table import Table

    from brag.tables import plain_width

    whole = tab.deal is None
    t = Table(title=tab.title, title_justify="left")
    cols: tuple[tuple[str, JustifyMethod], ...] = (
        ("step", "right"),
        ("event", "left"),
        ("pot", "right"),
        ("level", "right"),
    )
    if whole:
        cols = (("deal", "right"), *cols)
    for col, just in cols:
        t.add_column(col, justify=just)
    t.add_column("turn")
    for name in tab.seats:
        t.add_column(name)
    cells = [
        [*([str(r.deal)] if whole else []), r.step, r.text, r.pot, r.level, r.turn, *r.seats]
        for r in tab.rows
    ]
    for r, row in zip(tab.rows, cells, strict=True):
        t.add_row(*row, style="bold" if r.derived else None)
    # rich's own measure of the table took ~90 ms (every cell through Padding and Measurement).
    if plain_width([c for c, _ in cols] + ["turn", *tab.seats], cells) <= console.width:
        console.print(t)
        return
    console.print(tab.title, style="italic", soft_wrap=True)
    deal_shown = -1
    for r in tab.rows:
        if whole and r.deal != deal_shown:
            deal_shown = r.deal
            console.print(f"deal {r.deal}" if r.deal else "before the first deal")
        console.print(f"{r.step:>4}  {r.text}", style="bold" if r.derived else None)
        where = f"pot {r.pot}" + (f", level {r.level}" if r.level else "")
        where += f", {r.turn} to act" if r.turn else ""
        console.print(f"      {where}")
        people = [f"{n}: {c}" for n, c in zip(tab.seats, r.seats, strict=True) if c]
        for line in _packed(people, console.width - 6):
            console.print("      " + line, soft_wrap=True)
