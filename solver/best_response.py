"""An independent best response: a plain recursion over the game tree (not the solver's arrays).

For a fixed strategy of one player, the other's best value: at the best responder's seen
decision, the best action per hand bucket; at a blind one (RULES 5.1: the hand unknown), the one
action best on average over the buckets. Terminal payoffs are worked out here again from the
node's pot, payments and payer (RULES 5.6, 5.8, 6.1). Exploitability is the mean of the two best
responses' gains over the game value, in antes.
"""

from __future__ import annotations

import numpy as np

from solver.buckets import Buckets
from solver.game import Node, Tree

__all__ = ["best_value", "exploitability"]


def _terminal(n: Node, bk: Buckets, me: int, opp_w: np.ndarray) -> np.ndarray:
    """My net per own bucket, summed over the opponent's weighted buckets (``opp_w``)."""
    if n.kind == "fold":
        mine = n.value if me == 0 else -n.value
        return np.full(len(bk.prior), mine * float(opp_w.sum()))
    out = np.empty(len(bk.prior))
    for i in range(len(bk.prior)):
        beats = bk.win[i, :]  # my bucket i strictly better than each opponent bucket
        ties = bk.tie[i, :]
        p_win = beats if n.payer == me else beats + ties  # ties go to the payer's opponent
        # my net less half the others' antes (dead money), so the two values sum to 0
        cost = n.paid[me] + (n.pot - n.paid[0] - n.paid[1]) / 2
        out[i] = float(np.dot(opp_w, p_win)) * n.pot - cost * float(opp_w.sum())
    return out


def _walk(
    tree: Tree, k: int, strat: np.ndarray, bk: Buckets, me: int, opp_w: np.ndarray
) -> np.ndarray:
    n = tree.nodes[k]
    if n.kind != "dec":
        return _terminal(n, bk, me, opp_w)
    if n.player != me:
        total = np.zeros(len(bk.prior))
        for a, c in zip(n.actions, n.children, strict=True):
            total += _walk(tree, c, strat, bk, me, opp_w * strat[k, a])
        return total
    kids = [_walk(tree, c, strat, bk, me, opp_w) for c in n.children]
    if n.blind:
        best = max(range(len(kids)), key=lambda j: float(np.dot(bk.prior, kids[j])))
        return kids[best]
    top: np.ndarray = np.max(np.stack(kids), axis=0)
    return top


def best_value(tree: Tree, strat: np.ndarray, bk: Buckets, me: int) -> float:
    """Player ``me``'s best expected net (antes) against the other's ``strat``, from the root."""
    v = _walk(tree, 0, strat, bk, me, bk.prior.copy())
    return float(np.dot(bk.prior, v))


def exploitability(tree: Tree, strat: np.ndarray, bk: Buckets) -> float:
    """Mean gain of the two best responses against ``strat`` (antes; 0 at an equilibrium)."""
    return (best_value(tree, strat, bk, 0) + best_value(tree, strat, bk, 1)) / 2.0
