"""brag stats, leaderboard and analytics refresh, export and show on a small store: JSON, CSV, a
refresh and a rebuild. The statistics themselves are tested in
tests/analytics/test_statistics.py."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from shared_paths import VALID_SCENARIOS, needs_shared

VALID = VALID_SCENARIOS


@needs_shared
@pytest.mark.slow
def test_cli_stats_json_and_refresh(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from brag.cli import main
    from log.open import open_store

    db = str(tmp_path / "brag.db")
    store = open_store(db)
    for path in VALID:
        store.import_log(path)
    store.close()
    assert main(["--db", db, "stats", "--format", "json", "--session", "card-example"]) == 0
    out = json.loads(capsys.readouterr().out)
    by = {r["player"]: r for r in out}
    assert (by["B"]["net"], by["A"]["net"], by["B"]["deals"], by["B"]["pots_won"]) == (
        "9",
        "-7",
        1,
        1,
    )
    for key in ("blind_rate", "blind_rate_n", "see_rate", "see_rate_n"):
        assert key in by["A"]
    assert os.path.exists(tmp_path / "brag.duckdb")  # beside the store
    assert main(["--db", db, "analytics", "refresh"]) == 0
    assert capsys.readouterr().out.startswith("0 events applied")
    assert main(["--db", db, "analytics", "refresh", "--rebuild"]) == 0
    assert "events applied" in capsys.readouterr().out
    assert main(["--db", db, "leaderboard", "--session", "eight", "--format", "csv"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith("eight,True,A,0,")
    assert main(["--db", db, "stats", "--session", "blind-half"]) == 0
    assert "blind rate" in capsys.readouterr().out
    assert main(["--db", db, "analytics", "export", "--parquet", str(tmp_path / "pq")]) == 0
    assert list((tmp_path / "pq" / "player_deals").glob("table_name=*/month=*/part_*.parquet"))
    assert main(["--db", db, "analytics", "show", "player_stats", "--describe"]) == 0
    assert "blind_rate [share of first actions] (RULES 5.1)" in capsys.readouterr().out
