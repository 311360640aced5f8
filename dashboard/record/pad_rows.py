"""The Record page's pad, without Streamlit: its places (:func:`pad_grid`, the same for the whole
session) and the keys standing there after a state (:func:`pad_keys`, :func:`pad_rows`), one
small function per row of the pad. The rules are the engine's
(:func:`engine.legal.legal_actions`); this only says where each key stands and what it says.
(:mod:`dashboard.record.recorder` re-exports these names, where the pages import them.)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Literal

from dashboard.record.choices import Choice, choices
from engine.state import Phase, State
from events.model import Rules
from present.numbers import amount

__all__ = ["BET_ROW", "Key", "Tone", "bet_slots", "pad_grid", "pad_keys", "pad_rows"]

Tone = Literal["fold", "bet", "see", "look", "table", "show", "plain", "empty", "undo"]


@dataclass(frozen=True, slots=True)
class Key:
    """One key of the pad at its ``spot``, a place that is the same for the whole session
    (:func:`pad_grid`): ``label`` and ``sub`` (what it costs) are what the key says, ``title`` the
    engine's full sentence, ``tone`` its colour; ``choice`` is the legal action it records."""

    spot: str
    label: str
    sub: str
    tone: Tone
    title: str
    choice: Choice | None = None


BET_ROW = 6
"""Bet keys in one row of the pad."""


def bet_slots(rules: Rules) -> int:
    """How many bet places the pad keeps for a session played under ``rules`` (RULES 5.5): the
    opening bets ``open_min..open_max`` or, later, the level as it stands and each raise up to
    ``raise_max``; at most four rows of :data:`BET_ROW`."""
    return min(max(rules.open_max - rules.open_min + 1, rules.raise_max + 1), 4 * BET_ROW)


def pad_grid(seats: int, rules: Rules, cards: str) -> list[list[str]]:
    """The pad's places, row by row, for a session of ``seats`` players under ``rules`` with
    ``cards`` recorded: the same for the whole session, whatever the state, so that a key never
    moves under the thumb. Each place holds its key when that action is legal, else an empty slot.

    - ``look`` | ``see`` | ``fold``: the player to act (RULES 5.1, 5.7, 5.6);
    - ``bet-0`` ...: slot ``k`` is the opening bet ``open_min + k``, later the level as it stands
      plus ``k`` (``bet-0`` keeps the level, ``bet-1`` raises by one: RULES 5.5);
    - ``peek-0`` ...: seat ``k``'s look out of turn (RULES 5.1; a holder of two hands: at the old
      hand), five a row; before the first deal the seat chosen to deal first (RULES 3.1);
    - ``hand-a`` | ``hand-b`` | ``concede``: a holder of two hands keeps or throws the hand
      looked at, or looks at the new hand (``hand-b``; at a showdown the old one is ``hand-a``:
      RULES 6.4-6.6), the blind survivor retains (RULES 6.2), the payer concedes (RULES 5.8);
    - ``shuffle`` | ``deal`` | ``order``: between deals (RULES 3.2-3.3; ``order`` shuffles here
      and records the order, at a table recording every card);
    - ``show`` | ``show-1`` | ``show-2``: the showdown (RULES 5.8), a card each when both are blind;
      at a ``shown`` table ``show`` alone, the whole row wide: its one ``shown`` at a time needs
      the cards picked, which the key shows before it is tapped (issue 35, item 1);
    - ``undo`` | ``redo``.
    """
    bets = [f"bet-{k}" for k in range(bet_slots(rules))]
    peeks = [f"peek-{k}" for k in range(seats)]
    rows = [["look", "see", "fold"]]
    rows += [bets[k : k + BET_ROW] for k in range(0, len(bets), BET_ROW)]
    per = 5 if seats > 5 else max(seats, 1)
    rows += [peeks[k : k + per] for k in range(0, len(peeks), per)]
    rows.append(["hand-a", "hand-b", "concede"])
    rows.append(["shuffle", "deal", "order"] if cards == "all" else ["shuffle", "deal"])
    rows.append(["show"] if cards == "shown" else ["show", "show-1", "show-2"])
    rows.append(["undo", "redo"])
    return rows


