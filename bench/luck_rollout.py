"""A luck term at the deal whose value is the deal played out again by the players' strategies.

The value of a deal for seat *i* is its expected net in the deal given the cards dealt (every
hand: the log knows them all, ``cards: "all"``) and everything before the deal, under a model of
each player's strategy fixed before the deal (in ``bench/luck.py``: the simulator's styles, known
exactly; for a club, models fitted on earlier sessions). It is estimated by playing the deal out
again from just before it (:func:`sim.replay.play_out`):

    term_i = mean_k R_i(c, s_k)
             - mean_m [R_i(pi_m c, s_(m mod K)) - C_i(pi_m c)] - E[C_i]

- ``c``: the order of the unseen top of the pack that came (RULES 3.2); ``R_i(c, s)``: seat *i*'s
  net when the deal is played out from the same table with the players' generators seeded by
  ``s``; ``s_1..s_K`` (``same``) and the orders ``pi_1..pi_M`` (``orders``, a multiple of K) are
  drawn from seeds made of the run's seed, the session's number and the deal's number only:
  nothing of the deal's cards or play.
- ``C``: a control (the value of the ranks; for a fresh deal only, where its exact average over
  the orders ``E[C_i]`` is :func:`analytics.luck.rank_average`; partly fresh deals use none).

**Exactly unbiased for any fixed seeds**: given the past, ``c`` is a uniform order of the unseen
top, so each ``pi_m c`` is too (a fixed permutation of a uniform order), and ``E[R_i(pi_m c, s)]
= E[R_i(c, s)]`` for the same ``s``; each ``s_k`` is paired with ``M/K`` orders, so the two means
of ``R`` have the same expectation, and ``E[C_i(pi_m c)] = E[C_i]``. The term's expectation given
everything before the deal is 0, whatever the strategies the play-outs use (a wrong model only
removes less spread). Play-outs with the seeds paired (common random numbers) also cancel part of
the play's own noise.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from fractions import Fraction

import numpy as np

from analytics.luck import deal_ranks
from analytics.tendencies import styles
from sim.replay import Snapshot, play_out

Control = Callable[[tuple[int, ...]], Sequence[Fraction]]
"""The ranks of a deal's new hands -> each seat's control value (stake units)."""


def rollout_term(
    snap: Snapshot,
    unseen: frozenset[int],
    key: str,
    same: int,
    orders: int,
    control: tuple[Control, np.ndarray] | None = None,
    model: Sequence[Sequence[int]] | None = None,
) -> np.ndarray:
    """Each seat's term (stake units, floats) for the deal of ``snap`` (fresh or partly fresh:
    ``unseen``, the unseen top of the pack before it, RULES 3.2, must be the pack's top).

    ``key``: the seed of the play-outs, made only of what is known before the deal; ``same``
    (K >= 1) play-outs of the cards that came, ``orders`` (M, a multiple of K) of reordered tops;
    ``control``: a value of the ranks and its exact average over the orders (fresh deals only).
    ``model``: each seat's weights over :func:`analytics.tendencies.styles` (the tendencies'
    posterior, known before the deal): each seed of play draws every seat's style from its
    weights (the same draw for the cards that came and the reordered tops, so still unbiased),
    instead of the players' own strategies. Raises ``ValueError`` if ``orders`` is not a
    positive multiple of ``same``."""
    if same < 1 or orders < same or orders % same:
        raise ValueError("rollout_term: orders must be a positive multiple of same")
    seats = snap.table.state.seats
    drawn = [_styles(seats, model, f"{key}/play{k}/styles") for k in range(same)]
    came = np.zeros(len(seats))
    for k in range(same):
        _, nets = play_out(snap, f"{key}/play{k}", styles=drawn[k])
        came += np.array([float(x) for x in nets])
    base = np.zeros_like(came)
    for m in range(orders):
        play = f"{key}/play{m % same}"
        hands, nets = play_out(snap, play, unseen, f"{key}/order{m}", drawn[m % same])
        base += np.array([float(x) for x in nets])
        if control is not None:
            base -= np.array([float(v) for v in control[0](deal_ranks(hands))])
    term = came / same - base / orders
    if control is not None:
        term -= control[1]
    return term


def _styles(
    seats: Sequence[str], model: Sequence[Sequence[int]] | None, seed: str
) -> dict[str, str] | None:
    """Each seat's style drawn from its weights (``None`` without a model: their own)."""
    if model is None:
        return None
    rng = random.Random(seed)
    names = styles()
    return {p: rng.choices(names, weights=w)[0] for p, w in zip(seats, model, strict=True)}


def most_likely(model: Sequence[Sequence[int]]) -> list[list[int]]:
    """Each seat's weights put all on its most likely style (ties: the first in
    :func:`analytics.tendencies.styles` order)."""
    return [[int(k == max(range(len(w)), key=w.__getitem__)) for k in range(len(w))] for w in model]
