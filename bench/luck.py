"""The luck-adjusted net on simulated seasons where each style's skill is known.

    .venv/bin/python bench/luck.py [--sessions 800] [--players 5,2] [--seed luck] [--draws 400]

For each table size of ``--players``, simulates ``--sessions`` sessions in process (``cards:
"all"``, default rules), each seating the five styles of :data:`sim.players.STYLES` in a random
order (at fewer than five seats, a random few of them; at more, the extra seats drawn at random),
and folds every session through the projector's own :class:`analytics.facts.SessionFolder`, so the
nets and luck terms are the ``player_deals`` columns ``net_t``, ``luck_t`` and ``adjusted_net_t``.
A style's result in a session is the sum over its seats. It prints, in one run:

- per style, the mean raw net and the mean luck-adjusted net per session with their standard
  errors, and the mean luck term with its own: **unbiased** when the adjusted mean is within one
  standard error of the raw mean (their difference is the mean luck term, expected 0);
- per style, the per-session standard deviation of the adjusted net over the raw one's (target
  at most 0.7), and the same over all styles' sessions pooled;
- the sessions needed to rank the five styles correctly 9 times in 10, raw against adjusted
  (target: adjusted needs at most half). The styles' true means are taken as the run's adjusted
  means (unbiased, the smaller error); both the raw and the adjusted sessions are shifted to
  those means (keeping their own spread and correlations), and for each candidate number of
  sessions, ``--draws`` seasons of that many are drawn from the run with replacement (a
  bootstrap) and ranked. The candidates grow by a quarter, so the figures are within 25%.

Everything is seeded: the same arguments print the same figures.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from fractions import Fraction
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # not bench/analytics.py

from analytics.facts import Rows, SessionFolder
from sim.players import STYLES
from sim.table import SessionSpec, simulate

STYLE_NAMES = tuple(sorted(STYLES))


def season(sessions: int, players: int, seed: str) -> tuple[np.ndarray, np.ndarray]:
    """Per session (rows) and style (columns, :data:`STYLE_NAMES`): the raw and the adjusted
    net in stake units, summed over the style's seats; NaN where the style did not sit."""
    raw = np.full((sessions, len(STYLE_NAMES)), np.nan)
    adj = np.full((sessions, len(STYLE_NAMES)), np.nan)
    for k in range(sessions):
        rng = random.Random(f"{seed}/{players}/{k}")
        styles = rng.sample(STYLE_NAMES, min(players, len(STYLE_NAMES)))
        styles += [rng.choice(STYLE_NAMES) for _ in range(players - len(styles))]
        rng.shuffle(styles)
        seats = tuple((f"P{i}", s) for i, s in enumerate(styles))
        spec = SessionSpec(session=f"luck-{k}", seats=seats, seed=f"{seed}/{players}/{k}")
        folder = SessionFolder(spec.session)
        rows = Rows()
        for n, event in enumerate(simulate(spec), start=1):
            folder.apply(n, n, event, rows)
        pd = rows.player_deals
        for s in set(styles):
            raw[k, STYLE_NAMES.index(s)] = adj[k, STYLE_NAMES.index(s)] = 0.0
        for seat, net, adjusted, den in zip(
            pd["seat"], pd["net_t"], pd["adjusted_net_t"], pd["den"], strict=True
        ):
            assert adjusted is not None, "a cards: all session has every luck term"
            col = STYLE_NAMES.index(styles[seat])
            raw[k, col] += float(Fraction(net, den))
            adj[k, col] += float(Fraction(adjusted, den))
    return raw, adj


