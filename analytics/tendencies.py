"""A player's tendencies as the session has shown them: the value behind a stronger luck term.

Pure: no DuckDB. Issue 37 item 1 asks for value functions fixed before the chance event, fitted
offline on simulation and on what the players did *before* it. This module gives
:class:`analytics.luck.LuckTracker` such a value for a table of a size the model knows (every size
from two to ten, :data:`MODEL`):

- **What a player did in a deal** is its *signature* (:func:`signature`): the player's actions in
  order, each marked blind or seen (RULES 5.1), repeated bets run together, the first four kept
  (``"Bb-L-Bs-F"``: a blind bet, a look, a bet seen, a fold).
- **Who they seem to be.** Over the deals of the session *before* the one valued, each player's
  signatures are scored against each style of :data:`sim.players.STYLES` (how often a style plays
  each signature at this table size, fitted offline: ``bench/luck_fit_styles.py``), a naive Bayes
  posterior from an even prior, rounded to whole 64ths (:data:`WEIGHT`).
- **The value** of a deal for seat ``i`` is the style table's value of (its rank, its style, the
  style of the holder of the best other hand) averaged over both players' posteriors, less the
  mean of the seats' values (a deal's values sum to 0): a whole number of ``1 / (2 * 64 * 64 *
  n)`` stake units (:class:`TendencyValue`).

The posterior reads only deals that ended before this one was dealt, so the value is fixed before
the cards come; :mod:`analytics.luck` subtracts its exact average over the orders the cards could
have come in, so the term's mean is exactly 0 whatever anyone does (docs/luck.md). A model that
describes a club's players badly removes less spread; it cannot bias the adjusted net.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

__all__ = [
    "ACTION_TYPES",
    "MODEL",
    "WEIGHT",
    "Prior",
    "Tendencies",
    "TendencyValue",
    "knows",
    "posterior",
    "signature",
    "styles",
    "token",
]

MODEL: Final = Path(__file__).with_name("luck_model.json")
"""The model fitted offline by ``bench/luck_fit_styles.py``: per table size, the style values
(half units) and each style's log-chance of each signature."""
WEIGHT: Final = 64
"""A posterior is rounded to whole ``1 / WEIGHT`` parts (largest remainders): exact values."""
KEEP: Final = 4
"""Tokens of a deal's signature kept."""

_TOKENS: Final = {
    "looked": "L",
    "kept": "K",
    "thrown": "T",
    "bet": "B",
    "folded": "F",
    "saw": "V",
    "shown": "W",
    "conceded": "C",
    "retained": "R",
}

ACTION_TYPES: Final = frozenset(_TOKENS)
"""The event types that are a player's action (RULES 5-6), read as tokens."""

Ints = npt.NDArray[np.int64]


def token(kind: str, seen: bool) -> str | None:
    """The token of one action (``kind`` an event type) by a player who had (``seen``) or had not
    looked at their cards before it (RULES 5.1), or ``None`` for an event that is no one's action.

    >>> token("bet", False), token("bet", True), token("looked", False), token("dealt", True)
    ('Bb', 'Bs', 'L', None)
    """
    code = _TOKENS.get(kind)
    if code is None:
        return None
    if code in "LKT":
        return code
    return code + ("s" if seen else "b")


def signature(tokens: Sequence[str]) -> str:
    """One deal's actions of one player as a signature: repeated bets run together, the first
    :data:`KEEP` tokens kept.

    >>> signature(["Bb", "Bb", "Bb", "L", "Bs", "Bs", "Fs"])
    'Bb-L-Bs-Fs'
    >>> signature([])
    ''
    """
    out: list[str] = []
    for t in tokens:
        if out and t == out[-1] and t[0] == "B":
            continue
        out.append(t)
    return "-".join(out[:KEEP])


@cache
def _model() -> dict[str, Any]:
    if not MODEL.exists():  # pragma: no cover - the file is part of the package
        return {}
    doc: dict[str, Any] = json.loads(MODEL.read_text())
    return doc


def styles() -> tuple[str, ...]:
    """The styles the model knows, in its order."""
    return tuple(_model().get("styles", ()))


