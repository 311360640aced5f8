"""The intervals of the decision explorer: a share's Wilson score interval and the difference of
two shares with Newcombe's interval (95% by default)."""

from __future__ import annotations

import math

__all__ = ["Z95", "newcombe", "wilson"]

Z95 = 1.959963984540054
"""The standard normal's 97.5% point: a two-sided 95% interval."""


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
