"""The decision explorer: what players do in a spot, how it pays, and where one player strays.

A *spot* (:class:`Spot`) picks decisions of the ``decisions`` table (``schema.sql``: one row per
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
wrote); the intervals and the score are the arithmetic here. ``docs/explorer.md`` says it all for
the analyst.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import duckdb

from analytics.queries import common_den, key
from analytics.sqlfiles import query
from engine.hands import Category
from events.amounts import rounded_text
from events.errors import PlainError
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

ACTIONS = ("look", "bet", "see", "fold", "concede", "retain", "keep", "throw")
"""The actions of a decision (the ``decisions.action`` column), in the order shown."""

GROUPS = ("player", "field", "winners")
"""The groups an answer sets side by side (see the module's doc)."""

MIN_DEALS = 100
"""A winning player has at least this many ended deals in the scope (and a net above zero)."""

Z95 = 1.959963984540054
"""The standard normal's 97.5% point: a two-sided 95% interval."""

LEVEL_BANDS = ((0, 0), (1, 2), (3, 5), (6, 10), (11, None))
"""The level bands of biggest differences, whole stake units (0: no bet yet; RULES 5.5)."""

POT_BANDS = ((0, 10), (10, 20), (20, 40), (40, 80), (80, None))
"""The pot bands of biggest differences, stake units: each from its first edge (included) to the
next (excluded)."""


class SpotError(PlainError, ValueError):
    """A spot, group, action or player the explorer cannot take: one line naming what and why."""

    rule_name = "SPOT"


# --- the spot ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Range:
    """``low`` to ``high`` (``None``: no bound). Whole numbers both included; a pot band
    (``upper_open``) includes ``low`` and not ``high``."""

    low: Fraction | None = None
    high: Fraction | None = None
    upper_open: bool = False

    @classmethod
    def parse(cls, text: str, *, what: str, whole: bool = True) -> Range:
        t = text.strip()
        m = re.fullmatch(r"([^+\-]+)(?:(\+)|-([^+\-]+))?", t)
        if m is None:
            raise SpotError(f"{what}={text!r}: give N, A-B or A+")
        low = _number(m.group(1), what, whole)
        if m.group(2):
            return cls(low, None, not whole)
        if m.group(3) is None:
            if not whole:
                raise SpotError(f"{what}={text!r}: a pot is a band, A-B (A <= pot < B) or A+")
            return cls(low, low)
        high = _number(m.group(3), what, whole)
        if high < low or (not whole and high == low):
            raise SpotError(f"{what}={text!r}: the band's end is below its start")
        return cls(low, high, not whole)

    def __str__(self) -> str:
        lo = _text(self.low if self.low is not None else Fraction(0))
        if self.high is None:
            return f"{lo}+"
        if self.high == self.low and not self.upper_open:
            return lo
        return f"{lo}-{_text(self.high)}"

    def bounds(self) -> tuple[int | None, int | None]:
        """Whole bounds for SQL (``None``: none)."""
        return (
            None if self.low is None else int(self.low),
            None if self.high is None else int(self.high),
        )


def _number(text: str, what: str, whole: bool) -> Fraction:
    try:
        value = Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        raise SpotError(f"{what}: {text.strip()!r} is not a number") from None
    if value < 0 or (whole and value.denominator != 1):
        kind = "a whole number, 0 or more" if whole else "an amount, 0 or more"
        raise SpotError(f"{what}: {text.strip()!r} is not {kind}")
    return value


def _text(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else str(value)


_HANDS = {c.label: c.label for c in sorted(Category, reverse=True)}  # best first
_KEYS = ("players", "actor", "opp_blind", "opp_seen", "level", "pot", "hand")


@dataclass(frozen=True, slots=True)
class Spot:
    """A spot: the decisions whose context matches every field given (``None``: any).

    ``players``: players still in before the decision (the deciding one included);
    ``actor``: ``"blind"`` or ``"seen"`` (RULES 5.1); ``opp_blind``/``opp_seen``: opponents
    still in and blind / seen; ``level``: the level before the decision (whole units, 0 before
    the first bet, RULES 5.5); ``pot``: the pot before the decision (stake units, a band);
    ``hand``: the player's hand category (RULES 2.2, e.g. ``"pair"``), only where the log knows
    it (every card recorded, or shown at a showdown). Text form: see the module's doc."""

    players: Range | None = None
    actor: str | None = None
    opp_blind: Range | None = None
    opp_seen: Range | None = None
    level: Range | None = None
    pot: Range | None = None
    hand: str | None = None

    @classmethod
    def parse(cls, text: str | None) -> Spot:
        """The spot of ``key=value`` pairs joined by commas (``""`` or ``any``: every decision).
        Raises :class:`SpotError` naming the pair it cannot read."""
        out: dict[str, Any] = {}
        for part in (text or "").split(","):
            part = part.strip()
            if not part or part == "any":
                continue
            name, eq, value = part.partition("=")
            name, value = name.strip().replace("-", "_"), value.strip()
            if not eq or name not in _KEYS:
                keys = ", ".join(_KEYS)
                raise SpotError(f"{part!r} is not a spot's key=value (keys: {keys})")
            if name in out:
                raise SpotError(f"{name} is given twice")
            if value == "any":
                continue
            if name == "actor":
                if value not in ("blind", "seen"):
                    raise SpotError(f"actor={value!r}: blind or seen (RULES 5.1)")
                out[name] = value
            elif name == "hand":
                label = re.sub(r"[-_\s]+", " ", value.lower())
                if label not in _HANDS:
                    raise SpotError(f"hand={value!r}: one of {', '.join(_HANDS)} (RULES 2.2)")
                out[name] = label
            else:
                out[name] = Range.parse(value, what=name, whole=name != "pot")
        return cls(**out)

    def __str__(self) -> str:
        parts = []
        for name in _KEYS:
            value = getattr(self, name)
            if value is not None:
                parts.append(f"{name}={value}")
        return ",".join(parts)

    def words(self) -> str:
        """The spot in words, e.g. ``"seen, 1 opponent blind, level 3-5, pot 10-20"``."""
        out = []
        if self.players is not None:
            out.append(f"{self.players} players in")
        if self.actor is not None:
            out.append(self.actor)
        for r, what in ((self.opp_blind, "blind"), (self.opp_seen, "seen")):
            if r is not None:
                many = r.high is None or r.high != 1 or r.low != 1
                out.append(f"{r} opponent{'s' if many else ''} {what}")
        if self.level is not None:
            out.append("no bet yet" if str(self.level) == "0" else f"level {self.level}")
        if self.pot is not None:
            out.append(f"pot {self.pot}")
        if self.hand is not None:
            out.append(f"holding a {self.hand}")
        return ", ".join(out) or "every decision"

    def params(self) -> dict[str, Any]:
        """The spot's bound parameters of ``spots.sql`` (``spot_filter``)."""
        p: dict[str, Any] = {}
        for name, prefix in (
            ("players", "players"),
            ("opp_blind", "ob"),
            ("opp_seen", "os"),
            ("level", "level"),
        ):
            r = getattr(self, name)
            p[f"{prefix}_lo"], p[f"{prefix}_hi"] = (None, None) if r is None else r.bounds()
        p["actor_seen"] = None if self.actor is None else self.actor == "seen"
        pot = self.pot or Range()
        for edge, value in (("lo", pot.low), ("hi", pot.high)):
            p[f"pot_{edge}_num"] = None if value is None else value.numerator
            p[f"pot_{edge}_den"] = None if value is None else value.denominator
        p["hand"] = self.hand
        return p


# --- intervals ------------------------------------------------------------------------------------


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a share ``k / n`` (95% with the default ``z``):
    ``(centre ± z / (1 + z²/n) * sqrt(p(1-p)/n + z²/(4n²)))`` with ``centre = (p + z²/(2n)) /
    (1 + z²/n)``; ``(0, 1)`` for ``n = 0``. Raises ``ValueError`` unless ``0 <= k <= n``.

    >>> [round(x, 4) for x in wilson(3, 10)]
    [0.1078, 0.6032]
    """
    if not 0 <= k <= n:
        raise ValueError(f"a share needs 0 <= k <= n, not {k}/{n}")
    if n == 0:
        return 0.0, 1.0
    p = k / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def newcombe(k1: int, n1: int, k2: int, n2: int, z: float = Z95) -> tuple[float, float, float]:
    """The difference of two shares ``k1/n1 - k2/n2`` with its 95% interval by Newcombe's hybrid
    score method (1998, method 10: from the two Wilson intervals); ``(d, low, high)``."""
    p1, p2 = k1 / n1, k2 / n2
    l1, u1 = wilson(k1, n1, z)
    l2, u2 = wilson(k2, n2, z)
    d = p1 - p2
    return (
        d,
        d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2),
        d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2),
    )


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


def _scope(table: str | None, cards: str | None) -> dict[str, Any]:
    if cards is not None and cards not in ("all", "shown"):
        raise SpotError(f"cards={cards!r}: all or shown (the session's record of cards)")
    return {"table_key": key(table), "cards": cards}


def _player_key(con: duckdb.DuckDBPyConnection, player: str | None) -> str | None:
    k = key(player)
    found = "SELECT 1 FROM session_players WHERE player_key = ? LIMIT 1"
    if k is not None and not con.execute(found, [k]).fetchone():
        raise SpotError(f"no player {player!r} in the statistics")
    return k


def winning_players(
    con: duckdb.DuckDBPyConnection,
    *,
    table: str | None = None,
    cards: str | None = None,
    min_deals: int = MIN_DEALS,
    cube: Cube | None = None,
) -> dict[str, str]:
    """The club's winning players over the scope, best net first: their key (the name's normal
    form, :func:`analytics.queries.key`) to their name. A winning player's total net over their
    ended deals is above zero (RULES 1.5), over at least ``min_deals`` deals. From ``cube``'s
    players table when given (the same figures, without reading the summary again)."""
    params = {**_scope(table, cards), "min_deals": min_deals}
    if cube is not None:
        cur = cube.cursor()
        rows = cur.execute(query(SPOTS, "cube_winners").sql, params | {"den": cube.den}).fetchall()
        return {str(r[0]): cube.names.get(str(r[0]), str(r[0])) for r in rows}
    params["den"] = common_den(con)
    rows = con.execute(query(SPOTS, "winning_players").sql, params).fetchall()
    return {str(r[0]): str(r[1]) for r in rows}


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


# --- biggest differences --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Difference:
    """One spot where the player strays from the winning players (see :func:`differences`)."""

    spot: Spot
    action: str
    player_count: int
    player_total: int
    winners_count: int
    winners_total: int
    weight: float
    diff: float
    low: float
    high: float
    score: float

    @property
    def player_share(self) -> float:
        return self.player_count / self.player_total

    @property
    def winners_share(self) -> float:
        return self.winners_count / self.winners_total


def _band(bands: Sequence[tuple[int, int | None]], k: int, *, pot: bool) -> Range:
    lo, hi = bands[k]
    if pot:
        return Range(Fraction(lo), None if hi is None else Fraction(hi), True)
    return Range(Fraction(lo), None if hi is None else Fraction(hi))


def _grid_spot(actor_seen: bool, ob: int, os_: int, level_band: int, pot_band: int) -> Spot:
    def opp(n: int) -> Range:
        return Range(Fraction(n), None) if n >= 3 else Range(Fraction(n), Fraction(n))

    return Spot(
        actor="seen" if actor_seen else "blind",
        opp_blind=opp(ob),
        opp_seen=opp(os_),
        level=_band(LEVEL_BANDS, level_band, pot=False),
        pot=_band(POT_BANDS, pot_band, pot=True),
    )


def differences(
    con: duckdb.DuckDBPyConnection,
    player: str,
    *,
    table: str | None = None,
    cards: str | None = None,
    min_deals: int = MIN_DEALS,
    top: int | None = 20,
    cube: Cube | None = None,
) -> list[Difference]:
    """Biggest differences (HM3's Leak Explorer idea): the player's spots, on the grid (actor
    blind or seen; opponents blind 0, 1, 2, 3+; opponents seen 0, 1, 2, 3+; the level bands
    :data:`LEVEL_BANDS`; the pot bands :data:`POT_BANDS`), ranked by how far the player's action
    shares stray from the winning players' (other than the player), weighted by how often the
    spot comes up. Read from ``cube`` (one is built from ``con`` when none is given).

    In a spot ``s``, for each action ``a`` either took: ``d = p_player - p_winners`` with its
    Newcombe 95% interval ``[low, high]`` (:func:`newcombe`). The spot's weight ``w`` is its
    share of the player's decisions. The score is ``100 * w * gap``, ``gap`` the distance from 0
    to the interval (0 when the interval holds 0: a difference that could be chance scores
    nothing): *of every 100 of the player's decisions, at least this many are made differently
    from the winning players here* (at 95%). Each spot is listed once, under its action with the
    highest score (ties: the larger ``|d|``), best first; spots the winning players never met are
    left out (nothing to compare). ``diff``, ``low`` and ``high`` are in share points (-1 to 1).
    Raises :class:`SpotError` for a player the statistics do not know."""
    pk = _player_key(con, player)
    cube = cube if cube is not None else Cube(con)
    named = winning_players(con, table=table, cards=cards, min_deals=min_deals, cube=cube)
    params = _scope(table, cards) | {"player_key": pk, "winners": [w for w in named if w != pk]}
    grid: dict[tuple[Any, ...], dict[str, tuple[int, int]]] = {}
    for seen, ob, os_, lb, pb, action, mine, theirs in (
        cube.cursor().execute(query(SPOTS, "cube_grid").sql, params).fetchall()
    ):
        counts = grid.setdefault((bool(seen), ob, os_, lb, pb), {})
        had = counts.get(action, (0, 0))
        counts[action] = (had[0] + int(mine or 0), had[1] + int(theirs or 0))
    mine_all = sum(c[0] for counts in grid.values() for c in counts.values())
    out: list[Difference] = []
    for spot_key, counts in grid.items():
        n_p = sum(c[0] for c in counts.values())
        n_w = sum(c[1] for c in counts.values())
        if not n_p or not n_w:
            continue
        w = n_p / mine_all
        best: Difference | None = None
        for action in (a for a in ACTIONS if a in counts):
            k_p, k_w = counts[action]
            d, lo, hi = newcombe(k_p, n_p, k_w, n_w)
            gap = max(lo, -hi, 0.0)
            cand = Difference(
                _grid_spot(*spot_key), action, k_p, n_p, k_w, n_w, w, d, lo, hi, 100 * w * gap
            )
            if best is None or (cand.score, abs(d)) > (best.score, abs(best.diff)):
                best = cand
        if best is not None:
            out.append(best)
    out.sort(key=lambda x: (-x.score, -x.weight * abs(x.diff), str(x.spot)))
    return out if top is None else out[:top]


# --- the cube ---------------------------------------------------------------------------------


def _edges() -> dict[str, int | None]:
    """The grid's band edges as ``cube_build`` binds them."""
    out: dict[str, int | None] = {f"level_{k}": LEVEL_BANDS[k][1] for k in (1, 2, 3)}
    return out | {f"pot_{k}": POT_BANDS[k][0] for k in (1, 2, 3, 4)}


class OffGrid(Exception):
    """A spot's range that does not fall on the cube's lines."""


def _capped(r: Range | None, cap: int) -> tuple[int | None, int | None]:
    """A whole range over a column whose value ``cap`` means "cap or more"."""
    if r is None:
        return None, None
    lo, hi = r.bounds()
    if hi is None and (lo or 0) <= cap:
        return lo, None
    if hi is not None and hi < cap:
        return lo, hi
    raise OffGrid


def _banded(r: Range | None, bands: Sequence[tuple[int, int | None]]) -> tuple[int | None, ...]:
    """A range as the indices of the bands it covers exactly."""
    if r is None:
        return None, None
    starts = [Fraction(b[0]) for b in bands]
    ends = [None if b[1] is None else Fraction(b[1]) for b in bands]
    if r.low not in starts or r.high not in ends:
        raise OffGrid
    return starts.index(r.low or Fraction(0)), ends.index(r.high)


class Cube:
    """The decisions of a projection counted once per cell of the spot grid (``spots.sql``
    ``cube_build``: actor, opponents blind and seen, players in, level band, pot band, hand
    category, cards mode, table, player, action; with the sums of the nets and of their squares)
    and the players' deals and nets per table and cards mode (``cube_players``), held in an
    in-memory DuckDB database: a spot on the grid's lines, the winning players and biggest
    differences are then answered from a few thousand rows instead of every decision (one cube
    per version of the projection: the dashboard keeps it until the projection moves on).
    The answers are the same as from the decisions (tests/test_spots.py)."""

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        self.db = duckdb.connect()
        self.den = common_den(con)
        for table, sql, params in (
            ("cube", query(SPOTS, "cube_build").sql, _edges()),
            ("players", query(SPOTS, "cube_players").sql, {}),
            ("names", "SELECT player_key, player FROM player_names", {}),
        ):
            rows = con.sql(sql, params=params).to_arrow_table()  # pyarrow: Streamlit needs it too
            self.db.register("brag_rows", rows)
            self.db.execute(f"CREATE TABLE {table} AS SELECT * FROM brag_rows")
            self.db.unregister("brag_rows")
        self.names = {str(k): str(v) for k, v in self.db.execute("FROM names").fetchall()}

    def cursor(self) -> duckdb.DuckDBPyConnection:
        """A connection of its own to the cube (one per thread: DuckDB's rule)."""
        return self.db.cursor()

    def params(self, spot: Spot) -> dict[str, Any] | None:
        """The spot's bound parameters of ``cube_filter``, or ``None`` when the spot is not on
        the grid's lines (a level or pot not on the bands' edges, a count of opponents past 2
        but for "3 or more", players in past 6 but for "7 or more")."""
        try:
            out: dict[str, Any] = {"actor_seen": None if spot.actor is None else
                                   spot.actor == "seen", "hand": spot.hand}  # fmt: skip
            for name, r, cap in (("ob", spot.opp_blind, 3), ("os", spot.opp_seen, 3),
                                 ("pin", spot.players, 7)):  # fmt: skip
                out[f"{name}_lo"], out[f"{name}_hi"] = _capped(r, cap)
            out["lb_lo"], out["lb_hi"] = _banded(spot.level, LEVEL_BANDS)
            out["pb_lo"], out["pb_hi"] = _banded(spot.pot, POT_BANDS)
        except OffGrid:
            return None
        return out


# --- the figures as text (the command line and the Decisions page) --------------------------------


def share_text(c: Cell) -> str:
    """``"43.1% (31.0-56.2%)"``: the share and its Wilson 95% interval; ``"-"`` with no decision."""
    if not c.total:
        return "-"
    return f"{share(c.share)} ({c.low:.1%}-{c.high:.1%})"


def net_text(mean: Fraction | None, se: float | None) -> str:
    """``"+1¼ ± 0.80"``: the mean net (exact where it is whole, a half or a quarter, else
    ``≈``) and its standard error; ``"-"`` with no decision."""
    if mean is None:
        return "-"
    text = rounded_text(mean, sign=True)
    return text if se is None else f"{text} ± {se:.2f}"


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


def difference_rows(found: Sequence[Difference]) -> list[dict[str, str]]:
    """Biggest differences as text: the spot, the action, both shares with their counts, the
    difference with its 95% interval (share points), how often the spot comes up, the score."""
    return [
        {
            "spot": d.spot.words(),
            "action": d.action,
            "player": f"{share(d.player_share)} of {d.player_total}",
            "winners": f"{share(d.winners_share)} of {d.winners_total}",
            "difference": f"{100 * d.diff:+.1f} ({100 * d.low:+.1f} to {100 * d.high:+.1f})",
            "comes up": share(d.weight),
            "score": f"{d.score:.2f}",
        }
        for d in found
    ]
