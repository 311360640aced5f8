"""The issue's measurements over simulated sessions, printed as Markdown tables.

    python -m sim.report shares [--deals 100000]    # hand categories vs RULES 2.8, by kind of deal
    python -m sim.report styles [--sessions 1000]   # blind, see, fold, raise rates and net per deal
    python -m sim.report verify [--sessions 10000]  # every session through brag verify's logic

All draw sessions of 2 to 10 players from :func:`sim.batch.generate` with a fixed seed, so a
report is reproducible.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator
from math import sqrt

from engine.fold import verify_events
from engine.hands import Category
from events.codec import dumps, read_events
from events.model import AnyEvent, Dealt
from log.gc_pause import paused_gc
from sim.batch import generate
from sim.names import STYLE_OF
from sim.players import STYLES
from sim.stats import HANDS, RULES_2_8, CategoryCounts, category_counts, style_table

__all__ = ["main", "shares", "styles", "verify"]


def _until_deals(seed: str, deals: int) -> Iterator[list[AnyEvent]]:
    made = 0
    for events in generate(seed, 10**9, (2, 10), "all"):
        yield events
        made += sum(1 for e in events if isinstance(e, Dealt))
        if made >= deals:
            return


def shares(deals: int = 100_000, seed: str = "report-shares") -> str:
    """Each category's share among dealt hands, after a shuffle and from the unshuffled pack,
    beside RULES 2.8, with the distance from RULES 2.8 in binomial standard deviations."""
    counts = category_counts(_until_deals(seed, deals), CategoryCounts())
    a, u = counts.after_shuffle, counts.unshuffled
    na, nu = sum(a.values()), sum(u.values())
    lines = [
        f"{counts.deals:,} deals ({counts.deals_after_shuffle:,} right after a shuffle, "
        f"{counts.deals_unshuffled:,} from the unshuffled pack); {na + nu:,} hands "
        f"({na:,} and {nu:,}). z = (share - RULES 2.8) / binomial sd for that many hands.",
        "",
        "| category | RULES 2.8 | after a shuffle | z | unshuffled pack | z |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for cat in sorted(Category, reverse=True):
        p = RULES_2_8[cat] / HANDS
        sa, su = a[cat] / na, u[cat] / nu
        za = (sa - p) / sqrt(p * (1 - p) / na)
        zu = (su - p) / sqrt(p * (1 - p) / nu)
        lines.append(
            f"| {cat.label} | {100 * p:.3f}% | {100 * sa:.3f}% ({a[cat]:,}) | {za:+.1f} "
            f"| {100 * su:.3f}% ({u[cat]:,}) | {zu:+.1f} |"
        )
    return "\n".join(lines)


def styles(sessions: int = 1000, seed: str = "report-styles") -> str:
    """Per style, over ``sessions`` sessions of 2 to 10 players."""
    rows = style_table(generate(seed, sessions, (2, 10), "all"), STYLE_OF)
    lines = [
        f"{sessions:,} sessions of 2 to 10 players. Rates are per player-deal: *blind* = still "
        "blind at its first bet, fold or see; *see* = paid to see; *fold*; *won* = took the pot. "
        "*see when able* = sees per turn on which it could see (heads-up, a level, not seen "
        "against blind: RULES 5.7); *raise* = share of its bets that raised the level.",
        "",
        "| style | player-deals | blind | see | fold | won | see when able | raise "
        "| net per deal |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for style in STYLES:
        r = rows[style]
        lines.append(
            f"| {style} | {r.deals:,} | {r.rate(r.blind):.1%} | {r.rate(r.saw):.1%} "
            f"| {r.rate(r.folded):.1%} | {r.rate(r.won):.1%} | {r.saw / max(r.see_turns, 1):.1%} "
            f"| {r.raises / r.bets:.1%} "
            f"| {float(r.net) / r.deals:+.2f} |"
        )
    return "\n".join(lines)


def verify(sessions: int = 10_000, seed: str = "report-verify") -> str:
    """``sessions`` sessions (half ``all``, half ``shown``) written as JSON Lines, read back and
    verified as ``brag verify`` does; every one must be a finished 8-pot session."""
    t0 = time.perf_counter()
    ok = deals = events = 0
    half = sessions // 2
    runs = [generate(f"{seed}-all", half, (2, 10), "all")]
    runs.append(generate(f"{seed}-shown", sessions - half, (2, 10), "shown"))
    for run in runs:
        for stream in run:
            lines = [dumps(e) for e in stream]
            with paused_gc():
                state = verify_events(read_events(lines))
            if not (state.finished and state.resolved == 8 and sum(state.nets.values()) == 0):
                raise AssertionError(f"{state.session}: not a finished session")
            ok += 1
            deals += state.deals
            events += len(lines)
    dt = time.perf_counter() - t0
    return (
        f"{ok:,} of {sessions:,} simulated sessions (2 to 10 players; {half:,} all, "
        f"{sessions - half:,} shown) passed verification: {deals:,} deals, {events:,} events, "
        f"in {dt:.0f}s (simulate + write + read + verify)"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m sim.report", description=__doc__)
    sub = ap.add_subparsers(dest="what", required=True)
    sub.add_parser("shares").add_argument("--deals", type=int, default=100_000)
    sub.add_parser("styles").add_argument("--sessions", type=int, default=1000)
    sub.add_parser("verify").add_argument("--sessions", type=int, default=10_000)
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    if args.what == "shares":
        print(shares(args.deals))
    elif args.what == "styles":
        print(styles(args.sessions))
    else:
        print(verify(args.sessions))
    print(f"\n({time.perf_counter() - t0:.0f}s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
