"""``brag season --from D --to D --formula F [--formula G] [--json]`` (issue 36 item 7): the club
nights between two dates ranked by one or more formulas side by side (:mod:`service.season`):

- ``total``: the sum of each player's night nets;
- ``best:N`` / ``best:N:M`` (``"best N of M"``): the N best night nets of the last M nights;
- ``points`` / ``points:10-8-6``: points by place each night (10-8-6-5-4-3-2-1 by default),
  equal nets sharing their places' points exactly.

Tie-breakers, in turn: score, season net, fewer nights, name (players equal on the first three
share the place). Without ``--from``/``--to`` the season is every night stored (the first and
last dates of the sessions). ``--formula`` defaults to ``total``.

With ``brag analytics refresh``'s file beside the store (this store's), each night is summed from
it where it has folded the night's sessions up to the store's last seq, the rest folded from the
store: the same season, a league's in a second.

JSON: ``{from, to, state, position, rules, nights, unit, formulas: [{formula, standings:
[{player, place, score, net, nights}]}]}``, amounts as ``brag night`` writes them (``"9"``,
``"-17/2"``); ``position`` is the store's last global position it was read at and ``rules`` the
rules' name of the sessions (``; `` between several), so two copies can be told apart. Names are
data: shown inert (:mod:`brag.console`). Refusals are one line, exit 1.
"""

from __future__ import annotations

import argparse
import json
import os
from datetime import date
from typing import Any

from brag.errors import CommandError
from brag.store_access import open_event_store, store_console
from events.amounts import format_amount
from present.numbers import count_of
from service.season import Formula, Season, SeasonRefused, parse_formula, season_of
from service.season_nights import Projected

__all__ = ["cmd_season", "register", "season_json"]


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "season",
        parents=[common],
        help="the season: the nights between two dates ranked by a formula, side by side",
        description="The club nights (one a date) from --from to --to ranked by each --formula: "
        "total, best:N[:M] (best N of the last M nights), points[:10-8-6...] (by place each "
        "night). Ties: score, season net, fewer nights, name.",
    )
    p.add_argument("--from", dest="start", metavar="D", help="the first date, YYYY-MM-DD")
    p.add_argument("--to", dest="end", metavar="D", help="the last date, YYYY-MM-DD")
    p.add_argument(
        "--formula",
        action="append",
        metavar="F",
        help="total, best:N[:M] or points[:10-8-6...]; give two to see them side by side",
    )
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.set_defaults(func=cmd_season)


def _day(flag: str, text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise CommandError(f"{flag} {text!r} is not YYYY-MM-DD", command="season") from None


def _formulas(texts: list[str] | None) -> list[Formula]:
    try:
        return [parse_formula(t) for t in (texts or ["total"])]
    except SeasonRefused as err:
        raise CommandError(str(err), command="season") from None


def _units(value: Any) -> str:
    return str(format_amount(value))


def season_json(season: Season) -> dict[str, Any]:
    """The season as ``brag season --json`` prints it (see the module)."""
    return {
        "from": season.start.isoformat(),
        "to": season.end.isoformat(),
        "state": season.state,
        "position": season.position,
        "rules": "; ".join(season.rules),
        "nights": [n.day.isoformat() for n in season.nights],
        "unit": "stake units",
        "formulas": [
            {
                "formula": r.formula,
                "standings": [
                    {
                        "player": s.player,
                        "place": s.place,
                        "score": _units(s.score),
                        "net": _units(s.net),
                        "nights": s.nights,
                    }
                    for s in r.standings
                ],
            }
            for r in season.rankings
        ],
    }


def cmd_season(args: argparse.Namespace) -> int:
    formulas = _formulas(args.formula)
    with open_event_store(args) as store:
        start = None if args.start is None else _day("--from", args.start)
        end = None if args.end is None else _day("--to", args.end)
        if start is None or end is None:
            _, _, span = store.session_facets()
            if span is None:
                raise CommandError("no session stored (brag import FILE...)", command="season")
            start, end = start or span[0], end or span[1]
        con = _projection_of(args.db, store)
        try:
            season = season_of(store, start, end, formulas, projected=_reader(con))
        except SeasonRefused as err:
            raise CommandError(str(err), command="season") from None
        finally:
            if con is not None:
                con.close()
    if args.json:
        print(json.dumps(season_json(season), ensure_ascii=False))
        return 0
    return _print(season)


def _projection_of(db: str, store: Any) -> Any:
    """The statistics file beside the store (``brag analytics refresh``'s), open read-only when
    it is this store's (its recorded id, the event at its checkpoint: ``analytics.owner``), so
    that a league's season is summed from it where it has caught up with the store
    (:mod:`service.season_nights`); ``None`` (every night folded from the store) when there is
    none, it is another store's, or it cannot be opened now (a refresh writing it)."""
    import duckdb

    import analytics.tables
    from analytics.owner import diverged, recorded_store
    from brag.projection import default_analytics

    path = default_analytics(db)
    if not os.path.exists(path):
        return None
    try:
        con = analytics.tables.connect(path, read_only=True)
        have = recorded_store(con)
        if have is not None and have[0] == store.store_id and diverged(con, store) is None:
            return con
    except duckdb.Error:
        return None
    con.close()
    return None


def _reader(con: Any) -> Projected | None:
    """:data:`service.season_nights.Projected` over the open projection ``con``; ``None`` without
    one, or (as the page) when a statement fails on it: every night folded from the store."""
    if con is None:
        return None

    def parts(sums: Any, listing: Any) -> Any:
        import duckdb

        from analytics.season_parts import season_parts

        try:
            return season_parts(con, sums, listing)
        except duckdb.Error:
            return None

    return parts


def _print(season: Season) -> int:
    from brag.tables import fitted_tables  # rich: --json must not load it

    console = store_console()
    headers = [("place", "right"), ("player", "left")]
    for r in season.rankings:
        headers += [(r.formula, "right")]
    headers += [("net", "right"), ("nights", "right")]
    first = season.rankings[0].standings
    scores = [{s.player: s for s in r.standings} for r in season.rankings]
    cells = [
        [str(s.place), s.player, _units(s.score)]
        + [f"{_units(k[s.player].score)} ({k[s.player].place})" for k in scores[1:]]
        + [_units(s.net), str(s.nights)]
        for s in first
    ]
    title = (
        f"Season {season.start.isoformat()} to {season.end.isoformat()}, {season.state}: "
        f"{count_of(len(season.nights), 'night')}, ranked by {season.rankings[0].formula}"
    )
    for t in fitted_tables(console, title, headers, cells, title_justify="left"):
        console.print(t)
    if len(scores) > 1:
        console.print("(n): the place under that formula")
    console.print(
        f"nets in stake units; {'; '.join(season.rules)}; made from the log at position "
        f"{season.position}"
    )
    return 0
