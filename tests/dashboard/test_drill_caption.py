"""The caption over the deals behind a statistic on the Players page says each count once: "205
deals, 28 made blind", not "205 deals: 205 deals, 28 made blind" (the new-user walk, issue 35);
where the statistic counts fewer of them, both ("50 deals: 30 deals, 45 bets before looking")."""

from __future__ import annotations

from dashboard.stats.figures import drill_caption

ROW = {
    "player": "Jean",
    "blind_rate": 28 / 205,
    "blind_rate_n": 205,
    "avg_bets_before_looking": 1.5,
    "avg_bets_before_looking_n": 50,
}


def test_a_count_over_every_deal_is_said_once() -> None:
    got = drill_caption(ROW, "blind_rate", [], {"deals": 205, "counted": 205, "hits": 28})
    assert got == "First action made blind: 14% of 205 deals. 205 deals, 28 made blind."


def test_a_count_over_some_of_the_deals_says_both() -> None:
    total = {"deals": 50, "counted": 30, "hits": 45}
    got = drill_caption(ROW, "avg_bets_before_looking", [], total)
    assert got.endswith(". 50 deals: 30 deals, 45 bets before looking.")


def test_one_deal_is_one_deal() -> None:
    got = drill_caption(ROW, "blind_rate", [], {"deals": 1, "counted": 1, "hits": 1})
    assert got.endswith(". 1 deal, 1 made blind.")
