"""Skill apart from luck, in figures a reader cannot over-read (issue 37). Pure: no DuckDB here
(``analytics/skill_rows.py`` reads the rows).

- :func:`figures`: per player, the raw net per deal and the luck-adjusted net per deal
  (``docs/luck.md``) side by side, each with its 95% interval clustered by session
  (:func:`analytics.intervals.rate_interval`), the share of deals whose luck is measured, and
  whether the adjustment *widens* the player's spread (the adjusted net's per-session SD above the
  raw net's over the same deals: a cautious player's can be, docs/luck.md).
- :func:`compare`: two players "too close to call yet" until the 95% interval of the difference
  of their adjusted nets per deal over the sessions both played excludes 0, with the sessions
  still needed (:func:`analytics.intervals.sessions_needed`, from the observed per-session
  spread); two players who never sat at the same table are not compared ("never met").
- :func:`meter`: how much of the spread between players is skill: the split-half reliability of
  the adjusted net (each player's odd and even sessions in order of play, and 15 seeded random
  halvings, correlated across the players, averaged, stepped up by Spearman-Brown), a bootstrap
  interval over the players, and the sessions a player needs before skill outweighs luck
  (reliability 0.5).
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from analytics.intervals import RateInterval, rate_difference, rate_interval, sessions_needed

__all__ = [
    "Comparison",
    "Figures",
    "Meter",
    "SessionRow",
    "adjacent",
    "compare",
    "count_together",
    "figures",
    "figures_and_neighbours",
    "meter",
    "split_half",
]


@dataclass(frozen=True, slots=True)
class SessionRow:
    """One player's part in one session: ``deals`` ended deals with ``net`` (stake units, exact);
    of them ``luck_deals`` have a luck term, with ``luck_net`` (their net) and ``adjusted`` (their
    luck-adjusted net), both ``None`` when ``luck_deals`` is 0."""

    session: str
    player: str
    deals: int
    net: Fraction
    luck_deals: int = 0
    luck_net: Fraction | None = None
    adjusted: Fraction | None = None


@dataclass(frozen=True, slots=True)
class Figures:
    """One player's figures: ``raw`` (net per deal, all deals), ``adjusted`` (luck-adjusted net
    per deal over the measured deals, ``None`` without any), ``measured`` (luck deals / deals),
    ``spread_ratio`` (per-session SD of the adjusted over the raw net on the same deals, ``None``
    below two sessions) and ``widens`` (that ratio above 1)."""

    player: str
    sessions: int
    deals: int
    luck_deals: int
    raw: RateInterval
    adjusted: RateInterval | None
    spread_ratio: float | None

    @property
    def measured(self) -> float:
        return self.luck_deals / self.deals if self.deals else 0.0

    @property
    def widens(self) -> bool:
        return self.spread_ratio is not None and self.spread_ratio > 1


def _cluster(rows: Sequence[SessionRow], adjusted: bool) -> dict[str, tuple[float, float]]:
    """Session -> (total, deals) of the raw net over every deal, or of the adjusted net over the
    measured deals."""
    out: dict[str, tuple[float, float]] = {}
    for r in rows:
        if adjusted:
            if r.luck_deals and r.adjusted is not None:
                y, d = out.get(r.session, (0.0, 0.0))
                out[r.session] = (y + float(r.adjusted), d + r.luck_deals)
        elif r.deals:
            y, d = out.get(r.session, (0.0, 0.0))
            out[r.session] = (y + float(r.net), d + r.deals)
    return out


def _by_player(rows: Sequence[SessionRow]) -> dict[str, list[SessionRow]]:
    out: dict[str, list[SessionRow]] = {}
    for r in rows:
        out.setdefault(r.player, []).append(r)
    return out


class _Clusters:
    """The rows by player, and each player's clusters (:func:`_cluster`) computed once."""

    def __init__(self, rows: Sequence[SessionRow]) -> None:
        self.mine = _by_player(rows)
        self._memo: dict[tuple[str, bool], dict[str, tuple[float, float]]] = {}

    def of(self, player: str, adjusted: bool) -> dict[str, tuple[float, float]]:
        key = (player, adjusted)
        if key not in self._memo:
            self._memo[key] = _cluster(self.mine.get(player, []), adjusted)
        return self._memo[key]


