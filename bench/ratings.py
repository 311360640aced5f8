"""Ratings and the skill meter on simulated clubs whose styles are known (issue 37).

    .venv/bin/python bench/ratings.py [--sessions 8000] [--seed ratings] [--draws 1000]
                                      [--jobs 2] [--meter-seasons 200] [--pool FILE.npz]
                                      [--history H]

One run prints:

1. **Rebuild**: 10,000 sessions of five (a club of 40) written as the projection's rows into an
   in-memory DuckDB, then read and rated from scratch as a correction makes the pages do
   (:func:`~analytics.skill_rows.rated_sessions`, :func:`analytics.ratings.rebuild`): the CPU
   time of this process (DuckDB's threads included; the machine is shared) against the 1 s
   limit, as a ratio (best of 3).
2. **Recovery**: a pool of ``--sessions`` simulated sessions (``cards: "all"``, default rules, the
   five styles of :data:`sim.players.STYLES` seated in a random order each time:
   ``bench/luck.py``'s :func:`~bench.luck.simulate`, in ``--jobs`` processes; ``--pool`` keeps
   it between runs). The true order of the styles is the pool's mean adjusted net per session
   (unbiased, docs/luck.md). Seasons of ``N`` sessions are drawn from the pool with replacement
   (``--draws`` of them for each ``N``, growing by a tenth; the same seasons for every order);
   in each, the styles are ordered by their mean raw net (what a league table shows), by their
   mean adjusted net, by the old ratings (openskill's Plackett-Luce on the places by adjusted
   net, :func:`plackett_luce_batch`) and by the new ones (:func:`gaussian_batch`:
   :func:`analytics.ratings.rebuild` vectorised over the seasons, checked equal to it).
   Printed: the ``N`` at which the order's Spearman correlation with the truth is at least 0.8
   in 9 seasons of 10 (interpolated between candidates), for each, and each against raw; the
   target is ratings <= 0.7 x raw. Then, at raw's ``N`` and at 1,000 sessions, the share of
   good seasons under openskill itself given the margin (:func:`openskill_margin`: ``scores=``
   the adjusted nets, ``margin`` 0, 10 and 50 stake units).
3. **Meter**: a club of 20 (four members of each style); each session seats one member of each
   style at random and takes one pool session's results (the style's true mean plus that
   session's deviation from it, so the per-session spread and the table's zero sum are the
   simulator's). The truth is known: the reliability of a season's means is ``var(T) / (var(T) +
   mean(var(E_i) / n_i))`` (``T`` the members' true means, ``E_i`` a session's deviation, ``n_i``
   a member's sessions), and skill outweighs luck at ``mean(var(E)) / var(T)`` sessions. For
   seasons of several lengths: the mean of :func:`analytics.skill.meter` over ``--meter-seasons``
   seasons against the truth (target within ±0.05), and how often its 95% interval holds it.

Everything is seeded: the same arguments print the same figures.
"""

from __future__ import annotations

import argparse
import itertools
import math
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from openskill.models import PlackettLuce

from analytics.priors import HISTORY
from analytics.ratings import NOISE_START, NOISE_WEIGHT, START, WINNER_RULE, rebuild
from analytics.skill import meter
from analytics.skill_rows import rated_sessions, skill_summary

LIMIT_S = 1.0
TARGET_RATIO = 0.7

MODEL = PlackettLuce(limit_sigma=True)
"""The old ratings (until issue 37 item 3), the baseline: openskill's Plackett-Luce with its
defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300) and ``limit_sigma``, on each session's places
by adjusted net, a player in first place keeping at least the rating they came in with."""


def _played(args: tuple[int, int, str, int]) -> tuple[np.ndarray, np.ndarray]:
    """Sessions ``first`` to ``first + count - 1`` of ``bench/luck.py``'s season at five (each
    seat's tendencies reading ``history`` earlier sessions of its style: ``--history``)."""
    from bench.luck import simulate

    first, count, seed, history = args
    got = simulate(5, count, 0, seed, first, history=history)
    return np.array(got.raw), np.array(got.adj)


