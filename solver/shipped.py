"""The shipped solution: betting games solved once and kept in ``data/solver/`` (issue 38.3).

A review page must be ready within 2 s, so the games a review of the standard rules asks for
(ante 1, no dead money and the dead money that occurs: :data:`DEAD`) are not solved on a page's
request: they ship as ``.npz`` files (the same format as the cache of :mod:`solver.solution`,
named by its parameters) with ``manifest.json``, which gives each file's sha256 (its bytes) and
its strategy's sha256 (:func:`solver.solution._digest`: what a new solve of the same settings
reproduces on the same CPU; on another, the strategy within 1e-3,
``tests/solver/test_shipped.py``). :func:`load` checks both: a file whose hash differs is not
read (the game is then read from the cache or solved). ``python -m solver.ship`` writes the
files and the manifest from the cache (solving what is missing).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["DEAD", "DIR", "MANIFEST", "PINNED", "load", "manifest", "pinned"]

DIR = Path(__file__).resolve().parents[1] / "data" / "solver"
"""Where the shipped games are."""
MANIFEST = DIR / "manifest.json"
DEAD = (0.0, 2.0, 2.5, 3.0, 4.0)
"""Dead money shipped (antes): none (a heads-up deal), the antes of players who folded before any
bet (RULES 5.6: 2 and 4 on the bundled season) and a carried pot's (6.1: 2 to 4 most often on
simulated heads-up sessions). Other values are solved on first use and cached."""


def manifest() -> dict[str, Any]:
    """The manifest (``{"files": {name: {"sha256", "strategy_sha256", "bytes"}}, ...}``), or an
    empty one when none is shipped."""
    try:
        return dict(json.loads(MANIFEST.read_text()))
    except (OSError, ValueError):
        return {"files": {}}


def file_sha256(path: Path) -> str:
    """The sha256 of a file's bytes (hex)."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def load(name: str) -> np.ndarray | None:
    """The strategy of the shipped game ``name`` (a file name of the cache, ``.npz``), or
    ``None``: not shipped, or its bytes or its strategy do not match the manifest's sha256."""
    entry = manifest().get("files", {}).get(name)
    path = DIR / name
    if not entry or not path.exists() or file_sha256(path) != entry["sha256"]:
        return None
    with np.load(path) as z:
        strat = np.asarray(z["strategy"])
    digest = hashlib.sha256(np.ascontiguousarray(strat, dtype="<f8").tobytes()).hexdigest()
    return strat if digest == entry["strategy_sha256"] else None


PINNED = DIR / "pinned.json"
"""The EVs of the off-path blind actions of the shipped games (``{game name: {"node:action":
ev}}``, antes; :meth:`solver.solution.Subgame.pinned_ev`), its sha256 in the manifest."""


def pinned(name: str) -> dict[str, float]:
    """The shipped pinned EVs of the game ``name`` (no ``.npz``); empty when the file is missing
    or its sha256 is not the manifest's ``pinned_sha256``."""
    if not PINNED.exists():
        return {}
    data = PINNED.read_bytes()
    if hashlib.sha256(data).hexdigest() != manifest().get("pinned_sha256"):
        return {}
    got: dict[str, float] = json.loads(data).get(name, {})
    return got
