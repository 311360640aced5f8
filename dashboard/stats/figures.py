"""The Players and Explore pages' figures, from the analytics statistics: pure functions.

The statistics come from :mod:`analytics.queries` as lists of dicts (money exact as
:class:`~fractions.Fraction`, every rate beside its count). Here they are laid out for reading: an
amount as ``8½``, a rate as ``43% of 51``, two players side by side, each player's net over time,
and the hand categories seen at showdowns beside the pack's own shares (RULES 2.8). The charts and
tables that need no statistic's words are :mod:`dashboard.stats.tables`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dashboard.common.links import LinkRow, link
from present.numbers import count_of
from present.stat_cells import COUNT_WORDS as _COUNT_WORDS
from present.stat_cells import PAGE, stat_cell

__all__ = [
    "DRILLED",
    "HABITS",
    "SUMMARY",
    "drill_caption",
    "drill_links",
    "habits",
    "label",
    "side_by_side",
    "stat_text",
    "stats_table",
]

SUMMARY = (
    "sessions",
    "deals",
    "net",
    "net_per_deal",
    "adjusted_net_per_deal",
    "pots_won",
    "pots_won_showdown",
    "pots_won_uncontested",
    "biggest_pot_won",
    "carried_caused",
)
"""The counts and money of a player, in the order shown."""

HABITS = (
    "blind_rate",
    "avg_bets_before_looking",
    "bet_share",
    "raise_rate",
    "see_rate",
    "payer_win_rate",
    "seen_win_rate",
)
"""Blind and see habits: each a rate over the count beside it (``blind_rate_n``)."""

_WORDS = {
    "sessions": "Sessions",
    "deals": "Deals",
    "net": "Net",
    "net_per_deal": "Net per deal",
    "adjusted_net_per_deal": "Luck-adjusted net per deal",
    "pots_won": "Pots won",
    "pots_won_showdown": "… at a showdown",
    "pots_won_uncontested": "… uncontested",
    "biggest_pot_won": "Biggest pot won",
    "carried_caused": "Pots carried (survived blind)",
    "blind_rate": "First action made blind",
    "avg_bets_before_looking": "Bets before looking, per deal",
    "bet_share": "Deals with a bet",
    "raise_rate": "Bets that raised",
    "see_rate": "Sees when a see was possible",
    "payer_win_rate": "Showdowns won as the payer",
    "seen_win_rate": "Showdowns won as the one seen",
}


def label(name: str) -> str:
    return _WORDS.get(name, name.replace("_", " "))


def stat_text(row: dict[str, Any], name: str) -> str:
    """One statistic of a player as read: money exact, rates with their count (the page's style
    of :func:`present.stat_cells.stat_cell`: ``43% of 51 deals``, ``+8½``, ``–``)."""
    return stat_cell(row, name, PAGE)


FIRST = ("net", "net_per_deal", "adjusted_net_per_deal")
"""The columns right after the player's name in :func:`stats_table`: what a phone's first screen
of the table shows (the luck-adjusted net was a swipe away at 390 px)."""


def stats_table(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every player on one line: the money first (:data:`FIRST`), then the counts, the other
    money and the main habits, as text."""
    names = (*FIRST, *(n for n in SUMMARY if n not in FIRST), "blind_rate", "see_rate")
    out = []
    for r in rows:
        line: dict[str, Any] = {"player": r["player"]}
        for name in names:
            line[label(name)] = stat_text(r, name)
        out.append(line)
    return out


def side_by_side(
    a: dict[str, Any] | None, b: dict[str, Any] | None, names: Sequence[str]
) -> list[dict[str, str]]:
    """Statistics as rows, one column per player (``None``: no data for that player)."""
    out = []
    for n in names:
        line = {"statistic": label(n)}
        for row in (a, b):
            if row is not None:
                line[row["player"]] = stat_text(row, n)
        out.append(line)
    return out


DRILLED = (*HABITS, "pots_won", "pots_won_showdown", "pots_won_uncontested", "carried_caused")
"""The statistics whose deals the Players page lists (:data:`analytics.queries.DRILL`)."""

_HIT_WORDS = {
    "blind_rate": "made blind",
    "avg_bets_before_looking": "bets before looking",
    "bet_share": "with a bet",
    "raise_rate": "raises",
    "see_rate": "sees",
    "payer_win_rate": "won",
    "seen_win_rate": "won",
}


def drill_caption(
    row: dict[str, Any],
    name: str,
    deals: Sequence[dict[str, Any]],
    total: dict[str, Any] | None = None,
) -> str:
    """What the listed deals add up to, beside the statistic as shown (the same count); with
    ``total`` (``analytics.queries.deals_behind_total``: ``deals``, ``counted``, ``hits``), what
    every deal behind it adds up to when ``deals`` is one page of them."""
    if total is None:
        total = {
            "deals": len(deals),
            "counted": sum(int(d["counted"]) for d in deals),
            "hits": sum(int(d["hits"]) for d in deals) if name in _HIT_WORDS else 0,
        }
    counted = int(total["counted"])
    n_deals = count_of(int(total["deals"]), "deal")
    if name in _HIT_WORDS:
        hits = int(total["hits"])
        over = count_of(counted, _COUNT_WORDS[name].removesuffix("s"))  # each a regular plural
        head = n_deals if over == n_deals else f"{n_deals}: {over}"  # not "205 deals: 205 deals"
        return f"{label(name)}: {stat_text(row, name)}. {head}, {hits} {_HIT_WORDS[name]}."
    return f"{label(name)}: {stat_text(row, name)}, in {n_deals}."


def drill_links(deals: Sequence[dict[str, Any]], name: str) -> list[LinkRow]:
    """The deals behind a statistic, each a row a tap opens at its step on the Replay page: the
    session, deal and step, the event counted and what it adds to the count."""
    out = []
    for d in deals:
        detail = str(d["event"]).replace("_", " ")
        if name in _HIT_WORDS:
            detail += f" · {_COUNT_WORDS[name]}: {d['counted']} · {_HIT_WORDS[name]}: {d['hits']}"
        out.append(
            LinkRow(
                href=link(str(d["session"]), int(d["deal"]), int(d["step"])),
                title=f"▶ {d['session']}, deal {d['deal']}, step {d['step']}",
                details=(detail,),
            )
        )
    return out


def habits(row: dict[str, Any]) -> list[dict[str, str]]:
    """A player's blind and see habits, each with the count it is taken over."""
    return [{"habit": label(n), "value": stat_text(row, n)} for n in HABITS]