def _spread_ratio(mine: Sequence[SessionRow], adjusted: RateInterval | None) -> float | None:
    """The adjusted net's per-session SD over the raw net's on the same (measured) deals."""
    same = {
        r.session: (float(r.luck_net), float(r.luck_deals))
        for r in mine
        if r.luck_deals and r.luck_net is not None
    }
    raw_same = rate_interval(same) if same else None
    if adjusted and raw_same and adjusted.sd is not None and raw_same.sd:
        return adjusted.sd / raw_same.sd
    return None


def figures(rows: Sequence[SessionRow] | _Clusters) -> list[Figures]:
    """Each player's :class:`Figures`, best adjusted net per deal first (the raw where none)."""
    out = []
    groups = rows if isinstance(rows, _Clusters) else _Clusters(rows)
    for player, mine in groups.mine.items():
        raw = rate_interval(groups.of(player, adjusted=False))
        if raw is None:
            continue
        adjusted = rate_interval(groups.of(player, adjusted=True))
        out.append(
            Figures(
                player,
                len({r.session for r in mine if r.deals}),
                sum(r.deals for r in mine),
                sum(r.luck_deals for r in mine),
                raw,
                adjusted,
                _spread_ratio(mine, adjusted),
            )
        )
    return sorted(out, key=lambda f: (-(f.adjusted or f.raw).value, f.player))


@dataclass(frozen=True, slots=True)
class Comparison:
    """Player ``a`` minus player ``b`` over the sessions both played (``diff``: adjusted net per
    deal, or raw where either has no measured deal in them: ``measure``; ``None`` when they never
    sat at the same table: two players who met other opponents are not compared),
    ``distinguishable`` when its 95% interval excludes 0, ``needed`` the sessions together in all
    for 80% power at the observed difference (``None`` when it cannot be said) and ``still``
    those beyond the sessions so far."""

    a: str
    b: str
    measure: str
    diff: RateInterval | None
    needed: int | None

    @property
    def met(self) -> bool:
        """Whether the two ever played in the same session."""
        return self.diff is not None

    @property
    def distinguishable(self) -> bool:
        return self.diff is not None and self.diff.excludes_zero

    @property
    def still(self) -> int | None:
        if self.needed is None or self.diff is None:
            return None
        # at least one: while the interval holds 0 some sessions are still needed (the power
        # figure uses the normal, the interval Student's t: with few sessions they disagree)
        return max(1, self.needed - self.diff.sessions)

    def sentence(self) -> str:
        """The verdict in one plain line, e.g. "Ann and Bob: too close to call yet: at the same
        table Ann made 0.40 a deal more than Bob, luck of the cards taken out, give or take 1.50
        (12 sessions together); about 140 more sessions like these would tell them apart"; "Ann
        and Dan: never met at a table: not compared"."""
        d = self.diff
        if d is None:
            return f"{self.a} and {self.b}: never met at a table: not compared"
        more_less = "more" if d.value >= 0 else "less"
        luck = ", luck of the cards taken out" if self.measure == "adjusted" else ""
        head = (
            f"at the same table {self.a} made {abs(d.value):.2f} a deal {more_less} than "
            f"{self.b}{luck}"
        )
        together = count_together(d.sessions)
        if self.measure == "adjusted":  # only the sessions whose every card is recorded count
            together += " with every card recorded"
        if d.low is None or d.high is None:
            return (
                f"{self.a} and {self.b}: too close to call yet: {head} ({together}: too few "
                "to say how sure)"
            )
        span = f"{head}, give or take {(d.high - d.low) / 2:.2f} ({together})"
        if self.distinguishable:
            better = self.a if d.value > 0 else self.b
            return f"{self.a} and {self.b}: {better} is ahead: {span}"
        more = (
            "no difference seen yet"
            if self.still is None
            else f"about {self.still:,} more session{'' if self.still == 1 else 's'} like these "
            "would tell them apart"
        )
        return f"{self.a} and {self.b}: too close to call yet: {span}; {more}"


