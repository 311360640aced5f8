"""``brag verify FILE [--json]`` (contract: ``../shared/scenarios/README.md``)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from brag.console import console as safe_console
from brag.console import shown
from engine.fold import summary, verify_events
from events.amounts import amount_text, parse_amount
from events.codec import read_file
from events.errors import BragError, FormatError
from log.gc_pause import paused_gc
from present.numbers import count_of


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    v = sub.add_parser(
        "verify",
        parents=[common],
        help="check a session log against the rules and summarise it",
        description="Check a FORMAT.md session log against RULES.md. Exit 0 and a summary for a "
        "valid log; exit 1 and the first refused line for an invalid one; exit 2 when the file "
        "cannot be read.",
    )
    v.add_argument("file", help="a JSON Lines session log")
    v.add_argument("--json", action="store_true", help="print one JSON object")
    v.set_defaults(func=cmd_verify)


def _verified(events: list[Any]) -> Any:
    """The final state of a log, every rule checked: the engine's fold, or for a log holding
    ``amended`` corrections (docs/format.md) its timeline's corrected end state."""
    if any(e.type == "amended" for _, e in events):
        from log.folds import corrected_log  # timeline: `brag verify` of a plain log does without

        return corrected_log(events)[-1].state
    return verify_events(events)


def cmd_verify(args: argparse.Namespace) -> int:
    try:
        events = read_file(args.file)
        if not events:
            raise FormatError("the log is empty: a session log starts with session_started", line=1)
        with paused_gc():
            state = _verified(events)
    except BragError as err:
        if args.json:
            print(json.dumps({"error": err.to_json()}, ensure_ascii=False))
        else:
            print(shown(f"{args.file}: {err}"))
        return 1
    except (OSError, UnicodeDecodeError) as err:
        msg = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
        if args.json:
            print(json.dumps({"error": {"line": None, "rule": "FILE", "message": msg}}))
        print(shown(f"brag: cannot read {args.file}: {msg}"), file=sys.stderr)
        return 2
    out = summary(state)
    if args.json:
        print(json.dumps(out, ensure_ascii=False))
    else:
        print_summary(args.file, out)
    return 0


def print_summary(name: str, out: dict[str, Any]) -> None:
    """A readable table of the deals' outcomes and the nets."""
    # rich here: `brag verify --json` prints no table and must not load it.
    from rich.table import Table
    from rich.text import Text

    console = safe_console()
    finished = "finished" if out["finished"] else "not finished"
    pot = amount_text(parse_amount(out["pot"]))
    console.print(
        Text.assemble(
            (shown(name), "bold"),
            f": valid. {_count(out['deals'], 'deal')}, "
            f"{_count(out['resolved_pots'], 'resolved pot')}, {out['carried_pots']} carried; "
            f"{finished}; pot on the table {pot}",
        ),
        soft_wrap=not console.is_terminal,  # one line in a pipe, for grep and scripts
    )
    deals = Table(title="Deals")
    for col in ("deal", "dealer", "result", "winner", "pot", "showdown"):
        deals.add_column(col)
    for o in out["outcomes"]:
        result = "won" if o["result"] == "won" else f"carried ({o.get('blind')} blind)"
        deals.add_row(
            str(o["deal"]),
            o["dealer"],
            result,
            o["winner"] or "",
            amount_text(parse_amount(o["amount"])),
            (o.get("hand") or "yes") if o["showdown"] else "no",
        )
    console.print(deals)
    nets = Table(title="Nets (RULES 1.5)")
    nets.add_column("player")
    nets.add_column("net", justify="right")
    winners = set(out.get("winners") or [])
    for p, v in out["nets"].items():
        nets.add_row(p + (" (winner)" if p in winners else ""), amount_text(parse_amount(v)))
    console.print(nets)


def _count(n: int, noun: str) -> str:
    """``1 deal``, ``2 deals``."""
    return count_of(n, noun)
