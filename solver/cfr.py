"""CFR+ on the public tree, vectorised over the hand buckets and over each depth's nodes (numpy).

One array per quantity (``regret``, ``average`` of shape nodes x 5 actions x buckets); a blind
decision's row is one distribution for every bucket (the player does not know the hand, RULES
5.1). Alternating updates, regrets floored at 0, the average weighted by the iteration (linear
averaging): Tammelin's CFR+. ``seed`` (not 0) starts from a random strategy, so two seeds give
two different runs to the same equilibrium (the stability check, docs/review.md).
"""

from __future__ import annotations

import numpy as np

from solver.buckets import Buckets
from solver.game import Tree

__all__ = ["Arrays", "arrays", "solve"]

A = 5  # action slots: fold, see, keep, raise, look
EXPLORE = 1e-6
"""Weight of the uniform strategy mixed into the reaches the updates use: every node keeps a
positive reach, so a player's strategy is refined even where the other's solution never goes
(CFR+ sets many probabilities to exactly 0; a review grades decisions there too)."""


class Arrays:
    """The tree as index arrays: children (padded with the dummy node ``n``), owners, depths."""

    def __init__(self, tree: Tree) -> None:
        nodes = tree.nodes
        self.n = len(nodes)
        self.dec = np.array([i for i, x in enumerate(nodes) if x.kind == "dec"], dtype=np.int64)
        self.child = np.full((self.n, A), self.n, dtype=np.int64)
        self.legal = np.zeros((self.n, A), dtype=bool)
        for i in self.dec:
            for a, c in zip(nodes[i].actions, nodes[i].children, strict=True):
                self.child[i, a] = c
                self.legal[i, a] = True
        self.owner = np.array([x.player for x in nodes], dtype=np.int64)
        self.blind = np.array([x.blind for x in nodes], dtype=bool)
        depth = np.array([x.depth for x in nodes], dtype=np.int64)
        self.levels = [self.dec[depth[self.dec] == d] for d in range(int(depth.max()) + 1)]
        self.fold = np.array([i for i, x in enumerate(nodes) if x.kind == "fold"], dtype=np.int64)
        self.fold_v0 = np.array([nodes[i].value for i in self.fold])
        self.show = [_showdowns(tree, 0), _showdowns(tree, 1)]


