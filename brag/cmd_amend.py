"""``brag amend SESSION --deal N --step K (--remove | --as JSON) [--yes] [--by NAME]``: correct
any recorded step of a stored session (issue 19, item 4).

The step is numbered as ``brag replay`` and the Replay page number it. The command prints the
plan (:mod:`log.amend`, worded by :mod:`present.amend`): what is withdrawn (FORMAT.md ``voided``,
from the last recorded event back to the step), what is recorded in its place, the later events
recorded again and those that no longer fit (left out, with the engine's reason), then the
impact: the deals whose outcome changes, every player's net before and after, the standings
(RULES 1.5). Only with ``--yes`` is it stored: one append, one transaction, refused if anyone
recorded in the session meanwhile. Errors are one line and exit 1 (:func:`brag.cli.main`).
"""

from __future__ import annotations

import argparse
from typing import Any

from brag.store_access import open_event_store, store_console
from events.codec import parse_line
from events.errors import FormatError
from events.model import AnyEvent
from log import UnknownSession
from log.amend import plan_amendment, store_amendment
from log.folds import stored_states
from present.amend import AmendView, Line, describe, target_seq
from present.replay import Replay

__all__ = ["cmd_amend", "register"]


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "amend",
        parents=[common],
        help="correct a recorded step of a stored session (remove it or record another event)",
        description="Correct step K of deal N of SESSION (numbered as brag replay numbers it): "
        "withdraw the recorded events from the last back to that step (FORMAT.md voided), record "
        "the replacement (--as) or nothing (--remove), then the later events again where the "
        "rules still allow them. Prints the plan and its impact (changed deals, nets, standings "
        "before and after); stores it, in one transaction, only with --yes.",
    )
    p.add_argument("session", help="the session id (see brag sessions)")
    p.add_argument("--deal", type=int, required=True, metavar="N", help="the deal (0: before it)")
    p.add_argument("--step", type=int, required=True, metavar="K", help="the step in that deal")
    what = p.add_mutually_exclusive_group(required=True)
    what.add_argument("--remove", action="store_true", help="withdraw the step, record nothing")
    what.add_argument(
        "--as",
        dest="replacement",
        metavar="JSON",
        help='record this event instead, one FORMAT.md line, e.g. \'{"type": "folded", '
        '"player": "Ann"}\'',
    )
    p.add_argument("--yes", action="store_true", help="store the correction (else only show it)")
    p.add_argument("--by", metavar="NAME", help="who makes the correction (the events' by)")
    p.add_argument(
        "--list", action="store_true", help="list every event withdrawn and recorded again"
    )
    p.set_defaults(func=cmd_amend)


def _replacement(text: str | None) -> AnyEvent | None:
    if text is None:
        return None
    try:
        return parse_line(text)
    except FormatError as err:
        raise FormatError(f"--as: {err.message}", event=err.event, field=None) from None


def cmd_amend(args: argparse.Namespace) -> int:
    replacement = _replacement(args.replacement)
    with open_event_store(args, write=args.yes) as store:
        rows = store.read(args.session)
        if not rows:
            raise UnknownSession(args.session)
        events = [r.event for r in rows]
        states = stored_states(args.session, rows)
        seq = target_seq(Replay.of(events), args.deal, args.step)
        plan = plan_amendment(events, seq, replacement, by=args.by, states=states)
        view = describe(events, plan)
        console = store_console()
        _print(console, args.session, view, every=args.list)
        if not args.yes:
            console.print("Nothing stored: run again with --yes to store this correction.")
            return 0
        stored = store_amendment(store, plan)
    first, last = stored[0].seq, stored[-1].seq
    console.print(f"Stored {len(stored)} events (seq {first} to {last}) in {store.where}.")
    console.print(view.summary)
    return 0


def _lines(console: Any, title: str, lines: tuple[Line, ...], empty: str) -> None:
    console.print(title)
    if not lines:
        console.print(f"  {empty}")
    for ln in lines:
        console.print(f"  {ln.where}: {ln.text}" + (f"  [{ln.why}]" if ln.why else ""))


def _table(console: Any, title: str, rows: tuple[dict[str, Any], ...]) -> None:
    from rich.table import Table

    if not rows:
        return
    t = Table(title=title, title_justify="left")
    for col in rows[0]:
        t.add_column(
            col, justify="right" if col in ("before", "after", "change", "net") else "left"
        )
    for r in rows:
        t.add_row(*(str(v) for v in r.values()))
    console.print(t)


def _print(console: Any, session: str, v: AmendView, *, every: bool) -> None:
    console.print(f"Correction of session {session}, {v.target.where}: {v.target.text}")
    later = len(v.withdrawn) - 1
    after = (
        f" and the {later} recorded event(s) after it, up to {v.withdrawn[0].where}"
        if later
        else " (the last recorded event)"
    )
    console.print(
        f"Withdrawn: {v.target.where}{after}: {len(v.withdrawn)} voided, the last first; "
        "their conclusions go with them"
    )
    if every:
        _lines(console, "  withdrawn:", tuple(reversed(v.withdrawn)), "nothing")
    if v.replacement is not None:
        console.print(f"In its place: {v.replacement.where}: {v.replacement.text}")
    else:
        console.print("In its place: nothing (the step is removed)")
    if every:
        _lines(console, "Recorded again:", v.recorded, "nothing")
    elif v.recorded:
        console.print(
            f"Recorded again: {v.again} later event(s), with the engine's conclusions, "
            f"{v.recorded[0].where} to {v.recorded[-1].where} (--list shows each)"
        )
    else:
        console.print("Recorded again: nothing")
    _lines(
        console,
        "No longer fit (left out; record them again if they did happen):",
        v.dropped,
        "none",
    )
    if v.deals:
        _table(console, "Deals whose outcome changes", v.deals)
    else:
        console.print("No deal's outcome changes.")
    _table(console, "Nets (RULES 1.5)", v.nets)
    _table(console, "Standings before", v.standings_before)
    _table(console, "Standings after", v.standings_after)
    console.print(f"Winners: {v.winners_before} -> {v.winners_after}")
