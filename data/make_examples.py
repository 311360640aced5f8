"""Writes data/examples/: the rule card's worked example and seed 002's two betting tables.

Each source log in the team's scenarios (``$BRAG_SHARED/scenarios``, else ``../shared/scenarios``
beside the checkout: where the tests look too, ``tests/shared_paths.py``) is read, checked and
completed by the engine (``engine.fold.complete`` inserts the derived events: the pot won), and
written back through the codec with an envelope: ``seq`` (position in the stream) and a stable
``id`` (uuid5 of the session and seq, so importing a file twice stores it once). No ``at``: the
sources carry no times.

Run from the repository root: ``.venv/bin/python data/make_examples.py [OUT_DIR]`` (default
``data/examples``).
"""

from __future__ import annotations

import os
import sys
import uuid
from pathlib import Path

from engine.fold import complete
from events.codec import read_file, write_events
from events.model import SessionStarted

ROOT = Path(__file__).resolve().parent.parent


def _sources() -> Path:
    """The scenarios folder: ``$BRAG_SHARED/scenarios``, else ``../shared/scenarios``."""
    shared = os.environ.get("BRAG_SHARED")
    return (Path(shared) if shared else ROOT.parent / "shared") / "scenarios"


SOURCES = _sources()
NAMES = ("card_example", "seed002_open_example", "seed002_blind_example")
NAMESPACE = uuid.UUID("0e7c3f3a-2b1d-4c55-8e0a-6f1b2d3c4e5f")


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else ROOT / "data" / "examples"
    if not SOURCES.is_dir():
        print(f"make_examples: no scenarios at {SOURCES} (set BRAG_SHARED)", file=sys.stderr)
        return 2
    out.mkdir(parents=True, exist_ok=True)
    for name in NAMES:
        steps = list(complete(read_file(str(SOURCES / f"{name}.jsonl"))))
        first = steps[0].event
        assert isinstance(first, SessionStarted)
        events = [
            step.event.model_copy(
                update={"seq": k, "id": uuid.uuid5(NAMESPACE, f"{first.session}/{k}")}
            )
            for k, step in enumerate(steps, start=1)
        ]
        with open(out / f"{name}.jsonl", "w", encoding="utf-8", newline="\n") as fp:
            write_events(events, fp)
        print(f"{out / name}.jsonl: {len(events)} events", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
