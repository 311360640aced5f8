"""A solved heads-up game: the four betting games (who is seen when betting starts) and the looks.

:func:`solve_game` solves each betting game by CFR+ (:mod:`solver.cfr`) and the looks before the
first bet (RULES 5.1: first to act decides, then the dealer, knowing it; a look tells nothing of
the hand) by the four games' values. :func:`subgame` is one betting game, cached on disk as an
``.npz`` named by its parameters and checked against its sha256 (``BRAG_SOLVER_CACHE``, default
``~/.cache/bragbook/solver``); the shipped games of ``data/solver/`` (:mod:`solver.shipped`, each
checked against the manifest's sha256) are read before the cache. Values are floats in antes (an
equilibrium value; the log's money stays exact elsewhere).
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from solver import shipped
from solver.best_response import best_value
from solver.buckets import Buckets, buckets
from solver.cfr import Arrays, reaches, solve, values
from solver.game import Abstraction, Tree, build

__all__ = ["ITERATIONS", "GameSolution", "Subgame", "available", "solve_game", "subgame"]

ITERATIONS = 400
"""Default CFR+ iterations: below 0.1 % of an ante on every betting game (docs/review.md)."""

VERSION = 3
"""The solver's version, part of every cached file's name: a new one never reads an old file."""

STATUSES = ((False, False), (False, True), (True, False), (True, True))


@dataclass
class Subgame:
    """One betting game: the tree, the average strategy and what a review asks of it."""

    ab: Abstraction
    seen: tuple[bool, bool]
    dead: float
    iterations: int
    seed: int
    tree: Tree
    strategy: np.ndarray
    digest: str
    seconds: float = 0.0

    def ev(self, node: int, hand: int | None, floor: float = 1e-9) -> dict[int, float] | None:
        """Each legal action's EV (antes, the deal's net) at ``node`` for its player.

        ``hand``: the player's bucket when seen; ``None`` for a blind player (averaged over the
        hands: what the player knew, RULES 5.1). ``None`` when the opponent reaches the node under
        the solution with a chance below ``floor`` (no range to judge against).
        """
        bk = buckets(self.ab.buckets)
        n = self.tree.nodes[node]
        t = n.player
        r, v = self._cache(t)
        mass = float(np.dot(bk.prior, r[1 - t, node]))
        if mass < floor:
            return None
        out: dict[int, float] = {}
        for a, c in zip(n.actions, n.children, strict=True):
            cv = v[c] / mass
            out[a] = float(np.dot(bk.prior, cv)) if hand is None else float(cv[hand])
        return out

    def reach(self, node: int, hand: int | None) -> float:
        """The chance the solution's player at ``node`` plays to it holding ``hand`` (a bucket;
        ``None`` for a blind player: the same for every hand)."""
        t = self.tree.nodes[node].player
        r, _v = self._cache(t)
        return float(r[t, node, 0 if hand is None else hand])

    def _cache(self, t: int) -> tuple[np.ndarray, np.ndarray]:
        key = f"_rv{t}"
        got = self.__dict__.get(key)
        if got is None:
            bk = buckets(self.ab.buckets)
            ar = Arrays(self.tree)
            r = reaches(ar, self.strategy, len(bk.prior))
            got = (r, values(ar, bk, self.strategy, r, t))
            self.__dict__[key] = got
        return got

    def pinned_ev(self, node: int, action: int) -> float | None:
        """The EV (antes) for the blind player at ``node`` of ``action``, which the solution does
        not play there (chance below ``solver.review.ON_PATH``): the game solved again with the
        path of blind decisions to ``node`` and ``action`` played for certain (same iterations
        and seed), so the play after it is on that solution's path and its value fixed, where
        the solution itself leaves it to whatever CFR+ drifted to (two seeds disagreed by 0.09
        ante: docs/review.md). ``None`` when a decision on the path is not blind (a range the
        pin would change). Read from the shipped pins (:mod:`solver.shipped`), the cache, or
        solved (about a full solve's time) and cached."""
        path = _blind_path(self.tree, node)
        if path is None:
            return None
        key = f"{node}:{action}"
        name = _name(self.ab, self.seen, self.dead, self.iterations, self.seed)
        got = shipped.pinned(name).get(key)
        if got is not None:
            return got
        cache = _cache_dir() / f"{name}-pins.json"
        known: dict[str, float] = json.loads(cache.read_text()) if cache.exists() else {}
        if key not in known:
            known[key] = _pinned_value(self, {**path, node: action}, node, action)
            cache.parent.mkdir(parents=True, exist_ok=True)
            tmp = cache.with_suffix(".tmp")
            tmp.write_text(json.dumps(known, sort_keys=True))
            tmp.replace(cache)
        return float(known[key])

    def pins(self, floor: float = 0.01) -> list[tuple[int, int]]:
        """The (node, action) pairs a review may ask :meth:`pinned_ev` for: blind nodes the
        solution reaches with a chance of at least ``floor``, actions it plays there with less,
        leading to a decision."""
        bk = buckets(self.ab.buckets)
        out = []
        for i, n in enumerate(self.tree.nodes):
            if n.kind != "dec" or not n.blind or self.reach(i, None) < floor:
                continue
            r, _v = self._cache(n.player)
            if float(np.dot(bk.prior, r[1 - n.player, i])) < floor:  # as ev(): no range
                continue
            for a, c in zip(n.actions, n.children, strict=True):
                if self.strategy[i, a, 0] < floor and self.tree.nodes[c].kind == "dec":
                    out.append((i, a))
        return out

    def value(self) -> float:
        """Player 0's (first to act) expected net in antes under the solution."""
        bk = buckets(self.ab.buckets)
        _r, v = self._cache(0)
        return float(np.dot(bk.prior, v[0]))

    def best_responses(self) -> tuple[float, float]:
        """Each player's best-response value (antes) against the other's strategy."""
        bk = buckets(self.ab.buckets)
        return (
            best_value(self.tree, self.strategy, bk, 0),
            best_value(self.tree, self.strategy, bk, 1),
        )


def _blind_path(tree: Tree, node: int) -> dict[int, int] | None:
    """The decisions on the way to ``node`` (node -> action), or ``None`` if one is not blind."""
    parent: dict[int, tuple[int, int]] = {}
    for i, n in enumerate(tree.nodes):
        for a, c in zip(n.actions, n.children, strict=True):
            parent[c] = (i, a)
    path: dict[int, int] = {}
    at = node
    while at in parent:
        up, a = parent[at]
        if not tree.nodes[up].blind:
            return None
        path[up] = a
        at = up
    return path


def _pinned_value(g: Subgame, pins: dict[int, int], node: int, action: int) -> float:
    bk = buckets(g.ab.buckets)
    strat, ar = solve(g.tree, bk, g.iterations, g.seed, pins=pins)
    t = g.tree.nodes[node].player
    r = reaches(ar, strat, len(bk.prior))
    v = values(ar, bk, strat, r, t)
    child = g.tree.nodes[node].children[g.tree.nodes[node].actions.index(action)]
    mass = float(np.dot(bk.prior, r[1 - t, node]))
    return float(np.dot(bk.prior, v[child])) / mass


def _name(ab: Abstraction, seen: tuple[bool, bool], dead: float, its: int, seed: int) -> str:
    s = "".join("s" if x else "b" for x in seen)
    start = f"s{seed}" if seed == 0 else f"s{seed}p"  # p: a random first strategy (solver.cfr)
    return (
        f"hu{VERSION}-b{ab.buckets}-k{ab.max_bets}-l{ab.max_level}-r{ab.raise_by}-{s}-d{dead:g}"
        f"-i{its}-{start}"
    )


def _cache_dir() -> Path:
    return Path(os.environ.get("BRAG_SOLVER_CACHE", Path.home() / ".cache" / "bragbook" / "solver"))


def _digest(strategy: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(strategy, dtype="<f8").tobytes()).hexdigest()


_MEMO: dict[str, Subgame] = {}
"""Games read or solved in this process (by file name): a page asks again without reading."""


def available(
    ab: Abstraction,
    seen: tuple[bool, bool],
    dead: float = 0.0,
    iterations: int = ITERATIONS,
    seed: int = 0,
) -> bool:
    """Whether :func:`subgame` answers without solving: the game is in memory, shipped
    (:mod:`solver.shipped`, its hash checked) or in the cache (a file of that name)."""
    name = _name(ab, seen, dead, iterations, seed) + ".npz"
    if name in _MEMO or (_cache_dir() / name).exists():
        return True
    return name in shipped.manifest().get("files", {}) and shipped.load(name) is not None


def subgame(
    ab: Abstraction,
    seen: tuple[bool, bool],
    dead: float = 0.0,
    iterations: int = ITERATIONS,
    seed: int = 0,
    *,
    cache: bool = True,
) -> Subgame:
    """The betting game with ``seen`` at its start and ``dead`` antes in the pot, solved.

    Read from the shipped games (:mod:`solver.shipped`) or the cache when there (its sha256
    checked: a mismatch is solved again), else solved and written there. Raises ``ValueError``
    for a negative ``dead`` or ``iterations`` < 1.
    """
    if dead < 0 or iterations < 1:
        raise ValueError("dead money and iterations must be non-negative / positive")
    name = _name(ab, seen, dead, iterations, seed) + ".npz"
    if cache and name in _MEMO:
        return _MEMO[name]
    tree = build(ab, seen, dead)
    path = _cache_dir() / name
    if cache:
        strat = shipped.load(name)
        if strat is not None and strat.shape[0] == len(tree.nodes):
            got = _MEMO[name] = Subgame(
                ab, seen, dead, iterations, seed, tree, strat, _digest(strat)
            )
            return got
    if cache and path.exists():
        with np.load(path) as z:
            strat, digest = z["strategy"], str(z["sha256"])
        if strat.shape[0] == len(tree.nodes) and _digest(strat) == digest:
            got = _MEMO[name] = Subgame(ab, seen, dead, iterations, seed, tree, strat, digest)
            return got
    t0 = time.perf_counter()
    strat, _ = solve(tree, buckets(ab.buckets), iterations, seed)
    secs = time.perf_counter() - t0
    digest = _digest(strat)
    if cache:
        path.parent.mkdir(parents=True, exist_ok=True)
        buf = io.BytesIO()
        np.savez_compressed(buf, strategy=strat, sha256=np.array(digest))
        tmp = path.with_suffix(".tmp")
        tmp.write_bytes(buf.getvalue())
        tmp.replace(path)
    got = Subgame(ab, seen, dead, iterations, seed, tree, strat, digest, secs)
    if cache:
        _MEMO[name] = got
    return got


@dataclass
class GameSolution:
    """The whole heads-up deal: the looks before the first bet over the four betting games."""

    games: dict[tuple[bool, bool], Subgame]
    bk: Buckets

    def looks(self) -> tuple[bool, dict[bool, bool]]:
        """Player 0's look (True = looks) and player 1's answer to each (RULES 5.1)."""
        v = {s: g.value() for s, g in self.games.items()}
        answer = {s0: min((False, True), key=lambda s1: v[(s0, s1)]) for s0 in (False, True)}
        first = max((False, True), key=lambda s0: v[(s0, answer[s0])])
        return first, answer

    def value(self) -> float:
        """The game value for player 0 (first to act), antes."""
        first, answer = self.looks()
        return self.games[(first, answer[first])].value()

    def exploitability(self) -> float:
        """Mean gain of two best responses over the whole deal (independent recursion), antes.

        Player 1 answers player 0's look with its best game; player 0 picks the look whose
        answered game serves it best; both best-respond in the betting game.
        """
        br = {s: g.best_responses() for s, g in self.games.items()}
        first, answer = self.looks()
        br1 = max(br[(first, s1)][1] for s1 in (False, True))
        br0 = max(br[(s0, answer[s0])][0] for s0 in (False, True))
        return (br0 + br1) / 2.0

    def digest(self) -> str:
        """sha256 over the four strategies' digests, in a fixed order."""
        h = hashlib.sha256()
        for s in STATUSES:
            h.update(self.games[s].digest.encode())
        return h.hexdigest()


def solve_game(
    ab: Abstraction, iterations: int = ITERATIONS, seed: int = 0, *, cache: bool = True
) -> GameSolution:
    """The four betting games of a heads-up deal with no dead money, solved (or read)."""
    games = {s: subgame(ab, s, 0.0, iterations, seed, cache=cache) for s in STATUSES}
    return GameSolution(games, buckets(ab.buckets))
