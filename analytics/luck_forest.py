"""The value of a fresh deal from every hand dealt, the seats' places and tendencies: a forest.

Pure: no DuckDB, no clock, integers only (the same deal gives the same term on any machine).
Issue 37 item 1 asks for stronger luck terms, still unbiased. The tendencies' value
(:mod:`analytics.tendencies`) reads a seat's *rank* among the new hands and two players' styles;
what decides a fresh deal's net is more than that: how strong each hand is (a prial against a
pair is paid; an ace high against a seven high is not), who holds the hands that will pay, and
where they sit from the dealer (RULES 5.2: who speaks first). This value reads all of it:

- **Each seat's features** (:func:`features`), for the deal as dealt and for other assignments
  of the same hands to the seats: its hand's place among the 22,100 three-card hands
  (:func:`analytics.luck_orders.hand_order`, RULES 2), its rank among the new hands, its place
  from the dealer (0 speaks first), its posterior over the styles (whole 64ths,
  :meth:`analytics.tendencies.Tendencies.weights`: the deals before this one only); then, for
  each other seat from the best hand down, the same but the rank. Every feature is an integer.
- **The value** (stake units) is a forest of depth-limited regression trees fitted offline by
  ``bench/luck_fit_forest.py`` (scikit-learn's histogram gradient boosting, on simulated seasons
  whose seeds ``bench/luck.py`` never uses) and frozen in ``analytics/luck_forest.json.gz``: integer
  thresholds and leaves in units of ``2**-20`` stake, summed exactly, rounded to whole
  ``1/64`` units, less the mean of the seats' values (a deal's values sum to 0).
- **The term** (:func:`forest_units`) is the value of the deal as dealt minus its mean over a
  fixed set of reassignments of the dealt hands to the seats (:func:`reassignments`): every one
  at four players or fewer, else the ``n`` rotations of the table composed with three fixed
  shuffles. In a fresh deal the hands are exchangeable between the seats (RULES 3.4: one card a
  round from a uniformly ordered unseen top), so given everything before the deal and the set
  of hands dealt, the assignment is uniform, and so is each fixed reassignment of it: each term
  of the mean has the expectation of the value as dealt, and the term's expectation is exactly 0
  whatever anyone does and whatever the forest says. A forest that describes a club badly
  removes less spread; it cannot bias the adjusted net (docs/luck.md).

A **partly fresh** deal (the last unseen cards of the top, the rest from under the pack, RULES
3.3-3.4) is valued by the same forest (fitted on fresh deals: a fixed function, so any value
will do for the mean) against fixed relabellings of its unseen cards (:func:`partly_fresh_units`):
its chance is only how the unseen cards were shared among their places, and a relabelling of the
unseen set, made from the set alone, maps each way of sharing them to another as likely.
"""

from __future__ import annotations

import gzip
import json
import random
from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from itertools import permutations
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from analytics.luck_orders import hand_order

__all__ = [
    "FOREST",
    "LEAF",
    "NODE_ARRAYS",
    "QUANTUM",
    "Forest",
    "features",
    "forest",
    "forest_units",
    "hand_places",
    "partly_fresh_units",
    "reassignments",
    "relabellings",
    "stored",
]

Ints = npt.NDArray[np.int64]

FOREST: Final = Path(__file__).with_name("luck_forest.json.gz")
"""The forests fitted offline by ``bench/luck_fit_forest.py``, one per table size it knows
(gzipped JSON: :func:`stored`)."""
LEAF: Final = 1 << 20
"""A leaf's value and the forest's base are whole ``1 / LEAF`` stake units (exact sums)."""
QUANTUM: Final = 64
"""A seat's value is rounded to whole ``1 / QUANTUM`` stake units before it is centred."""
SHUFFLES: Final = 3
"""Above :data:`ALL_UP_TO` seats, the fixed shuffles composed with the table's rotations."""
ALL_UP_TO: Final = 4
"""Up to this many seats (or unseen cards of a partly fresh deal), the term's mean is over every
reassignment of the hands (every relabelling of the cards): ``n!`` (``k!``) alternatives."""
RELABELLINGS: Final = 15
"""Above :data:`ALL_UP_TO` unseen cards, the fixed relabellings a partly fresh deal is averaged
over."""


