"""The writing half of ``brag night DATE`` (issue 36 items 1, 4 and 5): each option stores one
fact of the night beside the log (:mod:`store.night`, through :mod:`service.night_facts`) and
prints one line (``--json``: the facts stored):

- ``--check-in NAME...`` / ``--check-out NAME...``: players present (a name present already
  stores nothing);
- ``--set-stake MONEY [--limit MONEY]``: the club's money per stake unit, kept for the night
  (``--settle`` uses it when no ``--stake`` is given); ``--stake`` stays the one-off display
  option it was, never stored;
- ``--finalise`` / ``--reopen [--reason R]``: the director's word;
- ``--flag SESSION:DEAL[:STEP] --reason R``: a player (``--by``) flags a deal (a step of it);
- ``--dismiss POS --reason R`` / ``--corrected POS --reason R``: the director resolves the flag
  stored at ``POS`` (``brag night DATE --json``: ``flags[].position``).

Refusals are one line naming why (:class:`service.night.NightRefused`), exit 1; nothing stored.
"""

from __future__ import annotations

import argparse
import json
import re
from datetime import date
from fractions import Fraction
from typing import Any

from brag.errors import CommandError
from brag.store_access import open_event_store, store_console
from service.night import NightRefused
from service.night_facts import (
    check_in,
    dismiss,
    finalise,
    flag,
    mark_corrected,
    reopen,
    set_stake,
)
from store.night import NightFact

__all__ = ["ACTIONS", "add_actions", "money", "run_action"]

ACTIONS = ("check_in", "check_out", "set_stake", "finalise", "reopen", "flag", "dismiss",
           "corrected")  # fmt: skip
"""The options that store a fact (``args`` attribute names); at most one per command."""
_MONEY = re.compile(r"[0-9]{1,9}(\.[0-9]{1,6})?|[0-9]{1,9}/[1-9][0-9]{0,8}")
_FLAG = re.compile(r"(?P<session>.+?):(?P<deal>[0-9]{1,6})(?::(?P<step>[0-9]{1,6}[a-z]{0,3}))?")


def money(text: str | None, option: str) -> Fraction | None:
    """``text`` as exact money above 0 (``0.50``, ``1/2``); ``None`` for ``None``."""
    if text is None:
        return None
    if not _MONEY.fullmatch(text) or Fraction(text) == 0:
        raise CommandError(
            f"{option} {text!r}: give money per stake unit above 0, as a decimal (0.50) or a "
            "fraction (1/2)",
            command="night",
        )
    return Fraction(text)


def add_actions(p: argparse.ArgumentParser) -> None:
    """The writing options of ``brag night``."""
    g = p.add_argument_group("the night's facts (stored beside the log)")
    g.add_argument("--check-in", nargs="+", metavar="NAME", help="players present")
    g.add_argument("--check-out", nargs="+", metavar="NAME", help="players gone")
    g.add_argument("--set-stake", metavar="MONEY", help="the night's money per stake unit (1/2)")
    g.add_argument("--limit", metavar="MONEY", help="with --set-stake: the house limit on it")
    g.add_argument("--finalise", action="store_true", help="the director finalises the night")
    g.add_argument("--reopen", action="store_true", help="a final night is provisional again")
    g.add_argument("--flag", metavar="SESSION:DEAL[:STEP]", help="flag a deal (with --reason)")
    g.add_argument("--dismiss", type=int, metavar="POS", help="dismiss the flag at POS")
    g.add_argument("--corrected", type=int, metavar="POS", help="the flag at POS is corrected")
    g.add_argument("--reason", metavar="R", help="why (a flag, its resolution, a reopening)")
    g.add_argument("--by", metavar="NAME", default="organiser", help="who asks (kept with it)")


def _fact(f: NightFact) -> dict[str, Any]:
    return {
        "position": f.position,
        "kind": f.kind,
        "subject": f.subject,
        "value": json.loads(f.value),
        "undoes": f.undoes,
        "at": f.at.isoformat(),
        "by": f.by,
    }


