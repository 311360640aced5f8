"""Ratings from the log: each finished session a free-for-all placing on the luck-adjusted net.

Pure: no DuckDB here (``analytics/skill_rows.py`` reads the rows). The model is the
Plackett-Luce model of Weng and Lin ("A Bayesian approximation method for online ranking",
JMLR 12, 2011, algorithm 4) as the ``openskill`` library implements it (MIT, maintained, made for
many players in one game: a Brag session is a free-for-all of 2 to 10, RULES 1.3, which Elo and
Glicko, built for pairs, are not). Each player has a rating ``mu`` with an uncertainty ``sigma``
(openskill's scale: a newcomer is 25 ± 8.33); a session updates the ratings of those who played
it from their places.

- **Places** come from the luck-adjusted net of the session (``docs/luck.md``): 1 for the highest,
  equal nets share a place (as RULES 1.5 shares a win). Only finished sessions whose every deal has
  a luck term (``cards: "all"``) are rated: a session recording only the cards shown has no
  adjusted net, and an unfinished one's is partial.
- **Order**: by the session's start (``started``), then its id; the whole history is rebuilt
  from the log each time it is asked for (:func:`rebuild`), so a correction re-rates everything
  it touches, and everything after it, with nothing stored to fall out of date.
- **Speed.** openskill's ``rate`` deep-copies its arguments and takes about 45 µs a session of
  five here, 2 s for 10,000 sessions with the bookkeeping: over the 1 s target. :func:`rate` is
  the same algorithm for teams of one, in plain floats (the model's constants read from
  :data:`MODEL`), equal to openskill's to 1e-9 (``tests/analytics/test_ratings.py`` compares
  them on random sessions, ties included); ``bench/ratings.py`` times the rebuild.
- **A winner's rating never falls.** In Plackett-Luce the sole first place's ``mu`` always rises
  (its update is ``sigma^2 / c * (1 - p)`` with ``p < 1`` its modelled chance of winning), and
  ``limit_sigma`` keeps ``sigma`` from growing, so ``mu``, ``mu - 2 sigma`` and ``mu - 3 sigma``
  all rise. Players sharing first place are the one case the model may lower (a favourite tied
  with an outsider); the rule here: **a player in first place keeps at least the rating they
  came in with** (:data:`FIRST_PLACE_RULE`), checked by ``tests/analytics/test_ratings.py``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Final, NamedTuple

from openskill.models import PlackettLuce

__all__ = [
    "FIRST_PLACE_RULE",
    "MODEL",
    "START",
    "Rated",
    "Ratings",
    "Step",
    "places",
    "rate",
    "rebuild",
]

MODEL: Final = PlackettLuce(limit_sigma=True)
"""openskill's Plackett-Luce with its defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300) and
``limit_sigma``: a session never widens a player's uncertainty."""

_TAU2: Final = MODEL.tau * MODEL.tau
_BETA2: Final = MODEL.beta * MODEL.beta
_KAPPA: Final = MODEL.kappa

START: Final = (MODEL.mu, MODEL.sigma)
"""A newcomer's rating: 25 ± 8.33."""

FIRST_PLACE_RULE: Final = (
    "A player in first place keeps at least the rating they came in with (players sharing first "
    "place are the one case Plackett-Luce may lower: their mu is kept)."
)


def rate(
    mus: Sequence[float], sigmas: Sequence[float], ranks: Sequence[int]
) -> tuple[list[float], list[float]]:
    """One session's Plackett-Luce update (Weng and Lin 2011, algorithm 4; openskill's
    ``PlackettLuce.rate`` with :data:`MODEL`'s constants, each player a team of one): the new
    ``mu`` and ``sigma`` of each player from their ``ranks`` (1 best; equal ranks tie). No
    :data:`FIRST_PLACE_RULE` here (:func:`rebuild` applies it).

    Each sigma first grows by tau (``sqrt(sigma^2 + tau^2)``); ``c = sqrt(sum(sigma^2 +
    beta^2))``; with ``e_i = exp(mu_i / c)``, ``S_q`` the sum of ``e`` over the players placed at
    or below ``q`` and ``A_q`` the players sharing ``q``'s place, player ``i`` gains ``sigma_i^2
    / c * sum_q ([q = i] - e_i / S_q) / A_q`` over the ``q`` placed at or above it, and its
    sigma shrinks by ``sqrt(max(1 - delta, kappa))``; ``limit_sigma`` keeps the smaller of the
    old and new sigma."""
    order = sorted(range(len(mus)), key=ranks.__getitem__)
    return _update(mus, sigmas, ranks, order)


