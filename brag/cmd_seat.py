"""``brag seat DATE --players A B C ...``: the night's tables (issue 36, item 1), made from the
players present (:func:`service.seating.seat`): sizes within RULES 1.3 (2 to 10 players), as even
as possible, opponents repeated as little as the sessions started before ``DATE`` allow (from
``--since``, the season's first night, when given). ``--json``: ``{"date", "seed", "tables":
[{"table", "players"}], "repeats", "history_sessions_before"}``; ``repeats`` counts, over every
pair seated together, the earlier sessions that pair shared. Names typed in another case, or a
name the register merged (``brag players``), are the player the store knows. The same ``--seed``
(default: the date's day number) gives the same tables. Refusals are one line, exit 1.
"""

from __future__ import annotations

import argparse
import json
from datetime import date
from typing import Any

from brag.errors import CommandError
from brag.store_access import open_event_store, store_console
from events.text import normal
from service.seating import MAX_PLAYERS, SeatingRefused, history_of, repeats, seat

__all__ = ["cmd_seat", "register"]


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "seat",
        parents=[common],
        help="a club night's tables from the players present, repeating opponents least",
        description="Tables for the players present on DATE (YYYY-MM-DD): sizes within RULES "
        "1.3 (2 to 10), as even as possible, with the fewest pairs who already sat together in "
        "the sessions started before DATE.",
    )
    p.add_argument("day", metavar="DATE", help="the night's date, YYYY-MM-DD")
    p.add_argument("--players", nargs="+", required=True, metavar="NAME", help="who is present")
    p.add_argument(
        "--since", metavar="DATE", help="the season's first night (default: every earlier date)"
    )
    p.add_argument(
        "--per-table",
        type=int,
        default=MAX_PLAYERS,
        metavar="N",
        help=f"at most N players a table (RULES 1.3: 2 to {MAX_PLAYERS}; default {MAX_PLAYERS})",
    )
    p.add_argument("--seed", type=int, help="the draw's seed (default: the date's day number)")
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.set_defaults(func=cmd_seat)


def _day(text: str, what: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise CommandError(f"{what} {text!r} is not YYYY-MM-DD", command="seat") from None


def cmd_seat(args: argparse.Namespace) -> int:
    day = _day(args.day, "DATE")
    since = _day(args.since, "--since") if args.since else None
    seed = args.seed if args.seed is not None else day.toordinal()
    with open_event_store(args) as store:
        from log.register import register_of

        history = history_of(store, day, since=since)
        resolve = register_of(store).resolve
        known = {normal(n): n for pair in history for n in pair}
    present = [known.get(normal(resolve(p)), p.strip()) for p in args.players]
    try:
        tables = seat(present, history, seed=seed, max_size=args.per_table)
    except SeatingRefused as err:
        raise CommandError(str(err), command="seat") from None
    count = repeats(tables, history)
    if args.json:
        rows = [{"table": k, "players": t} for k, t in enumerate(tables, 1)]
        out = {"date": day.isoformat(), "seed": seed, "tables": rows, "repeats": count}
        print(json.dumps(out, ensure_ascii=False))
        return 0
    console = store_console()
    console.print(f"Tables for {day.isoformat()} (seed {seed}), seats clockwise:")
    for k, t in enumerate(tables, 1):
        console.print(f"  table {k} ({len(t)}): {', '.join(t)}")
    console.print(
        f"repeats: {count} (pairs seated together, counted once per earlier session they shared)"
    )
    return 0
