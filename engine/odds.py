"""The chance of each hand to be the best at a showdown, from what one viewer knows (pure).

A viewer knows some cards of some hands still in the deal (their own once looked at, RULES 5.1;
cards shown at a showdown, RULES 3.5 and 5.8) and nothing of the rest: every card the viewer has
not seen is equally likely to be in any unknown place. :func:`showdown_odds` gives, for each hand
still in, the chance that it is the single best hand (RULES 2.2-2.6), the chance that it ties for
best (RULES 2.7: equal hands are equal, suits never break a tie), and the chance that it is beaten;
the three add up to exactly 1 for each hand.

The chances are exact (:class:`~fractions.Fraction`, by enumerating every way to fill the unknown
places from the unseen cards) when there are at most :data:`EXACT_LIMIT` ways, e.g. one known hand
against one unknown hand (C(49,3) = 18,424 ways). Otherwise they are an estimate from
:data:`SAMPLES` deals drawn with a fixed seed, so the same question always gets the same answer,
given with its margin (about 95%: two standard errors).

Cards are card codes 0..51 (:attr:`events.cards.Card.code`).

>>> from engine.state import card_codes
>>> a23 = card_codes(("Ah", "2h", "3h"))       # a running flush, RULES 2.4: the best after prials
>>> me, other = showdown_odds([a23, ()])
>>> me.exact, me.beaten, me.tied              # 43 prials beat it; 3 other A-2-3 flushes tie
(True, Fraction(43, 18424), Fraction(3, 18424))
>>> me.best + me.tied + me.beaten
Fraction(1, 1)
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import combinations
from typing import Final

from engine.hands import strength_codes

__all__ = ["EXACT_LIMIT", "SAMPLES", "HandOdds", "margin", "showdown_odds"]

EXACT_LIMIT: Final = 40_000
"""At most this many ways to fill the unknown places are enumerated exactly."""
SAMPLES: Final = 4_000
"""Deals drawn for an estimate."""
SEED: Final = 20_260_924
"""The estimate's fixed seed."""


@dataclass(frozen=True, slots=True)
class HandOdds:
    """One hand's chances at a showdown against every other hand still in (RULES 2.2-2.7).

    ``best``: the chance that no other hand is as good; ``tied``: that the best strength is shared
    with another hand (RULES 2.7; at a real showdown the payer then loses, RULES 5.8); ``beaten``:
    that another hand is better. ``best + tied + beaten == 1`` exactly. ``exact`` tells whether
    they come from enumerating every way (``ways`` of them) or from ``ways`` sampled deals, in
    which case ``margin`` is about two standard errors of ``best`` (a float: an estimate's own
    precision, never an amount)."""

    best: Fraction
    tied: Fraction
    beaten: Fraction
    exact: bool
    ways: int
    margin: float = 0.0


def margin(p: Fraction, count: int) -> float:
    """An estimate's margin (about 95%: two standard errors) for the chance ``p`` seen in
    ``count`` deals drawn, a fraction of 1 (a float: a precision, never an amount); never under
    ``2 / count``, so a chance seen in none or all of the deals still has one. Raises
    ``ZeroDivisionError`` for ``count`` 0."""
    q = float(p)
    return 2 * math.sqrt(max(q * (1 - q), 1 / count) / count)


def _ways(pool: int, unknown: Sequence[int]) -> int:
    total = 1
    for u in unknown:
        total *= math.comb(pool, u)
        pool -= u
    return total


def _fillings(
    pool: tuple[int, ...], unknown: Sequence[int]
) -> Iterator[tuple[tuple[int, ...], ...]]:
    """Every way to fill each hand's ``unknown[i]`` places from ``pool`` (distinct cards)."""
    if not unknown:
        yield ()
        return
    first, rest = unknown[0], unknown[1:]
    for chosen in combinations(pool, first):
        left = tuple(c for c in pool if c not in chosen) if chosen else pool
        for tail in _fillings(left, rest):
            yield (chosen, *tail)


def _tally(
    known: tuple[tuple[int, ...], ...], fills: Iterator[tuple[tuple[int, ...], ...]]
) -> tuple[list[int], list[int], int]:
    n = len(known)
    best = [0] * n
    tied = [0] * n
    count = 0
    open_hands = [i for i in range(n) if len(known[i]) < 3]
    for fill in fills:
        keys = []
        j = 0
        for i in range(n):
            cards = known[i]
            if i in open_hands:
                cards = cards + fill[j]
                j += 1
            keys.append(strength_codes(cards[0], cards[1], cards[2]))
        top = max(keys)
        winners = [i for i in range(n) if keys[i] == top]
        if len(winners) == 1:
            best[winners[0]] += 1
        else:
            for i in winners:
                tied[i] += 1
        count += 1
    return best, tied, count