def _update(
    mus: Sequence[float], sigmas: Sequence[float], ranks: Sequence[int], order: Sequence[int]
) -> tuple[list[float], list[float]]:
    """:func:`rate` given ``order``: the players sorted by rank, best first."""
    var = [s * s + _TAU2 for s in sigmas]
    c = math.sqrt(sum(var) + len(mus) * _BETA2)
    e = [math.exp(m / c) for m in mus]
    # The places best first, each with S (the sum of e at or below it) and A (how many share
    # it): the q sharing a place contribute alike, so the sums run over places, not players.
    place_rank: list[int] = []
    place_sum: list[float] = []
    place_size: list[int] = []
    for i in order:
        if place_rank and place_rank[-1] == ranks[i]:
            place_sum[-1] += e[i]
            place_size[-1] += 1
        else:
            place_rank.append(ranks[i])
            place_sum.append(e[i])
            place_size.append(1)
    below = 0.0
    for g in range(len(place_sum) - 1, -1, -1):
        below += place_sum[g]
        place_sum[g] = below
    new_mu = list(mus)
    new_sigma = list(sigmas)
    g = -1
    for i in order:
        if g < 0 or place_rank[g] != ranks[i]:
            g += 1
        x = e[i]
        omega = 1.0 / place_size[g]
        delta = 0.0
        for h in range(g + 1):
            t = x / place_sum[h]
            omega -= t
            delta += t * (1 - t)
        v = var[i]
        sd = math.sqrt(v)
        delta *= v / (c * c) * (sd / c)  # openskill's default gamma: sigma_i / c
        new_mu[i] = mus[i] + v / c * omega
        shrunk = sd * math.sqrt(max(1 - delta, _KAPPA))
        new_sigma[i] = shrunk if shrunk < sigmas[i] else sigmas[i]
    return new_mu, new_sigma


def places(nets: Sequence[Fraction | int | float]) -> tuple[int, ...]:
    """Each player's place: 1 + the number of strictly higher nets (equal nets share a place).

    >>> places([3, -1, 3, -5])
    (1, 3, 1, 4)
    """
    ordered = sorted(nets, reverse=True)
    first: dict[Fraction | int | float, int] = {}
    for k, n in enumerate(ordered, start=1):
        first.setdefault(n, k)
    return tuple(first[n] for n in nets)


class Step(NamedTuple):
    """One player's part in one rated session: the place among ``players``, and the rating on
    entering and on leaving (``mu``, ``sigma``)."""

    session: str
    player: str
    place: int
    players: int
    mu_in: float
    sigma_in: float
    mu_out: float
    sigma_out: float

    @property
    def change(self) -> float:
        return self.mu_out - self.mu_in


@dataclass(frozen=True, slots=True)
class Rated:
    """A player's rating now: ``mu`` ± ``2 sigma`` (about 95%), after ``sessions`` rated
    sessions."""

    player: str
    mu: float
    sigma: float
    sessions: int

    @property
    def low(self) -> float:
        return self.mu - 2 * self.sigma

    @property
    def high(self) -> float:
        return self.mu + 2 * self.sigma


@dataclass(frozen=True, slots=True)
class Ratings:
    """Every player's rating now (best ``mu`` first) and every step, in the order rated."""

    now: tuple[Rated, ...]
    steps: tuple[Step, ...]

    def of(self, player: str) -> tuple[Step, ...]:
        """The player's steps, in order: the rating on entering each session."""
        return tuple(s for s in self.steps if s.player == player)


def rebuild(
    sessions: Iterable[tuple[str, Sequence[tuple[str, Fraction | int | float]]]],
) -> Ratings:
    """Rates ``sessions`` in the order given: each ``(session, ((player, adjusted net), ...))``
    (the nets of one session in one unit: stake units or ticks of its den)
    with two or more players (a session of one is skipped: no one to place against). Raises
    ``ValueError`` for a player listed twice in one session."""
    current: dict[str, tuple[float, float]] = {}
    counts: dict[str, int] = {}
    steps: list[Step] = []
    for session, results in sessions:
        if len(results) < 2:
            continue
        names = [p for p, _ in results]
        if len(set(names)) != len(names):
            raise ValueError(f"session {session!r} lists a player twice: {names}")
        nets = [n for _, n in results]
        order = sorted(range(len(nets)), key=nets.__getitem__, reverse=True)
        ranks = [0] * len(nets)
        for k, i in enumerate(order):  # places(nets), from the one sort
            ranks[i] = ranks[order[k - 1]] if k and nets[i] == nets[order[k - 1]] else k + 1
        before = [current.get(p, START) for p in names]
        mus, sigmas = _update([m for m, _ in before], [s for _, s in before], ranks, order)
        for p, rank, (mu_in, sigma_in), mu, sigma in zip(
            names, ranks, before, mus, sigmas, strict=True
        ):
            if rank == 1:
                mu = max(mu, mu_in)  # FIRST_PLACE_RULE
            current[p] = (mu, sigma)
            counts[p] = counts.get(p, 0) + 1
            steps.append(Step(session, p, rank, len(names), mu_in, sigma_in, mu, sigma))
    now = sorted(
        (Rated(p, mu, sigma, counts[p]) for p, (mu, sigma) in current.items()),
        key=lambda r: (-r.mu, r.player),
    )
    return Ratings(tuple(now), tuple(steps))
