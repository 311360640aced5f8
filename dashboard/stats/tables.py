"""The statistics pages' charts and tables that need no statistic's words (pure, no Streamlit).

Each player's net over time, the hand categories seen at showdowns beside the pack's own shares
(RULES 2.8), which page of a statistic's deals is listed, and an Explore query's result as rows
and as CSV. The statistics' own words (a rate as ``43% of 51``, an amount as ``8½``) are
:mod:`dashboard.stats.figures`, which re-exports these names.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta
from fractions import Fraction
from math import lcm
from typing import Any

from present.numbers import count_of

__all__ = [
    "PACK",
    "categories_vs_rules",
    "category_table",
    "csv_text",
    "drill_page_caption",
    "net_over_sessions",
    "net_over_ticks",
    "net_over_time",
    "result_rows",
    "rows_caption",
    "session_labels",
    "session_order",
]

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def drill_page_caption(total: int, page: int, shown: int, size: int) -> str | None:
    """Which of the deals one page lists, when they are more than a page: ``"Deals 301-600 of
    150,000, by session and deal."``; ``None`` when one page holds them all."""
    if total <= size:
        return None
    first = (page - 1) * size + 1
    return f"Deals {first:,}-{first + shown - 1:,} of {total:,}, by session and deal."


PACK = "RULES 2.8 (the pack)"
"""The column of the pack's own shares in :func:`categories_vs_rules`."""


def categories_vs_rules(
    hands_by_player: dict[str, Sequence[dict[str, Any]]],
) -> dict[str, list[Any]]:
    """Share of each hand category among the hands a player showed in full at showdowns, beside
    its share of the 22,100 hands of the pack (RULES 2.8), as columns for a bar chart."""
    out: dict[str, list[Any]] = {"category": []}
    first = next(iter(hands_by_player.values()), [])
    out["category"] = [r["category"] for r in first]
    out[PACK] = [round(100 * float(r["rules_share"]), 2) for r in first]
    for player, rows in hands_by_player.items():
        out[f"{player} (shown)"] = [round(100 * float(r["shown_share"] or 0), 2) for r in rows]
    return out


def category_table(hands_by_player: dict[str, Sequence[dict[str, Any]]]) -> list[dict[str, str]]:
    """The hands shown at showdowns as one table a phone reads whole (its cells wrap): a hand
    category a row; for each player, how many of the hands they showed in full were of it, their
    share and how many of those won (``"14 of 108 (13.0%) · 11 won"``); then the pack's share of
    the 22,100 hands and its count (RULES 2.8: ``"4.96% · 1,096 hands"``)."""
    first = next(iter(hands_by_player.values()), [])
    out: list[dict[str, str]] = []
    for i, r in enumerate(first):
        line = {"category": str(r["category"])}
        for player, rows in hands_by_player.items():
            own = rows[i]
            of = int(own["shown_n"] or 0)
            line[player] = (
                f"{own['shown']} of {of} ({float(own['shown_share'] or 0):.1%}) · {own['won']} won"
                if of
                else "–"
            )
        line[PACK] = f"{float(r['rules_share']):.2%} · {int(r['rules_hands']):,} hands"
        out.append(line)
    return out


