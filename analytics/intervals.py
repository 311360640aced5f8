"""Intervals (95% by default): the decision explorer's share (Wilson) and difference of two
shares (Newcombe); the Players page's per-deal rates with intervals clustered by session, the
difference of two players' rates, and the sessions a difference still needs (issue 37).

A rate per deal is a ratio ``sum(y) / sum(d)`` over sessions (``y`` a session's net in stake
units, ``d`` its deals). The deals of one session are not independent (one carried pot, one
table's mood), so the session is the unit: the variance is the cluster-robust (sandwich) one,
``G / (G - 1) * sum(u_s^2)`` with ``u_s = (y_s - r d_s) / sum(d)`` over the ``G`` sessions, and
the interval is Student's t with ``G - 1`` degrees of freedom."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

__all__ = [
    "Z80",
    "Z95",
    "Cluster",
    "RateInterval",
    "newcombe",
    "rate_difference",
    "rate_interval",
    "sessions_needed",
    "student_t",
    "wilson",
]

Z95 = 1.959963984540054
"""The standard normal's 97.5% point: a two-sided 95% interval."""
Z80 = 0.8416212335729143
"""The standard normal's 80% point: a test of 80% power."""


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a share ``k / n`` (95% with the default ``z``):
    ``(centre ± z / (1 + z²/n) * sqrt(p(1-p)/n + z²/(4n²)))`` with ``centre = (p + z²/(2n)) /
    (1 + z²/n)``; ``(0, 1)`` for ``n = 0``. Raises ``ValueError`` unless ``0 <= k <= n``.

    >>> [round(x, 4) for x in wilson(3, 10)]
    [0.1078, 0.6032]
    """
    if not 0 <= k <= n:
        raise ValueError(f"a share needs 0 <= k <= n, not {k}/{n}")
    if n == 0:
        return 0.0, 1.0
    p = k / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def newcombe(k1: int, n1: int, k2: int, n2: int, z: float = Z95) -> tuple[float, float, float]:
    """The difference of two shares ``k1/n1 - k2/n2`` with its 95% interval by Newcombe's hybrid
    score method (1998, method 10: from the two Wilson intervals); ``(d, low, high)``."""
    p1, p2 = k1 / n1, k2 / n2
    l1, u1 = wilson(k1, n1, z)
    l2, u2 = wilson(k2, n2, z)
    d = p1 - p2
    return (
        d,
        d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2),
        d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2),
    )


def student_t(df: int, p: float = 0.975) -> float:
    """Student's t quantile ``p`` with ``df`` degrees of freedom (``p`` in (0.5, 1)): exact for
    ``df`` 1 and 2, the Cornish-Fisher series of Abramowitz and Stegun 26.7.5 otherwise (error
    below 0.005 at ``df = 3``, less beyond). Raises ``ValueError`` for ``df < 1``.

    >>> round(student_t(1), 3), round(student_t(9), 3), round(student_t(10_000), 3)
    (12.706, 2.262, 1.96)
    """
    if df < 1:
        raise ValueError(f"Student's t needs at least 1 degree of freedom, not {df}")
    if df == 1:
        return math.tan(math.pi * (p - 0.5))
    if df == 2:
        return (2 * p - 1) / math.sqrt(2 * p * (1 - p))
    z = _normal_quantile(p)
    v = float(df)
    z2 = z * z
    return (
        z
        + (z2 + 1) * z / (4 * v)
        + ((5 * z2 + 16) * z2 + 3) * z / (96 * v**2)
        + (((3 * z2 + 19) * z2 + 17) * z2 - 15) * z / (384 * v**3)
        + ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) * z / (92160 * v**4)
    )


def _normal_quantile(p: float) -> float:
    """The standard normal quantile (Acklam's rational approximation refined by one Halley
    step with ``math.erfc``: 1e-15 relative)."""
    a = (-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.3577518672690,
         -30.66479806614716, 2.506628277459239)  # fmt: skip
    b = (-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972,
         -13.28068155288572)  # fmt: skip
    c = (-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734,
         4.374664141464968, 2.938163982698783)  # fmt: skip
    d = (0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416)
    if p < 0.02425 or p > 1 - 0.02425:
        q = math.sqrt(-2 * math.log(min(p, 1 - p)))
        x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / (
            (((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1
        )
        x = x if p < 0.5 else -x
    else:
        q = p - 0.5
        r = q * q
        x = (
            (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5])
            * q
            / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
        )
    e = 0.5 * math.erfc(-x / math.sqrt(2)) - p
    u = e * math.sqrt(2 * math.pi) * math.exp(x * x / 2)
    return x - u / (1 + x * u / 2)


Cluster = Mapping[str, tuple[float, float]]
"""Session -> ``(y, d)``: a player's total in the session (stake units) and its deals."""


