"""How fast the simulator plays, beside how fast the engine replays what it played.

    .venv/bin/python bench/simulate.py [--sessions 300] [--players 2-10] [--seed 1]

Simulation: ``sim.batch.generate`` (players choosing through ``legal_actions``, the engine applying
every event, the envelope), in deals and events per second. Replay: ``engine.fold.fold`` over the
very same event streams (derived events included), the engine's bare speed. Also the JSON Lines
round trip (``codec.dumps`` then ``codec.parse_line``) of those events.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from collections.abc import Callable

from engine.fold import fold
from events.codec import dumps, parse_line
from events.model import Dealt
from sim.batch import generate, parse_players


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--sessions", type=int, default=300)
    ap.add_argument("--players", default="2-10")
    ap.add_argument("--seed", default="1")
    ap.add_argument("--repeat", type=int, default=3, help="replay passes; the best is reported")
    args = ap.parse_args(argv)

    t0 = time.perf_counter()
    streams = list(generate(args.seed, args.sessions, parse_players(args.players)))
    t_sim = time.perf_counter() - t0
    events = sum(len(s) for s in streams)
    deals = sum(1 for s in streams for e in s if isinstance(e, Dealt))

    t_fold = min(_time(lambda: [fold(s) for s in streams]) for _ in range(args.repeat))
    lines = [dumps(e) for s in streams for e in s]
    t_codec = _time(lambda: [parse_line(x) for x in [dumps(e) for s in streams for e in s]])

    print(
        f"Python {platform.python_version()} on {platform.machine()}; {args.sessions} sessions of "
        f"{args.players} players, seed {args.seed}: {deals:,} deals, {events:,} events "
        f"({events / deals:.1f} per deal), {len(lines):,} lines"
    )
    print()
    print(f"| {'what':<42} | {'deals/s':>10} | {'events/s':>10} | {'time':>8} |")
    print(f"| {'-' * 42} | {'-' * 10}:| {'-' * 10}:| {'-' * 8}:|")
    rows = [
        ("simulate (players + engine + envelope)", t_sim),
        ("engine replay: engine.fold.fold", t_fold),
        ("codec round trip: dumps + parse_line", t_codec),
    ]
    for what, t in rows:
        print(f"| {what:<42} | {deals / t:>10,.0f} | {events / t:>10,.0f} | {t:>7.2f}s |")
    print()
    print(f"simulation costs {t_sim / t_fold:.1f}x the bare replay of the same events")
    return 0


def _time(fn: Callable[[], object]) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


if __name__ == "__main__":
    sys.exit(main())