def count_together(n: int) -> str:
    """``1 session together``, ``12 sessions together``."""
    return f"{n:,} session{'' if n == 1 else 's'} together"


def compare(rows: Sequence[SessionRow], a: str, b: str) -> Comparison | None:
    """:class:`Comparison` of players ``a`` and ``b`` (names as in ``rows``); ``None`` when either
    has no deal. Raises ``ValueError`` for ``a == b``."""
    if a == b:
        raise ValueError(f"a comparison needs two players, not {a} twice")
    return _compare(_Clusters(rows), a, b)


def _compare(groups: _Clusters, a: str, b: str) -> Comparison | None:
    """``a`` minus ``b`` over the sessions both played (the same table, the same opponents):
    ``None`` when either has no deal; a :class:`Comparison` without ``diff`` when they never
    met."""
    raw_a, raw_b = groups.of(a, False), groups.of(b, False)
    if not raw_a or not raw_b:
        return None
    shared = raw_a.keys() & raw_b.keys()
    if not shared:
        return Comparison(a, b, "raw", None, None)
    adj_a, adj_b = groups.of(a, True), groups.of(b, True)
    both = shared & adj_a.keys() & adj_b.keys()
    adjusted = bool(both)
    keep = both if adjusted else shared
    ca, cb = (adj_a, adj_b) if adjusted else (raw_a, raw_b)
    diff = rate_difference({s: ca[s] for s in keep}, {s: cb[s] for s in keep})
    if diff is None:
        return None
    return Comparison(a, b, "adjusted" if adjusted else "raw", diff, sessions_needed(diff))


def figures_and_neighbours(
    rows: Sequence[SessionRow],
) -> tuple[list[Figures], list[Comparison]]:
    """:func:`figures` and :func:`adjacent` from one grouping of the rows."""
    groups = _Clusters(rows)
    figs = figures(groups)
    return figs, adjacent(groups, figs)


def adjacent(rows: Sequence[SessionRow] | _Clusters, figs: Sequence[Figures]) -> list[Comparison]:
    """Each player against the next in the order of ``figs`` (:func:`figures`): the neighbours a
    league table invites a reader to tell apart, over the sessions both played; neighbours who
    never sat at the same table come as a :class:`Comparison` without ``diff`` ("never met").
    Where some players have figures with the luck taken out, only those are chained."""
    out = []
    groups = rows if isinstance(rows, _Clusters) else _Clusters(rows)
    # a player with no deal of known luck sits in the order by the raw net alone: left out of
    # the chain where others have luck figures, so it does not break their comparisons (walk:
    # "Sandra and Ann: never met", "Ann and Tony: never met", and Sandra and Tony never compared)
    measured = [f for f in figs if f.adjusted is not None]
    for a, b in itertools.pairwise(measured if measured else figs):
        got = _compare(groups, a.player, b.player)
        if got is not None:
            out.append(got)
    return out


@dataclass(frozen=True, slots=True)
class Meter:
    """How much of the spread between players' adjusted nets is skill: ``reliability`` (0 to 1;
    can come out below 0 where luck swamps everything) with its bootstrap 95% interval, over
    ``players`` players with a harmonic mean of ``sessions`` sessions each; ``outweigh`` the
    sessions per player at which skill and luck weigh alike (``None`` when no skill shows)."""

    reliability: float
    low: float
    high: float
    players: int
    sessions: float
    outweigh: float | None


SPLITS = 16
"""Splits averaged by :func:`split_half`: odd/even and 15 seeded random ones."""


