"""brag stats shows the adjusted net (luck, issue 27) and says why it is absent. The luck itself is
tested in tests/analytics/test_luck.py."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import duckdb
import pytest
from example_logs import ALL_CARDS
from luck_helpers import luck_con, luck_src  # noqa: F401 (the fixtures con, src)

from analytics.luck import LUCK_ABSENT


def test_cli_stats_shows_the_adjusted_net_and_why_it_is_absent(
    store_url: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from brag.cli import main

    assert main(["--db", store_url, "stats", "--format", "json"]) == 0
    by = {r["player"]: r for r in json.loads(capsys.readouterr().out)}
    assert by["A"]["luck_deals"] == 0 and by["A"]["adjusted_net_per_deal"] is None  # shown
    con = duckdb.connect(str(Path(store_url).with_suffix(".duckdb")), read_only=True)
    adj, n = con.execute(
        "SELECT sum(adjusted_net_t), count(adjusted_net_t) FROM player_deals "
        "WHERE session = ? AND player = 'Colin'",
        [ALL_CARDS],
    ).fetchone()
    con.close()
    assert by["Colin"]["luck_deals"] == n > 0
    assert Fraction(by["Colin"]["adjusted_net_per_deal"]) == Fraction(int(adj), 2 * n)
    assert main(["--db", store_url, "stats"]) == 0
    out = capsys.readouterr().out
    assert "adjusted net per deal" in out and LUCK_ABSENT in " ".join(out.split())
    assert main(["--db", store_url, "stats", "--session", ALL_CARDS]) == 0
    assert "luck-adjusted net" not in capsys.readouterr().out  # every card known: no note
