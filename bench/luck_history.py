"""Earlier sessions of a simulated player, for ``bench/luck.py --history H``: what a club's log
would hold of a player before the session a luck term is taken in.

The product reads each session on its own (``docs/luck.md``): a player's tendencies are those
shown in the session's earlier deals. This pool lets the bench measure what reading a player's
earlier sessions too would give (the value of ``analytics.tendencies`` and the play-outs' model
of play from a surer posterior), without building it: each seat of a bench session is given the
signature counts of ``H`` player-sessions of its own style drawn from sessions simulated on seeds
of their own.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache

from analytics.tendencies import ACTION_TYPES, Tendencies
from engine.apply import apply
from engine.state import initial_state
from events.model import Dealt
from sim.players import STYLES
from sim.table import SessionSpec, play

STYLE_NAMES = tuple(sorted(STYLES))


@lru_cache(maxsize=4)
def history_pool(players: int, seed: str, sessions: int = 200) -> dict[str, list[Counter[str]]]:
    """Each style's player-sessions at a table of ``players``, as the signature counts of one
    seat in one session (``analytics.tendencies``), from ``sessions`` simulated sessions on seeds
    of their own: the earlier sessions a club's log would hold of a player of that style."""
    pool: dict[str, list[Counter[str]]] = {s: [] for s in STYLE_NAMES}
    for k in range(sessions):
        rng = random.Random(f"{seed}/history/{players}/{k}")
        styles = [rng.choice(STYLE_NAMES) for _ in range(players)]
        spec = SessionSpec(
            session=f"history-{k}",
            seats=tuple((f"P{i}", s) for i, s in enumerate(styles)),
            seed=f"{seed}/history/{players}/{k}",
        )
        tendencies = Tendencies()
        state = initial_state()
        for event in play(spec):
            before, state = state, apply(state, event)
            if event.type in ACTION_TYPES:
                who: str = event.player  # type: ignore[union-attr]  # every action names its player
                tendencies.acted(event.type, who, before.players[before.seat(who)].seen)
            elif isinstance(event, Dealt):
                tendencies.dealt(state.seats)
        tendencies.dealt(())  # the last deal closes
        for name, style in spec.seats:
            pool[style].append(Counter(tendencies.signatures(name)))
    return pool
