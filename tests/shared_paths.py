"""Where the tests find the team's shared folder (the rules' scenarios): ``$BRAG_SHARED``, else
``shared/`` beside the checkout (``../shared``, as in CI's clone), else ``/work/shared`` (a
checkout laid out otherwise on the team's machines). Worked out once here, not in each test file."""

from __future__ import annotations

import glob
import json
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
"""The checkout."""


def _shared() -> Path:
    if os.environ.get("BRAG_SHARED"):
        return Path(os.environ["BRAG_SHARED"])
    beside = ROOT.parent / "shared"
    return beside if beside.is_dir() else Path("/work/shared")


SHARED = _shared()
SCENARIOS = SHARED / "scenarios"


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
