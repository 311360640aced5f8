"""``brag players``: the club's register of players' names (issue 35 item 2), kept beside the
logs (:mod:`log.register`; the logs and ``brag export`` never change):

- ``brag players list [--json]``: every merge, rename and undo, oldest first, each marked in
  force or undone, and the names recorded that now go by another;
- ``brag players merge A B [--by NAME]``: the recorded name ``A`` is the player ``B`` from now on
  (their statistics one; refused for two players who sat in one session, RULES 1.3);
- ``brag players rename A B [--by NAME]``: the player ``A`` is called ``B`` (a new name);
- ``brag players undo [--by NAME]``: the latest merge or rename in force no longer holds.

The statistics (``brag stats``, the lake, the dashboard) follow at their next refresh. A name is
data: shown inert (:mod:`brag.console`). Refusals are one line, exit 1.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from brag.errors import CommandError
from brag.store_access import open_event_store, store_console
from log.register import Register, merge, register_of, rename, seated_of, undo
from store.register import RegisterFact

__all__ = ["cmd_players", "register"]

_ACTIONS = {"list": 1, "merge": 3, "rename": 3, "undo": 1}
"""Each action and how many words it takes (its own included)."""


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "players",
        parents=[common],
        help="the register of players' names: list, merge, rename, undo (kept beside the logs)",
        description="brag players list shows the register; brag players merge A B makes the "
        "recorded name A the player B; brag players rename A B calls the player A B; brag "
        "players undo undoes the latest merge or rename. The logs never change: the statistics "
        "follow the register.",
        usage="brag players {list,merge,rename,undo} [A B] [options]",
    )
    p.add_argument("words", nargs="+", metavar="ACTION", help=argparse.SUPPRESS)
    p.add_argument("--json", action="store_true", help="JSON: one object per fact")
    p.add_argument("--by", metavar="NAME", default="organiser", help="who asks (kept with it)")
    p.set_defaults(func=cmd_players)


def cmd_players(args: argparse.Namespace) -> int:
    words: list[str] = args.words
    action = words[0]
    if action not in _ACTIONS:
        raise CommandError(f"no action {action!r} (list, merge, rename, undo)", command="players")
    if len(words) != _ACTIONS[action]:
        usage = f"{action} A B" if _ACTIONS[action] == 3 else action
        raise CommandError(f"usage: brag players {usage}", command="players")
    if action == "list":
        with open_event_store(args) as store:
            return _list(args, register_of(store), store.where)
    with open_event_store(args, write=True) as store:
        if action == "undo":
            fact = undo(store, by=args.by)
        elif action == "merge":
            fact = merge(store, words[1], words[2], seated_of(store), by=args.by)
        else:
            fact = rename(store, words[1], words[2], seated_of(store), by=args.by)
    if args.json:
        print(json.dumps(_row(fact, True), ensure_ascii=False))
    else:
        store_console().print(f"{_said(fact)}; the statistics follow at their next refresh.")
    return 0


def _said(f: RegisterFact) -> str:
    if f.kind == "merge":
        return f"#{f.position} {f.name} merged into {f.target}"
    if f.kind == "rename":
        return f"#{f.position} {f.name} renamed {f.target}"
    return f"#{f.position} undid #{f.undoes} ({f.name} -> {f.target})"


def _row(f: RegisterFact, in_force: bool) -> dict[str, Any]:
    at = f.at.isoformat()
    return {"id": f.position, "kind": f.kind, "name": f.name, "target": f.target,
            "undoes": f.undoes, "in_force": in_force, "at": at, "by": f.by}  # fmt: skip


def _list(args: argparse.Namespace, reg: Register, where: str) -> int:
    holding = {f.position for f in reg.in_force()}
    if args.json:
        for f in reg.facts:
            print(json.dumps(_row(f, f.position in holding), ensure_ascii=False))
        return 0
    console = store_console()
    if not reg.facts:
        console.print(f"no merge or rename in {where}")
        return 0
    for f in reg.facts:
        state = "" if f.kind == "undo" else ("" if f.position in holding else "  [undone]")
        console.print(f"{_said(f)}, by {f.by}, {f.at:%Y-%m-%d %H:%M} UTC{state}")
    return 0
