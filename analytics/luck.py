"""Skill apart from luck: a luck term of expected value exactly zero for each player and deal.

Pure: no DuckDB here. The estimator (``docs/luck.md`` states it in full) is a control variate in
the manner of AIVAT (Burch et al. 2018): at the one chance event of a deal, the cards dealt, it
adds the baseline value of the cards a player was dealt minus that value's expectation over the
deals that could have come, so that ``adjusted net = net - luck`` keeps the mean of the net and
loses much of its spread.

- **The chance event.** A deal is *fresh* when none of its cards has been dealt since the last
  shuffle (RULES 3.2): its cards come from the part of the pack never seen since, whose order,
  for a uniform shuffle, is uniform whatever has been played. A deal that takes any card from
  under the pack (RULES 3.3: the cards of earlier hands, in an order the log tells) is decided by
  the earlier deals and by how they were played. A *partly fresh* deal takes the last unseen
  cards from the top and the rest from under the pack (RULES 3.3-3.4): only the order of its
  unseen cards is chance, so its term is the value of the deal minus the average of that value
  over every order of those cards in their places (:func:`order_average`). A deal with no
  unseen card has term 0.
- **The baseline value.** At a table of ``n`` players the new hands are ranked best first
  (RULES 2: :func:`engine.hands.strength_codes`; two equal hands ordered by their card codes, a
  fixed order of the cards that depends on no seat). The value of rank ``r`` is
  :data:`RANK_VALUES` ``[n][r - 1]``: the average net of the ``r``-th best new hand in simulated
  play, fitted once offline (``bench/luck_fit.py``) and frozen here, centred to sum to 0.
- **The value** at two to seven players is a forest of regression trees over every hand dealt,
  every seat's place and tendencies (:mod:`analytics.luck_forest`, issue 37 item 1), less its
  mean over fixed alternatives of the deal (its hands reassigned; a partly fresh deal's unseen
  cards relabelled). At eight to ten it is that of the players' tendencies shown in the session's
  earlier deals (:mod:`analytics.tendencies`): fixed before the cards come, it is made mean zero
  by subtracting its exact average over the orders of the ranks (:func:`rank_average`) or of
  the unseen cards (:func:`order_average`).
- **Mean zero.** In a fresh deal the ``n`` new hands are ``n`` disjoint three-card sets drawn in
  order from a uniformly shuffled remainder of the pack: exchangeable between the seats. The
  order of the hands depends only on the cards, so each seat holds each rank with chance exactly
  ``1/n``, and the expected luck term is ``sum(RANK_VALUES[n]) / n = 0``, given anything played
  before, whatever the players do. The terms of one deal also sum to 0.
- **Whole ticks.** The baseline's values are whole half-units, and a session's ``den`` (ticks
  per unit) is twice the ante's denominator, so its terms are whole ticks. A tendency value's
  term is not: it is written rounded like a partly fresh deal's (below).

- **Partly fresh deals: mean zero by construction.** Given everything before the deal, the
  unseen cards are a known set in a uniform order, and the cards under the pack are known; the
  term ``V(deal) - E[V | the unseen set]`` has expectation 0 whatever ``V``. Its average is
  exact (Fractions, every distinct placing of the unseen cards) up to :data:`EXACT_LIMIT`
  placings, else over :data:`SAMPLES` orders drawn by a generator seeded only by what is known
  before the deal (still exactly unbiased, a little noisier). Such a term is not a whole number
  of ticks: :class:`LuckTracker` carries each seat's exact running sum and writes its rounding
  (largest remainders, the seats summing to 0), so a seat's terms over a session are within one
  tick of the exact sum, never further.

A retained hand (RULES 6.2-6.4) is not one of the new hands: the holder's rank is that of the
new hand dealt to them (the old hand's luck belongs to the deal it was dealt in).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from itertools import permutations
from typing import TYPE_CHECKING, Any, Final

import numpy as np

from analytics.luck_forest import forest_units, partly_fresh_units
from analytics.luck_orders import placings, ranks_of, shuffled_orders
from analytics.tendencies import ACTION_TYPES, Prior, Tendencies, TendencyValue
from engine.hands import strength_codes

if TYPE_CHECKING:
    from engine.state import State
    from events.model import AnyEvent

__all__ = [
    "EXACT_LIMIT",
    "LUCK_ABSENT",
    "RANK_VALUES",
    "SAMPLES",
    "LuckTracker",
    "deal_ranks",
    "deal_units",
    "luck_note",
    "luck_units",
    "order_average",
    "rank_average",
]

_H = Fraction(1, 2)
CODES: Final = 52
"""The cards of the pack (RULES 3.2)."""

RANK_VALUES: Final[dict[int, tuple[Fraction, ...]]] = {
    n: tuple(v * _H for v in halves)
    for n, halves in {
        # Half units of stake, best rank first; each row sums to 0. Fitted by bench/luck_fit.py
        # --sessions 150 (default rules, the five simulated styles seated at random; 1,206 fresh
        # deals at 2 players down to 170 at 10).
        2: (8, -8),
        3: (27, -14, -13),
        4: (40, -8, -23, -9),
        5: (66, -16, -28, -15, -7),
        6: (80, -8, -35, -22, -9, -6),
        7: (109, -7, -49, -28, -12, -7, -6),
        8: (122, -8, -46, -36, -13, -8, -6, -5),
        9: (123, -2, -37, -34, -24, -8, -6, -6, -6),
        10: (137, 34, -56, -54, -22, -14, -7, -6, -7, -5),
    }.items()
}
"""Table size -> the baseline value of each rank of new hand (stake units, best first, sum 0)."""


def deal_ranks(hands: Sequence[tuple[int, int, int]]) -> tuple[int, ...]:
    """Each hand's rank among ``hands`` (card codes, one hand per seat): 1 for the best.

    Better by RULES 2 (:func:`engine.hands.strength_codes`); two equal hands (RULES 2.7) are
    ordered by their card codes, highest first, an order that depends on the cards only.

    >>> deal_ranks([(0, 1, 2), (48, 49, 50), (20, 24, 28)])   # 2-2-2, A-A-A, 7-8-9 run
    (2, 1, 3)
    """
    keys = [(strength_codes(*h), sorted(h, reverse=True)) for h in hands]
    order = sorted(range(len(hands)), key=lambda i: keys[i], reverse=True)
    ranks = [0] * len(hands)
    for r, i in enumerate(order, start=1):
        ranks[i] = r
    return tuple(ranks)


def luck_units(ranks: Sequence[int]) -> tuple[Fraction, ...]:
    """The luck term of each seat of a fresh deal, in stake units: the value of its rank.

    Raises ``KeyError`` for a table size outside 2..10 (RULES 1.3).

    >>> [str(v) for v in luck_units((2, 1))]
    ['-4', '4']
    """
    values = RANK_VALUES[len(ranks)]
    return tuple(values[r - 1] for r in ranks)


EXACT_LIMIT: Final = 20_000
"""Up to this many distinct placings of a partly fresh deal's unseen cards, the average is exact."""
SAMPLES: Final = 4_000
"""Beyond :data:`EXACT_LIMIT`, the number of seeded random orders the average is taken over."""