def _showdowns(tree: Tree, payer: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The showdowns ``payer`` paid for (RULES 5.8): their nodes, pots and payments."""
    idx = [i for i, x in enumerate(tree.nodes) if x.kind == "show" and x.payer == payer]
    pot = np.array([tree.nodes[i].pot for i in idx])
    paid = np.array([tree.nodes[i].paid for i in idx]).reshape(-1, 2)
    return np.array(idx, dtype=np.int64), pot, paid


def arrays(tree: Tree) -> Arrays:
    """The index arrays of ``tree``."""
    return Arrays(tree)


def _matching(regret: np.ndarray, legal: np.ndarray) -> np.ndarray:
    pos = np.maximum(regret, 0.0)
    total = pos.sum(axis=1, keepdims=True)
    uniform = legal[:, :, None] / np.maximum(legal.sum(axis=1), 1)[:, None, None]
    with np.errstate(invalid="ignore", divide="ignore"):
        out: np.ndarray = np.where(total > 0, pos / np.where(total > 0, total, 1.0), uniform)
    return out


def reaches(ar: Arrays, sigma: np.ndarray, buckets: int) -> np.ndarray:
    """Each player's reach (2 x nodes+1 x buckets) under ``sigma`` (nodes x A x buckets)."""
    r = np.ones((2, ar.n + 1, buckets))
    for lv in ar.levels:
        for p in (0, 1):
            own = lv[ar.owner[lv] == p]
            if own.size == 0:
                continue
            kids = ar.child[own]
            r[p, kids] = r[p, own][:, None, :] * sigma[own]
            r[1 - p, kids] = r[1 - p, own][:, None, :]
    return r


def values(ar: Arrays, bk: Buckets, sigma: np.ndarray, r: np.ndarray, t: int) -> np.ndarray:
    """Counterfactual values of player ``t`` per own bucket at every node (nodes+1 x buckets)."""
    b = len(bk.prior)
    v = np.zeros((ar.n + 1, b))
    opp = r[1 - t] * bk.prior[None, :]
    sign = 1.0 if t == 0 else -1.0
    v[ar.fold] = (sign * ar.fold_v0)[:, None] * opp[ar.fold].sum(axis=1, keepdims=True)
    for payer, (idx, pot, paid) in enumerate(ar.show):
        if idx.size == 0:
            continue
        # chance that player t's hand takes the pot: the payer only when strictly better (5.8)
        m = bk.win if payer == t else bk.win + bk.tie
        won = opp[idx] @ m.T
        dead = (pot - paid.sum(axis=1)) / 2  # half the others' antes off each: a zero sum
        stake = (paid[:, t] + dead)[:, None]
        v[idx] = won * pot[:, None] - stake * opp[idx].sum(axis=1, keepdims=True)
    for lv in reversed(ar.levels):
        kv = v[ar.child[lv]]  # k x A x B
        mine = ar.owner[lv] == t
        w = np.where(mine[:, None, None], sigma[lv], ar.legal[lv][:, :, None].astype(float))
        v[lv] = (w * kv).sum(axis=1)
    return v


def _start(ar: Arrays, b: int, seed: int) -> np.ndarray:
    """A random first strategy (nodes x A x buckets; a blind row the same for every bucket).

    A seed starts from here with no regrets, so it changes only what the first iteration's
    updates see: each node's regrets then grow at that node's own scale. (Random starting
    *regrets* of a fixed size, as before, outweighed for hundreds of iterations the regrets of
    nodes the other player reaches only by the exploration, ~1e-6: there the strategy stayed the
    random start, and grades resting on it moved between seeds; docs/review.md.)
    """
    rng = np.random.default_rng(seed)
    w = rng.random((ar.n, A, b)) * ar.legal[:, :, None]
    w = np.where(ar.blind[:, None, None], w.mean(axis=2, keepdims=True), w)
    total = w.sum(axis=1, keepdims=True)
    return np.where(total > 0, w / np.where(total > 0, total, 1.0), 0.0)


def _pinned(sigma: np.ndarray, pins: dict[int, int]) -> np.ndarray:
    for node, a in pins.items():
        sigma[node] = 0.0
        sigma[node, a] = 1.0
    return sigma


def solve(
    tree: Tree,
    bk: Buckets,
    iterations: int,
    seed: int = 0,
    explore: float = EXPLORE,
    pins: dict[int, int] | None = None,
) -> tuple[np.ndarray, Arrays]:
    """CFR+ for ``iterations``: the average strategy (nodes x A x buckets) and the arrays.

    ``pins``: node -> action played there with certainty, for every hand (a path of blind
    decisions to a spot): the game after it is then solved on the path, its value fixed
    (:meth:`solver.solution.Subgame.pinned_ev`)."""
    pins = pins or {}
    ar = Arrays(tree)
    b = len(bk.prior)
    regret = np.zeros((ar.n, A, b))
    average = np.zeros((ar.n, A, b))
    uniform = ar.legal[:, :, None] / np.maximum(ar.legal.sum(axis=1), 1)[:, None, None]
    sigma = _start(ar, b, seed) if seed else np.broadcast_to(uniform, (ar.n, A, b)).copy()
    sigma = _pinned(sigma, pins)
    for it in range(1, iterations + 1):
        for t in (0, 1):
            r = reaches(ar, (1 - explore) * sigma + explore * uniform, b)
            v = values(ar, bk, sigma, r, t)
            mine = ar.dec[ar.owner[ar.dec] == t]
            gain = v[ar.child[mine]] - v[mine][:, None, :]
            bl = ar.blind[mine]
            if bl.any():
                gain[bl] = (gain[bl] * bk.prior).sum(axis=2, keepdims=True)
            regret[mine] = np.maximum(regret[mine] + gain, 0.0) * ar.legal[mine][:, :, None]
            average[mine] += it * r[t, mine][:, None, :] * sigma[mine]
            sigma[mine] = _matching(regret[mine], ar.legal[mine])
            sigma = _pinned(sigma, pins)
    total = average.sum(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        avg = np.where(total > 0, average / np.where(total > 0, total, 1.0), uniform)
    avg = _pinned(avg, pins)
    return avg, ar
