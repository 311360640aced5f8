"""Ratings from the log: a Gaussian rating on each finished session's luck-adjusted net.

Pure: no DuckDB here (``analytics/skill_rows.py`` reads the rows). Each player has a rating
``mu``, in **stake units a session**: the adjusted net they are expected to take from a table of
players rated 0, with an uncertainty ``sigma`` (a newcomer is 0 ± 25). The model, a normal
(Kalman) update in the manner of TrueSkill through time, one factor a player:

- A session's **adjusted net** (``docs/luck.md``) of player ``i`` among ``k`` is modelled as
  ``y_i ~ N(s_i - mean(s_j, j != i), noise^2)``: the player's skill less the mean skill of the
  others at the table. So the whole margin counts, not only the order of finish, and a net won
  from strong players counts for more than one won from weak ones.
- **The update.** The prediction is ``mu_i - mean(mu_j)``, its variance ``v_i = sigma_i^2 +
  sum(sigma_j^2) / (k - 1)^2 + noise^2``; with the gain ``K_i = sigma_i^2 / v_i``, ``mu_i``
  moves by ``K_i (y_i - prediction)`` and ``sigma_i^2`` shrinks to ``(1 - K_i) sigma_i^2``, the
  exact posterior of ``s_i`` given ``y_i`` alone with the others' ratings as they were (each
  player a factor of its own: the players' updates are independent of each other's net).
- **The noise** is estimated from the data, in order: the mean of ``y^2`` over every rated row
  *before* the session (the others' skill differences are small beside the luck: at five
  players the simulated styles differ by about 16 units a session against an SD of about 100),
  starting from :data:`NOISE_START` weighing :data:`NOISE_WEIGHT` rows. It is read before the
  session and its own rows added after, so a session's nets never move its own gain, and a
  correction moves nothing rated before it.
- **A winner never sees the rating fall** (:data:`WINNER_RULE`): a player whose adjusted net is
  positive (or who is first by it) keeps at least the ``mu`` they came in with. Without the rule
  the update lowers such a player only when it expected more (``y_i`` above 0 but below the
  prediction); ``sigma`` never grows (``K_i`` is in (0, 1)), so ``mu - 2 sigma`` rises too.
- **Order**: by the session's start (``started``), then its id; the whole history is rebuilt
  from the log each time it is asked for (:func:`rebuild`), so a correction re-rates the session
  it touches and everything after it, with nothing stored to fall out of date.

Why not a placing model (openskill's Plackett-Luce, the ratings until issue 37 item 3): a place
throws away the margin, and the order of places is not the order of mean nets (a careful style
finishes in the middle, rarely first); on the simulated clubs of ``bench/ratings.py`` it needs
more than 1,500 sessions to recover the order the mean adjusted net gives in about 350, this
rating about as many as the mean (``docs/skill.md``). openskill 6's
``scores``/``margin`` only tilt the same placing likelihood (``log1p`` of the score gap bends
each player's ``mu`` in the sums), and no maintained package in the environment models a
normal margin; this update is twenty lines, checked in the tests against numpy conditioning the
joint normal.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Final, NamedTuple

__all__ = [
    "NOISE_START",
    "NOISE_WEIGHT",
    "START",
    "WINNER_RULE",
    "Rated",
    "Ratings",
    "Step",
    "places",
    "rate",
    "rebuild",
]

SIGMA_START: Final = 25.0
"""A newcomer's uncertainty, stake units a session: wider than the spread of the simulated
styles (about 16) so a first session moves a newcomer most."""

START: Final = (0.0, SIGMA_START)
"""A newcomer's rating: 0 ± 25 stake units a session."""

NOISE_START: Final = 100.0
"""The guess of a session's adjusted-net SD (stake units) before any data: about the simulated
one at five players (``docs/skill.md``)."""

NOISE_WEIGHT: Final = 50
"""How many rated rows :data:`NOISE_START` weighs in the running estimate of the noise."""

WINNER_RULE: Final = (
    "A player who wins a session (a positive luck-adjusted net, or first by it) never sees the "
    "rating fall for it: they keep at least the rating they came in with."
)


def rate(
    mus: Sequence[float], sigmas: Sequence[float], nets: Sequence[float], noise: float
) -> tuple[list[float], list[float]]:
    """One session's update (module doc): the new ``mu`` and ``sigma`` (stake units a session)
    of each player from their adjusted ``nets`` (stake units) and the noise SD ``noise``; no
    :data:`WINNER_RULE` here (:func:`rebuild` applies it). Two players or more; raises
    ``ValueError`` on lengths that differ or fewer than two players."""
    k = len(mus)
    if k < 2 or len(sigmas) != k or len(nets) != k:
        raise ValueError(f"a session needs two players or more, one mu, sigma and net each: {k}")
    var = [s * s for s in sigmas]
    total_mu, total_var, noise2 = sum(mus), sum(var), noise * noise
    new_mu: list[float] = []
    new_sigma: list[float] = []
    for m, v, y in zip(mus, var, nets, strict=True):
        predicted = m - (total_mu - m) / (k - 1)
        spread = v + (total_var - v) / ((k - 1) * (k - 1)) + noise2
        gain = v / spread
        new_mu.append(m + gain * (y - predicted))
        new_sigma.append(math.sqrt(v * (1 - gain)))
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
    """One player's part in one rated session: the place among ``players`` by adjusted net, the
    rating on entering and on leaving (``mu``, ``sigma``, stake units a session), and the
    adjusted ``net`` (stake units)."""

    session: str
    player: str
    place: int
    players: int
    mu_in: float
    sigma_in: float
    mu_out: float
    sigma_out: float
    net: float = 0.0

    @property
    def change(self) -> float:
        return self.mu_out - self.mu_in


@dataclass(frozen=True, slots=True)
class Rated:
    """A player's rating now: ``mu`` ± ``2 sigma`` (about 95%), stake units a session, after
    ``sessions`` rated sessions."""

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
    with the nets in stake units, and two or more players (a session of one is skipped: no one
    to play against). Raises ``ValueError`` for a player listed twice in one session."""
    current: dict[str, tuple[float, float]] = {}
    counts: dict[str, int] = {}
    steps: list[Step] = []
    squares, rows = NOISE_START * NOISE_START * NOISE_WEIGHT, float(NOISE_WEIGHT)
    for session, results in sessions:
        if len(results) < 2:
            continue
        names = [p for p, _ in results]
        if len(set(names)) != len(names):
            raise ValueError(f"session {session!r} lists a player twice: {names}")
        nets = [float(n) for _, n in results]
        ranks = places(nets)
        before = [current.get(p, START) for p in names]
        mus, sigmas = rate(
            [m for m, _ in before], [s for _, s in before], nets, math.sqrt(squares / rows)
        )
        for p, rank, y, (mu_in, sigma_in), mu, sigma in zip(
            names, ranks, nets, before, mus, sigmas, strict=True
        ):
            if y > 0 or rank == 1:
                mu = max(mu, mu_in)  # WINNER_RULE
            current[p] = (mu, sigma)
            counts[p] = counts.get(p, 0) + 1
            steps.append(Step(session, p, rank, len(names), mu_in, sigma_in, mu, sigma, y))
            squares += y * y
        rows += len(names)
    now = sorted(
        (Rated(p, mu, sigma, counts[p]) for p, (mu, sigma) in current.items()),
        key=lambda r: (-r.mu, r.player),
    )
    return Ratings(tuple(now), tuple(steps))