@cache
def _values(n: int) -> Ints | None:
    """``[rank, style, other style]`` -> the value in half units, for a table of ``n``; ``None``
    where the model has no table of this size."""
    table = _model().get("values", {}).get(str(n))
    if table is None:
        return None
    names = styles()
    out = np.zeros((n + 1, len(names), len(names)), dtype=np.int64)
    for r in range(1, n + 1):
        for a, s in enumerate(names):
            for b, o in enumerate(names):
                out[r, a, b] = table[f"{r}/{s}/{o}"]
    return out


def knows(n: int) -> bool:
    """Whether the model has a value and signatures for a table of ``n`` players."""
    m = _model()
    return str(n) in m.get("values", {}) and str(n) in m.get("signatures", {})


def posterior(n: int, signatures: Sequence[str] | Mapping[str, int]) -> tuple[int, ...]:
    """The chance of each style (:func:`styles` order) given a player's ``signatures`` at a table
    of ``n`` (a sequence, or each signature's count), from an even prior, in whole ``1 / WEIGHT``
    parts summing to :data:`WEIGHT`.

    Raises ``KeyError`` if the model has no table of this size (:func:`knows`)."""
    counts = signatures if isinstance(signatures, Mapping) else Counter(signatures)
    return _posterior(n, tuple(sorted(counts.items())))


@lru_cache(maxsize=4096)
def _posterior(n: int, counts: tuple[tuple[str, int], ...]) -> tuple[int, ...]:
    table: Mapping[str, Mapping[str, float]] = _model()["signatures"][str(n)]
    names = styles()
    score = [0.0] * len(names)
    for g, times in counts:
        for k, s in enumerate(names):
            row = table[s]
            score[k] += times * row.get(g, row["?"])
    top = max(score)
    chance = [math.exp(x - top) for x in score]
    total = sum(chance)
    exact = [WEIGHT * c / total for c in chance]
    low = [math.floor(x) for x in exact]
    order = sorted(range(len(exact)), key=lambda i: (-(exact[i] - low[i]), i))
    for i in order[: WEIGHT - sum(low)]:
        low[i] += 1
    return tuple(low)


class TendencyValue:
    """The value of a deal given each seat's style weights: for seat ``i`` of rank ``r``,
    ``u_i = sum_s sum_o w_i(s) w_b(o) V[r, s, o]`` with ``b`` the holder of the best other hand,
    centred over the seats (``u_i - mean_j u_j``: the values of a deal sum to 0, so its adjusted
    nets sum to its nets), in whole units of ``1 / den`` stake (``den = 2 * WEIGHT**2 * n``).

    Callable as an :data:`analytics.luck.Value` (ranks -> Fractions, stake units) and, for many
    orders at once, :meth:`rows` (ranks array -> integer array)."""

    __slots__ = ("_w", "den", "n")

    def __init__(self, n: int, weights: Sequence[Sequence[int]]) -> None:
        values = _values(n)
        if values is None or len(weights) != n:
            raise KeyError(n)
        w = np.asarray(weights, dtype=np.int64)  # [seat, style]
        self.n = n
        self.den = 2 * WEIGHT * WEIGHT * n
        # _w[i, r, j]: seat i holding rank r, seat j holding the best other hand
        self._w: Ints = np.einsum("is,rso,jo->irj", w, values, w)

    def rows(self, ranks: Ints) -> Ints:
        """Each seat's value (units of ``1 / den``) in each row of ``ranks`` (shape ``(rows,
        seats)``, 1 the best)."""
        best = np.argmin(ranks, axis=1)  # the seat holding rank 1
        second = np.argmin(np.where(ranks == 1, ranks.shape[1] + 1, ranks), axis=1)
        seats = np.arange(self.n)
        other = np.where(seats[None, :] == best[:, None], second[:, None], best[:, None])
        raw = self._w[seats[None, :], ranks, other]
        out: Ints = raw * self.n - raw.sum(axis=1, keepdims=True)  # centred: a deal sums to 0
        return out

    def average(self) -> Ints:
        """Each seat's exact average of :meth:`rows` over the ``n!`` orders of the ranks (the
        expectation in a fresh deal, RULES 3.4), times ``n * (n - 1)``: seat ``i`` holds each rank
        with chance ``1/n``, and the best other hand is, when ``i`` holds rank 1, the second
        best, else the best, each at any other seat with chance ``1/(n - 1)``. So
        ``E[u_i] = mean over r, over j != i of W[i, r, j]``; the centring is linear."""
        n = self.n
        others = ~np.eye(n, dtype=bool)  # [i, j]: j is another seat than i
        per_seat = (self._w[:, 1:, :] * others[:, None, :]).sum(axis=(1, 2))  # n(n-1) E[u_i]
        out: Ints = per_seat * n - per_seat.sum()
        return out

    def __call__(self, ranks: tuple[int, ...]) -> tuple[Fraction, ...]:
        got = self.rows(np.asarray([ranks], dtype=np.int64))[0]
        return tuple(Fraction(int(x), self.den) for x in got)