Hands = Sequence[tuple[int, int, int]]
Value = Callable[[tuple[int, ...]], Sequence[Fraction]]
"""A value function of a deal: the ranks of the seats' new hands -> each seat's value (units)."""


def order_average(
    hands: Hands, unseen: frozenset[int] | set[int], value: Value | None = None
) -> tuple[Fraction, ...]:
    """The average of each seat's value (``value`` of the ranks, by default :func:`luck_units`,
    the baseline) over every order of the deal's ``unseen`` cards in the places they were dealt to
    (RULES 3.4).

    ``hands``: the new hands, one per seat (card codes); ``unseen``: the codes among them not
    dealt since the last shuffle (RULES 3.2). The other cards stay where they are. Exact over every
    distinct placing (a hand is a set) up to :data:`EXACT_LIMIT` placings; beyond, the mean over
    :data:`SAMPLES` orders drawn by a generator seeded by the known cards and the unseen set only
    (nothing of the order that came). Raises ``KeyError`` outside 2..10 seats (RULES 1.3).
    """
    kept = [tuple(c for c in h if c not in unseen) for h in hands]
    sizes = [3 - len(k) for k in kept]
    pool = sorted(unseen)
    count = math.factorial(len(pool))
    for k in sizes:
        count //= math.factorial(k)
    if count <= EXACT_LIMIT:
        orders = placings(pool, sizes)
    else:
        orders = shuffled_orders(pool, SAMPLES, repr((kept, pool)).encode())
        count = SAMPLES
    ranks = ranks_of(kept, orders)
    n = len(hands)
    if isinstance(value, TendencyValue):  # whole units of 1/den: summed exactly as integers
        return tuple(Fraction(int(x), value.den * count) for x in value.rows(ranks).sum(axis=0))
    if value is None:  # the baseline: whole half units, summed as integers
        halves = np.array([int(v * 2) for v in RANK_VALUES[n]], dtype=np.int64)
        sums = halves[ranks - 1].sum(axis=0)
        return tuple(Fraction(int(x), 2 * count) for x in sums)
    totals = [Fraction(0)] * n
    for row in ranks.tolist():
        totals = [t + v for t, v in zip(totals, value(tuple(row)), strict=True)]
    return tuple(t / count for t in totals)