# --- the keys of each row -------------------------------------------------------------------------
# Each row's function gives the keys a legal choice makes in that row (none when the choice is not
# that row's): ``nth`` is how many choices of the same kind came before it, in the engine's order.

Row = Callable[[State, Choice, int], list[Key]]


def _cost(c: Choice) -> str:
    return "free" if c.action.cost == 0 else f"pays {amount(c.action.cost)}"


def _key(spot: str, label: str, sub: str, tone: Tone, c: Choice) -> Key:
    """A key that records ``c``, its title the engine's sentence."""
    return Key(spot, label, sub, tone, c.label, c)


def _seat(state: State, player: str | None) -> int:
    """The seat of ``player``, ``-1`` for none (a table's action) or a name not seated."""
    return state.seat(player) if player is not None and player in state.seats else -1


def _hand(c: Choice) -> str | None:
    """The hand a look or a retain names (``old`` / ``new``, a holder of two), else ``None``."""
    return getattr(c.action.event, "hand", None)


def _looks_in_turn(state: State, c: Choice) -> bool:
    """A look of the betting (not a showdown's, not at a new hand): at ``look`` for the player to
    act, else at the player's ``peek-`` place."""
    return c.action.kind == "looked" and state.phase is not Phase.SHOWDOWN and _hand(c) != "new"


def turn_row(state: State, c: Choice, nth: int) -> list[Key]:
    """``look`` | ``see`` | ``fold``: the player to act (RULES 5.1, 5.7, 5.6)."""
    kind, p = c.action.kind, c.action.player
    if kind == "saw":
        return [_key("see", "See", _cost(c), "see", c)]
    if kind == "folded":
        return [_key("fold", "Fold", "free", "fold", c)]
    if _looks_in_turn(state, c) and p == state.turn_name:
        seat = _seat(state, p)
        two = 0 <= seat < len(state.players) and state.players[seat].two_hands
        return [_key("look", "Look at the old hand" if two else "Look", "free", "look", c)]
    return []


def bet_row(state: State, c: Choice, nth: int) -> list[Key]:
    """``bet-k``: the opening bet ``open_min + k``, later the level as it stands plus ``k``
    (RULES 5.5)."""
    if c.action.kind != "bet":
        return []
    base = state.rules.open_min if state.level is None else (state.level or 0)
    level = int(getattr(c.action.event, "level", 0))
    word = "Raise to" if state.level is not None and level > state.level else "Bet"
    return [_key(f"bet-{level - base}", f"{word} {level}", _cost(c), "bet", c)]


def peek_row(state: State, c: Choice, nth: int) -> list[Key]:
    """``peek-k``: seat ``k``'s look out of turn (RULES 5.1; a holder of two: at the old hand);
    before the first deal, the seat chosen to deal first (RULES 3.1)."""
    kind, p = c.action.kind, c.action.player
    spot = f"peek-{_seat(state, p)}"
    if kind == "dealer_chosen":
        return [_key(spot, p or "", "deals first", "table", c)]
    if not _looks_in_turn(state, c) or p == state.turn_name:
        return []
    if _hand(c) is not None:
        return [_key(spot, f"{p} looks at the old hand", "free", "look", c)]
    return [_key(spot, p or "", "looks", "look", c)]


def hands_row(state: State, c: Choice, nth: int) -> list[Key]:
    """``hand-a`` | ``hand-b`` | ``concede``: a holder of two hands keeps, throws or looks
    (RULES 6.4-6.6), the blind survivor retains (RULES 6.2), the payer concedes (RULES 5.8)."""
    kind, p, hand = c.action.kind, c.action.player, _hand(c)
    spot = "hand-b" if hand == "new" else "hand-a"
    if kind == "retained":
        label = f"{p} retains the {hand} hand" if hand else f"{p} retains the hand"
        return [_key(spot, label, "RULES 6.2", "plain", c)]
    if kind in ("kept", "thrown"):
        verb = "keeps" if kind == "kept" else "throws"
        label = f"{p} {verb} the {state.players[_seat(state, p)].looking} hand"
        return [_key("hand-a" if kind == "kept" else "hand-b", label, "free", "plain", c)]
    if kind == "conceded":
        return [_key("concede", f"{p} concedes", "free", "fold", c)]
    if kind != "looked":
        return []
    if state.phase is Phase.SHOWDOWN:  # RULES 6.6: a holder of two reduces them first
        return [_key(spot, f"{p} looks at the {hand} hand", "free", "look", c)]
    if hand == "new":  # a holder of two: the new hand's look has a place of its own
        return [_key("hand-b", f"{p} looks at the new hand", "free", "look", c)]
    return []