@dataclass(frozen=True, slots=True)
class RateInterval:
    """A rate per deal (or a difference of two) with its 95% interval clustered by session.

    ``low``/``high`` are ``None`` below two sessions (no spread to measure); ``se`` is the
    standard error (``None`` likewise), ``sd`` the per-session standard deviation behind it
    (``se * sqrt(G)``, stake units per deal), ``sessions`` the clusters ``G``."""

    value: float
    low: float | None
    high: float | None
    se: float | None
    sd: float | None
    sessions: int

    @property
    def excludes_zero(self) -> bool:
        """The interval lies wholly above or wholly below 0."""
        return self.low is not None and self.high is not None and (self.low > 0 or self.high < 0)


def _interval(value: float, influence: list[float], z: float | None) -> RateInterval:
    g = len(influence)
    if g < 2:
        return RateInterval(value, None, None, None, None, g)
    se = math.sqrt(g / (g - 1) * sum(u * u for u in influence))
    half = (z if z is not None else student_t(g - 1)) * se
    return RateInterval(value, value - half, value + half, se, se * math.sqrt(g), g)


def rate_interval(cluster: Cluster, z: float | None = None) -> RateInterval | None:
    """``sum(y) / sum(d)`` over the sessions of ``cluster`` with its cluster-robust 95% interval
    (Student's t with ``G - 1`` degrees of freedom unless ``z`` is given); ``None`` without a
    deal.

    >>> r = rate_interval({"s1": (4.0, 2.0), "s2": (-2.0, 2.0), "s3": (1.0, 1.0)})
    >>> round(r.value, 3), round(r.se, 3), r.sessions
    (0.6, 1.046, 3)
    """
    total_d = sum(d for _, d in cluster.values())
    if total_d <= 0:
        return None
    r = sum(y for y, _ in cluster.values()) / total_d
    return _interval(r, [(y - r * d) / total_d for y, d in cluster.values()], z)


def rate_difference(a: Cluster, b: Cluster, z: float | None = None) -> RateInterval | None:
    """The rate of ``a`` minus the rate of ``b`` with its 95% interval clustered by session:
    a session both played in counts once, with both players' parts (their results at one table
    are correlated: what one wins another loses). ``None`` when either has no deal; no interval
    (``low`` and ``high`` ``None``) while either has fewer than two sessions: one session says
    nothing of a player's spread, and a difference of two single sessions would have an interval
    of width 0."""
    da = sum(d for _, d in a.values())
    db = sum(d for _, d in b.values())
    if da <= 0 or db <= 0:
        return None
    ra = sum(y for y, _ in a.values()) / da
    rb = sum(y for y, _ in b.values()) / db
    if len(a) < 2 or len(b) < 2:
        return RateInterval(ra - rb, None, None, None, None, len(a.keys() | b.keys()))
    influence = []
    for s in a.keys() | b.keys():
        ya, na = a.get(s, (0.0, 0.0))
        yb, nb = b.get(s, (0.0, 0.0))
        influence.append((ya - ra * na) / da - (yb - rb * nb) / db)
    return _interval(ra - rb, influence, z)


def sessions_needed(diff: RateInterval, power: float = 0.8) -> int | None:
    """The sessions (in all, of the same kind as so far) after which the 95% interval of a
    difference of size ``diff.value`` would exclude 0 with chance ``power`` (80%): the standard
    error shrinks as ``1 / sqrt(G)``, so ``G' = G * ((Z95 + z_power) * se / |d|)^2``. ``None``
    when it cannot be said (no spread measured yet, or a difference of exactly 0). The observed
    difference is itself noisy (a large one is more often luck): a figure, not a promise.

    >>> sessions_needed(RateInterval(1.0, -1.0, 3.0, 1.0, 3.0, 9))
    71
    """
    if diff.se is None or diff.value == 0:
        return None
    zp = Z80 if power == 0.8 else _normal_quantile(power)
    return math.ceil(diff.sessions * ((Z95 + zp) * diff.se / abs(diff.value)) ** 2)