def rank_average(n: int, value: Value) -> tuple[Fraction, ...]:
    """Each seat's average of ``value`` over the ``n!`` orders of the ranks 1..n: its exact
    expectation in a fresh deal, whose ranks are a uniform order of the seats (the hands are
    exchangeable, RULES 3.4; ties ordered by the cards). The baseline's is 0. Costs ``n!`` calls
    (a closed form for a :class:`~analytics.tendencies.TendencyValue`)."""
    if isinstance(value, TendencyValue):  # in closed form: n! orders are too many at ten
        scale = value.den * n * (n - 1)
        return tuple(Fraction(int(x), scale) for x in value.average())
    totals = [Fraction(0)] * n
    count = 0
    for ranks in permutations(range(1, n + 1)):
        totals = [t + v for t, v in zip(totals, value(ranks), strict=True)]
        count += 1
    return tuple(t / count for t in totals)


def deal_units(
    hands: Hands, unseen: frozenset[int] | set[int], value: Value | None = None
) -> tuple[Fraction, ...] | None:
    """Each seat's luck term in stake units for a deal whose ``unseen`` cards (RULES 3.2) are the
    whole unseen top of the pack (or more: a fresh deal), or ``None`` when the deal has no
    unseen card (no chance in it: term 0).

    Fresh (every card unseen): :func:`luck_units` of :func:`deal_ranks`, whose average over the
    orders is exactly 0 (another ``value``: minus its :func:`rank_average`). Partly fresh: the
    value minus :func:`order_average`."""
    cards = {c for h in hands for c in h}
    here = cards & set(unseen)
    if not here:
        return None
    ranks = deal_ranks(hands)
    got = luck_units(ranks) if value is None else tuple(value(ranks))
    if here == cards:
        if value is None:
            return got
        mean = rank_average(len(hands), value)
    else:
        mean = order_average(hands, frozenset(here), value)
    return tuple(v - m for v, m in zip(got, mean, strict=True))


def _whole(exact: Sequence[Fraction]) -> list[int]:
    """``exact`` rounded to whole numbers keeping their sum (a whole number): largest
    remainders, ties to the lower index."""
    low = [math.floor(x) for x in exact]
    short = round(sum(exact)) - sum(low)
    order = sorted(range(len(exact)), key=lambda i: (-(exact[i] - low[i]), i))
    for i in order[:short]:
        low[i] += 1
    return low