def _halves(
    values: Mapping[str, Sequence[float]], splits: int, seed: int
) -> list[list[tuple[float, float]]]:
    """Per player with two sessions or more: the two half-means of each split. The first split
    is odd/even sessions in order of play; each other one swaps, for every pair of consecutive
    sessions (1st and 2nd, 3rd and 4th, ...), which of the two goes to which half, by a seeded
    coin: a random halving that keeps both halves spread over the season."""
    rng = random.Random(seed)
    out = []
    for v in values.values():
        if len(v) < 2:
            continue
        total = math.fsum(v)
        first = math.fsum(v[0::2])
        swap = [b - a for a, b in zip(v[0::2], v[1::2], strict=False)]  # moving b in, a out
        m = len(swap)
        na, nb = len(v[0::2]), len(v[1::2])
        mine = [(first / na, (total - first) / nb)]
        for _ in range(splits - 1):
            coins = map(int, format(rng.getrandbits(m), "b").zfill(m))
            a = first + math.fsum(itertools.compress(swap, coins))
            mine.append((a / na, (total - a) / nb))
        out.append(mine)
    return out


def _stepped_up(halves: Sequence[Sequence[tuple[float, float]]]) -> float | None:
    """Spearman-Brown of the halves' Pearson correlation across the players, averaged over the
    splits; ``None`` below three players or where a half has no spread."""
    if len(halves) < 3:
        return None
    rs = []
    for k in range(len(halves[0])):
        odd = [h[k][0] for h in halves]
        even = [h[k][1] for h in halves]
        mo, me = sum(odd) / len(odd), sum(even) / len(even)
        do = [x - mo for x in odd]
        de = [y - me for y in even]
        sxx = sum(x * x for x in do)
        syy = sum(y * y for y in de)
        if sxx <= 0 or syy <= 0:
            return None
        rs.append(sum(x * y for x, y in zip(do, de, strict=True)) / math.sqrt(sxx * syy))
    r = math.fsum(rs) / len(rs)
    return max(-1.0, 2 * r / (1 + r)) if r > -1 else -1.0


def split_half(
    values: Mapping[str, Sequence[float]], splits: int = SPLITS, seed: int = 0
) -> float | None:
    """Spearman-Brown split-half reliability of the players' mean per session: each player's
    sessions split into two halves (odd and even sessions in order of play, and ``splits - 1``
    seeded random halvings of each pair of consecutive sessions), the halves' means correlated
    across the players (Pearson), the correlations averaged over the splits and stepped up
    ``2r / (1 + r)`` (floored at -1: below 0 it says only that no skill shows). Averaging the
    splits narrows a season's figure and the bias that the step-up's curve gives a spread one
    (``bench/ratings.py``: -0.07 with odd/even alone at ten sessions a player, -0.02
    averaged). ``None`` below three players with two sessions or when a half has no spread."""
    return _stepped_up(_halves(values, splits, seed))


def meter(values: Mapping[str, Sequence[float]], draws: int = 1000, seed: int = 0) -> Meter | None:
    """The :class:`Meter` of ``values`` (player -> adjusted net of each session, stake units, in
    order of play): :func:`split_half`, its percentile interval over ``draws`` bootstrap samples
    of the players (their halves kept; seeded: the same figures each time), and the sessions
    until skill outweighs luck, ``n (1 - R) / R`` for a reliability ``R`` over ``n`` sessions
    each (where the reliability of one session's net, stepped up by Spearman-Brown, reaches
    0.5). ``None`` when :func:`split_half` is."""
    halves = _halves(values, SPLITS, 0)
    point = _stepped_up(halves)
    if point is None:
        return None
    keyed = [v for v in values.values() if len(v) >= 2]
    rng = random.Random(seed)
    boots = []
    for _ in range(draws):
        got = _stepped_up([halves[rng.randrange(len(halves))] for _ in halves])
        if got is not None:
            boots.append(got)
    boots.sort()
    low = boots[int(0.025 * len(boots))] if boots else point
    high = boots[min(len(boots) - 1, int(0.975 * len(boots)))] if boots else point
    n = len(keyed) / math.fsum(1 / len(v) for v in keyed)
    outweigh = n * (1 - point) / point if point > 0 else None
    return Meter(point, low, high, len(keyed), n, outweigh)
