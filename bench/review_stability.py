"""Stability of the review's grades (issue 38.5): two solutions of the same games, compared.

Grades every decision of the bundled season (``data/season``) and of simulated heads-up sessions
(every pair of :data:`sim.players.STYLES`, both seatings, ``--seeds`` sessions each) with the
solution of seed 0 and of ``--other`` (a different seed, same iterations; or ``--iterations2``:
the same seed with more iterations), and prints how many covered grades change, against the 1 %
limit of the issue. Solving a seed's twenty games takes minutes (cached in ``BRAG_SOLVER_CACHE``).

    .venv/bin/python bench/review_stability.py [--other 1] [--iterations2 800] [--sessions 1]
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from events.codec import read_file  # noqa: E402
from sim.players import STYLES  # noqa: E402
from sim.table import SessionSpec, simulate  # noqa: E402
from solver.review import review  # noqa: E402
from solver.solution import ITERATIONS  # noqa: E402
from timeline.core import Timeline  # noqa: E402

LIMIT = 0.01


def _timelines(sessions: int) -> dict[str, list[Timeline]]:
    season = [
        Timeline.of([e for _, e in read_file(str(f))])
        for f in sorted((ROOT / "data" / "season").glob("*.jsonl"))
    ]
    hu = []
    for k, (a, b) in enumerate(itertools.permutations(STYLES, 2)):
        for s in range(sessions):
            seats = (("Ann", a), ("Bob", b))
            spec = SessionSpec(session=f"hu{k}-{s}", seats=seats, seed=100 * k + s)
            hu.append(Timeline.of(simulate(spec)))
    return {"season": season, "heads-up": hu}


Graded = list[tuple[str | None, float | None]]


def _grades(ts: list[Timeline], seed: int, iterations: int) -> Graded:
    rows = [r for t in ts for r in review(t.steps, seed=seed, iterations=iterations).rows]
    return [(r.grade if r.ev_loss is not None else None, r.ev_loss) for r in rows]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--other", type=int, default=1, help="the other solution's seed")
    ap.add_argument("--iterations2", type=int, default=ITERATIONS)
    ap.add_argument("--sessions", type=int, default=1, help="heads-up sessions per seating")
    args = ap.parse_args()
    sets = _timelines(args.sessions)
    for name, ts in sets.items():
        t0 = time.perf_counter()
        a = _grades(ts, 0, ITERATIONS)
        b = _grades(ts, args.other, args.iterations2)
        both = [(x, y) for x, y in zip(a, b, strict=True) if x[0] is not None and y[0] is not None]
        changed = [(x, y) for x, y in both if x[0] != y[0]]
        share = len(changed) / max(len(both), 1)
        print(
            f"{name}: {len(a)} decisions, {len(both)} graded by both, {len(changed)} changed "
            f"({share:.1%}; limit {LIMIT:.0%}: {'met' if share <= LIMIT else 'NOT met'}) "
            f"[{time.perf_counter() - t0:.0f} s]"
        )
        for x, y in changed[:8]:
            print(f"   {x[0]} ({x[1]:.3f}) -> {y[0]} ({y[1]:.3f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