Prior = Callable[[str], Mapping[str, int]]
"""A player's name -> their signature counts from before the session (their earlier sessions:
:mod:`analytics.priors`)."""


class Tendencies:
    """Follows one session's actions and gives, at each deal, the value of :class:`TendencyValue`
    from what each seat did in the deals before it (and, given a prior, in earlier sessions)."""

    __slots__ = ("_counts", "_current", "_past", "_prior", "_seats", "_taken")

    def __init__(self, prior: Mapping[str, Mapping[str, int]] | Prior | None = None) -> None:
        """``prior``: each player's signature counts from before the session (their earlier
        sessions), added to what they do in this one: a mapping by name, or a function of the
        name asked once per player, when the player is first seated in a deal (the projection's:
        :mod:`analytics.priors`); none by default."""
        self._past: dict[str, list[str]] = {}
        """Each player's signatures of the deals dealt before the current one."""
        if prior is None or callable(prior):
            self._prior: Prior | None = prior
        else:
            known = prior
            self._prior = lambda name: known.get(name, {})
        self._taken: dict[str, Counter[str]] = {}
        """The prior's counts of each player seated so far, as taken."""
        self._counts: dict[str, Counter[str]] = {}
        """The prior's counts and this session's signatures, counted: a deal's posterior costs
        the distinct signatures, not the deals."""
        self._current: dict[str, list[str]] = {}
        """Each player's tokens in the current deal."""
        self._seats: tuple[str, ...] = ()
        """The seats of the current deal."""

    def signatures(self, player: str) -> tuple[str, ...]:
        """The player's signatures of the deals closed so far, in order."""
        return tuple(self._past.get(player, ()))

    def own(self, *, closing: bool = False) -> dict[str, Counter[str]]:
        """Each player's signature counts in this session (not the prior's): of the deals closed
        so far and, ``closing`` (the session is over), of the current deal too."""
        out = {p: Counter(gs) for p, gs in self._past.items()}
        if closing:
            for player in self._seats:
                out.setdefault(player, Counter())[signature(self._current.get(player, ()))] += 1
        return out

    def taken(self) -> dict[str, Counter[str]]:
        """The prior's counts of each player seated so far, as taken (empty without a prior)."""
        return {p: Counter(c) for p, c in self._taken.items()}

    def acted(self, kind: str, player: str, seen: bool) -> None:
        """A player's action of type ``kind`` (an event type), ``seen`` whether they had looked
        before it."""
        t = token(kind, seen)
        if t is not None:
            self._current.setdefault(player, []).append(t)

    def dealt(self, seats: Sequence[str]) -> None:
        """A new deal among ``seats`` (in seat order): the deal before it closes."""
        for player in self._seats:  # a deal sat through without acting says something too
            g = signature(self._current.get(player, ()))
            self._past.setdefault(player, []).append(g)
            self._counts.setdefault(player, Counter())[g] += 1
        self._current, self._seats = {}, tuple(seats)
        if self._prior is None:
            return
        for player in self._seats:
            if player not in self._taken:
                got = Counter({g: int(k) for g, k in self._prior(player).items() if k})
                self._taken[player] = got
                self._counts.setdefault(player, Counter()).update(got)

    def weights(self) -> tuple[tuple[int, ...], ...] | None:
        """Each seat's posterior over the styles (:func:`posterior`, seat order) from what it did
        in the deals before the current one, or ``None`` for a table size the model does not
        know."""
        n = len(self._seats)
        if not knows(n):
            return None
        return tuple(posterior(n, self._counts.get(p, {})) for p in self._seats)

    def value(self) -> TendencyValue | None:
        """The value of the current deal from what each seat did in the deals before it, or
        ``None`` for a table size the model does not know."""
        w = self.weights()
        return None if w is None else TendencyValue(len(self._seats), w)