def table_row(state: State, c: Choice, nth: int) -> list[Key]:
    """``shuffle`` | ``deal`` | ``order``: between deals (RULES 3.2-3.3; ``order`` shuffles here
    and records the order, at a table recording every card)."""
    kind = c.action.kind
    if kind == "shuffled":
        keys = [_key("shuffle", "Shuffle", "the pack", "table", c)]
        if state.cards_mode == "all":
            keys.append(Key("order", "Shuffle here", "and record the order", "table", "", c))
        return keys
    if kind != "dealt":
        return []
    if state.survivor is not None:
        return [
            _key("deal", f"{state.players[state.survivor].name} gives it up", "deal", "table", c)
        ]
    return [_key("deal", "Deal", "", "table", c)]


def show_row(state: State, c: Choice, nth: int) -> list[Key]:
    """``show`` | ``show-1`` | ``show-2``: the showdown (RULES 5.8), a card each when both are
    blind."""
    if c.action.kind != "shown":
        return []
    return [_key("show" if nth == 0 else f"show-{nth}", c.label, "", "show", c)]


ROWS: tuple[Row, ...] = (turn_row, bet_row, peek_row, hands_row, table_row, show_row)
"""The rows' functions; a choice is in exactly one row, or none (:func:`_keys_of`)."""

SPARE = ("hand-a", "hand-b", "concede")
"""Where a key goes when its place is taken: the next free place of the hands row."""


def _keys_of(state: State, c: Choice, nth: int) -> list[Key]:
    """The keys ``c`` makes, in its row; an action the pad has no place for yet: a spare place,
    never dropped."""
    for row in ROWS:
        keys = row(state, c, nth)
        if keys:
            return keys
    return [_key("hand-a", c.label, _cost(c), "plain", c)]


def _placed(keys: dict[str, Key], key: Key) -> dict[str, Key]:
    """``keys`` with ``key`` at its place, or when that is taken at the next spare place (never
    lose a legal action); unchanged when every spare place is taken. ``order`` stands beside its
    shuffle, always at its own place."""
    spot = key.spot
    if spot in keys and spot != "order":
        spot = next((s for s in SPARE if s not in keys), "")
        if not spot:
            return keys
    return {**keys, spot: key if spot == key.spot else replace(key, spot=spot)}


def pad_keys(state: State) -> dict[str, Key]:
    """The legal next recorded events after ``state`` at their places of :func:`pad_grid`, each
    legal choice exactly once (Undo and Redo are the page's, not the engine's). A place with no
    legal action is not in the mapping (an empty slot). The rules are the engine's
    (:func:`engine.legal.legal_actions`); this only says where each key stands and what it says."""
    keys: dict[str, Key] = {}
    seen: Counter[str] = Counter()
    for c in choices(state):
        for key in _keys_of(state, c, seen[c.action.kind]):
            keys = _placed(keys, key)
        seen[c.action.kind] += 1
    return keys


def pad_rows(state: State) -> list[list[Key]]:
    """The keys of :func:`pad_keys` in the rows of :func:`pad_grid` (Undo and Redo left out): a
    place with no legal action is an empty key (``tone="empty"``, ``choice=None``)."""
    keys = pad_keys(state)
    grid = pad_grid(len(state.seats), state.rules, state.cards_mode or "shown")
    empty: Tone = "empty"
    return [
        [keys.get(spot) or Key(spot, "", "", empty, "") for spot in row]
        for row in grid
        if row != ["undo", "redo"]
    ]
