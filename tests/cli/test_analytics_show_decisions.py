"""brag analytics show decisions prints the decision facts, for every player or one. The facts
themselves are tested in tests/analytics/test_decision_facts.py."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from decision_recount_helpers import recount
from shared_paths import VALID_SCENARIOS, needs_shared

from engine.fold import complete
from events.codec import read_file


@needs_shared
def test_brag_analytics_show_decisions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``brag analytics show decisions --format json`` on a store: per player and action, the
    recount's numbers; ``--player`` narrows it to one player."""
    from brag.cli import main

    logs = [p for p in VALID_SCENARIOS if Path(p).stem in ("card_example", "seed002_blind_example")]
    assert len(logs) == 2
    db = str(tmp_path / "club.db")
    assert main(["import", "--db", db, *logs]) == 0
    capsys.readouterr()
    expect: Counter[tuple[str, str]] = Counter()
    for path in logs:
        expect += recount([s.event for s in complete(read_file(path))])
    assert main(["analytics", "show", "decisions", "--db", db, "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert Counter({(r["player"], r["action"]): r["decisions"] for r in rows}) == expect
    assert main(["analytics", "show", "decisions", "--db", db, "--player", "A",
                 "--format", "json"]) == 0  # fmt: skip
    mine = json.loads(capsys.readouterr().out)
    assert {r["player"] for r in mine} == {"A"}
    assert sum(r["decisions"] for r in mine) == sum(n for (p, _), n in expect.items() if p == "A")
