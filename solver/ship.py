"""Ships the solution: ``python -m solver.ship`` writes the games of :data:`solver.shipped.DEAD`
(read from the cache, or solved) into ``data/solver/`` with ``manifest.json`` (issue 38.3)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from solver.review import ABSTRACTION
from solver.shipped import DEAD, DIR, MANIFEST
from solver.solution import ITERATIONS, STATUSES, VERSION, _cache_dir, _name, subgame

__all__ = ["write"]


def write() -> None:
    """Writes every game of :data:`solver.shipped.DEAD` and the manifest into ``data/solver/``."""
    files: dict[str, Any] = {}
    DIR.mkdir(parents=True, exist_ok=True)
    for dead in DEAD:
        for seen in STATUSES:
            g = subgame(ABSTRACTION, seen, dead, ITERATIONS, 0)
            name = _name(ABSTRACTION, seen, dead, ITERATIONS, 0) + ".npz"
            src = _cache_dir() / name
            data = src.read_bytes() if src.exists() else (DIR / name).read_bytes()
            (DIR / name).write_bytes(data)
            files[name] = {
                "seen": list(seen),
                "dead": dead,
                "sha256": hashlib.sha256(data).hexdigest(),
                "strategy_sha256": g.digest,
                "bytes": len(data),
            }
    out = {
        "version": VERSION,
        "abstraction": ABSTRACTION.as_dict(),
        "iterations": ITERATIONS,
        "seed": 0,
        "files": files,
    }
    if MANIFEST.exists():  # the pinned EVs' hash (solver.ship_pins) stays
        old = json.loads(MANIFEST.read_text()).get("pinned_sha256")
        if old:
            out["pinned_sha256"] = old
    MANIFEST.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":  # pragma: no cover
    write()
