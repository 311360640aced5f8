"""The players' chart (dashboard.stats.figures) counts the sessions the statistics table counts,
after brag import and brag analytics refresh of a session still in play: one rule, ended deals. The
facts' other edges are tested in tests/cli/test_facts_edges.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from brag.cli import main

ROOT = Path(__file__).resolve().parents[1]


SEASON = sorted(str(p) for p in (ROOT / "data" / "season").glob("*.jsonl"))[:6]


def test_the_players_chart_counts_the_sessions_the_table_counts(tmp_path: Path) -> None:
    """An unfinished session whose first deal is still in play: the statistics table has no
    ended deal of it, and the chart does not count it either; once a deal has ended, both do,
    and the chart's last point is the table's net (one rule: ended deals)."""
    import analytics.tables
    from analytics import queries
    from dashboard.stats.tables import net_over_time

    lines = Path(SEASON[2]).read_text(encoding="utf-8").splitlines()
    kinds = [json.loads(line)["type"] for line in lines]
    first_end = next(k for k, t in enumerate(kinds) if t in ("pot_won", "pot_carried"))
    db = str(tmp_path / "club.db")
    assert main(["import", "--db", db, *SEASON[:2]]) == 0
    for cut, ended in ((kinds.index("dealt") + 2, 0), (first_end + 1, 1)):
        live = tmp_path / f"live{cut}.jsonl"  # the third session as recorded so far
        live.write_text("\n".join(lines[:cut]) + "\n", encoding="utf-8")
        assert main(["import", "--db", db, str(live)]) == 0
        assert main(["analytics", "refresh", "--db", db]) == 0
        con = analytics.tables.connect(str(tmp_path / "club.duckdb"))
        try:
            stats = {r["player"]: r for r in queries.player_stats(con)}
            seated = json.loads(lines[0])["seats"]
            for player in seated:
                deals = queries.deals_behind(con, player, "net")
                chart = net_over_time({player: deals}, {})
                row = stats.get(player)  # none for a player with no ended deal yet
                assert len(chart["session"]) == (row["sessions"] if row else 0), (player, ended)
                if row:
                    assert chart[player][-1] == pytest.approx(float(row["net"]))
            played = sum(1 for s in SEASON[:2] if seated[0] in Path(s).read_text("utf-8"))
            assert stats[seated[0]]["sessions"] == played + ended
        finally:
            con.close()
