"""The ``brag`` command: one entry point for everything a user types (DESIGN.md)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from engine import summary, verify_events
from events.amounts import amount_text, parse_amount
from events.codec import read_file
from events.errors import BragError


def _err(msg: str) -> None:
    print(f"brag: {msg}", file=sys.stderr)


def cmd_verify(args: argparse.Namespace) -> int:
    """``brag verify FILE [--json]``: exit 0 and the summary for a valid log; exit 1 and the first
    refused line for an invalid one; exit 2 for a file that cannot be read."""
    try:
        events = read_file(args.file)
        state = verify_events(events)
    except BragError as err:
        if args.json:
            print(json.dumps({"error": err.to_json()}, ensure_ascii=False))
        else:
            print(f"{args.file}: {err}")
        return 1
    except (OSError, UnicodeDecodeError) as err:
        msg = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
        if args.json:
            print(json.dumps({"error": {"line": None, "rule": "FILE", "message": msg}}))
        _err(f"cannot read {args.file}: {msg}")
        return 2
    out = summary(state)
    if args.json:
        print(json.dumps(out, ensure_ascii=False))
        return 0
    _print_summary(args.file, out)
    return 0


def _print_summary(name: str, out: dict[str, object]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    finished = "finished" if out["finished"] else "not finished"
    console.print(
        f"[bold]{name}[/]: valid. {out['deals']} deals, {out['resolved_pots']} resolved pots, "
        f"{out['carried_pots']} carried; {finished}; pot on the table {amount_text(parse_amount(out['pot']))}"
    )
    deals = Table(title="Deals")
    for col in ("deal", "dealer", "result", "winner", "pot", "showdown"):
        deals.add_column(col)
    for o in out["outcomes"]:  # type: ignore[attr-defined]
        show = o.get("hand") or "" if o["showdown"] else "no"
        result = o["result"] if o["result"] == "won" else f"carried ({o.get('blind')} blind)"
        deals.add_row(
            str(o["deal"]),
            o["dealer"],
            result,
            o["winner"] or "",
            amount_text(parse_amount(o["amount"])),
            show if o["showdown"] else "no",
        )
    console.print(deals)
    nets = Table(title="Nets")
    nets.add_column("player")
    nets.add_column("net", justify="right")
    winners = set(out.get("winners") or [])  # type: ignore[call-overload]
    for p, v in out["nets"].items():  # type: ignore[attr-defined]
        nets.add_row(p + (" (winner)" if p in winners else ""), amount_text(parse_amount(v)))
    console.print(nets)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="brag", description="Bragbook: Three-Card Brag logs.")
    sub = parser.add_subparsers(dest="command", required=True)
    v = sub.add_parser("verify", help="check a session log against the rules and summarise it")
    v.add_argument("file")
    v.add_argument("--json", action="store_true", help="print one JSON object")
    v.set_defaults(func=cmd_verify)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