class Forest:
    """Regression trees stored node by node in flat arrays (``doc``): tree ``t`` starts at node
    ``root[t]``; an inner node ``k`` sends a row to ``left[k]`` when ``x[feature[k]] <=
    threshold[k]``, else to ``right[k]``; a leaf is its own two children and holds ``value[k]``
    (whole ``1 / LEAF`` stake units). No tree is deeper than ``depth``. Raises ``ValueError`` for
    arrays of unequal lengths, a feature outside ``features``, a child outside the arrays, or a
    tree deeper than ``depth`` or not a tree (a node reached twice)."""

    __slots__ = (
        "_children",
        "base",
        "depth",
        "feature",
        "left",
        "right",
        "root",
        "threshold",
        "value",
        "width",
    )

    def __init__(self, doc: dict[str, Any]) -> None:
        self.depth = int(doc["depth"])
        self.width = int(doc["features"])
        self.base = int(doc["base"])
        arrays = [np.asarray(doc[k], dtype=np.int64) for k in NODE_ARRAYS]
        self.root: Ints = np.asarray(doc["root"], dtype=np.int64)
        self.feature, self.threshold, self.left, self.right, self.value = arrays
        nodes = len(self.value)
        if any(a.shape != (nodes,) for a in arrays) or self.root.ndim != 1:
            raise ValueError("a forest's node arrays differ in length")
        if self.feature.min(initial=0) < 0 or self.feature.max(initial=0) >= self.width:
            raise ValueError("a forest's node reads a feature outside its width")
        for a in (self.root, self.left, self.right):
            if a.min(initial=0) < 0 or a.max(initial=0) >= nodes:
                raise ValueError("a forest's node points outside its arrays")
        self._check_trees(nodes)
        self._children: Ints = np.stack([self.left, self.right], axis=1).ravel()
        """Node ``k``'s left child at ``2k``, its right at ``2k + 1``: one gather a step."""

    def _check_trees(self, nodes: int) -> None:
        """Each node is reached once from the roots, and every path ends at a leaf within
        :attr:`depth` steps."""
        seen = np.zeros(nodes, dtype=np.int64)
        level = self.root
        for _ in range(self.depth + 1):
            np.add.at(seen, level, 1)
            inner = level[(self.left[level] != level) | (self.right[level] != level)]
            level = np.concatenate([self.left[inner], self.right[inner]])
        if len(level):
            raise ValueError(f"a forest's tree is deeper than its depth {self.depth}")
        if (seen != 1).any():
            raise ValueError("a forest's nodes are not trees: a node is unreached or shared")

    def predict(self, x: Ints) -> Ints:
        """Each row of ``x`` (integers, shape ``(rows, width)``): the forest's sum in whole
        ``1 / LEAF`` stake units."""
        rows = len(x)
        node = np.broadcast_to(self.root, (rows, len(self.root))).copy()  # [row, tree]
        row_base = (np.arange(rows, dtype=np.int64) * self.width)[:, None]
        flat_x = np.ascontiguousarray(x, dtype=np.int64).ravel()
        for _ in range(self.depth):  # a leaf's two children are itself: it stays
            right = flat_x[row_base + self.feature[node]] > self.threshold[node]
            node = self._children[2 * node + right]
        out: Ints = self.value[node].sum(axis=1) + self.base
        return out


NODE_ARRAYS: Final = ("feature", "threshold", "left", "right", "value")
"""A stored forest's per-node arrays (:class:`Forest`)."""


@cache
def stored() -> dict[str, Any]:
    """The stored forests' document: ``{"about", "fits", "sizes": {n: forest doc}}``
    (:class:`Forest` reads a size's doc)."""
    if not FOREST.exists():  # pragma: no cover - the file is part of the package
        return {}
    doc: dict[str, Any] = json.loads(gzip.decompress(FOREST.read_bytes()))
    return doc


@cache
def forest(n: int) -> Forest | None:
    """The forest for a table of ``n`` seats, or ``None`` where none was fitted."""
    doc = stored().get("sizes", {}).get(str(n))
    return None if doc is None else Forest(doc)


@cache
def reassignments(n: int) -> Ints:
    """The fixed reassignments of a deal's hands (shape ``(count, n)``: row ``p`` gives seat
    ``s`` the hand dealt to seat ``p[s]``): every permutation up to :data:`ALL_UP_TO` seats,
    else the ``n`` rotations composed with :data:`SHUFFLES` fixed shuffles (the first the
    identity), drawn once from a generator seeded by the table size alone."""
    if n <= ALL_UP_TO:
        return np.array(list(permutations(range(n))), dtype=np.int64)
    draw = random.Random(f"luck-forest/{n}")
    shuffles = [list(range(n))] + [draw.sample(range(n), n) for _ in range(SHUFFLES - 1)]
    rows = [[sigma[(s + k) % n] for s in range(n)] for sigma in shuffles for k in range(n)]
    return np.array(rows, dtype=np.int64)


def features(places: Ints, strength: Ints, weights: Ints) -> Ints:
    """Each seat's features in each deal of ``strength``, one row per (deal, seat), deal major:
    ``(len(strength) * n, 8 + 7 * (n - 1))`` integers (module docstring).

    ``places``: each seat's place from the dealer (0 speaks first, RULES 5.2); ``strength``:
    shape ``(deals, n)``, each seat's hand's place among all hands
    (:func:`analytics.luck_orders.hand_order`, distinct within a deal); ``weights``: each seat's
    posterior, shape ``(n, styles)``."""
    count, n = strength.shape
    order = np.argsort(-strength, axis=1, kind="stable")  # seats from the best hand down
    rank = np.argsort(order, axis=1, kind="stable")
    seat_info = np.concatenate([places[:, None], weights], axis=1)  # [seat, 1 + styles]
    rows = np.arange(count)[:, None]
    parts = []
    for i in range(n):
        others = order[order != i].reshape(count, n - 1)
        own = np.concatenate(
            [
                strength[:, i : i + 1],
                rank[:, i : i + 1],
                np.broadcast_to(seat_info[i], (count, seat_info.shape[1])),
            ],
            axis=1,
        )
        theirs = np.concatenate([strength[rows, others][:, :, None], seat_info[others]], axis=2)
        parts.append(np.concatenate([own, theirs.reshape(count, -1)], axis=1))
    out: Ints = np.stack(parts, axis=1).reshape(count * n, -1)
    return out


