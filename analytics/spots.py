"""The decision explorer: what players do in a spot, how it pays, and where one player strays.

A *spot* (:class:`Spot`) picks decisions of the ``decisions`` table (``columns.py``: one row per
recorded decision with its context as the engine saw it before the decision) by that context:
players still in, the deciding player blind or seen (RULES 5.1), how many opponents are blind and
how many seen, a level band (whole stake units, RULES 5.5), a pot band (stake units) and the
player's hand category (RULES 2.2) where the log knows it. Its text form, used by
``brag decisions --spot`` and the Decisions page's links, is ``key=value`` pairs joined by
commas, e.g. ``players=2,actor=seen,opp_blind=1,level=3-5,pot=10-20``::

    >>> spot = Spot.parse("actor=seen, opp_blind=1, level=3-5, pot=10-20")
    >>> str(spot)
    'actor=seen,opp_blind=1,level=3-5,pot=10-20'
    >>> Spot.parse(str(spot)) == spot
    True

Ranges: ``3`` (exactly 3), ``3-5`` (3 to 5, both included), ``5+`` (5 or more); a pot band is
``A-B`` (A <= pot < B, so the bands 10-20 and 20-40 do not overlap) or ``A+``, its edges exact
amounts (``5/2`` or ``2.5``). ``any`` (or leaving the key out) takes every value.

:func:`explore` answers a spot: for each action taken (look, bet, see, fold, concede, retain,
keep, throw) its count, its share of the group's decisions in the spot with a **Wilson score 95%
interval**, and the **average result**: the mean of the deciding player's net in the deal over
those decisions, in stake units, exact (a :class:`~fractions.Fraction`), with its standard error
(the sample standard deviation over the square root of the count; a deal with two such decisions
counts twice). Three groups side by side:

- ``player``: the player examined (``player=...``);
- ``field``: every other player's decisions (everyone's when no player is examined);
- ``winners``: the club's **winning players** (:func:`winning_players`): every player other than
  the one examined whose total net over the scope's ended deals is above zero, with at least
  ``min_deals`` deals (:data:`MIN_DEALS`: a net from a handful of deals is luck, not skill).

Every cell's numerator and denominator drill down to the decisions behind them
(:func:`behind`: session, deal, step, seq; the link ``replay?session=..&deal=..&step=..``).

:func:`differences` is *biggest differences*, after HM3's Leak Explorer: one player's spots
ranked by how far their action shares stray from the winning players', weighted by how often the
spot comes up (the score is explained there).

A spot on the grid's lines (the page's pickers) is answered from a :class:`Cube` of the
projection when one is given: the decisions counted once per cell of the grid, the same answers
from a few thousand rows instead of every decision (``bench/decisions.py``: at 1M deals).

The counting is SQL (``analytics/sql/spots.sql``, which only filters and counts facts the engine
wrote); the intervals and the score are Python's arithmetic. ``docs/explorer.md`` says it all
for the analyst.

The parts live in modules of their own, their names importable from here too: the spot and its
grid :mod:`analytics.spot`, the intervals :mod:`analytics.intervals`, the scope and the winning
players :mod:`analytics.winners`, the cube :mod:`analytics.cube`, biggest differences
:mod:`analytics.differences`; the answer of a spot and its text are here.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import duckdb

from analytics.cube import (
    Cube,  # importable from here too
)
from analytics.differences import Difference, difference_rows, differences
from analytics.intervals import (
    newcombe,
    wilson,
)
from analytics.queries import common_den
from analytics.spot import ACTIONS, LEVEL_BANDS, POT_BANDS, Range, Spot, SpotError
from analytics.sqlfiles import query
from analytics.winners import GROUPS, MIN_DEALS, winning_players
from analytics.winners import player_key as _player_key
from analytics.winners import scope_params as _scope
from events.amounts import margin_text, rounded_text
from present.numbers import share

__all__ = [
    "ACTIONS",
    "GROUPS",
    "LEVEL_BANDS",
    "MIN_DEALS",
    "POT_BANDS",
    "Answer",
    "Cell",
    "Cube",
    "Difference",
    "Range",
    "Spot",
    "SpotError",
    "answer_rows",
    "behind",
    "difference_rows",
    "differences",
    "explore",
    "net_text",
    "newcombe",
    "share_text",
    "wilson",
    "winning_players",
]

SPOTS = "spots.sql"

# --- the answer -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Cell:
    """One action of one group in a spot: ``count`` of its ``total`` decisions there, the share
    with its Wilson 95% interval (``low``, ``high``), the mean net (stake units, exact) of the
    deals behind them and its standard error (``None`` with fewer than 2)."""

    group: str
    action: str
    count: int
    total: int
    share: float
    low: float
    high: float
    net_mean: Fraction | None
    net_se: float | None


@dataclass(frozen=True, slots=True)
class Answer:
    """A spot answered: the cells (group by group, actions in :data:`ACTIONS` order, only actions
    some group took), each group's decisions in the spot (``totals``) and the winning players'
    names (the player examined apart)."""

    spot: Spot
    player: str | None
    cells: tuple[Cell, ...]
    totals: dict[str, int]
    winners: tuple[str, ...]
    min_deals: int

    def cell(self, group: str, action: str) -> Cell | None:
        return next((c for c in self.cells if c.group == group and c.action == action), None)

    def actions(self) -> list[str]:
        taken = {c.action for c in self.cells if c.count}
        return [a for a in ACTIONS if a in taken]


def _sql(name: str) -> str:
    text = query(SPOTS, name).sql.replace("{spot_filter}", query(SPOTS, "spot_filter").sql)
    return text.replace("{cube_filter}", query(SPOTS, "cube_filter").sql)


def _sums(
    rows: Iterable[tuple[str, str, int, int, int]], member: Any
) -> dict[str, tuple[int, int, int]]:
    """Per action: (count, sum of nets, sum of squares) over the rows whose player is a member."""
    out: dict[str, tuple[int, int, int]] = {}
    for player_key, action, n, s, q in rows:
        if member(player_key):
            c, ss, qq = out.get(action, (0, 0, 0))
            out[action] = (c + int(n), ss + int(s), qq + int(q))
    return out


def _cell(group: str, action: str, sums: tuple[int, int, int], total: int, den: int) -> Cell:
    n, s, q = sums
    low, high = wilson(n, total) if total else (0.0, 1.0)
    mean = Fraction(s, den * n) if n else None
    se = None
    if n >= 2:
        var = Fraction(q * n - s * s, n * (n - 1))  # sample variance, (ticks of den)^2
        se = math.sqrt(var / n) / den
    return Cell(group, action, n, total, n / total if total else 0.0, low, high, mean, se)


def explore(
    con: duckdb.DuckDBPyConnection,
    spot: Spot,
    player: str | None = None,
    *,
    table: str | None = None,
    cards: str | None = None,
    min_deals: int = MIN_DEALS,
    cube: Cube | None = None,
) -> Answer:
    """The spot answered for ``player`` (``None``: only the field and the winning players) over
    the sessions of ``table`` and of one ``cards`` mode (``all``, ``shown``; ``None``: all). See
    the module's doc for the groups and the figures. With a ``cube`` of the projection, a spot on
    the grid's lines (:meth:`Cube.params`) is answered from it; any other from the decisions.
    Raises :class:`SpotError` for a player the statistics do not know or a cards mode that is
    neither."""
    scope = _scope(table, cards)
    pk = _player_key(con, player)
    named = winning_players(con, table=table, cards=cards, min_deals=min_deals, cube=cube)
    winners = tuple(w for w in named if w != pk)
    grid = None if cube is None else cube.params(spot)
    if cube is not None and grid is not None:
        den = cube.den
        rows = cube.cursor().execute(_sql("cube_counts"), scope | grid | {"den": den}).fetchall()
    else:
        den = common_den(con)
        rows = con.execute(_sql("spot_counts"), scope | spot.params() | {"den": den}).fetchall()
    members = {
        "player": lambda k: pk is not None and k == pk,
        "field": lambda k: k != pk,
        "winners": lambda k: k in winners,
    }
    cells: list[Cell] = []
    totals: dict[str, int] = {}
    groups = GROUPS if pk is not None else GROUPS[1:]
    taken = [a for a in ACTIONS if any(r[1] == a for r in rows)]
    for g in groups:
        sums = _sums(rows, members[g])
        totals[g] = sum(v[0] for v in sums.values())
        cells.extend(_cell(g, a, sums.get(a, (0, 0, 0)), totals[g], den) for a in taken)
    return Answer(spot, player, tuple(cells), totals, tuple(named[w] for w in winners), min_deals)


def behind(
    con: duckdb.DuckDBPyConnection,
    spot: Spot,
    group: str,
    action: str | None = None,
    player: str | None = None,
    *,
    table: str | None = None,
    cards: str | None = None,
    min_deals: int = MIN_DEALS,
    cube: Cube | None = None,
) -> list[dict[str, Any]]:
    """The decisions behind one cell: ``group``'s decisions in ``spot`` with ``action`` (the
    cell's numerator) or with any action (``None``: its denominator), oldest first: ``session``,
    ``deal``, ``step`` (as ``brag replay`` and the Replay page number it), ``seq``, ``player``,
    ``action`` and ``net`` (the player's net in the deal, exact stake units). Raises
    :class:`SpotError` for an unknown group, action or player, or ``player`` with no player.
    The decisions are read from the projection; the winning players from ``cube`` if given."""
    if group not in GROUPS:
        raise SpotError(f"no group {group!r} (groups: {', '.join(GROUPS)})")
    if action is not None and action not in ACTIONS:
        raise SpotError(f"no action {action!r} (actions: {', '.join(ACTIONS)})")
    if group == "player" and player is None:
        raise SpotError("the player group needs a player")
    scope = _scope(table, cards)
    pk = _player_key(con, player)
    winners = [] if group != "winners" else list(winning_players(
        con, table=table, cards=cards, min_deals=min_deals, cube=cube
    ))  # fmt: skip
    params = scope | spot.params() | {
        "group": group, "action": action, "player_key": pk, "winners": winners
    }  # fmt: skip
    cur = con.execute(_sql("spot_rows"), params)
    names = [d[0] for d in cur.description]
    out = []
    for r in cur.fetchall():
        row = dict(zip(names, r, strict=True))
        row["net"] = Fraction(int(row.pop("net_t")), int(row.pop("den")))
        out.append(row)
    return out


# --- the figures as text (the command line and the Decisions page) --------------------------------


def share_text(c: Cell) -> str:
    """``"43.1% (31.0-56.2%)"``: the share and its Wilson 95% interval; ``"-"`` with no decision."""
    if not c.total:
        return "-"
    return f"{share(c.share)} ({c.low:.1%}-{c.high:.1%})"


def net_text(mean: Fraction | None, se: float | None) -> str:
    """``"+1¼ ± 1"``: the mean net (exact where it is whole, a half or a quarter, else ``≈`` to
    the nearest quarter, as every amount: :func:`events.amounts.rounded_text`) and its standard
    error, rounded up to a quarter (:func:`events.amounts.margin_text`); ``"-"`` with no
    decision."""
    if mean is None:
        return "-"
    text = rounded_text(mean, sign=True)
    return text if se is None else f"{text} ± {margin_text(se)}"


def answer_rows(answer: Answer) -> list[dict[str, str]]:
    """One row per action, as text: each group's share with its interval first (what is
    compared, on a phone's first screen), then each group's mean net with its standard error,
    then each group's count of its decisions in the spot."""
    out = []
    for a in answer.actions():
        cells = {g: answer.cell(g, a) for g in answer.totals}
        row = {"action": a}
        row |= {f"{g} share": share_text(c) for g, c in cells.items() if c}
        row |= {f"{g} net": net_text(c.net_mean, c.net_se) for g, c in cells.items() if c}
        row |= {f"{g} n": f"{c.count} of {c.total}" for g, c in cells.items() if c}
        out.append(row)
    return out
