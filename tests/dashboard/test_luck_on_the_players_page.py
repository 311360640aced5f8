"""The Players page shows the adjusted net (luck, issue 27) and why not. The luck itself is tested
in tests/analytics/test_luck.py."""

from __future__ import annotations

from apptest_helpers import page

from analytics.luck import LUCK_ABSENT
from dashboard.common.escape import unreferenced


def test_players_page_shows_the_adjusted_net_and_why_not(store_url: str) -> None:
    at = page("players")
    assert not at.exception
    table = at.dataframe[0].value.set_index("player")
    column = table["Luck-adjusted net per deal"]
    assert column["A"] == "–"  # the rule card's example records only the cards shown
    assert column["Colin"].endswith(" deals") and column["Colin"] != "–"
    assert any(unreferenced(LUCK_ABSENT) in c.value for c in at.caption)