def _values(model: Forest, x: Ints, n: int) -> Ints:
    """The seats' values, centred, in whole ``1 / (QUANTUM * n)`` units: ``(assignments, n)``."""
    step = LEAF // QUANTUM
    raw = (model.predict(x) + step // 2) // step  # whole 1/QUANTUM units, half up
    v = raw.reshape(-1, n)
    out: Ints = v * n - v.sum(axis=1, keepdims=True)
    return out


def hand_places(hands: Sequence[Sequence[int]]) -> Ints:
    """Each hand's place among the 22,100 (:func:`analytics.luck_orders.hand_order`)."""
    table = hand_order()
    return np.array([table[a * 2704 + b * 52 + c] for a, b, c in (sorted(h) for h in hands)])


def _term(
    strength: Ints, weights: Sequence[Sequence[int]], dealer: int
) -> tuple[Fraction, ...] | None:
    """Row 0 of ``strength`` (shape ``(1 + others, n)``) is the deal as dealt, the others its
    fixed alternatives: each seat's value as dealt less its mean over the alternatives."""
    n = strength.shape[1]
    model = forest(n)
    if model is None:
        return None
    places = np.array([(s - dealer - 1) % n for s in range(n)], dtype=np.int64)
    u = _values(model, features(places, strength, np.asarray(weights, dtype=np.int64)), n)
    count = len(strength) - 1
    scale = QUANTUM * n * count
    return tuple(Fraction(int(count * u[0, i] - u[1:, i].sum()), scale) for i in range(n))


def forest_units(
    hands: Sequence[tuple[int, int, int]], weights: Sequence[Sequence[int]], dealer: int
) -> tuple[Fraction, ...] | None:
    """Each seat's luck term (stake units, exact) for a **fresh** deal of ``hands`` (card codes,
    one hand per seat, every card unseen since the last shuffle, RULES 3.2), the seats'
    posteriors ``weights`` (whole 64ths, before the deal) and the dealer's seat ``dealer``; or
    ``None`` where no forest was fitted for the table size. The alternatives are the deal's hands
    reassigned to the seats (:func:`reassignments`). The terms sum to 0; their mean over the
    deals that could have come is exactly 0 (module docstring)."""
    n = len(hands)
    if forest(n) is None:
        return None
    every = np.concatenate([np.arange(n, dtype=np.int64)[None, :], reassignments(n)])
    return _term(hand_places(hands)[every], weights, dealer)


@cache
def relabellings(k: int) -> Ints:
    """The fixed relabellings of a partly fresh deal's ``k`` unseen cards (shape ``(count, k)``:
    row ``p`` puts the ``p[j]``-th lowest unseen card where the ``j``-th lowest came): every
    permutation up to :data:`ALL_UP_TO` cards, else :data:`RELABELLINGS` drawn once from a
    generator seeded by ``k`` alone."""
    if k <= ALL_UP_TO:
        return np.array(list(permutations(range(k))), dtype=np.int64)
    draw = random.Random(f"luck-forest/relabel/{k}")
    return np.array([draw.sample(range(k), k) for _ in range(RELABELLINGS)], dtype=np.int64)


def partly_fresh_units(
    hands: Sequence[tuple[int, int, int]],
    unseen: Sequence[int] | set[int] | frozenset[int],
    weights: Sequence[Sequence[int]],
    dealer: int,
) -> tuple[Fraction, ...] | None:
    """Each seat's luck term (stake units, exact) for a **partly fresh** deal: ``hands`` took the
    last ``unseen`` cards of the top of the pack and the rest from under it (RULES 3.3-3.4), or
    ``None`` where no forest was fitted for the table size.

    Given everything before the deal, the unseen set and the cards from under the pack are known
    and the unseen cards come in a uniform order: every way of sharing them among their places is
    alike. A fixed relabelling of the unseen set (:func:`relabellings`, made from the set's order
    only) maps those ways one to one, so the deal relabelled is as likely as the deal that came:
    each alternative's value has the expectation of the value as dealt, and the term's mean is
    exactly 0 whatever the forest says (docs/luck.md)."""
    pool = sorted(unseen)
    if forest(len(hands)) is None or not pool:
        return None
    alternatives = [list(range(len(pool))), *relabellings(len(pool)).tolist()]
    rows = []
    for alt in alternatives:
        swap = {pool[j]: pool[alt[j]] for j in range(len(pool))}
        rows.append(hand_places([[swap.get(c, c) for c in h] for h in hands]))
    return _term(np.array(rows, dtype=np.int64), weights, dealer)
