"""What may be recorded next, without Streamlit: the engine's legal actions as the Record page's
choices (:func:`choices`), and the event a choice records once its input is filled in
(:func:`complete`). The rules are the engine's: nothing here decides what is legal.
(:mod:`dashboard.record.recorder` re-exports these names, where the pages import them.)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from engine.legal import LegalAction, legal_actions
from engine.state import Phase, State
from events.cards import FULL_PACK
from events.model import RecordedEvent, Shown

__all__ = ["Choice", "Group", "choices", "complete", "random_order"]

Group = Literal["table", "turn", "look", "showdown", "after"]


@dataclass(frozen=True, slots=True)
class Choice:
    """One button: ``key`` is stable for the widget, ``label`` says who does what and what it costs,
    ``group`` places it on the page, ``action`` is the engine's legal action."""

    key: str
    label: str
    group: Group
    action: LegalAction

    @property
    def needs(self) -> tuple[str, ...]:
        return self.action.needs

    @property
    def card_count(self) -> int:
        """How many cards the organiser picks for a ``shown`` (1 when both are blind, else 3)."""
        return len(self.action.event.cards) if isinstance(self.action.event, Shown) else 0


def _group(state: State, a: LegalAction) -> Group:
    t = a.kind
    if a.player is None or t in ("dealer_chosen", "shuffled", "dealt"):
        return "table"
    if t == "retained":
        return "after"
    if state.phase is Phase.SHOWDOWN:
        return "showdown"
    if t == "looked" and (not state.betting_started or a.player != state.turn_name):
        return "look"
    return "turn"


def choices(state: State) -> list[Choice]:
    """The legal next recorded events after ``state`` as buttons, in the engine's order."""
    out = []
    for n, a in enumerate(legal_actions(state)):
        label = a.label or a.kind
        if a.needs == ("order",):
            label = "shuffle the pack"
        key = f"{state.seq}-{n}-{a.kind}-{a.player or 'table'}"
        out.append(Choice(key, label[0].upper() + label[1:], _group(state, a), a))
    return out


def complete(
    choice: Choice,
    *,
    cards: Sequence[str] = (),
    hands: dict[str, Sequence[str]] | None = None,
    order: Sequence[str] | None = None,
    by: str | None = None,
) -> RecordedEvent:
    """The event to record for ``choice``, with the input it needs filled in.

    ``cards``: the cards shown (``needs == ("cards",)``); ``hands``: each player's three dealt
    cards (``"hands"``); ``order``: a shuffle's order, top first (``"order"``, optional). The
    engine checks the result when it is appended."""
    e = choice.action.event
    update: dict[str, object] = {}
    if "cards" in choice.needs:
        update["cards"] = tuple(cards)
    if "hands" in choice.needs:
        update["hands"] = {p: tuple(cs) for p, cs in (hands or {}).items()}
    if "order" in choice.needs and order is not None:
        update["order"] = tuple(order)
    if by:
        update["by"] = by
    if not update:
        return e
    # Revalidate so that cards are read in any notation and checked (FORMAT.md "Cards").
    data = e.model_dump(exclude_none=True)
    data.update(update)
    return type(e).model_validate(data)


def random_order(rng: random.Random | None = None) -> tuple[str, ...]:
    """A shuffled pack, top first, for a digital table that records the order."""
    pack = [str(c) for c in FULL_PACK]
    (rng or random.SystemRandom()).shuffle(pack)
    return tuple(pack)
