"""Seating a club night (issue 36, item 1): tables made from the players present, each of a size
the rules allow (RULES 1.3: 2 to 10 players), as even as possible, with opponents repeated as
little as the season's earlier nights allow; and the organiser's moves, refused when a table
would leave the rules' sizes.

Pure but for :func:`history_of`, which reads a store:

- :func:`table_sizes` ``(n, max_size)``: the fewest tables of at most ``max_size`` players, their
  sizes differing by at most one;
- :func:`seat` ``(present, history, *, seed)``: the tables, as lists of names, minimising the
  *repeats* (:func:`repeats`: over every pair seated at one table, how often that pair sat at one
  table before); deterministic for a seed. Small cases (at most :data:`EXACT_LIMIT` ways to
  split the players) are searched exhaustively; larger ones by swaps between tables from
  :data:`RESTARTS` seeded random starts (a local optimum of the swap neighbourhood);
- :func:`move` ``(tables, name, to_table)``: the organiser moves one player;
- :func:`history_of` ``(store, before)``: how often each pair sat at one table in the sessions
  started before a date (through the club's register of names).
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from datetime import date
from typing import TYPE_CHECKING

from events.text import normal

if TYPE_CHECKING:
    from log.service import EventStore

__all__ = [
    "EXACT_LIMIT",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "RESTARTS",
    "SeatingRefused",
    "history_of",
    "move",
    "pair_counts",
    "repeats",
    "seat",
    "table_sizes",
]

MIN_PLAYERS = 2
"""The fewest players at a table (RULES 1.3)."""
MAX_PLAYERS = 10
"""The most players at a table (RULES 1.3)."""
EXACT_LIMIT = 20_000
"""Up to this many ways of splitting the players into tables of the sizes chosen, :func:`seat`
tries them all (the optimum); above it, a local search."""
RESTARTS = 24
"""The seeded random starts of the local search (each improved by swaps until none helps)."""

History = Mapping[frozenset[str], int]
"""How often each pair of players sat at one table: ``{frozenset({A, B}): count}``."""


class SeatingRefused(ValueError):
    """A seating or a move the rules do not allow; ``str()`` is one line naming the rule."""


def _rule(detail: str) -> SeatingRefused:
    return SeatingRefused(
        f"RULES 1.3: a table seats {MIN_PLAYERS} to {MAX_PLAYERS} players: {detail}"
    )


def table_sizes(n: int, max_size: int = MAX_PLAYERS) -> list[int]:
    """The sizes of the tables for ``n`` players: the fewest tables of at most ``max_size``
    (clamped to RULES 1.3's 10), the sizes as even as possible (differing by at most one),
    largest first. Raises :class:`SeatingRefused` for fewer than 2 players, or a ``max_size``
    that would leave a table of one."""
    if n < MIN_PLAYERS:
        raise _rule(f"{n} present")
    top = min(max_size, MAX_PLAYERS)
    if top < MIN_PLAYERS:
        raise _rule(f"a table of at most {max_size} is no table")
    k = math.ceil(n / top)
    sizes = [n // k + (1 if i < n % k else 0) for i in range(k)]
    if sizes[-1] < MIN_PLAYERS:
        raise _rule(f"{n} players at tables of at most {top} would leave one alone")
    return sizes


def pair_counts(pairs: History | Iterable[tuple[str, str]]) -> dict[frozenset[str], int]:
    """``pairs`` as a history: a mapping is copied (counts below 1 dropped); an iterable of
    ``(A, B)`` pairs counts each occurrence (a pair that sat together twice is given twice)."""
    if isinstance(pairs, Mapping):
        return {frozenset(k): int(v) for k, v in pairs.items() if int(v) > 0}
    out: Counter[frozenset[str]] = Counter()
    for a, b in pairs:
        if a != b:
            out[frozenset((a, b))] += 1
    return dict(out)


def repeats(tables: Sequence[Sequence[str]], history: History) -> int:
    """The repeats of a seating: over every pair of players at one table, how many times that
    pair sat at one table before (``history``)."""
    return sum(
        history.get(frozenset(pair), 0)
        for table in tables
        for pair in itertools.combinations(table, 2)
    )


def _ways(sizes: Sequence[int]) -> int:
    """How many ways split ``sum(sizes)`` players into unlabelled tables of ``sizes``."""
    n = sum(sizes)
    ways = math.factorial(n)
    for s in sizes:
        ways //= math.factorial(s)
    for same in Counter(sizes).values():
        ways //= math.factorial(same)
    return ways


def _splits(players: list[int], sizes: list[int]) -> Iterator[list[list[int]]]:
    """Every split of ``players`` into unlabelled tables of ``sizes``, each once: the first
    player left sits at a table of each distinct size in turn, with every choice of its
    table-mates, and the rest are split likewise."""
    if not sizes:
        yield []
        return
    first, rest = players[0], players[1:]
    for size in sorted(set(sizes), reverse=True):
        left_sizes = list(sizes)
        left_sizes.remove(size)
        for others in itertools.combinations(rest, size - 1):
            left = [p for p in rest if p not in others]
            for tail in _splits(left, left_sizes):
                yield [[first, *others], *tail]


def _cost_matrix(names: Sequence[str], history: History) -> list[list[int]]:
    n = len(names)
    w = [[0] * n for _ in range(n)]
    for i, j in itertools.combinations(range(n), 2):
        w[i][j] = w[j][i] = history.get(frozenset((names[i], names[j])), 0)
    return w


def _cost(tables: Sequence[Sequence[int]], w: list[list[int]]) -> int:
    return sum(w[a][b] for t in tables for a, b in itertools.combinations(t, 2))


def _exact(n: int, sizes: list[int], w: list[list[int]]) -> list[list[int]]:
    best: list[list[int]] | None = None
    best_cost = -1
    for split in _splits(list(range(n)), sizes):
        c = _cost(split, w)
        if best is None or c < best_cost:
            best, best_cost = split, c
            if c == 0:
                break
    assert best is not None
    return best


def _climb(tables: list[list[int]], w: list[list[int]]) -> int:
    """Improves ``tables`` in place by the best swap of two players at different tables until no
    swap lowers the cost; returns the cost."""
    links = [[sum(w[p][q] for q in t) for t in tables] for p in range(len(w))]
    where = {p: k for k, t in enumerate(tables) for p in t}
    while True:
        best = (0, -1, -1)
        for ka, kb in itertools.combinations(range(len(tables)), 2):
            for a in tables[ka]:
                for b in tables[kb]:
                    gain = links[a][ka] - links[a][kb] + links[b][kb] - links[b][ka] + 2 * w[a][b]
                    if gain > best[0]:
                        best = (gain, a, b)
        if best[0] <= 0:
            return _cost(tables, w)
        _, a, b = best
        ka, kb = where[a], where[b]
        tables[ka][tables[ka].index(a)] = b
        tables[kb][tables[kb].index(b)] = a
        where[a], where[b] = kb, ka
        for p in range(len(w)):
            links[p][ka] += w[p][b] - w[p][a]
            links[p][kb] += w[p][a] - w[p][b]


def _local(n: int, sizes: list[int], w: list[list[int]], rng: random.Random) -> list[list[int]]:
    best: list[list[int]] | None = None
    best_cost = -1
    for _ in range(RESTARTS):
        order = list(range(n))
        rng.shuffle(order)
        tables, at = [], 0
        for s in sizes:
            tables.append(order[at : at + s])
            at += s
        c = _climb(tables, w)
        if best is None or c < best_cost:
            best, best_cost = tables, c
            if c == 0:
                break
    assert best is not None
    return best


def seat(
    present: Sequence[str],
    history: History | Iterable[tuple[str, str]] = (),
    *,
    seed: int = 0,
    max_size: int = MAX_PLAYERS,
) -> list[list[str]]:
    """The tables for the players ``present`` (names, each once): :func:`table_sizes` tables
    (RULES 1.3, as even as possible, largest first), everyone seated once, with the fewest
    :func:`repeats` of ``history`` found (how often each pair sat at one table before: a mapping
    ``{frozenset({A, B}): count}`` or ``(A, B)`` pairs, :func:`pair_counts`). The same ``seed``
    gives the same tables; within a table the seats are in the seeded draw's order (RULES 1.3:
    listed clockwise). The optimum when the players split in at most :data:`EXACT_LIMIT` ways,
    else the best of :data:`RESTARTS` seeded local searches. Raises :class:`SeatingRefused` for
    a name given twice (case and spacing aside) or too few players."""
    names = list(present)
    keys = [normal(p) for p in names]
    twice = [p for p, k in zip(names, keys, strict=True) if keys.count(k) > 1]
    if twice:
        raise SeatingRefused(f"RULES 1.3: {twice[0]} is given twice; each sits once")
    sizes = table_sizes(len(names), max_size)
    w = _cost_matrix(names, pair_counts(history))
    rng = random.Random(seed)
    order = list(range(len(names)))
    rng.shuffle(order)  # ties between equal seatings go the seed's way
    ww = [[w[a][b] for b in order] for a in order]
    if _ways(sizes) <= EXACT_LIMIT:
        found = _exact(len(names), sizes, ww)
    else:
        found = _local(len(names), sizes, ww, rng)
    tables = [sorted(t) for t in found]  # seats in the draw's order
    tables.sort(key=lambda t: (-len(t), t[0]))
    return [[names[order[i]] for i in t] for t in tables]


def move(tables: Sequence[Sequence[str]], name: str, to_table: int) -> list[list[str]]:
    """``tables`` with ``name`` moved to the table numbered ``to_table`` (1 for the first), at
    its last seat; the input is left as it is. Raises :class:`SeatingRefused`, one line, for a
    name not seated, a table that is not there, a move to the player's own table, or a move that
    would leave either table outside RULES 1.3's 2 to 10 players."""
    out = [list(t) for t in tables]
    key = normal(name)
    here = next((k for k, t in enumerate(out) for p in t if normal(p) == key), None)
    if here is None:
        raise SeatingRefused(f"{name} is not seated at any table")
    if not 1 <= to_table <= len(out):
        raise SeatingRefused(f"there is no table {to_table}: there are {len(out)}")
    to = to_table - 1
    if to == here:
        raise SeatingRefused(f"{name} is already at table {to_table}")
    if len(out[here]) - 1 < MIN_PLAYERS:
        raise _rule(
            f"moving {name} would leave table {here + 1} with {len(out[here]) - 1} player"
            + ("" if len(out[here]) - 1 == 1 else "s")
        )
    if len(out[to]) + 1 > MAX_PLAYERS:
        raise _rule(f"table {to_table} has {len(out[to])} already")
    player = next(p for p in out[here] if normal(p) == key)
    out[here].remove(player)
    out[to].append(player)
    return out


def history_of(
    store: EventStore, before: date, *, since: date | None = None
) -> dict[frozenset[str], int]:
    """How often each pair of players sat at one table in the sessions of ``store`` started
    before ``before`` (and on or after ``since``, the season's first night, when given): one per
    session they both sat in. Names are the club's register's (a merged name counts as its
    player, :func:`log.register.register_of`)."""
    from datetime import timedelta

    from log.register import register_of
    from store.records import SessionFilter

    last = before - timedelta(days=1)
    first = since if since is not None else date(1, 1, 1)
    if last < first:
        return {}
    resolve = register_of(store).resolve
    out: Counter[frozenset[str]] = Counter()
    for info in store.sessions(order="oldest", where=SessionFilter(dates=(first, last))):
        if info.started is None:  # no date: not placed in the season
            continue
        players = sorted({resolve(p) for p in info.players})
        for a, b in itertools.combinations(players, 2):
            out[frozenset((a, b))] += 1
    return dict(out)
