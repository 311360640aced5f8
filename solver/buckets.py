"""Hands bucketed by strength (RULES 2): the 22,100 three-card hands in equal-mass buckets.

A hand's bucket is decided by its :func:`engine.hands.strength` key alone (equal hands, RULES 2.7,
share a bucket: the strength group's middle rank picks it). ``win[i, j]`` is the chance a hand of
bucket ``i`` beats one of bucket ``j`` strictly, ``tie[i, j]`` that they are equal, the two hands
drawn independently (card removal dropped: the stated abstraction).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations

import numpy as np

from engine.hands import strength_codes

__all__ = ["Buckets", "buckets"]


@dataclass(frozen=True)
class Buckets:
    """``prior[b]`` (share of the 22,100 hands), ``win``/``tie`` (B x B), ``edges`` (strengths)."""

    prior: np.ndarray
    win: np.ndarray
    tie: np.ndarray
    keys: np.ndarray  # the distinct strength keys, ascending
    of_key: np.ndarray  # the bucket of each distinct key

    def of_strength(self, key: int) -> int:
        """The bucket of a strength key (``ValueError`` when no hand has that key)."""
        i = int(np.searchsorted(self.keys, key))
        if i >= len(self.keys) or int(self.keys[i]) != key:
            raise ValueError(f"{key!r} is not a hand strength key (RULES 2.8)")
        return int(self.of_key[i])


@cache
def buckets(count: int = 100) -> Buckets:
    """The ``count`` buckets of all C(52,3) hands (computed once per process, ~0.2 s)."""
    s = np.sort(np.array([strength_codes(*h) for h in combinations(range(52), 3)], dtype=np.int64))
    n = len(s)
    keys, first, sizes = np.unique(s, return_index=True, return_counts=True)
    mid = first + (sizes - 1) / 2.0
    of_key = np.minimum((mid * count / n).astype(np.int64), count - 1)
    hand_bucket = np.repeat(of_key, sizes)
    per = np.bincount(hand_bucket, minlength=count).astype(np.float64)
    prior = per / n
    # for each hand and bucket j: hands of bucket j strictly weaker / equal
    starts = np.concatenate([[0], np.cumsum(per).astype(np.int64)])
    lo = np.searchsorted(s, s, side="left")
    hi = np.searchsorted(s, s, side="right")
    less = np.clip(lo[:, None] - starts[None, :-1], 0, per[None, :].astype(np.int64))
    upto = np.clip(hi[:, None] - starts[None, :-1], 0, per[None, :].astype(np.int64))
    eq = upto - less
    win = np.zeros((count, count))
    tie = np.zeros((count, count))
    np.add.at(win, hand_bucket, less.astype(np.float64))
    np.add.at(tie, hand_bucket, eq.astype(np.float64))
    norm = np.outer(per, per)
    return Buckets(prior, win / norm, tie / norm, keys, of_key)
