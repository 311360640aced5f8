"""Issue 35 (item 6b): one format for amounts. An estimate (an average of money: the adjusted
net, a net per deal, a mean net in a spot) is rounded to the nearest quarter and written as
every amount is (``≈ +6¼``), beside exact amounts (``-2¼``), on the Players page, the Decisions
page and ``brag stats`` (whose cells :func:`present.stat_cells.stat_cell` writes)."""

from __future__ import annotations

import re
from fractions import Fraction

from apptest_helpers import page

from analytics.spots import net_text
from dashboard.stats.figures import stat_text
from present.stat_cells import PAGE, TERMINAL, stat_cell

AMOUNT = re.compile(r"(≈ )?[+-]?(\d+[¼½¾]?|[¼½¾])")
"""An amount as a person reads it: exact, or ``≈`` and the nearest quarter; never decimals."""


def test_an_estimate_reads_as_an_amount_on_every_surface() -> None:
    adjusted = Fraction(187, 30)  # +6.2333...: the adjusted net of the "≈ +6.23"
    row = {"adjusted_net_per_deal": adjusted, "luck_deals": 12, "net_per_deal": adjusted}
    assert stat_cell(row, "adjusted_net_per_deal", PAGE) == "≈ +6¼ over 12 deals"  # Players
    assert stat_text(row, "net_per_deal") == "≈ +6¼"  # the Players page's figures
    assert stat_cell({"net_per_deal": "187/30"}, "net_per_deal", TERMINAL) == "≈ +6¼"  # brag
    assert net_text(adjusted, 0.8) == "≈ +6¼ ± 1"  # Decisions: the error rounded up
    # exact amounts stay exact, and take no "≈"
    assert stat_text({"net_per_deal": Fraction(-9, 4)}, "net_per_deal") == "-2¼"
    assert net_text(Fraction(-9, 4), 0.25) == "-2¼ ± ¼"
    # the nearest quarter, halves away from 0; a tiny estimate is "≈ 0", never "-0"
    assert stat_text({"net_per_deal": Fraction(-7, 3)}, "net_per_deal") == "≈ -2¼"
    assert stat_text({"net_per_deal": Fraction(23, 8)}, "net_per_deal") == "≈ +3"
    assert stat_text({"net_per_deal": Fraction(-1, 10)}, "net_per_deal") == "≈ 0"
    assert stat_cell({"pot_mean": "56725/606"}, "pot_mean") == "≈ 93½"


def test_the_players_page_writes_no_amount_in_decimals(store_url: str) -> None:
    at = page("players")
    assert not at.exception
    table = at.dataframe[0].value.set_index("player")
    money = ["Net per deal", "Luck-adjusted net per deal"]
    cells = [str(c) for name in money if name in table for c in table[name] if c != "–"]
    assert any("≈" in c for c in cells), cells  # the bundled season has estimates
    for c in cells:
        value = c.split(" over ")[0]
        assert AMOUNT.fullmatch(value), c


def test_a_share_reads_all_or_none_only_when_it_is() -> None:
    """A new user read "Deals with a bet: 100% of 231 deals" as every deal, beside "First action
    made blind: 100% of 230 deals": one deal had no bet. A whole percent that would round to 0%
    or 100% takes a decimal instead, on the page and in the skill table's "luck known"."""
    row = {"bet_share": 230 / 231, "bet_share_n": 231, "see_rate": 1 / 300, "see_rate_n": 300}
    assert stat_cell(row, "bet_share", PAGE) == "99.6% of 231 deals"
    assert stat_cell(row, "see_rate", PAGE) == "0.3% of 300 chances"
    assert stat_cell({"blind_rate": 1.0, "blind_rate_n": 230}, "blind_rate", PAGE) == (
        "100% of 230 deals"
    )
    assert stat_cell({"raise_rate": 0.0, "raise_rate_n": 7}, "raise_rate", PAGE) == "0% of 7 bets"
    assert stat_cell({"raise_rate": 0.4286, "raise_rate_n": 7}, "raise_rate", PAGE) == (
        "43% of 7 bets"
    )