def pool(
    sessions: int, seed: str, cache: str | None, jobs: int = 2, history: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """``(raw, adjusted)``: per session and style, stake units (``bench/luck.py``'s
    :func:`~bench.luck.simulate` at five players, in ``jobs`` processes, with ``history``
    earlier sessions a seat), read from ``cache`` when it holds this many sessions of this seed
    and history."""
    if cache and Path(cache).exists():
        got = np.load(cache)
        kept = int(got["history"]) if "history" in got.files else 0
        same = str(got["seed"]) == seed and kept == history
        if same and len(got["raw"]) >= sessions:
            return got["raw"][:sessions], got["adj"][:sessions]
    import multiprocessing

    cuts = np.linspace(0, sessions, jobs + 1).astype(int)
    parts = [(int(a), int(b - a), seed, history) for a, b in itertools.pairwise(cuts)]
    with multiprocessing.Pool(jobs) as workers:
        got = workers.map(_played, parts)
    raw, adj = np.concatenate([g[0] for g in got]), np.concatenate([g[1] for g in got])
    if cache:
        np.savez(cache, raw=raw, adj=adj, seed=seed, history=history)
    return raw, adj


# --- 1. the rebuild -------------------------------------------------------------------------


def rebuild_time(n_sessions: int = 10_000, club: int = 40, seats: int = 5) -> tuple[float, int]:
    """Seconds to read, place and rate ``n_sessions`` sessions of ``seats`` from an in-memory
    projection (best of 3), and the steps rated."""
    import duckdb

    rng = np.random.default_rng(37)
    con = duckdb.connect()
    con.execute(
        "CREATE TABLE sessions (session VARCHAR, started VARCHAR, finished BOOLEAN, "
        "cards VARCHAR, table_key VARCHAR)"
    )
    con.execute(
        "CREATE TABLE player_session_summary (session VARCHAR, player VARCHAR, player_key "
        "VARCHAR, den INTEGER, deals BIGINT, net_t BIGINT, luck_deals BIGINT, luck_net_t "
        "BIGINT, adjusted_net_t BIGINT)"
    )
    con.execute("CREATE VIEW player_names AS SELECT DISTINCT player_key, player FROM "
                "player_session_summary")  # fmt: skip
    ids = [f"s{k:05d}" for k in range(n_sessions)]
    start = np.datetime64("2026-01-01T19:00")
    with tempfile.TemporaryDirectory() as tmp:
        sessions_csv, rows_csv = Path(tmp, "sessions.csv"), Path(tmp, "rows.csv")
        sessions_csv.write_text("".join(
            f"{s},{start + np.timedelta64(k * 37, 'm')}+00:00,true,all,\n"
            for k, s in enumerate(ids)))  # fmt: skip
        lines = []
        for s in ids:
            who = rng.choice(club, seats, replace=False)
            adj = rng.integers(-400, 400, seats)
            adj[-1] = -adj[:-1].sum()
            lines += [f"{s},P{p},p{p},2,40,{a},40,{a},{a}\n" for p, a in zip(who, adj, strict=True)]
        rows_csv.write_text("".join(lines))
        con.execute(f"INSERT INTO sessions SELECT * FROM read_csv('{sessions_csv}', header=false)")
        con.execute(f"INSERT INTO player_session_summary SELECT * FROM read_csv('{rows_csv}', "
                    "header=false)")  # fmt: skip
    best, steps = math.inf, 0
    for _ in range(3):  # CPU seconds of this process: the machine is shared (bench/README.md)
        t0 = time.process_time()
        ratings = rebuild(rated_sessions(con))
        best = min(best, time.process_time() - t0)
        steps = len(ratings.steps)
    t0 = time.process_time()
    skill_summary(con)
    print(f"the Players page's panel over the same projection (skill_summary: figures, "
          f"neighbours, ratings, meter), once: {time.process_time() - t0:.2f} CPU s")  # fmt: skip
    return best, steps


# --- 2. recovery ----------------------------------------------------------------------------


def plackett_luce_batch(
    mu: np.ndarray, sigma: np.ndarray, ranks: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The old ratings' update (openskill's ``PlackettLuce.rate`` with :data:`MODEL`, each
    player a team of one; the fast copy the old ``analytics/ratings.py`` tested equal to it to
    1e-9) for a batch of sessions at once (arrays ``(B, k)``: one session of ``k`` players per
    row), a player in first place keeping at least the ``mu`` they came in with."""
    var = sigma**2 + MODEL.tau**2
    c = np.sqrt(var.sum(axis=1, keepdims=True) + mu.shape[1] * MODEL.beta**2)
    e = np.exp(mu / c)
    below = ranks[:, None, :] >= ranks[:, :, None]  # [b, q, i]: i placed at or below q
    s_q = (e[:, None, :] * below).sum(axis=2)  # [b, q]
    a_q = (ranks[:, None, :] == ranks[:, :, None]).sum(axis=2)  # [b, q]
    above = ranks[:, None, :] <= ranks[:, :, None]  # [b, i, q]: q placed at or above i
    t = e[:, :, None] / s_q[:, None, :]  # [b, i, q]
    eye = np.eye(mu.shape[1], dtype=bool)[None]
    omega = (above * (eye - t) / a_q[:, None, :]).sum(axis=2)
    delta = (above * t * (1 - t) / a_q[:, None, :]).sum(axis=2)
    sd = np.sqrt(var)
    delta = delta * var / c**2 * (sd / c)
    new_mu = mu + var / c * omega
    new_mu = np.where(ranks == 1, np.maximum(new_mu, mu), new_mu)
    new_sigma = np.minimum(sd * np.sqrt(np.maximum(1 - delta, MODEL.kappa)), sigma)
    return new_mu, new_sigma


def ranks_of(values: np.ndarray) -> np.ndarray:
    """Places (1 best, ties share) along the last axis."""
    return 1 + (values[..., None, :] > values[..., :, None]).sum(axis=-1)


def spearman(orders: np.ndarray, truth: np.ndarray) -> np.ndarray:
    """Spearman's correlation of each row of scores with the ``truth`` scores (no ties)."""
    k = truth.shape[0]
    r_true = np.argsort(np.argsort(-truth))
    r = np.argsort(np.argsort(-orders, axis=1, kind="stable"), axis=1)
    return 1 - 6 * ((r - r_true) ** 2).sum(axis=1) / (k * (k * k - 1))


def gaussian_batch(adj: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`analytics.ratings.rebuild` for a batch of seasons at once (``adj``: ``(B, n, k)``,
    season, session, style; every style at every table): the ``(mu, sigma)`` after the seasons,
    with the noise's running estimate and :data:`analytics.ratings.WINNER_RULE`."""
    b, n, k = adj.shape
    mu = np.full((b, k), START[0])
    var = np.full((b, k), START[1] ** 2)
    squares = np.full(b, NOISE_START**2 * NOISE_WEIGHT)
    rows = float(NOISE_WEIGHT)
    for j in range(n):
        y = adj[:, j]
        noise2 = (squares / rows)[:, None]
        predicted = mu - (mu.sum(axis=1, keepdims=True) - mu) / (k - 1)
        gain = var / (var + (var.sum(axis=1, keepdims=True) - var) / (k - 1) ** 2 + noise2)
        new = mu + gain * (y - predicted)
        first = y == y.max(axis=1, keepdims=True)
        mu = np.where((y > 0) | first, np.maximum(new, mu), new)
        var = var * (1 - gain)
        squares += (y * y).sum(axis=1)
        rows += k
    return mu, np.sqrt(var)


def plackett_luce_seasons(adj: np.ndarray) -> np.ndarray:
    """The old ratings' ``mu`` after each season of ``adj`` (``(B, n, k)``)."""
    mu = np.full((adj.shape[0], adj.shape[2]), MODEL.mu)
    sigma = np.full((adj.shape[0], adj.shape[2]), MODEL.sigma)
    for j in range(adj.shape[1]):
        mu, sigma = plackett_luce_batch(mu, sigma, ranks_of(adj[:, j]))
    return mu


ORDERS = {
    "raw": "mean raw net (a league table)",
    "adjusted": "mean luck-adjusted net",
    "places": "old rating (Plackett-Luce on places)",
    "ratings": "new rating (Gaussian on adjusted net)",
}


def recovered(raw: np.ndarray, adj: np.ndarray, truth: np.ndarray, n: int, draws: int,
              rng: np.random.Generator, want: set[str] | None = None
              ) -> dict[str, float]:  # fmt: skip
    """For seasons of ``n`` sessions drawn from the pool: the share of ``draws`` whose order has
    Spearman >= 0.8 with ``truth``, for each of :data:`ORDERS` (those in ``want``)."""
    want = set(ORDERS) if want is None else want
    idx = rng.integers(0, len(raw), (draws, n))
    scores = {
        "raw": lambda: raw[idx].mean(axis=1),
        "adjusted": lambda: adj[idx].mean(axis=1),
        "places": lambda: plackett_luce_seasons(adj[idx]),
        "ratings": lambda: gaussian_batch(adj[idx])[0],
    }
    return {k: float((spearman(scores[k](), truth) >= 0.8).mean()) for k in ORDERS if k in want}


def needed(raw: np.ndarray, adj: np.ndarray, truth: np.ndarray, draws: int, seed: int,
           cap: int = 5_000, places_cap: int = 1_500) -> dict[str, float | None]:  # fmt: skip
    """The season length at which each order has Spearman >= 0.8 in 9 seasons of 10: candidates
    from 5, growing by a tenth, each drawing the same ``draws`` seasons for every order; the
    first candidate whose share reaches 0.9, interpolated linearly from the one before it
    (``None`` past ``cap``; the old ratings are given up past ``places_cap``, being far off)."""
    out: dict[str, float | None] = dict.fromkeys(ORDERS)
    last: dict[str, tuple[int, float]] = {}
    n = 5
    while n <= cap:
        left = {k for k, v in out.items() if v is None and (k != "places" or n <= places_cap)}
        if not left:
            break
        got = recovered(raw, adj, truth, n, draws, np.random.default_rng([seed, n]), left)
        for k, share in got.items():
            if share >= 0.9:
                n0, s0 = last.get(k, (n, share))
                out[k] = n0 + (n - n0) * (0.9 - s0) / (share - s0) if share > s0 else float(n)
            last[k] = (n, share)
        n = math.ceil(n * 1.1)
    return out


def openskill_margin(adj: np.ndarray, truth: np.ndarray, n: int, margin: float, draws: int = 200,
                     seed: int = 5) -> float:  # fmt: skip
    """The share of ``draws`` seasons of ``n`` sessions whose order has Spearman >= 0.8 with
    ``truth`` under openskill itself given the margin: ``PlackettLuce(limit_sigma=True,
    margin=margin).rate(..., scores=adjusted nets)`` (about 65 µs a session: few seasons)."""
    model = PlackettLuce(limit_sigma=True, margin=margin)
    idx = np.random.default_rng([seed, n]).integers(0, len(adj), (draws, n))
    out = np.zeros((draws, adj.shape[1]))
    for b in range(draws):
        r = [model.rating() for _ in range(adj.shape[1])]
        for j in idx[b]:
            r = [t[0] for t in model.rate([[x] for x in r], scores=[float(v) for v in adj[j]])]
        out[b] = [x.mu for x in r]
    return float((spearman(out, truth) >= 0.8).mean())


def same_as_the_library(adj: np.ndarray) -> float:
    """The largest difference between :func:`gaussian_batch` and
    :func:`analytics.ratings.rebuild` on one season of ``adj`` (``(n, k)``)."""
    mu, sigma = gaussian_batch(adj[None])
    got = rebuild([(f"s{j}", [(str(i), float(y)) for i, y in enumerate(row)])
                   for j, row in enumerate(adj)])  # fmt: skip
    now = {r.player: (r.mu, r.sigma) for r in got.now}
    return max(max(abs(now[str(i)][0] - mu[0, i]), abs(now[str(i)][1] - sigma[0, i]))
               for i in range(adj.shape[1]))  # fmt: skip


# --- 3. the meter ---------------------------------------------------------------------------


def club_season(adj: np.ndarray, truth: np.ndarray, sessions: int, rng: np.random.Generator,
                copies: int = 4) -> tuple[dict[str, list[float]], float, float]:  # fmt: skip
    """A season of ``sessions`` at a club of ``copies`` members per style (module doc): each
    member's adjusted nets in order, the true reliability of its means, and the true sessions
    until skill outweighs luck."""
    k = adj.shape[1]
    dev = adj - truth  # each pool session's deviation of each style from its true mean
    var_e = dev.var(axis=0)
    picks = rng.integers(0, len(adj), sessions)
    seat = rng.integers(0, copies, (sessions, k))
    values: dict[str, list[float]] = {f"{s}.{c}": [] for s in range(k) for c in range(copies)}
    for j in range(sessions):
        for s in range(k):
            values[f"{s}.{seat[j, s]}"].append(float(truth[s] + dev[picks[j], s]))
    true_means = np.repeat(truth, copies)
    var_t = float(true_means.var())
    counts = np.array([len(values[f"{s}.{c}"]) for s in range(k) for c in range(copies)])
    err = float((np.repeat(var_e, copies) / counts).mean())
    return values, var_t / (var_t + err), float(var_e.mean() / var_t)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--sessions", type=int, default=8000, help="simulated sessions in the pool")
    ap.add_argument("--jobs", type=int, default=2, help="processes simulating the pool")
    ap.add_argument("--seed", default="ratings")
    ap.add_argument("--draws", type=int, default=1000, help="seasons drawn for each length")
    ap.add_argument("--meter-seasons", type=int, default=200, help="seasons for each length")
    ap.add_argument("--pool", help="an .npz to keep the simulated pool in between runs")
    ap.add_argument(
        "--history",
        type=int,
        default=HISTORY,
        help="earlier sessions of its style each seat's tendencies read (bench/luck_history.py): "
        f"by default {HISTORY}, a regular, as the product reads a player's latest earlier "
        "sessions (analytics/priors.py); 0, each session alone",
    )
    args = ap.parse_args(argv)

    took, steps = rebuild_time()
    print(f"rebuild: 10,000 sessions of 5 ({steps:,} ratings) read from the projection and rated "
          f"in {took:.3f} CPU s; ratio to the {LIMIT_S:.0f}s limit {took / LIMIT_S:.2f} "
          f"({'met' if took <= LIMIT_S else 'NOT met'})")  # fmt: skip
    print(f"winner rule: {WINNER_RULE}")

    t0 = time.perf_counter()
    raw, adj = pool(args.sessions, args.seed, args.pool, args.jobs, args.history)
    truth = adj.mean(axis=0)
    from bench.luck import STYLE_NAMES

    order = " > ".join(STYLE_NAMES[i] for i in np.argsort(-truth))
    se = adj.std(axis=0, ddof=1) / math.sqrt(len(adj))
    print()
    print(f"## pool: {len(adj)} simulated sessions of the five styles, seed {args.seed!r} "
          f"({args.history} earlier sessions a seat; {time.perf_counter() - t0:.0f}s)")  # fmt: skip
    print("true order (mean adjusted net per session ± SE): " + ", ".join(
        f"{STYLE_NAMES[i]} {truth[i]:+.1f} ± {se[i]:.1f}" for i in np.argsort(-truth)))  # fmt: skip
    print(f"  {order}")
    print(f"per-session SD, stake units: raw {raw.std():.1f}, adjusted {adj.std():.1f}; the "
          f"batch rating equals analytics.ratings.rebuild on 500 pool sessions to "
          f"{same_as_the_library(adj[:500]):.1e}")  # fmt: skip
    t0 = time.perf_counter()
    got = needed(raw, adj, truth, args.draws, seed=1)
    print(f"sessions for Spearman >= 0.8 with the true order in 9 seasons of 10 "
          f"({args.draws} seasons each, candidates 10% apart, interpolated, the same seasons "
          f"for each order; {time.perf_counter() - t0:.0f}s):")  # fmt: skip
    for k, what in ORDERS.items():
        n = got[k]
        ratio = f"{n / got['raw']:.2f} x raw" if n and got["raw"] else ""
        shown = f"{n:,.0f}" if n else f"more than {1_500 if k == 'places' else 5_000:,}"
        print(f"  {what:40} {shown:>16} {ratio}")
    places = ranks_of(adj)
    print("  the old ratings learn the order of places, not of nets: per style, mean place by "
          "adjusted net and share of first places: " + ", ".join(
              f"{STYLE_NAMES[i]} {places[:, i].mean():.2f} ({(places[:, i] == 1).mean():.0%})"
              for i in np.argsort(-truth)))  # fmt: skip
    if got["raw"]:
        at = round(got["raw"])
        shares = recovered(raw, adj, truth, at, 4 * args.draws, np.random.default_rng([7, at]),
                           {"raw", "adjusted", "ratings"})  # fmt: skip
        print(
            f"  finer, at {at} sessions ({4 * args.draws} seasons, the same for each): share "
            "with Spearman >= 0.8: " + ", ".join(f"{k} {v:.1%}" for k, v in shares.items())
        )
        shown = [
            f"margin {m:g}: {openskill_margin(adj, truth, at, m):.0%} ({at}), "
            f"{openskill_margin(adj, truth, 1000, m):.0%} (1,000)"
            for m in (0, 10, 50)
        ]
        print(
            "  openskill given the margin (scores= the adjusted nets, 200 seasons), share with "
            "Spearman >= 0.8 at " + ", ".join(shown)
        )
    if got["raw"] and got["ratings"]:
        ratio = got["ratings"] / got["raw"]
        print(f"  new ratings / raw = {ratio:.2f} (target <= {TARGET_RATIO}: "
              f"{'met' if ratio <= TARGET_RATIO else 'NOT met'})")  # fmt: skip

    print()
    print("## meter: a club of 20 (four of each style), seasons of S sessions; the truth known")
    print("| S | sessions per member | true reliability | meter mean ± SD | error | interval holds "
          "the truth | sessions to outweigh luck: true, meter median |")  # fmt: skip
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    rng = np.random.default_rng([2, *args.seed.encode()])
    within = True
    seasons = args.meter_seasons
    for s in (40, 100, 250, 1000):
        est, held, outs, truths = [], 0, [], []
        true_out = 0.0
        for _ in range(seasons):
            values, true_r, true_out = club_season(adj, truth, s, rng)
            m = meter(values, draws=200, seed=len(est))
            if m is None:
                continue
            est.append(m.reliability)
            truths.append(true_r)
            held += m.low <= true_r <= m.high
            outs.append(m.outweigh if m.outweigh is not None else math.inf)
        err = float(np.mean(est) - np.mean(truths))
        within &= abs(err) <= 0.05
        print(f"| {s:,} | {s * 5 / 20:.0f} | {np.mean(truths):.3f} | {np.mean(est):.3f} ± "
              f"{np.std(est):.3f} | {err:+.3f} | {held / len(est):.0%} | {true_out:,.0f}, "
              f"{np.median(outs):,.0f} |")  # fmt: skip
    print(f"meter within ±0.05 of the truth at every season length: {'yes' if within else 'NO'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
