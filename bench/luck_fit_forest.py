"""The forest value of a fresh deal (``analytics/luck_forest.py``), fitted once offline.

    .venv/bin/python -m pip install -e '.[fit]'     # scikit-learn: the fit only, not the product
    .venv/bin/python bench/luck_fit_forest.py [--sizes 2,3,4,5] [--sessions 8000] [--jobs 2]

The stored forests (2026-12-07): ``--sessions 40000 --depth 10 --leaf 100 --history 10`` from
two to five players (300 trees at ``--rate 0.1``; heads-up 600 at 0.05), ``--sessions 30000``
at six and seven (the file's ``fits`` says each size's arguments). It prints, on the held-out
quarter, the share the new forest takes and the share the forest it replaced takes of the same
deals.

For each table size of ``--sizes``, simulates ``--sessions`` sessions (``cards: "all"``, default
rules, the styles of :data:`sim.players.STYLES` seated at random as ``bench/luck.py`` seats them,
on the seed ``--seed``, which ``bench/luck.py`` never uses) and, for each seat of each fresh deal
(RULES 3.2), takes the product's features of the deal as dealt
(:func:`analytics.luck_forest.features`: the seat's posterior over the styles from the deals
before and from 0 to ``--history`` earlier sessions of its style, as
:class:`analytics.luck.LuckTracker` has it at a club of newcomers and regulars) and the seat's
net in the deal (stake units). It fits scikit-learn's ``HistGradientBoostingRegressor`` (squared
error, ``--trees`` trees of depth ``--depth``, learning rate ``--rate``, at least ``--leaf``
seat-deals a leaf) on the first three quarters of the sessions, and prints on the last quarter
the share of a fresh deal's net variance the product's term
(:func:`analytics.luck_forest.forest_units`) removes.

The trees are written to ``analytics/luck_forest.json.gz`` node by node
(:class:`analytics.luck_forest.Forest`) with integer thresholds (every feature is an integer:
``x <= t`` is ``x <= floor(t)``) and integer leaves in units of ``2**-20`` stake (the sizes not
fitted again are kept, in this form); the script checks that the
stored forest gives scikit-learn's predictions within the leaves' rounding. Run it again only
to refit (then the projection's schema version goes up: every fresh deal's term changes).
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import multiprocessing
import random
import sys
import time
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # not bench/analytics.py

from analytics.luck_forest import (
    FOREST,
    LEAF,
    NODE_ARRAYS,
    Forest,
    features,
    forest_units,
    hand_places,
    stored,
)
from analytics.priors import HISTORY
from analytics.tendencies import ACTION_TYPES, Tendencies
from bench.luck_history import history_pool
from engine.apply import apply
from engine.state import initial_state
from sim.players import STYLES
from sim.table import SessionSpec, play

NAMES = tuple(sorted(STYLES))


def earlier(players: int, seed: str, k: int, seats: Any, history: int) -> dict[str, Counter[str]]:
    """Each seat's prior (:class:`analytics.tendencies.Tendencies`): the signature counts of
    ``h`` earlier player-sessions of its style (:func:`bench.luck_history.history_pool`, on this
    fit's seed), ``h`` drawn for each seat from 0 (a newcomer) to ``history`` (a regular: the
    product reads the latest :data:`analytics.priors.HISTORY`), so the forest learns from
    posteriors as the projection has them at a club of both."""
    if not history:
        return {}
    draw = random.Random(f"{seed}/history-draw/{players}/{k}")
    pool = history_pool(players, seed)
    out = {}
    for name, style in seats:
        h = draw.randint(0, history)
        out[name] = sum((draw.choice(pool[style]) for _ in range(h)), Counter[str]())
    return out


def session_rows(players: int, seed: str, k: int, history: int = 0) -> list[tuple[Any, ...]]:
    """Each fresh deal of session ``k``: (hands, weights, dealer, nets), stake units as floats
    (each seat's tendencies reading :func:`earlier` sessions)."""
    rng = random.Random(f"{seed}/{players}/{k}")
    styles = rng.sample(NAMES, min(players, len(NAMES)))
    styles += [rng.choice(NAMES) for _ in range(players - len(styles))]  # as bench/luck.py
    rng.shuffle(styles)
    spec = SessionSpec(
        f"fit-{k}", tuple((f"P{i}", s) for i, s in enumerate(styles)), f"{seed}/{players}/{k}"
    )
    prior = earlier(players, seed, k, spec.seats, history)
    state, since, seen = initial_state(), set[int](), Tendencies(prior)
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


def _rows(args: tuple[int, str, int, int]) -> list[tuple[Any, ...]]:
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


def _tree(nodes: Any, depth: int, at: int) -> list[tuple[int, ...]]:
    """One scikit-learn tree (its ``nodes`` array) as the product's nodes (feature, integer
    threshold, left, right, value in ``1 / LEAF`` stake units), numbered from ``at`` in
    scikit-learn's order; a leaf is its own two children."""
    out: list[tuple[int, ...]] = []
    for k, nd in enumerate(nodes):
        if nd["is_leaf"]:
            out.append((0, 0, at + k, at + k, round(float(nd["value"]) * LEAF)))
        else:
            threshold = math.floor(float(nd["num_threshold"]))  # integer features: x <= floor(t)
            left, right = at + int(nd["left"]), at + int(nd["right"])
            out.append((int(nd["feature_idx"]), threshold, left, right, 0))
    if max(int(nd["depth"]) for nd in nodes) > depth:
        raise ValueError(f"a node below depth {depth}: fit with max_depth={depth}")
    return out


def _stored(
    depth: int, width: int, base: int, trees: list[list[tuple[int, ...]]]
) -> dict[str, Any]:
    """Trees of nodes (feature, threshold, left, right, value) as a stored forest's doc."""
    roots: list[int] = []
    nodes: list[tuple[int, ...]] = []
    for tree in trees:
        roots.append(len(nodes))
        nodes.extend(tree)
    columns = list(zip(*nodes, strict=True))
    doc: dict[str, Any] = {"depth": depth, "features": width, "base": base, "root": roots}
    doc.update({name: list(col) for name, col in zip(NODE_ARRAYS, columns, strict=True)})
    return doc


def export(model: Any, depth: int, width: int) -> dict[str, Any]:
    """A fitted ``HistGradientBoostingRegressor`` as the product's trees (integers)."""
    trees, at = [], 0
    for (tree,) in model._predictors:
        trees.append(_tree(tree.nodes, depth, at))
        at += len(tree.nodes)
    base = round(float(np.ravel(model._baseline_prediction)[0]) * LEAF)
    return _stored(depth, width, base, trees)


ALWAYS_LEFT = 2**62
"""The threshold the full binary form gave the places under a shallow leaf: every row goes left."""


def _unpadded(f: list[int], t: list[int], leaves: list[int], at: int) -> list[tuple[int, ...]]:
    """One full binary tree's nodes (numbered from ``at``), each padded place folded into its
    leaf."""
    inner = len(f)
    tree: list[tuple[int, ...]] = []

    def add(k: int) -> int:
        me = at + len(tree)
        if k >= inner or t[k] >= ALWAYS_LEFT:
            while k < inner:  # every row goes left to the leftmost leaf below
                k = 2 * k + 1
            tree.append((0, 0, me, me, leaves[k - inner]))
            return me
        tree.append(())
        left, right = add(2 * k + 1), add(2 * k + 2)
        tree[me - at] = (f[k], t[k], left, right, 0)
        return me

    add(0)
    return tree


def from_full(doc: dict[str, Any]) -> dict[str, Any]:
    """A forest stored as full binary trees (until 2026-12-07: node ``k``'s children ``2k + 1``
    and ``2k + 2``, ``depth`` levels, then ``2**depth`` leaves; a shallow leaf padded with
    :data:`ALWAYS_LEFT` places) in the node-by-node form, the padding folded back into its leaf:
    the same predictions."""
    if "root" in doc:
        return doc
    trees, at = [], 0
    for f, t, leaves in zip(doc["feature"], doc["threshold"], doc["leaf"], strict=True):
        trees.append(_unpadded(f, t, leaves, at))
        at += len(trees[-1])
    return _stored(int(doc["depth"]), int(doc["features"]), int(doc["base"]), trees)


def fit(players: int, args: argparse.Namespace) -> dict[str, Any]:
    from sklearn.ensemble import HistGradientBoostingRegressor

    started = time.perf_counter()
    with multiprocessing.Pool(args.jobs) as pool:
        got = pool.map(
            _rows,
            [(players, args.seed, k, args.history) for k in range(args.sessions)],
            chunksize=20,
        )
    cut = args.sessions * 3 // 4
    train = [d for k in range(cut) for d in got[k]]
    test = [d for k in range(cut, args.sessions) for d in got[k]]
    x, y = design(train)
    model = HistGradientBoostingRegressor(
        max_iter=args.trees,
        max_depth=args.depth,
        max_leaf_nodes=None,
        learning_rate=args.rate,
        min_samples_leaf=args.leaf,
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


def held_out(players: int, args: argparse.Namespace, before: dict[str, Any]) -> None:
    """The share of a fresh deal's net variance the stored term removes on the held-out
    quarter (the forests just written), beside the forest it replaced (``before``: the stored
    document before the fit) on the same deals."""
    from analytics import luck_forest

    with multiprocessing.Pool(args.jobs) as pool:
        got = pool.map(
            _rows,
            [
                (players, args.seed, k, args.history)
                for k in range(args.sessions * 3 // 4, args.sessions)
            ],
        )
    deals = [d for rows in got for d in rows]
    nets = np.asarray([x for *_, net in deals for x in net])

    def removed() -> float:
        terms: list[float] = []
        for hands, weights, dealer, _ in deals:
            units = forest_units(hands, weights, dealer)
            assert units is not None
            terms.extend(float(u) for u in units)
        return float(1 - np.var(nets - np.asarray(terms)) / np.var(nets))

    now = removed()
    was = None
    if str(players) in before.get("sizes", {}):
        written = luck_forest.stored
        luck_forest.stored = lambda: before  # type: ignore[assignment]  # the replaced forest
        luck_forest.forest.cache_clear()
        try:
            was = removed()
        finally:
            luck_forest.stored = written
            luck_forest.forest.cache_clear()
    print(
        f"{players} players, held out: the term removes {now:.1%} of a fresh deal's net variance"
        f" ({len(nets)} seat-deals)"
        + ("" if was is None else f"; the forest it replaced {was:.1%} of the same deals")
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--sizes", default="2,3,4,5", help="table sizes (RULES 1.3)")
    ap.add_argument("--sessions", type=int, default=8000)
    ap.add_argument("--trees", type=int, default=300)
    ap.add_argument("--depth", type=int, default=6)
    ap.add_argument("--rate", type=float, default=0.05)
    ap.add_argument("--leaf", type=int, default=200, help="at least this many seat-deals a leaf")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", default="fit-forest")
    ap.add_argument(
        "--history",
        type=int,
        default=HISTORY,
        help="each seat reads 0 to this many earlier sessions of its style (0: none)",
    )
    args = ap.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    old = stored()
    how = (
        f"--sessions {args.sessions} --trees {args.trees} --depth {args.depth}"
        f" --rate {args.rate} --leaf {args.leaf} --seed {args.seed} --history {args.history}"
    )
    kept = {n: from_full(doc) for n, doc in old.get("sizes", {}).items()}
    fitted = {**kept, **{str(n): fit(n, args) for n in sizes}}
    fits = {**old.get("fits", {}), **{str(n): how for n in sizes}}
    doc = {
        "about": (
            "Per table size, regression trees node by node (tree t starts at node root[t]; an"
            " inner node k goes to left[k] when feature[k] <= threshold[k], else to right[k];"
            " a leaf is its own two children; no tree deeper than 'depth') whose leaf values and"
            " base are whole 2**-20 stake units: the expected net of a seat in a fresh deal"
            " from the features of analytics/luck_forest.py. Fitted by"
            " bench/luck_fit_forest.py --sizes N with the arguments of 'fits' for each size"
            " (scikit-learn's HistGradientBoostingRegressor,"
            " squared error, at least --leaf seat-deals a leaf, the first three quarters of"
            " the sessions; default rules, the styles of sim/players.py seated at random, some"
            " twice above five players); a size not fitted again is kept."
        ),
        "fits": dict(sorted(fits.items(), key=lambda kv: int(kv[0]))),
        "sizes": dict(sorted(fitted.items(), key=lambda kv: int(kv[0]))),
    }
    text = json.dumps(doc, separators=(",", ":")) + "\n"
    FOREST.write_bytes(gzip.compress(text.encode(), compresslevel=9, mtime=0))  # reproducible
    print(f"wrote {FOREST} ({FOREST.stat().st_size / 1e6:.1f} MB)")
    from analytics import luck_forest

    luck_forest.stored.cache_clear()
    luck_forest.forest.cache_clear()
    for n in sizes:
        held_out(n, args, old)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
