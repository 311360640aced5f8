"""``brag night DATE``: a club night (issue 36), the sessions started on ``DATE``:

- ``brag night DATE [--json]``: each player's net over the night's sessions (RULES 1.5, the
  engine's fold; a merged name counts as its player, ``brag players``), by net, ties by name;
  ``state``: ``final`` once the director finalised it (``--finalise``; ``--reopen`` undoes it),
  else ``provisional``; ``pot``: stake units still on the tables of sessions in progress (nets
  + pot = 0); ``present`` (checked in), ``flags`` (each with its ``status`` and
  ``resolution``), ``stake_setting`` (the night's stored stake) and ``corrected_after_final``
  (the sessions changed since the night was finalised, each net before and after);
- ``brag night DATE --settle [--stake 0.50] [--json]``: who pays whom, at most n-1 transfers,
  exact, in stake units or in the club's money: at ``--stake`` (this once, never stored), else
  at the night's stored stake (``--set-stake``), else in stake units. Refused, one line naming
  the session, while a pot is on a table;
- the options that store a fact of the night (``--check-in``, ``--set-stake``, ``--finalise``,
  ``--reopen``, ``--flag``, ``--dismiss``, ``--corrected``): :mod:`brag.night_actions`.

``--club C`` names whose night's facts are read and written (``''``: none named); it filters no
session (FORMAT.md records no club). JSON writes amounts as FORMAT.md does (``"9"``,
``"-17/2"``; money as a decimal when it has one, ``"4.25"``). Names are data: shown inert
(:mod:`brag.console`). Refusals are one line, exit 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import date
from fractions import Fraction
from typing import Any

from brag.errors import CommandError
from brag.night_actions import ACTIONS, add_actions, money, run_action
from brag.store_access import open_event_store, store_console
from events.amounts import format_amount, money_text
from service.night import Night, NightRefused, night_of, settle

__all__ = ["cmd_night", "money_text", "register"]


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "night",
        parents=[common],
        help="a club night: the standings of one date's sessions, and who pays whom",
        description="The sessions started on DATE (YYYY-MM-DD, in each log's own offset): each "
        "player's net over them, by net (RULES 1.5); --settle: who pays whom, at most n-1 "
        "transfers. Check-in, the night's stake, finalising and flags are kept beside the log.",
    )
    p.add_argument("day", metavar="DATE", help="the night's date, YYYY-MM-DD")
    p.add_argument(
        "--club",
        metavar="C",
        help="the club whose night's facts are read and written (filters no session: the "
        "logs record no club, FORMAT.md)",
    )
    p.add_argument("--settle", action="store_true", help="who pays whom")
    p.add_argument(
        "--stake",
        metavar="MONEY",
        help="with --settle, this once: the club's money per stake unit (0.50 or 1/2); "
        "without it, the night's stored stake (--set-stake), else stake units",
    )
    p.add_argument("--json", action="store_true", help="one JSON object")
    add_actions(p)
    p.set_defaults(func=cmd_night)


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise CommandError(f"DATE {text!r} is not YYYY-MM-DD", command="night") from None


def _units(value: Fraction) -> str:
    return str(format_amount(value))


def cmd_night(args: argparse.Namespace) -> int:
    day = _day(args.day)
    if any(getattr(args, a) not in (None, False) for a in ACTIONS) or args.limit is not None:
        return run_action(args, day)
    stake = money(args.stake, "--stake")
    if args.club is not None:
        print(
            "note: --club filters no session (the logs record no club): every session of "
            f"{day.isoformat()} is counted; the night's facts are the club's",
            file=sys.stderr,
        )
    with open_event_store(args) as store:
        try:
            night = night_of(store, day, args.club or "")
        except NightRefused as err:
            raise CommandError(str(err), command="night") from None
    if args.settle:
        stored = night.facts.stake
        return _settle(args, night, stake if stake or not stored else stored.money)
    return _standings(args, night)


def _facts(night: Night) -> dict[str, Any]:
    f = night.facts
    final = None
    if f.state == "final":
        final = {"fact": f.final_fact, "position": f.final_at, "by": f.finalised_by}
    setting = None
    if f.stake is not None:
        limit = None if f.stake.limit is None else money_text(f.stake.limit)
        setting = {"money": money_text(f.stake.money), "limit": limit}
    flags = [
        {"position": x.position, "session": x.session, "deal": x.deal, "step": x.step,
         "reason": x.reason, "by": x.by, "status": x.status, "resolution": x.resolution}
        for x in f.flags
    ]  # fmt: skip
    fixed = [
        {"session": c.session, "table": c.table, "steps": list(c.steps), "flags": list(c.flags),
         "text": c.text(),
         "changes": [{"player": x.player, "before": _units(x.before), "after": _units(x.after),
                      "change": _units(x.after - x.before)} for x in c.changes]}
        for c in night.corrections
    ]  # fmt: skip
    return {"final": final, "present": list(f.present), "stake_setting": setting,
            "flags": flags, "corrected_after_final": fixed}  # fmt: skip


def _head(args: argparse.Namespace, night: Night) -> dict[str, Any]:
    return {
        "date": night.day.isoformat(),
        "club": args.club,
        "state": night.state,
        "sessions": [
            {"session": s.session, "table": s.table, "finished": s.finished, "pot": _units(s.pot)}
            for s in night.sessions
        ],
        **_facts(night),
    }


def _notes(console: Any, night: Night) -> None:
    """The night's state, open flags and corrections since final, one line each."""
    f = night.facts
    if f.state == "final":
        console.print(f"final: finalised by {f.finalised_by} at log position {f.final_at}")
    for x in f.open_flags:
        where = f"deal {x.deal}" + (f" step {x.step}" if x.step else "")
        console.print(f"open flag {x.position}: session {x.session} {where}: {x.reason} ({x.by})")
    for c in night.corrections:
        console.print(c.text())


