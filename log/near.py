"""Names close to a known one (issue 35 item 2): what the Record page's start form asks before a
new player or table is taken ("Jaen": did you mean Jean?), and what ``brag stats --player Jon``
offers. Pure: no store.

Names are compared in their :func:`events.text.normal` form (case, spacing and look-alike letters
aside, as everywhere else), by three rules, the first that holds:

- **initials**: as many words, each word the same or an initial of the other's (``J. Smith``,
  ``J Smith``, ``Jean S.`` ~ ``Jean Smith``), at least one word spelled out in both;
- **spelling**: a Damerau-Levenshtein distance (optimal string alignment: an insertion, a
  deletion, a substitution or two neighbours swapped each count 1) of at most 1, or 2 for
  names longer than 3 letters that begin alike, and at most half the longer name (``Jaen`` ~
  ``Jean``: 1, ``Jon`` ~ ``Jean``: 2, ``Jaen`` ~ ``Ann``: none, ``Ann`` ~ ``Bob``: none);
- **prefix** (tables, :func:`by_prefix`): the typed text begins the name or one of its words
  (``Top`` ~ ``Top table``).

We wrote the distance ourselves (twenty lines) rather than add rapidfuzz, which is not in the
environment: names are short (at most 64 characters) and a club knows a few hundred; a name
against 200 known ones takes about 0.7 ms, 600 about 3.4 ms (the normal forms most of it;
names 3 letters longer or shorter are not compared).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from events.text import normal

__all__ = ["Near", "by_prefix", "distance", "initials_match", "near", "nearest"]


@dataclass(frozen=True, slots=True)
class Near:
    """A known ``name`` close to the typed one: ``why`` (``initials``, ``spelling``,
    ``prefix``) and the edit ``distance`` of their normal forms."""

    name: str
    why: Literal["initials", "spelling", "prefix"]
    distance: int


def distance(a: str, b: str) -> int:
    """The optimal-string-alignment distance between ``a`` and ``b`` (as given: normalise first).

    >>> distance("jaen", "jean"), distance("jon", "jean"), distance("ann", "ann")
    (1, 2, 0)
    """
    if a == b:
        return 0
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        row = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cost = 0 if ca == cb else 1
            row[j] = min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                row[j] = min(row[j], prev2[j - 2] + 1)
        prev2, prev = prev, row
    return prev[-1]


def _limit(a: str, b: str) -> int:
    longer = max(len(a), len(b))
    two = longer > 3 and a[:1] == b[:1]  # a first letter is seldom the one mistyped
    return min(2 if two else 1, longer // 2)


def _words(name: str) -> list[str]:
    return [w.rstrip(".") for w in name.replace(".", ". ").split()]


def initials_match(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` (normal forms) are one name with initials for some words.

    >>> initials_match("j. smith", "jean smith"), initials_match("jean s", "jean smith")
    (True, True)
    >>> initials_match("j. s.", "jean smith"), initials_match("jean smith", "jean smith")
    (False, False)
    """
    wa, wb = _words(a), _words(b)
    if len(wa) != len(wb) or wa == wb or len(wa) < 2:
        return False
    spelled = 0
    for x, y in zip(wa, wb, strict=True):
        if x == y and len(x) > 1:
            spelled += 1
        elif not (x and y and x[0] == y[0] and (len(x) == 1 or len(y) == 1)):
            return False
    return spelled > 0


def near(typed: str, known: Iterable[str], *, limit: int = 3) -> list[Near]:
    """The names of ``known`` close to ``typed`` (initials first, then by distance, the closer
    length, the name), at most ``limit``; none when ``typed`` is one of them (the same normal
    form) or blank."""
    t = normal(typed)
    if not t:
        return []
    found: list[Near] = []
    for name in dict.fromkeys(known):
        k = normal(name)
        if k == t:
            return []
        if initials_match(t, k):
            found.append(Near(name, "initials", distance(t, k)))
        elif abs(len(t) - len(k)) <= 2 and (d := distance(t, k)) <= _limit(t, k):
            found.append(Near(name, "spelling", d))
    found.sort(key=lambda n: (n.why != "initials", n.distance, abs(len(normal(n.name)) - len(t)),
                              n.name))  # fmt: skip
    return found[:limit]


def nearest(typed: str, known: Iterable[str]) -> str | None:
    """The one name of ``known`` to offer for ``typed`` (:func:`near`'s first), or ``None``.

    >>> nearest("Jaen", ["Bob", "Jean"]), nearest("Jon", ["Jean", "Bob"]), nearest("Cy", ["Bob"])
    ('Jean', 'Jean', None)
    """
    found = near(typed, known, limit=1)
    return found[0].name if found else None


def by_prefix(typed: str, known: Sequence[str]) -> list[str]:
    """The names of ``known`` that ``typed`` begins (the whole name or one of its words, normal
    forms), in ``known``'s order; none when ``typed`` is one of them or blank.

    >>> by_prefix("Top", ["Oak", "Top table", "Back room"]), by_prefix("room", ["Back room"])
    (['Top table'], ['Back room'])
    >>> by_prefix("top table", ["Top table"])
    []
    """
    t = normal(typed)
    if not t or any(normal(k) == t for k in known):
        return []
    return [
        k
        for k in dict.fromkeys(known)
        if normal(k).startswith(t) or any(w.startswith(t) for w in normal(k).split())
    ]
