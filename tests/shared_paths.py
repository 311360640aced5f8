"""Where the tests find the team's shared folder (the rules' scenarios): ``$BRAG_SHARED``, else
``shared/`` beside the checkout (``../shared``, as in CI's clone), else ``/work/shared`` (a
checkout laid out otherwise on the team's machines). Worked out once here, not in each test file."""

from __future__ import annotations

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
