"""The play-out luck term of ``bench/luck_rollout.py`` (docs/luck.md; RULES 3.2-3.4): exactly
unbiased for its fixed seeds (its average over every order of the unseen cards is 0, with and
without a control), and built from nothing of the deal's own play."""

from __future__ import annotations

import copy
import random
from dataclasses import replace
from itertools import permutations

import numpy as np
import pytest

from analytics.luck import luck_units, order_average
from bench.luck_rollout import rollout_term
from engine.state import card_codes
from events.model import Dealt
from sim.replay import Snapshot, before_deals, play_out
from sim.table import SessionSpec


def _partly_fresh_heads_up() -> tuple[Snapshot, frozenset[int]]:
    """A heads-up deal that takes the last unseen cards (RULES 3.3-3.4) and two from under the
    pack, with the unseen top before it (4 cards: 24 orders)."""
    for seed in range(20):
        spec = SessionSpec("s", (("P0", "seer"), ("P1", "loose")), seed)
        events, snaps = before_deals(spec)
        since: set[int] = set()
        deal = 0
        for e in events:
            if e.type == "shuffled":
                since = set()
            elif isinstance(e, Dealt) and e.hands is not None:
                cards = {c for h in e.hands.values() for c in card_codes(h)}
                top = frozenset(range(52)) - since
                if cards & top and cards - top:
                    return snaps[deal], top
                since |= cards
                deal += 1
    raise AssertionError("no partly fresh heads-up deal in 20 sessions")


def _ordered(snap: Snapshot, top: frozenset[int], order: tuple[int, ...]) -> Snapshot:
    """``snap`` with the unseen top of its pack in ``order`` (the cards under it as they were)."""
    t = copy.copy(snap.table)
    pack = t.state.pack or ()
    assert set(pack[: len(top)]) == top
    t.state = replace(t.state, pack=(*order, *pack[len(top) :]))
    return Snapshot(snap.deal, t)


def test_term_averages_to_zero_over_every_order_of_the_unseen_cards() -> None:
    """For fixed seeds, the term's mean over the 24 orders of a heads-up partly fresh deal's
    unseen top is 0 for each seat (to float rounding), with no control and with the rank value
    as control (its exact mean over the orders: :func:`analytics.luck.order_average`); the term
    is not 0 for every order."""
    snap, top = _partly_fresh_heads_up()
    assert len(top) == 4
    orders = list(permutations(sorted(top)))
    plain, controlled, spread = np.zeros(2), np.zeros(2), []
    for order in orders:
        s = _ordered(snap, top, order)
        hands, _ = play_out(s, "probe")
        mean = np.array([float(x) for x in order_average(hands, set(top), luck_units)])
        term = rollout_term(s, top, "k", 1, 2)
        plain += term
        controlled += rollout_term(s, top, "k", 1, 2, (luck_units, mean))
        spread.append(float(np.abs(term).max()))
    assert np.allclose(plain / len(orders), 0.0, atol=1e-9)
    assert np.allclose(controlled / len(orders), 0.0, atol=1e-9)
    assert max(spread) > 1  # a real term, not zeros


def test_a_model_of_play_drawn_from_weights_keeps_the_mean_at_zero() -> None:
    """With each seat's style drawn from weights (``model``, as ``bench/luck.py --model
    posterior`` draws them from the tendencies' posterior, known before the deal), the same draw
    serves the cards that came and the reordered tops: the mean over the 24 orders is still 0 for
    each seat, and a model that names other styles than the players' own gives another term."""
    snap, top = _partly_fresh_heads_up()
    orders = list(permutations(sorted(top)))
    rock = [[0, 0, 0, 64, 0], [0, 0, 0, 64, 0]]  # styles() order: blind bluffer loose rock seer
    mixed = [[16, 16, 16, 16, 0], [0, 32, 0, 0, 32]]
    total, differs = np.zeros(2), False
    for order in orders:
        s = _ordered(snap, top, order)
        term = rollout_term(s, top, "k", 2, 4, model=mixed)
        total += term
        differs |= not np.array_equal(rollout_term(s, top, "k", 2, 4, model=rock), term)
    assert np.allclose(total / len(orders), 0.0, atol=1e-9)
    assert differs


def test_term_uses_nothing_of_the_deals_own_play() -> None:
    """The actual play of the deal is drawn from the players' and the table's generators as they
    stand in the snapshot; drawing them anew changes the deal's play (its nets) but not the term,
    which depends on the cards and the run's key only."""
    spec = SessionSpec("s", (("P0", "rock"), ("P1", "blind"), ("P2", "bluffer")), 3)
    _, snaps = before_deals(spec)
    snap = snaps[0]
    top = frozenset(range(52))  # deal 1 is fresh: every card unseen
    term = rollout_term(snap, top, "key", 2, 4)
    nets = set()
    for k in range(4):
        t = copy.deepcopy(snap.table)
        t.rng = random.Random(f"other/{k}")
        for name, p in t.players.items():
            p.rng = random.Random(f"other/{k}/{name}")
        other = Snapshot(snap.deal, t)
        nets.add(play_out(other, f"actual/{k}")[1])
        assert np.array_equal(rollout_term(other, top, "key", 2, 4), term)
    assert len(nets) >= 2, "other generators played the deal otherwise"
    assert term.any()


@pytest.mark.parametrize(("same", "orders"), [(0, 2), (2, 3), (2, 0)])
def test_orders_must_be_a_positive_multiple_of_same(same: int, orders: int) -> None:
    """M must pair each seed of play with as many orders (else the term is not unbiased)."""
    _, snaps = before_deals(SessionSpec("s", (("P0", "rock"), ("P1", "seer")), 1))
    with pytest.raises(ValueError, match="multiple"):
        rollout_term(snaps[0], frozenset(range(52)), "k", same, orders)
