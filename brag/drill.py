"""``brag stats --player P --deals STAT``: the deals behind one statistic's count (session,
deal, step as every replay numbers them, the event counted, what each adds to the count and to
its hits), as a table with the statistic's value in its title, or JSON or CSV."""

from __future__ import annotations

import argparse
import csv
import json
import sys
from typing import Any

from analytics import queries
from brag.projection import store_exists
from brag.stat_tables import scope, wide_console
from brag.tables import fitted_tables
from events.amounts import amount_text
from log.open import open_store
from present.numbers import count_of
from present.stat_cells import stat_cell

__all__ = ["drill"]

COLUMNS = ("session", "deal", "step", "seq", "event", "counted", "hits")
"""The columns of a deal behind a statistic (CSV)."""
HEADERS = [("session", "left"), ("deal", "right"), ("step", "right"), ("seq", "right"),
           ("event", "left"), ("counted", "right"), ("hits", "right")]  # fmt: skip
"""The table's columns (text, justify)."""


def drill(con: Any, args: argparse.Namespace) -> int:
    """``brag stats --player P --deals STAT``: the deals behind the statistic's count."""
    stat, player = args.deals, args.player
    rows = _deals(con, args)
    money = stat in queries.MONEY_DRILLS
    if args.format == "json":
        out = [{**r, "hits": str(r["hits"])} if money else r for r in rows]
        print(json.dumps(out, ensure_ascii=False, indent=1))
        return 0
    if args.format == "csv":
        w = csv.DictWriter(sys.stdout, fieldnames=list(COLUMNS))
        w.writeheader()
        w.writerows(rows)
        return 0
    stats = queries.player_stats(con, session=args.session, player=player, table=args.table)
    shown = stats[0] if stats else {}
    _print_table(rows, stat, player, shown, scope(args.session, args.table), money=money)
    return 0


def _deals(con: Any, args: argparse.Namespace) -> list[dict[str, Any]]:
    """The deals behind ``--deals`` of ``--player``, their steps numbered as every replay
    numbers them (read from the store where a deal was corrected)."""
    rows = queries.deals_behind(con, args.player, args.deals, session=args.session,
                                table=args.table)  # fmt: skip
    if any(r["corrected"] for r in rows) and store_exists(args.db):
        with open_store(args.db, readonly=True) as store:  # steps as every replay numbers them
            queries.renumber(rows, store.events)
    for r in rows:
        r.pop("corrected", None)
    return rows


def _print_table(
    rows: list[dict[str, Any]],
    stat: str,
    player: str,
    shown: dict[str, Any],
    where: str,
    *,
    money: bool,
) -> None:
    """The deals as a table titled with the statistic as ``brag stats`` shows it (``shown``:
    the player's row), then what they add up to."""
    count_col = queries.DRILL[stat][3]
    counted = sum(int(r["counted"]) for r in rows)
    hits = sum(r["hits"] for r in rows)
    col = next((c for c in queries.columns("player_stats") if c.name == stat), None)
    what = f"{stat} ({col.rules})" if col and col.rules else stat
    value = stat_cell(shown, stat) if shown else "-"
    title = f"{player}, {where}: {what} = {value}"
    cells = [
        [str(r["session"]), str(r["deal"]), str(r["step"]), str(r["seq"]), str(r["event"]),
         str(r["counted"]), amount_text(r["hits"]) if money else str(r["hits"])]
        for r in rows
    ]  # fmt: skip
    console = wide_console()
    for table in fitted_tables(console, title, HEADERS, cells, keys=2):
        console.print(table)
    total = amount_text(hits) if money else str(hits)
    print(
        f"{count_of(len(rows), 'deal')}; counted {counted} "
        f"(= {count_col} {shown.get(count_col, 0)}), "
        f"hits {total}; replay one: brag replay SESSION --deal N"
    )