def success(
    values: np.ndarray, truth: np.ndarray, n: int, draws: int, rng: np.random.Generator
) -> float:
    """The share of ``draws`` bootstrap seasons of ``n`` sessions whose styles' means rank as
    ``truth`` (style indices, best first)."""
    hits = 0
    chunk = max(1, 2_000_000 // (n * values.shape[1]))
    filled = np.nan_to_num(values)
    present = (~np.isnan(values)).astype(float)
    for start in range(0, draws, chunk):
        m = min(chunk, draws - start)
        idx = rng.integers(0, len(values), (m, n))
        sums = filled[idx].sum(axis=1)
        counts = present[idx].sum(axis=1)
        means = np.where(counts > 0, sums / np.maximum(counts, 1), -np.inf)
        hits += int((np.argsort(-means, axis=1, kind="stable") == truth).all(axis=1).sum())
    return hits / draws


def sessions_needed(
    values: np.ndarray, mu: np.ndarray, draws: int, rng: np.random.Generator, cap: int = 200_000
) -> int | None:
    """The smallest candidate number of sessions ranking the styles as ``mu`` 9 times in 10."""
    shifted = values - np.nanmean(values, axis=0) + mu
    truth = np.argsort(-mu, kind="stable")
    n = 5
    while n <= cap:
        if success(shifted, truth, n, draws, rng) >= 0.9:
            return n
        n = math.ceil(n * 1.25)
    return None


def report(players: int, sessions: int, seed: str, draws: int) -> dict[str, bool]:
    """Simulates and prints one table size's figures; returns which targets were met."""
    t0 = time.perf_counter()
    raw, adj = season(sessions, players, seed)
    took = time.perf_counter() - t0
    print(
        f"## {sessions} sessions of {players} players (cards: all, default rules, styles "
        f"seated at random), seed {seed!r}: simulated and folded in {took:.0f}s"
    )
    print()
    print("| style | sessions | raw net ± SE | adjusted net ± SE | luck ± SE | within 1 SE | "
          "SD raw | SD adjusted | SD ratio |")  # fmt: skip
    print("| --- | ---: | ---: | ---: | ---: | :-: | ---: | ---: | ---: |")
    unbiased, ratios = True, []
    for col, s in enumerate(STYLE_NAMES):
        r = raw[:, col][~np.isnan(raw[:, col])]
        a = adj[:, col][~np.isnan(adj[:, col])]
        n = len(r)
        se_r, se_a, se_l = (float(np.std(x, ddof=1)) / math.sqrt(n) for x in (r, a, r - a))
        within = abs(a.mean() - r.mean()) <= se_r
        unbiased &= bool(within)
        ratio = float(np.std(a, ddof=1) / np.std(r, ddof=1))
        ratios.append(ratio)
        print(
            f"| {s} | {n} | {r.mean():+.2f} ± {se_r:.2f} | {a.mean():+.2f} ± {se_a:.2f} | "
            f"{(r - a).mean():+.2f} ± {se_l:.2f} | {'yes' if within else 'NO'} | "
            f"{np.std(r, ddof=1):.1f} | {np.std(a, ddof=1):.1f} | {ratio:.2f} |"
        )
    pooled = float(np.nanstd(adj - np.nanmean(adj, 0)) / np.nanstd(raw - np.nanmean(raw, 0)))
    print()
    print(
        f"unbiased (adjusted mean within 1 SE of the raw mean) for every style: "
        f"{'yes' if unbiased else 'NO'}; per-session SD ratio adjusted/raw: {min(ratios):.2f} to "
        f"{max(ratios):.2f} by style, {pooled:.2f} pooled (target <= 0.70: "
        f"{'met' if max(ratios) <= 0.7 else 'NOT met'})"
    )
    mu = np.nanmean(adj, axis=0)
    order = " > ".join(STYLE_NAMES[i] for i in np.argsort(-mu, kind="stable"))
    rng = np.random.default_rng([players, *seed.encode()])
    n_raw = sessions_needed(raw, mu, draws, rng)
    n_adj = sessions_needed(adj, mu, draws, rng)
    print(f"the styles' order (the run's adjusted means): {order}")

    def text(n: int | None) -> str:
        return f"about {n:,}" if n else "more than 200,000"

    halved = bool(n_raw and n_adj and n_adj <= n_raw / 2)
    ratio_text = f" (ratio {n_adj / n_raw:.2f}" if n_raw and n_adj else " ("
    print(
        f"sessions to rank the five styles correctly 9 times in 10: raw {text(n_raw)}, adjusted "
        f"{text(n_adj)}{ratio_text}, target <= 0.50: {'met' if halved else 'NOT met'})"
    )
    print()
    return {"unbiased": unbiased, "sd": max(ratios) <= 0.7, "sessions": halved}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--sessions", type=int, default=800)
    ap.add_argument("--players", default="5,2", help="table sizes, 2 to 10, comma-separated")
    ap.add_argument("--seed", default="luck")
    ap.add_argument("--draws", type=int, default=400)
    args = ap.parse_args(argv)
    sizes = [int(x) for x in args.players.split(",")]
    if not all(2 <= n <= 10 for n in sizes):
        ap.error("--players: table sizes from 2 to 10 (RULES 1.3)")
    for n in sizes:
        report(n, args.sessions, args.seed, args.draws)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
