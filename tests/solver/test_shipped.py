"""The shipped solution (issue 38.3): every file of ``data/solver/`` matches its manifest's
sha256, is what :func:`solver.solution.subgame` reads before its cache, and a new solve with the
same settings reproduces its strategy (to :data:`SAME`: bit for bit only on one CPU)."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import numpy as np
import pytest

from solver import shipped, solution
from solver.review import ABSTRACTION
from solver.solution import ITERATIONS, STATUSES, _name, solve_game, subgame


def _entries() -> dict[str, dict[str, object]]:
    files = shipped.manifest()["files"]
    assert files, "no shipped game"
    return dict(files)


def test_every_shipped_file_matches_its_manifest() -> None:
    m = shipped.manifest()
    assert m["iterations"] == ITERATIONS and m["version"] == solution.VERSION
    assert m["abstraction"] == ABSTRACTION.as_dict()
    want = {
        _name(ABSTRACTION, s, d, ITERATIONS, 0) + ".npz" for d in shipped.DEAD for s in STATUSES
    }
    assert set(_entries()) == want
    for name, e in _entries().items():
        data = (shipped.DIR / name).read_bytes()
        assert hashlib.sha256(data).hexdigest() == e["sha256"] and len(data) == e["bytes"]
        with np.load(shipped.DIR / name) as z:
            strat = np.asarray(z["strategy"])
        assert (
            solution._digest(strat)
            == e["strategy_sha256"]
            == str(np.load(shipped.DIR / name)["sha256"])
        )
    size = sum(p.stat().st_size for p in shipped.DIR.iterdir())
    assert size < 8_000_000, size  # a few MB


def test_subgame_reads_the_shipped_game_before_its_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BRAG_SOLVER_CACHE", str(tmp_path / "empty"))
    monkeypatch.setattr(solution, "_MEMO", {})
    name = _name(ABSTRACTION, (False, True), 2.0, ITERATIONS, 0) + ".npz"
    assert solution.available(ABSTRACTION, (False, True), 2.0)
    g = subgame(ABSTRACTION, (False, True), 2.0)
    assert g.digest == _entries()[name]["strategy_sha256"] and g.seconds == 0.0
    assert not (tmp_path / "empty").exists()  # read, not solved
    assert not solution.available(ABSTRACTION, (False, True), 4.5)


def test_a_file_whose_hash_differs_is_not_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    name = _name(ABSTRACTION, (True, True), 0.0, ITERATIONS, 0) + ".npz"
    copy = tmp_path / "solver"
    shutil.copytree(shipped.DIR, copy)
    with np.load(copy / name) as z:
        strat = np.asarray(z["strategy"]).copy()
    strat[0, 0, 0] += 0.5  # another strategy, saved with its own (consistent) digest
    np.savez_compressed(copy / name, strategy=strat, sha256=np.array(solution._digest(strat)))
    monkeypatch.setattr(shipped, "DIR", copy)
    monkeypatch.setattr(shipped, "MANIFEST", copy / "manifest.json")
    assert shipped.load(name) is None
    other = _name(ABSTRACTION, (True, True), 2.0, ITERATIONS, 0) + ".npz"
    assert shipped.load(other) is not None


SAME = 1e-3
"""How far a new solve's probability may lie from the shipped one's. The same settings give the
same strategy on one machine bit for bit (the digest), but not across CPUs: floating-point sums
vectorised to another width differ by ~1e-13, and CFR+'s regret matching carries that to ~2e-4
at a few nodes over 400 iterations (measured: dead money 2, both seen, an AMD EPYC against the
machine that shipped it; issue 38.5's grades move at 1e-2 ante)."""


def _shipped_strategy(name: str) -> np.ndarray:
    strat = shipped.load(name)
    assert strat is not None, name
    return strat


def test_a_new_solve_of_a_shipped_game_reproduces_its_strategy() -> None:
    """The smallest betting games (both seen: about a second each) solved again, uncached: the
    shipped strategy within :data:`SAME` per probability."""
    for dead in (0.0, 2.0):
        name = _name(ABSTRACTION, (True, True), dead, ITERATIONS, 0) + ".npz"
        g = subgame(ABSTRACTION, (True, True), dead, cache=False)
        assert np.abs(g.strategy - _shipped_strategy(name)).max() < SAME, name


@pytest.mark.slow
def test_solve_game_with_the_shipped_settings_reproduces_every_strategy() -> None:
    sol = solve_game(ABSTRACTION, ITERATIONS, 0, cache=False)
    for s, g in sol.games.items():
        name = _name(ABSTRACTION, s, 0.0, ITERATIONS, 0) + ".npz"
        assert np.abs(g.strategy - _shipped_strategy(name)).max() < SAME, s


def test_the_shipped_pins_match_their_hash_and_cover_every_pin_a_review_asks() -> None:
    """``data/solver/pinned.json``: its sha256 is the manifest's, and it holds a value for every
    pin of every shipped game a review may ask (:meth:`Subgame.pins`), so no page waits."""
    data = shipped.PINNED.read_bytes()
    assert hashlib.sha256(data).hexdigest() == shipped.manifest()["pinned_sha256"]
    for d in shipped.DEAD:
        for s in STATUSES:
            g = subgame(ABSTRACTION, s, d)
            name = _name(ABSTRACTION, s, d, ITERATIONS, 0)
            have = shipped.pinned(name)
            for node, a in g.pins():
                if solution._blind_path(g.tree, node) is not None:
                    assert f"{node}:{a}" in have, (name, node, a)


@pytest.mark.slow
def test_a_pin_solved_again_reproduces_the_shipped_value(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The blind bet at the root of the blind-against-blind game, solved again uncached."""
    g = subgame(ABSTRACTION, (False, False), 0.0)
    node, a = g.pins()[0]
    name = _name(ABSTRACTION, (False, False), 0.0, ITERATIONS, 0)
    want = shipped.pinned(name)[f"{node}:{a}"]
    monkeypatch.setenv("BRAG_SOLVER_CACHE", str(tmp_path / "empty"))
    monkeypatch.setattr(shipped, "PINNED", tmp_path / "none.json")
    assert g.pinned_ev(node, a) == pytest.approx(want, abs=1e-9)
    assert (tmp_path / "empty" / f"{name}-pins.json").exists()  # solved here, then cached
