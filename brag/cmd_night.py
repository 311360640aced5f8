"""``brag night DATE``: a club night (issue 36, first slice), the sessions started on ``DATE``:

- ``brag night DATE [--json]``: each player's net over the night's sessions (RULES 1.5, the
  engine's fold; a merged name counts as its player, ``brag players``), by net, ties by name;
  ``state`` is ``provisional`` (a night is not finalised yet in this slice: never ``final``);
  ``pot``: stake units still on the tables of sessions in progress (nets + pot = 0);
- ``brag night DATE --settle [--stake 0.50] [--json]``: who pays whom, at most n-1 transfers,
  exact, in stake units or, with ``--stake``, in the club's money (the logs record no stake per
  unit). Refused, one line naming the session, while a pot is on a table.

``--club`` filters nothing yet: FORMAT.md records no club. JSON writes amounts as FORMAT.md does
(``"9"``, ``"-17/2"``; money as a decimal when it has one, ``"4.25"``). Names are data: shown
inert (:mod:`brag.console`). Refusals are one line, exit 1.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from datetime import date
from fractions import Fraction
from typing import Any

from brag.errors import CommandError
from brag.store_access import open_event_store, store_console
from events.amounts import format_amount
from service.night import Night, NightRefused, night_of, settle

__all__ = ["cmd_night", "money_text", "register"]

_STAKE = re.compile(r"[0-9]{1,9}(\.[0-9]{1,6})?")


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "night",
        parents=[common],
        help="a club night: the standings of one date's sessions, and who pays whom",
        description="The sessions started on DATE (YYYY-MM-DD, in each log's own offset): each "
        "player's net over them, by net (RULES 1.5); --settle: who pays whom, at most n-1 "
        "transfers. The night stays provisional (finalising comes later).",
    )
    p.add_argument("day", metavar="DATE", help="the night's date, YYYY-MM-DD")
    p.add_argument(
        "--club",
        metavar="C",
        help="the club (filters nothing yet: the logs record no club, FORMAT.md)",
    )
    p.add_argument("--settle", action="store_true", help="who pays whom")
    p.add_argument(
        "--stake",
        metavar="MONEY",
        help="the club's money per stake unit, an exact decimal (0.50); without it, stake units",
    )
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.set_defaults(func=cmd_night)


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise CommandError(f"DATE {text!r} is not YYYY-MM-DD", command="night") from None


def _stake(text: str | None) -> Fraction | None:
    if text is None:
        return None
    if not _STAKE.fullmatch(text) or Fraction(text) == 0:
        raise CommandError(
            f"--stake {text!r}: give the money per stake unit as a decimal above 0 (0.50)",
            command="night",
        )
    return Fraction(text)


def money_text(value: Fraction) -> str:
    """An exact amount of money as FORMAT.md writes an amount: a decimal when it has one
    (``"4.25"``, ``"-3"``), else ``"n/d"`` (a third of a penny stays exact)."""
    d = value.denominator
    places = 0
    while d % 10 == 0 or d % 2 == 0 or d % 5 == 0:
        if d % 10 == 0:
            d //= 10
        elif d % 2 == 0:
            d //= 2
        else:
            d //= 5
        places += 1
    if d != 1:
        return str(format_amount(value))
    if places == 0:
        return str(value.numerator)
    scaled = abs(value) * 10**places
    text = str(scaled.numerator).rjust(places + 1, "0")
    sign = "-" if value < 0 else ""
    return f"{sign}{text[:-places]}.{text[-places:]}"


def _units(value: Fraction) -> str:
    return str(format_amount(value))


def cmd_night(args: argparse.Namespace) -> int:
    day = _day(args.day)
    stake = _stake(args.stake)
    if args.club is not None:
        print(
            "note: --club filters nothing yet (the logs record no club): every session of "
            f"{day.isoformat()} is counted",
            file=sys.stderr,
        )
    with open_event_store(args) as store:
        try:
            night = night_of(store, day)
        except NightRefused as err:
            raise CommandError(str(err), command="night") from None
    if args.settle:
        return _settle(args, night, stake)
    return _standings(args, night)


def _head(args: argparse.Namespace, night: Night) -> dict[str, Any]:
    return {
        "date": night.day.isoformat(),
        "club": args.club,
        "state": night.state,
        "sessions": [
            {"session": s.session, "table": s.table, "finished": s.finished, "pot": _units(s.pot)}
            for s in night.sessions
        ],
    }


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
    return 0