def _tally_one_open(
    known: tuple[tuple[int, ...], ...], pool: tuple[int, ...]
) -> tuple[list[int], list[int], int]:
    """:func:`_tally` when exactly one hand has unknown places (the usual heads-up question): the
    other hands' strengths are computed once, and the open hand's for each way to fill it."""
    n = len(known)
    o = next(i for i in range(n) if len(known[i]) < 3)
    fixed = {i: strength_codes(*known[i]) for i in range(n) if i != o}
    part = known[o]
    counts: dict[int, int] = {}
    for fill in combinations(pool, 3 - len(part)):
        cards = part + fill
        key = strength_codes(cards[0], cards[1], cards[2])
        counts[key] = counts.get(key, 0) + 1
    best = [0] * n
    tied = [0] * n
    total = sum(counts.values())
    for key, m in counts.items():
        keys = dict(fixed)
        keys[o] = key
        top = max(keys.values())
        winners = [i for i in range(n) if keys[i] == top]
        if len(winners) == 1:
            best[winners[0]] += m
        else:
            for i in winners:
                tied[i] += m
    return best, tied, total


@lru_cache(maxsize=4096)
def _odds(
    known: tuple[tuple[int, ...], ...], dead: frozenset[int], limit: int, samples: int
) -> tuple[HandOdds, ...]:
    seen = {c for h in known for c in h} | dead
    pool = tuple(c for c in range(52) if c not in seen)
    unknown = [3 - len(h) for h in known if len(h) < 3]
    ways = _ways(len(pool), unknown)
    if ways <= limit:
        if len(unknown) == 1:
            best, tied, count = _tally_one_open(known, pool)
        else:
            best, tied, count = _tally(known, _fillings(pool, unknown))
        return tuple(
            HandOdds(
                Fraction(b, count), Fraction(t, count), Fraction(count - b - t, count), True, count
            )
            for b, t in zip(best, tied, strict=True)
        )
    rng = random.Random(SEED)
    need = sum(unknown)

    def draws() -> Iterator[tuple[tuple[int, ...], ...]]:
        for _ in range(samples):
            cards = rng.sample(pool, need)
            out = []
            at = 0
            for u in unknown:
                out.append(tuple(cards[at : at + u]))
                at += u
            yield tuple(out)

    best, tied, count = _tally(known, draws())
    result = []
    for b, t in zip(best, tied, strict=True):
        result.append(
            HandOdds(
                Fraction(b, count),
                Fraction(t, count),
                Fraction(count - b - t, count),
                False,
                count,
                margin(Fraction(b, count), count),
            )
        )
    return tuple(result)


def showdown_odds(
    hands: Sequence[Sequence[int]],
    dead: Sequence[int] = (),
    *,
    limit: int = EXACT_LIMIT,
    samples: int = SAMPLES,
) -> tuple[HandOdds, ...]:
    """Each hand's chances to be the best at a showdown (RULES 2.2-2.7), in the order given.

    ``hands``: one entry per hand still in the deal, the codes of its cards the viewer knows (0 to
    3 of them; the rest are unknown). ``dead``: other cards the viewer knows that are in none of
    these hands (they cannot fill an unknown place). Exact when there are at most ``limit`` ways to
    fill the unknown places, else an estimate over ``samples`` draws with a fixed seed.

    Raises ``ValueError`` for fewer than two hands, a hand of more than three cards, a card outside
    0..51 or a card known twice (RULES 2.1: one pack)."""
    if len(hands) < 2:
        raise ValueError("a showdown needs at least two hands (RULES 5.8)")
    known = tuple(tuple(int(c) for c in h) for h in hands)
    cards = [c for h in known for c in h] + [int(c) for c in dead]
    if any(len(h) > 3 for h in known):
        raise ValueError("a brag hand is three cards (RULES 2.1)")
    if any(not 0 <= c < 52 for c in cards):
        raise ValueError("card codes are 0..51")
    if len(set(cards)) != len(cards):
        raise ValueError("a card is known twice: one pack (RULES 2.1)")
    return _odds(known, frozenset(int(c) for c in dead), limit, samples)