def net_over_time(
    deals: dict[str, Sequence[dict[str, Any]]], started: dict[str, datetime | None]
) -> dict[str, list[Any]]:
    """Each player's running net after each session in which a deal of theirs has ended, in the
    order the sessions started. ``deals``: player -> the deals behind their ``net``
    (``analytics.queries.deals_behind(con, player, "net")``: ``session`` and the deal's exact
    net in ``hits``). The same rule as the statistics table (``player_stats``: ``sessions``,
    ``net`` over ended deals), so the chart's last point is the table's net and it counts the
    table's sessions: an unfinished session counts once a deal of it has ended, with the nets of
    its ended deals. Summed exactly in integer ticks of the nets' common denominator (a league's
    player has thousands of sessions: a Fraction sum each took 0.2 s); floats only for drawing."""
    amounts = {p: [(r["session"], Fraction(r["hits"])) for r in rows] for p, rows in deals.items()}
    den = lcm(1, *(a.denominator for rows in amounts.values() for _, a in rows))
    by_session: dict[str, dict[str, int]] = {}
    for player, rows in amounts.items():
        for session, a in rows:
            nets = by_session.setdefault(session, {})
            nets[player] = nets.get(player, 0) + a.numerator * (den // a.denominator)
    order = sorted(by_session, key=lambda s: (started.get(s) is None, started.get(s) or 0, s))
    return _running(list(deals), order, by_session, den)


def _running(
    players: list[str], order: list[str], by_session: dict[str, dict[str, int]], den: int
) -> dict[str, list[Any]]:
    """Each player's running net after each session of ``order`` (``by_session``: session ->
    player -> net in ticks of ``den``): exact sums, divided once to draw; ``None`` after a
    session the player did not play (two players compared: each line joins its own sessions)."""
    out: dict[str, list[Any]] = {"session": list(range(1, len(order) + 1))}
    for p in players:
        total, points = 0, []
        for s in order:
            played = by_session[s].get(p)
            total += played or 0
            points.append(None if played is None else total / den)  # the float only to draw
        out[p] = points
    return out


def net_over_sessions(nets: Mapping[str, Sequence[dict[str, Any]]]) -> dict[str, list[Any]]:
    """:func:`net_over_time` from each player's net per session
    (``dashboard.common.cache.session_nets``:
    ``session``, ``started``, exact ``net``) rather than per deal: the same points, ordered by
    the sessions' ``started`` as given."""
    started = {r["session"]: r["started"] for rows in nets.values() for r in rows}
    per_session: dict[str, Sequence[dict[str, Any]]] = {
        p: [{"session": r["session"], "hits": r["net"]} for r in rows] for p, rows in nets.items()
    }
    return net_over_time(per_session, started)


SessionTicks = tuple[str, int | None, int, int]
"""A session's net as the projection keeps it: ``(session, started as UTC microseconds or
None, net in ticks, den ticks a stake unit)``."""


def net_over_ticks(nets: Mapping[str, Sequence[SessionTicks]]) -> dict[str, list[Any]]:
    """:func:`net_over_sessions` from each player's nets in ticks
    (``dashboard.stats.stats_cache.session_net_ticks``), with no Fraction or datetime made: the
    same points (each an exact sum in ticks of the common ``den``, divided once to draw, so the
    same floats), ordered by the sessions' start. A league's player has 25,000 sessions: made
    into Fractions and summed back into ticks they took 0.3 s a run."""
    den = lcm(1, *(d for rows in nets.values() for _, _, _, d in rows))
    by_session: dict[str, dict[str, int]] = {}
    for player, rows in nets.items():
        for session, _, net_t, d in rows:
            here = by_session.setdefault(session, {})
            here[player] = here.get(player, 0) + net_t * (den // d)
    order = [s for s, _ in session_order(nets)]
    return _running(list(nets), order, by_session, den)


def session_order(nets: Mapping[str, Sequence[SessionTicks]]) -> list[tuple[str, int | None]]:
    """The sessions of :func:`net_over_ticks`, in its order (by their start, untimed last, then
    by id), each with its start (UTC microseconds, or ``None``)."""
    started = {session: at for rows in nets.values() for session, at, _, _ in rows}
    order = sorted(started, key=lambda s: (started[s] is None, started[s] or 0, s))
    return [(s, started[s]) for s in order]


def session_labels(nets: Mapping[str, Sequence[SessionTicks]]) -> list[str]:
    """What each point of :func:`net_over_ticks` is, for its tooltip: ``"2026-10-22 ·
    top-1"`` (the date it started, UTC, then the session's id; the id alone when untimed), in
    the chart's order: the x axis only counts the sessions."""
    out = []
    for session, at in session_order(nets):
        day = None if at is None else (_EPOCH + timedelta(microseconds=at)).date().isoformat()
        out.append(session if day is None or session.startswith(day) else f"{day} · {session}")
    return out


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
    return count_of(shown, "row")


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
