"""The solved heads-up game (issue 38.1): buckets, the tree's rules, CFR+ against an independent
best response, EV losses and grades."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.hands import strength_codes
from solver.best_response import best_value, exploitability
from solver.buckets import buckets
from solver.cfr import solve
from solver.game import FOLD, KEEP, RAISE, SEE, Abstraction, build
from solver.grades import BEST, grade, rank
from solver.review import ABSTRACTION
from solver.solution import ITERATIONS, STATUSES, solve_game, subgame

SMALL = Abstraction(buckets=10, max_bets=3, max_level=3)
ALL = [(False, False), (False, True), (True, False), (True, True)]


def test_buckets_partition_the_hands_and_their_chances_are_the_hands_own() -> None:
    bk = buckets(100)
    assert abs(bk.prior.sum() - 1.0) < 1e-12
    assert np.allclose(bk.win + bk.win.T + bk.tie, 1.0)
    # 3-3-3 (codes 4..7 are the threes: rank-major, RULES 2.3) is in the top bucket
    assert bk.of_strength(strength_codes(4, 5, 6)) == 99
    # the chance bucket 98 beats bucket 97, counted hand by hand
    hands = [h for h in combinations(range(52), 3)]
    keys = [strength_codes(*h) for h in hands]
    mine = [k for k in keys if bk.of_strength(k) == 98]
    theirs = [k for k in keys if bk.of_strength(k) == 97]
    wins = sum(a > b for a in mine for b in theirs) / (len(mine) * len(theirs))
    ties = sum(a == b for a in mine for b in theirs) / (len(mine) * len(theirs))
    assert bk.win[98, 97] == pytest.approx(wins)
    assert bk.tie[98, 97] == pytest.approx(ties)


@pytest.mark.parametrize("seen", ALL)
def test_the_tree_charges_as_rules_5_3_to_5_7_say(seen: tuple[bool, bool]) -> None:
    tree = build(SMALL, seen)
    for n in tree.nodes:
        if n.kind != "dec":
            continue
        opp = 1 - n.player
        if SEE in n.actions:
            c = tree.nodes[n.children[n.actions.index(SEE)]]
            cost = n.level if n.blind else 2 * n.level  # RULES 5.7
            assert c.paid[n.player] - n.paid[n.player] == cost
        else:  # a seen player may not see a blind one; nobody sees before a level
            assert not n.level or (not n.blind and not n.seen[opp]) or n.bets == 0
        for a in (KEEP, RAISE):
            if a in n.actions:
                c = tree.nodes[n.children[n.actions.index(a)]]
                assert c.paid[n.player] - n.paid[n.player] == c.level / (2 if n.blind else 1)
        f = tree.nodes[n.children[n.actions.index(FOLD)]]
        net_opp = (f.pot if n.seen[opp] else f.pot / 2) - f.paid[opp]  # RULES 5.6, 6.1
        assert (f.value if opp == 0 else -f.value) == pytest.approx(net_opp)


@pytest.mark.parametrize("dead", [0.0, 2.0])
def test_cfr_plus_drives_the_independent_best_response_down(dead: float) -> None:
    """Also with dead money (others' antes): the game stays zero-sum once each value is less
    half of it, so the best responses' gains are 0 or more."""
    bk = buckets(SMALL.buckets)
    tree = build(SMALL, (False, False), dead)
    few = exploitability(tree, solve(tree, bk, 5)[0], bk)
    many = exploitability(tree, solve(tree, bk, 400)[0], bk)
    assert many < few / 5
    assert 0 <= many < 0.002


def test_a_uniform_strategy_is_far_from_the_equilibrium() -> None:
    bk = buckets(SMALL.buckets)
    tree = build(SMALL, (True, True))
    uniform = np.zeros((len(tree.nodes), 5, SMALL.buckets))
    for k, n in enumerate(tree.nodes):
        for a in n.actions:
            uniform[k, a] = 1 / len(n.actions)
    assert exploitability(tree, uniform, bk) > 0.1
    # against itself the best response is at least the strategy's own value
    sol = subgame(SMALL, (True, True), 0.0, 300, cache=False)
    assert best_value(tree, sol.strategy, bk, 0) >= sol.value() - 1e-9


@pytest.mark.parametrize("seen", ALL)
def test_the_best_action_loses_nothing_and_no_action_gains(seen: tuple[bool, bool]) -> None:
    sol = subgame(SMALL, seen, 1.0, 200, cache=False)
    for k, n in enumerate(sol.tree.nodes):
        if n.kind != "dec":
            continue
        for hand in [None] if n.blind else range(SMALL.buckets):
            evs = sol.ev(k, hand)
            if evs is None:
                continue
            losses = [max(evs.values()) - v for v in evs.values()]
            assert min(losses) == 0 and all(x >= 0 for x in losses)


@given(
    st.floats(0, 20, allow_nan=False),
    st.floats(0, 20, allow_nan=False),
    st.floats(0, 20, allow_nan=False),
)
def test_grades_never_improve_as_the_loss_grows(x: float, y: float, runner: float) -> None:
    lo, hi = sorted((x, y))
    assert rank(grade(lo, runner, "see")) >= rank(grade(hi, runner, "see"))
    assert grade(0.0, runner, "see") in ("best", "the only see")
    if hi > BEST:
        assert rank(grade(hi, runner, "see")) < rank("best")


@pytest.mark.slow
def test_the_reference_solution_is_below_a_thousandth_of_an_ante() -> None:
    sol = solve_game(ABSTRACTION, ITERATIONS)
    assert 0 <= sol.exploitability() < 0.001
    assert len(sol.digest()) == 64 and set(sol.games) == set(STATUSES)


@pytest.mark.slow
@pytest.mark.parametrize("seen", ALL)
def test_folding_a_prial_of_threes_is_the_worst_there_is(seen: tuple[bool, bool]) -> None:
    """At every seen decision where a bet or a see is open, folding 3-3-3 is a blunder with the
    largest loss of the spot's actions."""
    sol = subgame(ABSTRACTION, seen, 0.0, ITERATIONS)
    threes = buckets(ABSTRACTION.buckets).of_strength(strength_codes(4, 5, 6))
    spots = 0
    for k, n in enumerate(sol.tree.nodes):
        if n.kind != "dec" or n.blind:
            continue
        evs = sol.ev(k, threes)
        if evs is None:
            continue
        top = max(evs.values())
        losses = {a: top - v for a, v in evs.items()}
        assert losses[FOLD] == max(losses.values())
        assert grade(losses[FOLD], 0.0, "fold") == "blunder"
        spots += 1
    assert spots > 0
