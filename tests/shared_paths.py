"""Where the tests find the team's shared folder (the rules' scenarios): ``$BRAG_SHARED``, else
``shared/`` beside the checkout (``../shared``, as in CI's clone); ``data/make_examples.py`` looks
in the same two places. Worked out once here, not in each test file.

No other place is tried: a checkout with neither (a fresh clone with nothing beside it, or
``BRAG_SHARED`` naming a folder without ``scenarios/``) has no scenarios, and every test that
needs them skips with the one line :data:`NO_SHARED` (:data:`needs_shared`, or the
``scenarios_dir`` and ``store_url`` fixtures of ``tests/conftest.py``); nothing else reads them."""

from __future__ import annotations

import glob
import json
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
"""The checkout."""


def _shared() -> Path:
    if os.environ.get("BRAG_SHARED"):
        return Path(os.environ["BRAG_SHARED"])
    return ROOT.parent / "shared"


SHARED = _shared()
SCENARIOS = SHARED / "scenarios"
HAVE_SHARED = SCENARIOS.is_dir()
"""Whether the scenarios are there (``$BRAG_SHARED/scenarios`` or ``../shared/scenarios``)."""
NO_SHARED = "needs ../shared/scenarios: not beside this checkout"
"""The one line a test that needs the scenarios skips with when they are not there."""
needs_shared = pytest.mark.skipif(not HAVE_SHARED, reason=NO_SHARED)
"""The mark of a test that reads the scenarios (a file outside the checkout)."""


def valid_scenarios() -> list[str]:
    """The scenarios whose expected outcome is not a refusal (no ``"error"`` in their
    ``.expected.json``), sorted by path: the logs the statistics' tests fold."""
    out = []
    for path in sorted(glob.glob(str(SCENARIOS / "*.jsonl"))):
        expected = json.loads(Path(path.replace(".jsonl", ".expected.json")).read_text())
        if "error" not in expected:
            out.append(path)
    return out


VALID_SCENARIOS = valid_scenarios()
"""The paths of the scenarios that are not refused, worked out once per run."""