def _needs_reason(args: argparse.Namespace, what: str) -> str:
    if not args.reason:
        raise CommandError(f"{what} needs --reason R (kept with it)", command="night")
    return str(args.reason)


Stored = tuple[list[NightFact], str]


def _check_in(args: argparse.Namespace, store: Any, day: date, club: str) -> Stored:
    here = bool(args.check_in)
    names = args.check_in or args.check_out
    got = [check_in(store, day, n, present=here, by=args.by, club=club) for n in names]
    stored = [f for f in got if f is not None]
    word = "checked in" if here else "checked out"
    said = ", ".join(f.subject for f in stored) or "nobody new"
    return stored, f"{word}: {said} ({len(names) - len(stored)} so already)"


def _set_stake(args: argparse.Namespace, store: Any, day: date, club: str) -> Stored:
    stake = money(args.set_stake, "--set-stake")
    assert stake is not None
    f = set_stake(store, day, stake, money(args.limit, "--limit"), by=args.by, club=club)
    return [f], f"the night's stake: {args.set_stake} a stake unit (fact {f.position})"


def _finalise(args: argparse.Namespace, store: Any, day: date, club: str) -> Stored:
    f = finalise(store, day, by=args.by, club=club)
    pos = json.loads(f.value)["position"]
    return [f], f"the night is final (fact {f.position}, by {f.by}, log position {pos})"


def _reopen(args: argparse.Namespace, store: Any, day: date, club: str) -> Stored:
    f = reopen(store, day, by=args.by, reason=args.reason or "reopened", club=club)
    return [f], f"the night is provisional again (fact {f.position})"


def _flag(args: argparse.Namespace, store: Any, day: date, club: str) -> Stored:
    m = _FLAG.fullmatch(args.flag)
    if m is None:
        raise CommandError(f"--flag {args.flag!r}: give SESSION:DEAL[:STEP]", command="night")
    why = _needs_reason(args, "--flag")
    s, deal, step = m["session"], int(m["deal"]), m["step"]
    f = flag(store, day, s, deal, step, why, by=args.by, club=club)
    where = f"deal {deal}" + (f" step {step}" if step else "")
    return [f], f"flag {f.position}: session {s} {where} ({why}, by {f.by})"


def _dismiss(args: argparse.Namespace, store: Any, day: date, club: str) -> Stored:
    why = _needs_reason(args, "--dismiss")
    f = dismiss(store, day, args.dismiss, why, by=args.by, club=club)
    return [f], f"flag {args.dismiss} dismissed ({why})"


def _corrected(args: argparse.Namespace, store: Any, day: date, club: str) -> Stored:
    why = _needs_reason(args, "--corrected")
    f = mark_corrected(store, day, args.corrected, why, by=args.by, club=club)
    return [f], f"flag {args.corrected} corrected ({why})"


_DO = {
    "check_in": _check_in,
    "check_out": _check_in,
    "set_stake": _set_stake,
    "finalise": _finalise,
    "reopen": _reopen,
    "flag": _flag,
    "dismiss": _dismiss,
    "corrected": _corrected,
}


def run_action(args: argparse.Namespace, day: date) -> int:
    """Stores the one fact ``args`` asks for (see the module) and prints what was stored."""
    asked = [a for a in ACTIONS if getattr(args, a) not in (None, False)]
    if len(asked) > 1 or (asked and args.settle):
        given = ", ".join("--" + a.replace("_", "-") for a in asked)
        raise CommandError(f"one thing at a time: {given}{' with --settle' * args.settle}",
                           command="night")  # fmt: skip
    if (args.limit is not None and args.set_stake is None) or not asked:
        raise CommandError("--limit goes with --set-stake", command="night")
    with open_event_store(args, write=True) as store:
        try:
            stored, line = _DO[asked[0]](args, store, day, args.club or "")
        except NightRefused as err:
            raise CommandError(str(err), command="night") from None
    if args.json:
        out = {"date": day.isoformat(), "club": args.club, "stored": [_fact(f) for f in stored]}
        print(json.dumps(out, ensure_ascii=False))
        return 0
    store_console().print(line)
    return 0
