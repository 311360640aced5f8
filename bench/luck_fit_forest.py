"""The forest value of a fresh deal (``analytics/luck_forest.py``), fitted once offline.

    .venv/bin/python -m pip install -e '.[fit]'     # scikit-learn: the fit only, not the product
    .venv/bin/python bench/luck_fit_forest.py [--sizes 2,3,4,5] [--sessions 8000] [--jobs 2]

The stored forests: two to five players with ``--sessions 10000``, six and seven with
``--sessions 5000`` (the file's ``fits`` says each size's arguments).

For each table size of ``--sizes``, simulates ``--sessions`` sessions (``cards: "all"``, default
rules, the styles of :data:`sim.players.STYLES` seated at random as ``bench/luck.py`` seats them,
on the seed ``--seed``, which ``bench/luck.py`` never uses) and, for each seat of each fresh deal
(RULES 3.2), takes the product's features of the deal as dealt
(:func:`analytics.luck_forest.features`: the seat's posterior over the styles from the deals
before, as :class:`analytics.luck.LuckTracker` has it) and the seat's net in the deal (stake
units). It fits scikit-learn's ``HistGradientBoostingRegressor`` (squared error, ``--trees``
trees of depth ``--depth``, learning rate ``--rate``, at least 200 seat-deals a leaf) on the
first three quarters of the sessions, and prints on the last quarter the share of a fresh
deal's net variance the product's term (:func:`analytics.luck_forest.forest_units`) removes.

The trees are written to ``analytics/luck_forest.json`` as full binary trees with integer
thresholds (every feature is an integer: ``x <= t`` is ``x <= floor(t)``) and integer leaves in
units of ``2**-20`` stake (the sizes not fitted again are kept); the script checks that the
stored forest gives scikit-learn's predictions within the leaves' rounding. Run it again only
to refit (then the projection's schema version goes up: every fresh deal's term changes).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import sys
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # not bench/analytics.py

from analytics.luck_forest import FOREST, LEAF, Forest, features, forest_units, hand_places
from analytics.tendencies import ACTION_TYPES, Tendencies
from engine.apply import apply
from engine.state import initial_state
from sim.players import STYLES
from sim.table import SessionSpec, play

NAMES = tuple(sorted(STYLES))
MIN_LEAF = 200


def session_rows(players: int, seed: str, k: int) -> list[tuple[Any, ...]]:
    """Each fresh deal of session ``k``: (hands, weights, dealer, nets), stake units as floats."""
    rng = random.Random(f"{seed}/{players}/{k}")
    styles = rng.sample(NAMES, min(players, len(NAMES)))
    styles += [rng.choice(NAMES) for _ in range(players - len(styles))]  # as bench/luck.py
    rng.shuffle(styles)
    spec = SessionSpec(
        f"fit-{k}", tuple((f"P{i}", s) for i, s in enumerate(styles)), f"{seed}/{players}/{k}"
    )
    state, since, seen = initial_state(), set[int](), Tendencies()
    out: list[tuple[Any, ...]] = []
    pending = None
    for e in play(spec):
        before, state = state, apply(state, e)
        if e.type in ACTION_TYPES:  # as LuckTracker.acted
            who: str = e.player  # type: ignore[union-attr]  # every action names its player
            seen.acted(e.type, who, before.players[before.seat(who)].seen)
        if e.type == "shuffled":
            since.clear()
        elif e.type == "dealt":
            seen.dealt(state.seats)  # as LuckTracker.dealt
            hands = [next(h.cards for h in p.hands if h.origin == "new") for p in state.players]
            cards = {c for h in hands if h is not None for c in h}
            pending = None
            if since.isdisjoint(cards):
                pending = (hands, seen.weights(), state.dealer)
            since |= cards
        if len(state.outcomes) > len(before.outcomes):
            if pending is not None:
                o = state.outcomes[-1]
                nets = [
                    float((o.amount if o.winner == p.name else 0) - Fraction(p.paid, state.scale))
                    for p in state.players
                ]
                out.append((*pending, nets))
            pending = None
    return out


def _rows(args: tuple[int, str, int]) -> list[tuple[Any, ...]]:
    return session_rows(*args)


def design(deals: list[tuple[Any, ...]]) -> tuple[np.ndarray, np.ndarray]:
    """The features of each seat of each deal as dealt, and the seats' nets."""
    xs, ys = [], []
    for hands, weights, dealer, nets in deals:
        n = len(hands)
        places = np.array([(s - dealer - 1) % n for s in range(n)], dtype=np.int64)
        xs.append(features(places, hand_places(hands)[None, :], np.asarray(weights)))
        ys.extend(nets)
    return np.concatenate(xs), np.asarray(ys)


def _tree(nodes: Any, depth: int) -> tuple[list[int], list[int], list[int]]:
    """One scikit-learn tree (its ``nodes`` array) as a full binary tree of ``depth``: each inner
    place's feature and integer threshold, each leaf's value in ``1 / LEAF`` stake units."""
    inner, leaves = (1 << depth) - 1, 1 << depth
    f, t, v = [0] * inner, [0] * inner, [0] * leaves

    def fill_inner(at: int, level: int) -> None:
        if level >= depth:
            return
        f[at], t[at] = 0, 2**62  # any row goes left (x <= t)
        fill_inner(2 * at + 1, level + 1)
        fill_inner(2 * at + 2, level + 1)

    def fill(node: int, at: int, level: int) -> None:
        nd = nodes[node]
        if level == depth and not nd["is_leaf"]:
            raise ValueError(f"a node below depth {depth}: fit with max_depth={depth}")
        if nd["is_leaf"]:
            span = 1 << (depth - level)  # a shallow leaf fills every leaf below its place
            first = (at - ((1 << level) - 1)) * span
            v[first : first + span] = [round(float(nd["value"]) * LEAF)] * span
            fill_inner(at, level)  # and its inner places send every row left
            return
        f[at] = int(nd["feature_idx"])
        t[at] = math.floor(float(nd["num_threshold"]))
        fill(int(nd["left"]), 2 * at + 1, level + 1)
        fill(int(nd["right"]), 2 * at + 2, level + 1)

    fill(0, 0, 0)
    return f, t, v


