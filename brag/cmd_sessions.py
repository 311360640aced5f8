"""``brag sessions [--json]``: a table of the stored sessions, a page at a time, read from the
store's session catalogue."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from brag.store_access import open_event_store, store_console

if TYPE_CHECKING:
    from store.records import SessionInfo

__all__ = ["SESSIONS_PAGE", "cmd_sessions", "register"]

SESSIONS_PAGE = 50
"""Sessions ``brag sessions`` lists at a time (``--limit``, ``--offset``, ``--all``)."""

HEADERS = [
    ("session", "left"),
    ("first event", "left"),
    ("table", "left"),
    ("deals", "right"),
    ("resolved pots", "right"),
    ("finished", "left"),
    ("winners", "left"),
    ("players", "left"),
]
"""The table's columns (text, justify): led by the session id (what `replay` and `export` take),
players last, as the widest column."""


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


def _time(info: SessionInfo) -> str:
    if info.started is None:
        return ""
    return info.started.strftime("%Y-%m-%d %H:%M")


def _json_line(i: SessionInfo) -> str:
    """One session as ``--json`` writes it."""
    return json.dumps(
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


def _cells(i: SessionInfo, *, results: bool = True) -> list[str]:
    """One session's row of the table (:data:`HEADERS`; without ``results``, no winners)."""
    cells = [
        i.session,
        _time(i),
        i.table or "",
        str(i.deals),
        str(i.resolved_pots),
        "yes" if i.finished else "no",
        ", ".join(i.winners),
        ", ".join(i.players),
    ]
    return cells if results else cells[:6] + cells[7:]


def cmd_sessions(args: argparse.Namespace) -> int:
    """Prints the sessions; ``args.results`` (default on; off for ``brag run``, which lists them
    at start-up: the dashboard names no winner until asked) keeps the winners column."""
    results = getattr(args, "results", True)
    limit = None if getattr(args, "all", False) else getattr(args, "limit", SESSIONS_PAGE)
    offset = getattr(args, "offset", 0)
    with open_event_store(args) as store:
        # Oldest first: the recorded start, else when the session was stored (the order stored
        # would put a log imported late anywhere). One page of the store's catalogue.
        order = "newest" if getattr(args, "newest", False) else "oldest"
        infos = store.sessions(order=order, limit=limit, offset=offset)
        total = store.session_count() if limit is not None else len(infos)
        where = store.where
    if args.json:
        for i in infos:
            print(_json_line(i))
        return 0
    from brag.tables import fitted_tables  # rich: `brag sessions --json` must not load it

    console = store_console()
    if not infos:
        console.print(f"no sessions in {where}", highlight=False)
        return 0
    # Split into parts led by the session id when the terminal is too narrow, never cut.
    rows = [_cells(i, results=results) for i in infos]
    headers = HEADERS if results else [h for h in HEADERS if h[0] != "winners"]
    for t in fitted_tables(console, f"Sessions in {where}", headers, rows, title_justify="left"):
        console.print(t)
    if len(infos) < total:
        end = offset + len(infos)
        more = f"; --offset {end} for the next" if end < total else ""
        console.print(
            f"sessions {offset + 1}-{end} of {total:,}{more} (--all lists every one)",
            highlight=False,
        )
    if not results:
        console.print("winners hidden: brag run --results names them", highlight=False)
    return 0
