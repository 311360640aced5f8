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
  the earlier deals and by how they were played; its luck term is 0 (no correction).
- **The baseline value.** At a table of ``n`` players the new hands are ranked best first
  (RULES 2: :func:`engine.hands.strength_codes`; two equal hands ordered by their card codes, a
  fixed order of the cards that depends on no seat). The value of rank ``r`` is
  :data:`RANK_VALUES` ``[n][r - 1]``: the average net of the ``r``-th best new hand in simulated
  play, fitted once offline (``bench/luck_fit.py``) and frozen here, centred to sum to 0.
- **Mean zero.** In a fresh deal the ``n`` new hands are ``n`` disjoint three-card sets drawn in
  order from a uniformly shuffled remainder of the pack: exchangeable between the seats. The
  order of the hands depends only on the cards, so each seat holds each rank with chance exactly
  ``1/n``, and the expected luck term is ``sum(RANK_VALUES[n]) / n = 0``, given anything played
  before, whatever the players do. The terms of one deal also sum to 0.
- **Whole ticks.** The values are whole half-units, and a session's ``den`` (ticks per unit) is
  twice the ante's denominator, so a term is a whole number of ticks: no rounding, no bias.

A retained hand (RULES 6.2-6.4) is not one of the new hands: the holder's rank is that of the
new hand dealt to them (the old hand's luck belongs to the deal it was dealt in).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Final

from engine.hands import strength_codes

if TYPE_CHECKING:
    from engine.state import State

__all__ = [
    "LUCK_ABSENT",
    "RANK_VALUES",
    "LuckTracker",
    "deal_ranks",
    "luck_note",
    "luck_units",
]

_H = Fraction(1, 2)

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


class LuckTracker:
    """Follows a session's shuffles and deals and gives each deal's luck terms in ticks.

    Call :meth:`shuffled` at each ``shuffled`` event and :meth:`dealt` with the engine's state
    after each ``dealt`` event (a refold after a ``voided`` starts a new tracker)."""

    __slots__ = ("_since_shuffle",)

    def __init__(self) -> None:
        self._since_shuffle: set[int] = set()
        """Card codes dealt since the last shuffle (RULES 3.2)."""

    def shuffled(self) -> None:
        """RULES 3.2: a shuffle: every card is unseen again."""
        self._since_shuffle.clear()

    def dealt(self, state: State) -> tuple[int, ...] | None:
        """The luck term of each seat for the deal just dealt (ticks of ``state.scale``).

        ``None`` where it is not defined: a ``cards: "shown"`` session or a deal whose hands the
        log does not hold. All zeros for a deal with a card dealt before since the last shuffle
        (RULES 3.3). A fresh deal: :func:`luck_units` of :func:`deal_ranks`."""
        hands: list[tuple[int, int, int]] = []
        for p in state.players:
            new = [h.cards for h in p.hands if h.origin == "new"]
            if state.cards_mode != "all" or len(new) != 1 or new[0] is None:
                return None
            hands.append(new[0])
        cards = {c for h in hands for c in h}
        fresh = self._since_shuffle.isdisjoint(cards)
        self._since_shuffle |= cards
        if not fresh:
            return (0,) * len(hands)
        return tuple(int(v * state.scale) for v in luck_units(deal_ranks(hands)))


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
