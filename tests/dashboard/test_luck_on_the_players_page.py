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


def test_the_money_comes_first_so_a_phone_shows_the_luck_adjusted_net() -> None:
    """At 390 px the table shows its first four columns or so: the name, the net, the net per
    deal and the luck-adjusted net per deal, before the counts (a fresh user found the luck
    column a swipe away); every statistic of the table is still there, once."""
    from dashboard.stats import figures

    row = {
        "player": "Ann",
        "sessions": 3,
        "deals": 25,
        "net": 12,
        "net_n": 25,
        "net_per_deal": 0.48,
        "net_per_deal_n": 25,
        "adjusted_net_per_deal": -0.2,
        "adjusted_net_per_deal_n": 25,
    }
    line = figures.stats_table([row])[0]
    assert list(line)[:4] == ["player", "Net", "Net per deal", "Luck-adjusted net per deal"]
    want = {figures.label(n) for n in (*figures.SUMMARY, "blind_rate", "see_rate")}
    assert set(line) - {"player"} == want and len(line) == len(want) + 1
