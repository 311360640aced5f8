"""Ships the pinned EVs: ``python -m solver.ship_pins`` solves every pin of the shipped games
(:meth:`solver.solution.Subgame.pins`) and writes ``data/solver/pinned.json`` and its sha256 into
the manifest (issue 38.5)."""

from __future__ import annotations

import hashlib
import json

from solver.review import ABSTRACTION, ON_PATH
from solver.shipped import DEAD, MANIFEST, PINNED
from solver.solution import ITERATIONS, STATUSES, _name, subgame

__all__ = ["write"]


def write() -> None:
    """Solves and writes every pin of the shipped games, then the manifest's ``pinned_sha256``."""
    out: dict[str, dict[str, float]] = {}
    for dead in DEAD:
        for seen in STATUSES:
            g = subgame(ABSTRACTION, seen, dead, ITERATIONS, 0)
            name = _name(ABSTRACTION, seen, dead, ITERATIONS, 0)
            got = {}
            for node, a in g.pins(ON_PATH):
                ev = g.pinned_ev(node, a)
                if ev is not None:
                    got[f"{node}:{a}"] = round(ev, 12)
            out[name] = got
            print(name, len(got), flush=True)
    data = (json.dumps(out, indent=1, sort_keys=True) + "\n").encode()
    PINNED.write_bytes(data)
    man = json.loads(MANIFEST.read_text())
    man["pinned_sha256"] = hashlib.sha256(data).hexdigest()
    MANIFEST.write_text(json.dumps(man, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":  # pragma: no cover
    write()
