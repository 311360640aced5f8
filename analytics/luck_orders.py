"""The orders of a partly fresh deal's unseen cards, ranked at once (numpy): the work behind
:func:`analytics.luck.order_average`.

A partly fresh deal's chance is the order of its unseen cards in the places they were dealt to
(RULES 3.3-3.4). Its luck term needs each seat's value averaged over those orders: every distinct
placing (up to 1,260 at five players) or, beyond :data:`analytics.luck.EXACT_LIMIT`, thousands of
seeded random orders. Ranking each placing's hands one at a time in Python cost 90 ms a deal and
was most of a projection's rebuild; here every placing's hands are looked up in one table of the
22,100 three-card hands (their order by RULES 2, ties by the cards, as
:func:`analytics.luck.deal_ranks`) and ranked in a few array operations.

Pure: no DuckDB, no clock; the same arguments give the same ranks.
"""

from __future__ import annotations

import hashlib
from functools import cache
from itertools import combinations

import numpy as np
import numpy.typing as npt

from engine.hands import strength_codes

__all__ = ["hand_order", "placings", "ranks_of", "shuffled_orders"]

Ints = npt.NDArray[np.int64]


@cache
def hand_order() -> Ints:
    """Each three-card hand's place in the order of all 22,100 (0 the worst), indexed by
    ``a * 2704 + b * 52 + c`` for its codes ``a < b < c``; other indices hold -1.

    The order is :func:`analytics.luck.deal_ranks`'s: RULES 2 by
    :func:`engine.hands.strength_codes`, equal hands (RULES 2.7) by their codes highest first.
    Built once a process (about 40 ms)."""
    hands = list(combinations(range(52), 3))
    hands.sort(key=lambda h: (strength_codes(*h), sorted(h, reverse=True)))
    table = np.full(52**3, -1, dtype=np.int64)
    for place, (a, b, c) in enumerate(hands):
        table[a * 2704 + b * 52 + c] = place
    return table


@cache
def _placing_pattern(size: int, sizes: tuple[int, ...]) -> Ints:
    """Every split of the positions ``0..size-1`` into groups of ``sizes`` (in order, each group
    a set, its positions ascending), one split a row, the groups side by side."""
    rows: list[list[int]] = []

    def split(pool: list[int], rest: tuple[int, ...], row: list[int]) -> None:
        if not rest:
            rows.append(row)
            return
        for group in combinations(pool, rest[0]):
            left = [p for p in pool if p not in group]
            split(left, rest[1:], [*row, *group])

    split(list(range(size)), sizes, [])
    return np.array(rows, dtype=np.int64).reshape(len(rows), size)


def placings(pool: list[int], sizes: list[int]) -> Ints:
    """Every distinct placing of the cards ``pool`` into groups of ``sizes``: an array of shape
    ``(placings, len(pool))``, each row the groups' cards side by side."""
    return np.asarray(pool, dtype=np.int64)[_placing_pattern(len(pool), tuple(sizes))]


def shuffled_orders(pool: list[int], count: int, seed: bytes) -> Ints:
    """``count`` uniform random orders of ``pool`` (shape ``(count, len(pool))``), drawn by a
    generator seeded by the SHA-256 of ``seed`` alone."""
    entropy = int.from_bytes(hashlib.sha256(seed).digest(), "big")
    rng = np.random.default_rng(np.random.SeedSequence(entropy))
    return rng.permuted(np.tile(np.asarray(pool, dtype=np.int64), (count, 1)), axis=1)


def ranks_of(kept: list[tuple[int, ...]], orders: Ints) -> Ints:
    """Each seat's rank (1 the best new hand, RULES 2) in each row of ``orders``: seat ``i``
    holds its ``kept`` cards and the next ``3 - len(kept[i])`` cards of the row. Shape
    ``(rows, seats)``."""
    rows = orders.shape[0]
    table = hand_order()
    keys = np.empty((rows, len(kept)), dtype=np.int64)
    at = 0
    for seat, own in enumerate(kept):
        take = 3 - len(own)
        fixed = np.broadcast_to(np.asarray(own, dtype=np.int64), (rows, len(own)))
        hand = np.sort(np.concatenate([fixed, orders[:, at : at + take]], axis=1), axis=1)
        at += take
        keys[:, seat] = table[hand[:, 0] * 2704 + hand[:, 1] * 52 + hand[:, 2]]
    better = keys[:, None, :] > keys[:, :, None]  # [row, i, j]: seat j's hand beats seat i's
    ranks: Ints = better.sum(axis=2) + 1
    return ranks
