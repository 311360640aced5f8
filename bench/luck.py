"""The luck-adjusted net on simulated seasons where each style's skill is known.

    .venv/bin/python bench/luck.py [--sessions 1200] [--players 5] [--seed luck] [--draws 200]

Simulates ``--sessions`` sessions in process (``cards: "all"``, default rules), each seating the
five styles of :data:`sim.players.STYLES` (with ``--players`` above 5 the extra seats are drawn
from them at random) in a random order, and folds every session through the projector's own
:class:`analytics.facts.SessionFolder`, so the nets and luck terms are the ``player_deals``
columns ``net_t``, ``luck_t`` and ``adjusted_net_t``. A style's result in a session is the sum over
its seats. It prints, in one run:

- per style, the mean raw net and the mean luck-adjusted net per session with their standard
  errors, and the mean luck term with its own: **unbiased** when the adjusted mean is within one
  standard error of the raw mean (their difference is the mean luck, expected 0);
- per style, the per-session standard deviation of the adjusted net over the raw one's (target
  at most 0.7);
- the sessions needed to rank the five styles correctly 9 times in 10, raw against adjusted
  (target: adjusted needs at most half): the true order is the styles' order by their mean over
  every session of the run (adjusted and raw must agree on it, else it is not known and said so);
  for each candidate size, ``--draws`` random sets of that many sessions (drawn from the run
  without replacement, never more than a quarter of it) are ranked.

Everything is seeded: the same arguments print the same figures.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # not bench/analytics.py

from analytics.facts import Rows, SessionFolder
from sim.players import STYLES
from sim.table import SessionSpec, simulate

STYLE_NAMES = tuple(sorted(STYLES))


def season(sessions: int, players: int, seed: str) -> list[dict[str, tuple[Fraction, Fraction]]]:
    """Per session: style -> (raw net, adjusted net) in stake units, summed over its seats."""
    out = []
    for k in range(sessions):
        rng = random.Random(f"{seed}/{k}")
        styles = rng.sample(STYLE_NAMES, min(players, 5))
        styles += [rng.choice(STYLE_NAMES) for _ in range(players - len(styles))]
        rng.shuffle(styles)
        seats = tuple((f"P{i}", s) for i, s in enumerate(styles))
        spec = SessionSpec(session=f"luck-{k}", seats=seats, seed=f"{seed}/{k}")
        folder = SessionFolder(spec.session)
        rows = Rows()
        for n, event in enumerate(simulate(spec), start=1):
            folder.apply(n, n, event, rows)
        pd = rows.player_deals
        per: dict[str, list[Fraction]] = {s: [Fraction(0), Fraction(0)] for s in set(styles)}
        for seat, net, adjusted, den in zip(
            pd["seat"], pd["net_t"], pd["adjusted_net_t"], pd["den"], strict=True
        ):
            assert adjusted is not None, "a cards: all session has every luck term"
            per[styles[seat]][0] += Fraction(net, den)
            per[styles[seat]][1] += Fraction(adjusted, den)
        out.append({s: (v[0], v[1]) for s, v in per.items()})
    return out


def mean_se(xs: Sequence[float]) -> tuple[float, float, float]:
    """Mean, standard error of the mean, standard deviation."""
    n = len(xs)
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    return m, sd / math.sqrt(n), sd


def means(values: Sequence[dict[str, float]]) -> dict[str, float]:
    """Each style's mean over the sessions it sat in (a style that sat in none ranks last)."""
    out = {}
    for s in STYLE_NAMES:
        xs = [v[s] for v in values if s in v]
        out[s] = sum(xs) / len(xs) if xs else -math.inf
    return out


def order(means: dict[str, float]) -> tuple[str, ...]:
    return tuple(sorted(means, key=lambda s: -means[s]))


