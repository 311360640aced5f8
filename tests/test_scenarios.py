"""The shared golden cases: every ``scenarios/*.jsonl`` verified in-process and compared with its
``.expected.json`` (contract: ``../shared/scenarios/README.md``).

The shared folder is ``../shared`` beside the repository, or ``$BRAG_SHARED``.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from shared_paths import SCENARIOS, needs_shared

from engine.fold import summary, verify_events
from events.amounts import parse_amount
from events.codec import read_file
from events.errors import BragError

CASES = sorted(SCENARIOS.glob("*.jsonl")) if SCENARIOS.is_dir() else []

pytestmark = needs_shared


def amount(x: Any) -> Fraction:
    """An amount of an expected file: integer, decimal or fraction string (exactly)."""
    return parse_amount(x)


def expected_of(case: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(case.with_suffix(".expected.json").read_text("utf-8"))
    return data


def test_the_scenarios_are_there() -> None:
    assert len(CASES) >= 30
    for case in CASES:
        assert case.with_suffix(".expected.json").is_file(), case.name


@pytest.mark.parametrize("case", CASES, ids=[c.stem for c in CASES])
def test_scenario(case: Path) -> None:
    exp = expected_of(case)
    if "error" in exp:
        with pytest.raises(BragError) as info:
            verify_events(read_file(str(case)))
        err = info.value
        assert (err.line, err.rule) == (exp["error"]["line"], exp["error"]["rule"]), (
            f"{exp.get('about')}: refused {err}"
        )
        assert err.message
        return
    got = summary(verify_events(read_file(str(case))))
    for key in ("deals", "resolved_pots", "carried_pots", "finished"):
        assert got[key] == exp[key], key
    assert amount(got["pot"]) == amount(exp["pot"])
    assert {p: amount(v) for p, v in got["nets"].items()} == {
        p: amount(v) for p, v in exp["nets"].items()
    }
    assert sum(amount(v) for v in got["nets"].values()) + amount(got["pot"]) == 0
    if exp["finished"]:
        assert sorted(got["winners"]) == sorted(exp["winners"])
    else:
        assert "winners" not in got
    assert len(got["outcomes"]) == len(exp["outcomes"])
    for g, e in zip(got["outcomes"], exp["outcomes"], strict=True):
        for key, want in e.items():
            if key == "amount":
                assert amount(g[key]) == amount(want), (e["deal"], key)
            else:
                assert g.get(key) == want, (e["deal"], key)