class LuckTracker:
    """Follows a session's shuffles and deals and gives each deal's luck terms in ticks.

    Call :meth:`shuffled` at each ``shuffled`` event, :meth:`acted` with each player's action
    and the state before it, and :meth:`dealt` with the engine's state after each ``dealt``
    event (a refold after a correction starts a new tracker). At two to seven players the value
    of a deal is the forest's (:mod:`analytics.luck_forest`); else, at a table size the tendency
    model knows (:mod:`analytics.tendencies`: every size, 2 to 10), that of the seats'
    tendencies shown in the session's earlier deals, else :data:`RANK_VALUES`."""

    __slots__ = ("_exact", "_since_shuffle", "_tendencies", "_written")

    def __init__(self, prior: Mapping[str, Mapping[str, int]] | Prior | None = None) -> None:
        """``prior``: each player's signature counts from before the session, by name or as a
        function of the name (:class:`analytics.tendencies.Tendencies`; in the projection their
        latest earlier sessions', :mod:`analytics.priors`)."""
        self._tendencies = Tendencies(prior)
        """What each player did in the deals before the current one."""
        self._since_shuffle: set[int] = set()
        """Card codes dealt since the last shuffle (RULES 3.2)."""
        self._exact: list[Fraction] = []
        """Each seat's exact sum of terms so far (ticks)."""
        self._written: list[int] = []
        """Each seat's sum of the whole ticks written so far."""

    def shuffled(self) -> None:
        """RULES 3.2: a shuffle: every card is unseen again."""
        self._since_shuffle.clear()

    def acted(self, event: AnyEvent, before: State) -> None:
        """Any event, ``before`` the state it was applied to: a player's action (RULES 5-6) is
        noted for the tendencies of the next deals; other events are ignored."""
        if event.type not in ACTION_TYPES:
            return
        player: str = event.player  # type: ignore[union-attr]  # every action names its player
        self._tendencies.acted(event.type, player, before.players[before.seat(player)].seen)

    def dealt(self, state: State) -> tuple[int, ...] | None:
        """The luck term of each seat for the deal just dealt (ticks of ``state.scale``).

        ``None`` where it is not defined: a ``cards: "shown"`` session or a deal whose hands the
        log does not hold. All zeros for a deal with no unseen card (RULES 3.3). Otherwise
        :func:`deal_units` of the deal (fresh or partly fresh), its unseen cards being those not
        dealt since the last shuffle; a term that is not whole ticks is written rounded so
        that each seat's running sum stays within one tick of the exact one (sum 0 per deal)."""
        self._tendencies.dealt(state.seats)
        hands: list[tuple[int, int, int]] = []
        for p in state.players:
            new = [h.cards for h in p.hands if h.origin == "new"]
            if state.cards_mode != "all" or len(new) != 1 or new[0] is None:
                return None
            hands.append(new[0])
        cards = {c for h in hands for c in h}
        unseen = cards - self._since_shuffle
        self._since_shuffle |= cards
        if len(self._exact) != len(hands):
            self._exact, self._written = [Fraction(0)] * len(hands), [0] * len(hands)
        units = None
        if unseen and self._top_used_up(cards, unseen):
            units = self._units(hands, unseen, cards, state.dealer)
        if units is None:
            return (0,) * len(hands)
        self._exact = [e + u * state.scale for e, u in zip(self._exact, units, strict=True)]
        whole = _whole(self._exact)
        out = tuple(w - o for w, o in zip(whole, self._written, strict=True))
        self._written = whole
        return out

    def _units(
        self,
        hands: list[tuple[int, int, int]],
        unseen: set[int],
        cards: set[int],
        dealer: int | None,
    ) -> tuple[Fraction, ...] | None:
        """The terms (stake units) of a fresh or partly fresh deal: the forest's value at a table
        size it was fitted for (:mod:`analytics.luck_forest`), else the tendencies'."""
        weights = self._tendencies.weights()
        units = None
        if weights is not None and dealer is not None:
            if unseen == cards:
                units = forest_units(hands, weights, dealer)
            else:
                units = partly_fresh_units(hands, unseen, weights, dealer)
        if units is None:
            units = deal_units(hands, unseen, self._tendencies.value())
        return units

    def own(self, *, closing: bool = False) -> dict[str, Counter[str]]:
        """Each player's signature counts in this session (the prior's left out):
        :meth:`analytics.tendencies.Tendencies.own`."""
        return self._tendencies.own(closing=closing)

    def taken(self) -> dict[str, Counter[str]]:
        """The prior's counts of each player seated so far, as taken."""
        return self._tendencies.taken()

    def weights(self) -> tuple[tuple[int, ...], ...] | None:
        """The current deal's seats' posteriors over the styles
        (:meth:`analytics.tendencies.Tendencies.weights`): what its value reads, known before
        the cards came."""
        return self._tendencies.weights()

    def _top_used_up(self, cards: set[int], unseen: set[int]) -> bool:
        """A fresh deal, or a partly fresh one that took every unseen card (RULES 3.3-3.4: the
        unseen top runs out before any card comes from under the pack). Anything else (a pack
        the log does not explain) gets no term."""
        if unseen == cards:
            return True
        return len(self._since_shuffle) == CODES


LUCK_ABSENT = (
    "A session that records only the cards shown at showdowns (cards: shown, a real table) has no "
    "luck-adjusted net: its dealt hands, and so the luck in them, are not known (docs/luck.md)."
)


def luck_note(rows: Sequence[dict[str, Any]]) -> str | None:
    """The one line saying why the luck-adjusted net leaves deals out, or ``None`` when every
    deal of ``rows`` (:func:`analytics.queries.player_stats`) has its luck term."""
    if all((r.get("luck_deals") or 0) == r.get("deals") for r in rows):
        return None
    if not any(r.get("luck_deals") for r in rows):
        return LUCK_ABSENT
    return (
        "The luck-adjusted net counts only the deals of sessions that record every card, and of a "
        "session still in play only the deals before its last shuffle: the others open when it "
        "ends (their hands are hidden until then, docs/luck.md). " + LUCK_ABSENT
    )