def export(model: Any, depth: int, width: int) -> dict[str, Any]:
    """A fitted ``HistGradientBoostingRegressor`` as full binary trees of ``depth`` (integers)."""
    trees = [_tree(tree.nodes, depth) for (tree,) in model._predictors]
    base = round(float(np.ravel(model._baseline_prediction)[0]) * LEAF)
    return {
        "depth": depth,
        "features": width,
        "base": base,
        "feature": [f for f, _, _ in trees],
        "threshold": [t for _, t, _ in trees],
        "leaf": [v for _, _, v in trees],
    }


def fit(players: int, args: argparse.Namespace) -> dict[str, Any]:
    from sklearn.ensemble import HistGradientBoostingRegressor

    started = time.perf_counter()
    with multiprocessing.Pool(args.jobs) as pool:
        got = pool.map(_rows, [(players, args.seed, k) for k in range(args.sessions)], chunksize=20)
    cut = args.sessions * 3 // 4
    train = [d for k in range(cut) for d in got[k]]
    test = [d for k in range(cut, args.sessions) for d in got[k]]
    x, y = design(train)
    model = HistGradientBoostingRegressor(
        max_iter=args.trees,
        max_depth=args.depth,
        max_leaf_nodes=None,
        learning_rate=args.rate,
        min_samples_leaf=MIN_LEAF,
        early_stopping=False,
        random_state=0,
    ).fit(x, y)
    doc = export(model, args.depth, x.shape[1])
    stored = Forest(doc).predict(x[:5000]) / LEAF
    gap = float(np.abs(stored - model.predict(x[:5000])).max())
    assert gap <= args.trees / LEAF, f"the stored forest differs from scikit-learn's by {gap}"
    print(
        f"{players} players: {len(train)} fresh deals fitted, {len(test)} held out,"
        f" {time.perf_counter() - started:.0f} s; stored forest within {gap:.1e} of scikit-learn"
    )
    return doc


def held_out(players: int, args: argparse.Namespace) -> None:
    """The share of a fresh deal's net variance the stored term removes on the held-out
    quarter (the forests just written)."""
    with multiprocessing.Pool(args.jobs) as pool:
        got = pool.map(
            _rows, [(players, args.seed, k) for k in range(args.sessions * 3 // 4, args.sessions)]
        )
    nets, terms = [], []
    for deals in got:
        for hands, weights, dealer, net in deals:
            units = forest_units(hands, weights, dealer)
            assert units is not None
            nets.extend(net)
            terms.extend(float(u) for u in units)
    a, b = np.asarray(nets), np.asarray(terms)
    print(
        f"{players} players, held out: the term removes {1 - np.var(a - b) / np.var(a):.1%} of a"
        f" fresh deal's net variance ({len(a)} seat-deals; mean term {b.mean():+.3f})"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--sizes", default="2,3,4,5", help="table sizes (RULES 1.3)")
    ap.add_argument("--sessions", type=int, default=8000)
    ap.add_argument("--trees", type=int, default=300)
    ap.add_argument("--depth", type=int, default=6)
    ap.add_argument("--rate", type=float, default=0.05)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", default="fit-forest")
    args = ap.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    old = json.loads(FOREST.read_text()) if FOREST.exists() else {}
    how = (
        f"--sessions {args.sessions} --trees {args.trees} --depth {args.depth}"
        f" --rate {args.rate} --seed {args.seed}"
    )
    fitted = {**old.get("sizes", {}), **{str(n): fit(n, args) for n in sizes}}
    fits = {**old.get("fits", {}), **{str(n): how for n in sizes}}
    doc = {
        "about": (
            "Per table size, regression trees (full binary, depth 'depth'; node k's children"
            " 2k+1 when feature <= threshold, else 2k+2) whose leaves and base are whole 2**-20"
            " stake units: the expected net of a seat in a fresh deal from the features of"
            " analytics/luck_forest.py. Fitted by bench/luck_fit_forest.py --sizes N with the"
            " arguments of 'fits' for each size (scikit-learn's HistGradientBoostingRegressor,"
            f" squared error, at least {MIN_LEAF} seat-deals a leaf, the first three quarters of"
            " the sessions; default rules, the styles of sim/players.py seated at random, some"
            " twice above five players); a size not fitted again is kept."
        ),
        "fits": dict(sorted(fits.items(), key=lambda kv: int(kv[0]))),
        "sizes": dict(sorted(fitted.items(), key=lambda kv: int(kv[0]))),
    }
    FOREST.write_text(json.dumps(doc, separators=(",", ":")) + "\n")
    print(f"wrote {FOREST} ({FOREST.stat().st_size / 1e6:.1f} MB)")
    from analytics import luck_forest

    luck_forest._doc.cache_clear()
    luck_forest.forest.cache_clear()
    for n in sizes:
        held_out(n, args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
