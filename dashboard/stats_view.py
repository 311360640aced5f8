"""The Players and Explore pages' figures, from the analytics statistics: pure functions.

The statistics come from :mod:`analytics.queries` as lists of dicts (money exact as
:class:`~fractions.Fraction`, every rate beside its count). Here they are laid out for reading: an
amount as ``8½``, a rate as ``43% of 51``, two players side by side, each player's net over time,
and the hand categories seen at showdowns beside the pack's own shares (RULES 2.8).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from fractions import Fraction
from typing import Any

from analytics.luck import luck_note
from dashboard.view import LinkRow, link
from present.stat_cells import COUNT_WORDS as _COUNT_WORDS
from present.stat_cells import PAGE, stat_cell

__all__ = [
    "HABITS",
    "SUMMARY",
    "categories_vs_rules",
    "csv_text",
    "drill_caption",
    "drill_links",
    "drill_page_caption",
    "habits",
    "luck_note",
    "net_over_sessions",
    "net_over_time",
    "rows_caption",
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


def stats_table(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every player on one line: counts, money and the main habits, as text."""
    out = []
    for r in rows:
        line: dict[str, Any] = {"player": r["player"]}
        for name in (*SUMMARY, "blind_rate", "see_rate"):
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
    n_deals = f"{total['deals']} deal" + ("" if total["deals"] == 1 else "s")
    if name in _HIT_WORDS:
        hits = int(total["hits"])
        unit = _COUNT_WORDS[name]
        return (
            f"{label(name)}: {stat_text(row, name)}. {n_deals}: {counted} {unit}, "
            f"{hits} {_HIT_WORDS[name]}."
        )
    return f"{label(name)}: {stat_text(row, name)}, in {n_deals}."


def drill_page_caption(total: int, page: int, shown: int, size: int) -> str | None:
    """Which of the deals one page lists, when they are more than a page: ``"Deals 301-600 of
    150,000, by session and deal."``; ``None`` when one page holds them all."""
    if total <= size:
        return None
    first = (page - 1) * size + 1
    return f"Deals {first:,}-{first + shown - 1:,} of {total:,}, by session and deal."


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


def categories_vs_rules(
    hands_by_player: dict[str, Sequence[dict[str, Any]]],
) -> dict[str, list[Any]]:
    """Share of each hand category among the hands a player showed in full at showdowns, beside
    its share of the 22,100 hands of the pack (RULES 2.8), as columns for a bar chart."""
    out: dict[str, list[Any]] = {"category": []}
    first = next(iter(hands_by_player.values()), [])
    out["category"] = [r["category"] for r in first]
    out["RULES 2.8 (the pack)"] = [round(100 * float(r["rules_share"]), 2) for r in first]
    for player, rows in hands_by_player.items():
        out[f"{player} (shown)"] = [round(100 * float(r["shown_share"] or 0), 2) for r in rows]
    return out


def category_rows(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The showdown hands table: counts beside RULES 2.8."""
    return [
        {
            "category": r["category"],
            "shown": r["shown"],
            "share shown": f"{float(r['shown_share'] or 0):.1%}",
            "won": r["won"],
            "RULES 2.8 hands": r["rules_hands"],
            "RULES 2.8 share": f"{float(r['rules_share']):.2%}",
        }
        for r in rows
    ]


def net_over_time(
    deals: dict[str, Sequence[dict[str, Any]]], started: dict[str, datetime | None]
) -> dict[str, list[Any]]:
    """Each player's running net after each session in which a deal of theirs has ended, in the
    order the sessions started. ``deals``: player -> the deals behind their ``net``
    (``analytics.queries.deals_behind(con, player, "net")``: ``session`` and the deal's exact
    net in ``hits``). The same rule as the statistics table (``player_stats``: ``sessions``,
    ``net`` over ended deals), so the chart's last point is the table's net and it counts the
    table's sessions: an unfinished session counts once a deal of it has ended, with the nets of
    its ended deals. Floats only for drawing."""
    by_session: dict[str, dict[str, Fraction]] = {}
    for player, rows in deals.items():
        for r in rows:
            nets = by_session.setdefault(r["session"], {})
            nets[player] = nets.get(player, Fraction(0)) + Fraction(r["hits"])
    order = sorted(by_session, key=lambda s: (started.get(s) is None, started.get(s) or 0, s))
    out: dict[str, list[Any]] = {"session": [], **{p: [] for p in deals}}
    total = dict.fromkeys(deals, Fraction(0))
    for n, s in enumerate(order, start=1):
        out["session"].append(n)
        for p in deals:
            total[p] += by_session[s].get(p, Fraction(0))
            out[p].append(float(total[p]))
    return out


def net_over_sessions(nets: Mapping[str, Sequence[dict[str, Any]]]) -> dict[str, list[Any]]:
    """:func:`net_over_time` from each player's net per session (``dashboard.cache.session_nets``:
    ``session``, ``started``, exact ``net``) rather than per deal: the same points, ordered by
    the sessions' ``started`` as given."""
    started = {r["session"]: r["started"] for rows in nets.values() for r in rows}
    per_session: dict[str, Sequence[dict[str, Any]]] = {
        p: [{"session": r["session"], "hits": r["net"]} for r in rows] for p, rows in nets.items()
    }
    return net_over_time(per_session, started)


def rows_caption(shown: int, cut: str | None) -> str:
    """What an Explore result holds: ``"1 row"``, ``"25 rows"``, or the rows shown and why the
    rest are not (``analytics.Limited.cut``).

    >>> rows_caption(1, None), rows_caption(10_000, None)
    ('1 row', '10,000 rows')
    >>> rows_caption(10_000, "Explore shows at most 10,000 rows (BRAG_EXPLORE_ROWS)")
    'The first 10,000 rows: Explore shows at most 10,000 rows (BRAG_EXPLORE_ROWS)'
    """
    if cut:
        return f"The first {shown:,} rows: {cut}"
    return "1 row" if shown == 1 else f"{shown:,} rows"


def csv_text(columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A query's result as CSV (amounts and values written as text, exactly)."""
    import csv
    import io

    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(columns)
    for r in rows:
        w.writerow(["" if v is None else str(v) for v in r])
    return buf.getvalue()


def result_rows(columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> list[dict[str, Any]]:
    """A query's result for a table widget (values the widget cannot show exactly become text)."""
    out = []
    for r in rows:
        line = {}
        for c, v in zip(columns, r, strict=True):
            if isinstance(v, int | float | str | bool) or v is None:
                line[c] = v
            else:
                line[c] = str(v)
        out.append(line)
    return out
