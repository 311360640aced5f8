"""The looks before the first bet of a two-in deal, graded by the four betting games' values.

RULES 5.1: a player may look at any time; the solved game (:mod:`solver.solution`) has the first
to act decide first whether to look, then the other, knowing it, and then the betting game of
those two statuses is played. A look made in that order is graded against staying blind: for the
first to act, each choice is worth the value of the game the other's best answer leads to; for
the other, the value of the game its choice makes, the first's status as it stood when the
betting began. A look out of that order (the other looked first, and then the first to act) has
no reference. Values are floats in antes: the player's expected net in the deal under the
solution (:meth:`solver.solution.Subgame.value`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.state import State

__all__ = ["BLIND", "LOOK", "Opening", "look_evs"]

LOOK = "look"
BLIND = "stay blind"
ORDER = "the solved game has the first to act decide first"

Games = Callable[[tuple[bool, bool]], "float | str"]
"""Who is seen when the betting starts -> the first to act's value of that game (antes), or why
there is none (not solved yet)."""


@dataclass(frozen=True)
class Opening:
    """How the betting began: ``first`` to act, the ``other``, their statuses then (``True``:
    seen) and the dead money (antes: the antes of players who folded before any bet)."""

    first: str
    other: str
    seen: tuple[bool, bool]
    dead: float


def look_evs(op: Opening, before: State, player: str, games: Games) -> dict[str, float] | str:
    """The EV (antes) of looking and of staying blind for ``player``, who looks in the state
    ``before`` (two in, no bet yet); or why the look has no reference."""
    first_blind = before.players[before.seat(op.first)].blind
    other_blind = before.players[before.seat(op.other)].blind
    if player == op.first:
        if not other_blind:
            return f"the other player had looked first ({ORDER})"
        out: dict[str, float] = {}
        for s0, name in ((True, LOOK), (False, BLIND)):
            vs = [games((s0, s1)) for s1 in (False, True)]
            for v in vs:
                if isinstance(v, str):
                    return v
            out[name] = min(float(v) for v in vs)  # the other answers with its best
        return out
    if first_blind and op.seen[0]:
        return f"the first to act looked after this ({ORDER})"
    out = {}
    for s1, name in ((True, LOOK), (False, BLIND)):
        v = games((op.seen[0], s1))
        if isinstance(v, str):
            return v
        out[name] = -float(v)
    return out