def sessions_needed(
    values: list[dict[str, float]], truth: tuple[str, ...], draws: int, rng: random.Random
) -> tuple[int | None, list[tuple[int, float]]]:
    """The smallest candidate size whose ``draws`` subsets rank the styles as ``truth`` 90% of
    the time (``None``: none up to a quarter of the run), with every size's success share."""
    sizes = [n for n in (5, 10, 20, 30, 50, 75, 100, 150, 200, 300, 400, 600, 800, 1200, 1600)
             if n <= len(values) // 4]  # fmt: skip
    tried: list[tuple[int, float]] = []
    for n in sizes:
        hits = 0
        for _ in range(draws):
            pick = rng.sample(values, n)
            hits += order(means(pick)) == truth
        tried.append((n, hits / draws))
        if hits >= 0.9 * draws:
            return n, tried
    return None, tried


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--sessions", type=int, default=1200)
    ap.add_argument("--players", type=int, default=5, choices=range(2, 11))
    ap.add_argument("--seed", default="luck")
    ap.add_argument("--draws", type=int, default=200)
    args = ap.parse_args(argv)

    t0 = time.perf_counter()
    runs = season(args.sessions, args.players, args.seed)
    took = time.perf_counter() - t0
    raw = [{s: float(v[0]) for s, v in r.items()} for r in runs]
    adj = [{s: float(v[1]) for s, v in r.items()} for r in runs]
    print(
        f"{args.sessions} simulated sessions of {args.players} players (cards: all, default "
        f"rules, the five styles seated in a random order), seed {args.seed!r}, in {took:.0f}s"
    )
    print()
    print("| style | raw net ± SE | adjusted net ± SE | luck ± SE | within 1 SE | SD raw | "
          "SD adjusted | SD ratio |")  # fmt: skip
    print("| --- | ---: | ---: | ---: | :-: | ---: | ---: | ---: |")
    ratios = []
    unbiased = True
    for s in STYLE_NAMES:
        mr, ser, sdr = mean_se([v[s] for v in raw if s in v])
        ma, sea, sda = mean_se([v[s] for v in adj if s in v])
        ml, sel, _ = mean_se([v[s] - w[s] for v, w in zip(raw, adj, strict=True) if s in v])
        within = abs(ma - mr) <= ser
        unbiased &= within
        ratios.append(sda / sdr)
        print(
            f"| {s} | {mr:+.2f} ± {ser:.2f} | {ma:+.2f} ± {sea:.2f} | {ml:+.2f} ± {sel:.2f} | "
            f"{'yes' if within else 'NO'} | {sdr:.1f} | {sda:.1f} | {sda / sdr:.2f} |"
        )
    print()
    worst = max(ratios)
    print(
        f"unbiased (adjusted mean within 1 SE of the raw mean) for every style: "
        f"{'yes' if unbiased else 'NO'}; SD ratio adjusted/raw: at most {worst:.2f} "
        f"(target <= 0.70: {'met' if worst <= 0.7 else 'NOT met'})"
    )

    mean_raw = means(raw)
    mean_adj = means(adj)
    truth = order(mean_adj)
    print(f"the styles' order over all {args.sessions} sessions: {' > '.join(truth)}", end="")
    if order(mean_raw) != truth:
        print(f" (adjusted); raw: {' > '.join(order(mean_raw))}: the true order is not settled")
        return 1
    print(" (raw and adjusted agree)")
    rng = random.Random(f"{args.seed}/draws")
    n_raw, tried_raw = sessions_needed(raw, truth, args.draws, rng)
    n_adj, tried_adj = sessions_needed(adj, truth, args.draws, rng)
    for what, tried in (("raw", tried_raw), ("adjusted", tried_adj)):
        print(f"  {what}: " + ", ".join(f"{n} sessions {p:.0%}" for n, p in tried))
    cap = args.sessions // 4
    raw_text = str(n_raw) if n_raw else f"more than {cap}"
    adj_text = str(n_adj) if n_adj else f"more than {cap}"
    print(f"sessions to rank the five styles correctly 9 times in 10: raw {raw_text}, adjusted "
          f"{adj_text}", end="")  # fmt: skip
    if n_raw and n_adj:
        print(f" (ratio {n_adj / n_raw:.2f}, target <= 0.50: "
              f"{'met' if n_adj <= n_raw / 2 else 'NOT met'})")  # fmt: skip
    elif n_adj and not n_raw:
        print(f" (ratio below {n_adj / cap:.2f}, target <= 0.50: "
              f"{'met' if n_adj <= cap / 2 else 'not shown'})")  # fmt: skip
    else:
        print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
