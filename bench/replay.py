"""Verify throughput: how fast ``brag verify`` reads and checks session logs (``make bench``).

1. Generates random legal 8-pot sessions (seeded per session; 2 to 10 players; half
   ``cards: "all"`` with the pack order recorded, half ``cards: "shown"``), every event drawn from
   :func:`engine.legal.legal_actions`, and writes them to a temporary folder as JSON Lines with the
   codec (the full stream, derived events included, as an export writes it). Generation runs in
   worker processes, so the timing process starts from a clean heap.
2. Times, in this process, (a) the floor: ``json.loads`` of every line of every file, and (b) the
   full verification as ``brag verify`` does it: ``read_file`` (read, parse every line into its
   event model) then ``verify_events`` (every rule, every derived event checked). Each pass runs
   ``--repeat`` times, taking turns, and the best CPU time of the process counts
   (``time.process_time``: other work on the machine blurs it less than wall-clock time).
3. Prints events per second for both and the ratio (target: verification within 5 times the bare
   parse). Exits 0 either way. ``--profile`` adds a cProfile of one verification pass.

Usage: ``python bench/replay.py [--sessions 1000] [--seed 2] [--repeat 5] [--profile] [--keep D]``.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import random
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.fold import verify_events  # noqa: E402
from events.codec import read_file, write_events  # noqa: E402
from events.model import AnyEvent, SessionStarted  # noqa: E402
from log.gc_pause import paused_gc  # noqa: E402
from sim import randplay  # noqa: E402

TARGET = 5.0


def random_session(rng: random.Random, k: int) -> list[AnyEvent]:
    """One legal session of 8 resolved pots (complete stream) from :mod:`sim.randplay`."""
    return randplay.random_session(
        rng, f"bench-{k}", players=rng.randint(2, 10), cards="all" if k % 2 == 0 else "shown"
    )


def generate_some(folder: str, seed: int, ks: range) -> Counter[str]:
    """Writes sessions ``ks`` (each from its own seeded generator, so the set does not depend on
    how the work is split) and returns counts for the report."""
    stats: Counter[str] = Counter()
    for k in ks:
        events = random_session(random.Random(f"{seed}:{k}"), k)
        start = events[0]
        assert isinstance(start, SessionStarted)
        stats["events"] += len(events)
        stats["finished"] += events[-1].type == "session_ended"
        stats["players"] += len(start.seats)
        stats[start.cards] += 1
        with (Path(folder) / f"session-{k:05d}.jsonl").open("w", encoding="utf-8") as fp:
            write_events(events, fp)
    return stats


def generate(folder: Path, sessions: int, seed: int) -> tuple[list[Path], Counter[str]]:
    """Generates the sessions in worker processes (faster, and the timing process keeps a clean
    heap: generation leaves a large, fragmented one behind)."""
    workers = max(1, min(os.cpu_count() or 1, 8))
    chunks = [range(k, min(k + 50, sessions)) for k in range(0, sessions, 50)]
    stats: Counter[str] = Counter()
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for part in pool.map(
            generate_some, [str(folder)] * len(chunks), [seed] * len(chunks), chunks
        ):
            stats.update(part)
    return [folder / f"session-{k:05d}.jsonl" for k in range(sessions)], stats


def bare_parse(paths: list[Path]) -> int:
    """The floor: read every file and ``json.loads`` every line."""
    n = 0
    for path in paths:
        with path.open(encoding="utf-8") as fp:
            for line in fp:
                json.loads(line)
                n += 1
    return n


def verify(paths: list[Path]) -> int:
    """Everything ``brag verify`` does: read, parse, check every rule and derived event."""
    n = 0
    for path in paths:
        events = read_file(str(path))
        with paused_gc():
            state = verify_events(events)
        assert state.finished
        n += len(events)
    return n


def cpu_time(fn: Callable[[list[Path]], int], paths: list[Path]) -> tuple[float, int]:
    """CPU seconds of this process (``time.process_time``) for one pass, so that other work on
    the machine blurs the figures less than wall-clock time would."""
    t0 = time.process_time()
    count = fn(paths)
    return time.process_time() - t0, count


def race(repeat: int, paths: list[Path]) -> tuple[float, float, int]:
    """The best time of each pass over ``repeat`` rounds, the two passes taking turns."""
    t_parse = t_verify = float("inf")
    count = 0
    for _ in range(repeat):
        t, n_parse = cpu_time(bare_parse, paths)
        t_parse = min(t_parse, t)
        t, count = cpu_time(verify, paths)
        t_verify = min(t_verify, t)
        assert n_parse == count, (n_parse, count)
    return t_parse, t_verify, count


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--sessions", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=2)
    ap.add_argument(
        "--repeat", type=int, default=5, help="time each pass this often, keep the best"
    )
    ap.add_argument("--profile", action="store_true", help="cProfile the verification pass")
    ap.add_argument("--keep", metavar="DIR", help="write the sessions to DIR and keep them")
    args = ap.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="brag-bench-") as tmp:
        if args.keep:
            tmp = args.keep
            Path(tmp).mkdir(parents=True, exist_ok=True)
        t0 = time.perf_counter()
        paths, stats = generate(Path(tmp), args.sessions, args.seed)
        gen = time.perf_counter() - t0
        lines = stats["events"]
        print(
            f"generated {len(paths)} random legal sessions (seed {args.seed}; "
            f"{stats['finished']} finished after 8 resolved pots; "
            f"{stats['players'] / len(paths):.1f} players on average; "
            f"{stats['all']} with every card recorded, {stats['shown']} with the shown cards): "
            f"{lines} events in {gen:.1f} s"
        )
        t_parse, t_verify, count = race(args.repeat, paths)
        assert count == lines, (count, lines)
        ratio = t_verify / t_parse
        print(f"bare json.loads (the floor): {lines / t_parse:>12,.0f} events/s  ({t_parse:.3f} s)")
        print(
            f"full verification:           {lines / t_verify:>12,.0f} events/s  ({t_verify:.3f} s)"
        )
        verdict = "within" if ratio <= TARGET else "MISSES"
        print(f"ratio verify / parse: {ratio:.2f}x ({verdict} the {TARGET:g}x target)")
        if args.profile:
            prof = cProfile.Profile()
            prof.runcall(verify, paths)
            pstats.Stats(prof).sort_stats("cumulative").print_stats(25)
    return 0


if __name__ == "__main__":
    sys.exit(main())
