"""A decision's context: what the engine's state before a recorded decision says of it.

:func:`decision_context` reads the ``decisions`` columns of :data:`~analytics.rows.DECISION_CONTEXT`
(players in, blind and seen, the level, the pot, the player's options and the cost of a see) from
the state *before* the decision; :func:`options_text` writes the options as the ``options`` text.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypedDict, cast

from analytics.columns import DECISION_ACTIONS
from analytics.rows import DECISION_CONTEXT
from engine.legal import Option, options
from engine.state import Phase, State

__all__ = ["DecisionContext", "context_values", "decision_context", "options_text"]


class DecisionContext(TypedDict):
    """The context of a decision (:func:`decision_context`): the ``decisions`` columns of
    :data:`~analytics.rows.DECISION_CONTEXT`, in their order."""

    seat: int
    phase: str
    players_in: int
    blind_in: int
    seen_in: int
    actor_seen: bool
    opponents_blind: int
    opponents_seen: int
    two_hands: bool
    level: int | None
    den: int
    pot_t: int
    see_cost_t: int | None
    options: str


def decision_context(state: State, seat: int) -> DecisionContext:
    """The context of a decision by the player at ``seat``, as the engine's ``state`` before it
    stands: the ``decisions`` columns of :data:`DECISION_CONTEXT`.

    ``players_in`` counts the players not folded (RULES 5.6), ``blind_in``/``seen_in`` those of
    them blind or seen (RULES 5.1), ``opponents_*`` the same without the player; ``level`` is
    whole stake units (``None`` before the first bet, RULES 5.5); ``pot_t`` and ``see_cost_t``
    are ticks of ``den``. The options are :func:`engine.legal.options` (the one place that says
    what may happen next and what it costs; :func:`~engine.legal.legal_actions` lists the same),
    the player's own, as :func:`options_text` writes them; ``see_cost_t`` is the cost of the see
    among them (RULES 5.7, ``None`` when seeing is not one)."""
    values = dict(zip(DECISION_CONTEXT, context_values(state, seat), strict=True))
    return cast(DecisionContext, values)  # its keys are DECISION_CONTEXT's


def context_values(state: State, seat: int) -> tuple[Any, ...]:
    """:func:`decision_context`'s values in the order of :data:`DECISION_CONTEXT`."""
    players = state.players
    actor = players[seat]
    opponents_blind = opponents_seen = 0
    for k, p in enumerate(players):
        if k != seat and not p.folded:
            if p.seen:
                opponents_seen += 1
            else:
                opponents_blind += 1
    actor_in = 0 if actor.folded else 1
    return (
        seat,
        state.phase.value,
        opponents_blind + opponents_seen + actor_in,  # players_in
        opponents_blind + (actor_in if actor.blind else 0),  # blind_in
        opponents_seen + (actor_in if actor.seen else 0),  # seen_in
        actor.seen,
        opponents_blind,
        opponents_seen,
        actor.two_hands,
        state.level,
        state.scale,
        state.pot_t,
        *_said(state, seat),  # see_cost_t, options
    )


def _said(state: State, seat: int) -> tuple[int | None, str]:
    """The ``see_cost_t`` and ``options`` text of the options of the player at ``seat`` (a
    blind survivor's own: the options of no player, RULES 6.2)."""
    name = state.players[seat].name
    survivor = state.phase is Phase.CARRIED and state.survivor == seat
    mine = tuple(o for o in options(state) if o.player == name or (survivor and o.player is None))
    said = _SAID.get(mine)
    if said is None:
        see = next((o.cost_t for o in mine if o.kind == "saw"), None)
        said = _SAID[mine] = (see, options_text(mine))
        if len(_SAID) > 50_000:
            _SAID.clear()
    return said


_SAID: dict[tuple[Option, ...], tuple[int | None, str]] = {}
"""A player's options -> their ``see_cost_t`` and ``options`` text (few distinct sets recur)."""


def options_text(legal: Iterable[Option]) -> str:
    """Legal options as the ``decisions.options`` text: ``|`` between options, in
    :func:`engine.legal.options`' order, each the action's word (``look``, ``fold``, ``keep``,
    ``throw``, ``concede``, ``show``; ``look old``/``retain new`` naming one of two hands;
    ``give_up``: a blind survivor's hand goes under at the next deal, RULES 6.2) with its cost in
    ticks where it costs anything: ``see:12``, and the bets as one range of levels and one of
    costs, ``bet 3..8:3..8`` (a single level: ``bet 4:8``).

    >>> acts = [Option("bet", "A", k, level=k) for k in (3, 4, 5)]
    >>> options_text([*acts, Option("folded", "A"), Option("saw", "A", 6)])
    'bet 3..5:3..5|fold|see:6'
    """
    parts: list[str] = []
    bets: list[tuple[int, int]] = []
    for o in legal:
        kind = o.kind
        if kind == "bet":
            bets.append((o.level or 0, o.cost_t))
            word = "bet"
        elif kind == "saw":
            word = f"see:{o.cost_t}"
        elif kind == "shown":
            word = "show"
        elif kind == "dealt":
            word = "give_up"
        else:
            word = DECISION_ACTIONS.get(kind, kind)
            if o.hand is not None and kind in ("looked", "retained"):
                word = f"{word} {o.hand}"
        if word not in parts:
            parts.append(word)
    if bets:
        (lo, clo), (hi, chi) = bets[0], bets[-1]
        text = f"bet {lo}:{clo}" if lo == hi else f"bet {lo}..{hi}:{clo}..{chi}"
        parts[parts.index("bet")] = text
    return "|".join(parts)