def _standings(args: argparse.Namespace, night: Night) -> int:
    rows = [
        {"player": r.player, "net": _units(r.net), "sessions": r.sessions, "tables": list(r.tables)}
        for r in night.standings
    ]
    if args.json:
        out = {**_head(args, night), "unit": "stake units", "pot": _units(night.pot)}
        print(json.dumps({**out, "standings": rows}, ensure_ascii=False))
        return 0
    from brag.tables import fitted_tables  # rich: --json must not load it

    console = store_console()
    headers = [("player", "left"), ("net", "right"), ("sessions", "right"), ("tables", "left")]
    cells = [
        [r.player, _units(r.net), str(r.sessions), ", ".join(r.tables)] for r in night.standings
    ]
    title = f"Night of {night.day.isoformat()}, {night.state}"
    for t in fitted_tables(console, title, headers, cells, title_justify="left"):
        console.print(t)
    console.print("nets in stake units")
    _notes(console, night)
    going = [s for s in night.sessions if not s.finished]
    if going:
        console.print(
            f"{len(going)} of {len(night.sessions)} sessions in progress; "
            f"{_units(night.pot)} on the tables (nets + pot = 0)"
        )
    return 0


def _settle(args: argparse.Namespace, night: Night, stake: Fraction | None) -> int:
    try:
        transfers = settle(night, stake)
    except NightRefused as err:
        raise CommandError(f"cannot settle the night: {err}", command="night") from None
    unit = "stake units" if stake is None else "money"
    text = _units if stake is None else money_text
    rows = [{"from": t.payer, "to": t.payee, "amount": text(t.amount)} for t in transfers]
    if args.json:
        out = {**_head(args, night), "unit": unit}
        out["stake"] = None if stake is None else money_text(stake)
        out["stake_source"] = (
            None if stake is None else "--stake" if args.stake else "the night's setting"
        )
        print(json.dumps({**out, "transfers": rows}, ensure_ascii=False))
        return 0
    from brag.tables import fitted_tables

    console = store_console()
    at = "in stake units" if stake is None else f"in money at {money_text(stake)} a stake unit"
    title = f"Night of {night.day.isoformat()}, {night.state}"
    headers = [("from", "left"), ("to", "left"), ("amount", "right")]
    cells = [[r["from"], r["to"], r["amount"]] for r in rows]
    for t in fitted_tables(console, title, headers, cells, title_justify="left"):
        console.print(t)
    console.print(f"who pays whom, {at}" if rows else "everyone is square")
    _notes(console, night)
    return 0
