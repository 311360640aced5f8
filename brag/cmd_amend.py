"""``brag amend SESSION --deal N --step K (--remove | --as JSON | --insert JSON) [--yes [--repair]]
[--by NAME]``: correct any recorded step of a stored session (issue 19, item 4; issue 32).

The step is numbered as ``brag replay`` and the Replay page number it (``7``, ``7a``). The command
prints the plan (:mod:`log.amend`, worded by :mod:`present.amend`): the one ``amended`` event
(docs/format.md) that withdraws the step, replaces it or inserts an event before it; the later
steps the rules now refuse, numbered, each with the repair proposed (a shuffle inserted where one
is now due, RULES 3.2; else the step withdrawn); the conclusions the corrected end draws; then the
impact: the deals whose outcome changes, every player's net before and after, the standings
(RULES 1.5). Only with ``--yes`` is it stored: one append, one transaction, refused if anyone
recorded in the session meanwhile; a plan with repairs is stored only with ``--repair`` (the
organiser chooses them all; without it the command refuses, naming them). Errors are one line and
exit 1 (:func:`brag.cli.main`).
"""

from __future__ import annotations

import argparse
from typing import Any

from rich.table import Table

from brag.store_access import open_event_store, store_console
from events.codec import parse_line
from events.errors import FormatError, UnknownSession
from events.model import AnyEvent
from log.amend import AmendRefused, plan_amendment, store_amendment, touched_by
from present.amend import AmendView, Line, describe, target_step
from present.numbers import count_of

__all__ = ["cmd_amend", "register"]


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "amend",
        parents=[common],
        help="correct a recorded step of a stored session (remove, replace, insert before)",
        description="Correct step K of deal N of SESSION (numbered as brag replay numbers it, "
        "e.g. 7 or 7a) with one amended event: withdraw it (--remove), record another event in "
        "its place (--as) or just before it (--insert). The later steps are decided again by "
        "the rules; those refused are listed with the repair proposed. Prints the plan and its "
        "impact (changed deals, nets, standings before and after); stores it, in one "
        "transaction, only with --yes (and its repairs only with --repair).",
    )
    p.add_argument("session", help="the session id (see brag sessions)")
    p.add_argument("--deal", type=int, required=True, metavar="N", help="the deal (0: before it)")
    p.add_argument("--step", required=True, metavar="K", help="the step in that deal (7, 7a)")
    what = p.add_mutually_exclusive_group(required=True)
    what.add_argument("--remove", action="store_true", help="withdraw the step, record nothing")
    what.add_argument(
        "--as",
        dest="replacement",
        metavar="JSON",
        help='record this event instead, one FORMAT.md line, e.g. \'{"type": "folded", '
        '"player": "Ann"}\'',
    )
    what.add_argument(
        "--insert", metavar="JSON", help="record this event just before the step (one line)"
    )
    p.add_argument("--yes", action="store_true", help="store the correction (else only show it)")
    p.add_argument(
        "--repair", action="store_true", help="with --yes: store the repairs the plan proposes too"
    )
    p.add_argument("--by", metavar="NAME", help="who makes the correction (the events' by)")
    p.add_argument(
        "--list", action="store_true", help="list the conclusions the corrected end draws"
    )
    p.set_defaults(func=cmd_amend)


def _replacement(text: str | None, flag: str = "--as") -> AnyEvent | None:
    if text is None:
        return None
    try:
        return parse_line(text)
    except FormatError as err:
        raise FormatError(f"{flag}: {err.message}", event=err.event, field=None) from None


def cmd_amend(args: argparse.Namespace) -> int:
    insert = args.insert is not None
    replacement = (
        _replacement(args.insert, "--insert") if insert else _replacement(args.replacement)
    )
    with open_event_store(args, write=args.yes) as store:
        t = store.timeline(args.session)
        if not t.last_seq:
            raise UnknownSession(args.session)
        step = target_step(t, args.deal, args.step)
        plan = plan_amendment(t, step, replacement, insert=insert, by=args.by)
        view = describe(plan, touched=touched_by(store, plan))
        console = store_console()
        _print(console, args.session, view, every=args.list)
        if not args.yes:
            console.print("Nothing stored: run again with --yes to store this correction.")
            return 0
        if view.repairs and not args.repair:
            raise AmendRefused(
                f"the correction needs the {count_of(len(view.repairs), 'repair')} listed above; "
                "nothing was stored: run again with --yes --repair to store them with it, or "
                "correct those steps first"
            )
        stored = store_amendment(store, plan, repair=args.repair)
    first, last = stored[0].seq, stored[-1].seq
    console.print(
        f"Stored {count_of(len(stored), 'event')} (seq {first} to {last}) in {store.where}."
    )
    console.print(view.summary)
    return 0


def _lines(console: Any, title: str, lines: tuple[Line, ...], empty: str) -> None:
    console.print(title)
    if not lines:
        console.print(f"  {empty}")
    for ln in lines:
        console.print(f"  {ln.where}: {ln.text}" + (f"  [{ln.why}]" if ln.why else ""))


def _table(console: Any, title: str, rows: tuple[dict[str, Any], ...]) -> None:
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
    if v.action == "withdraw":
        console.print(f"Withdrawn: {v.target.where} (it keeps its number, shown withdrawn)")
    elif v.replacement is not None and v.action == "replace":
        console.print(f"In its place: {v.replacement.where}: {v.replacement.text}")
    elif v.replacement is not None:
        console.print(f"Inserted before it: {v.replacement.where}: {v.replacement.text}")
    console.print("Every later step keeps its number; the rules decide each again.")
    if v.repairs:
        console.print("No longer fit (each with the repair proposed; --yes --repair stores them):")
        for n, ln in enumerate(v.repairs, start=1):
            console.print(f"  {n}. {ln.where}: {ln.text}  [{ln.why}] -> {ln.repair}")
    else:
        console.print("No longer fit: none")
    _lines(console, "Notes and remembered cards on the steps withdrawn:", v.touched, "none")
    if every:
        _lines(console, "The corrected end concludes:", v.concluded, "nothing new")
    stored = count_of(v.stored, "event")
    console.print(f"Stored with it: {stored} (the correction, its repairs, conclusions)")
    if v.deals:
        _table(console, "Deals whose outcome changes", v.deals)
    else:
        console.print("No deal's outcome changes.")
    _table(console, "Nets (RULES 1.5)", v.nets)
    _table(console, "Standings before", v.standings_before)
    _table(console, "Standings after", v.standings_after)
    console.print(f"Winners: {v.winners_before} -> {v.winners_after}")
