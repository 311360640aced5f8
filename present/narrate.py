"""Events told in words, from the states either side of them (pure; no rule is applied here):
wording, not rules, so it lives in ``present`` beside what shows it.

:func:`sentence` is the one narration of a step, shared by the dashboard's replayer and
``brag replay``: e.g. ``"B sees A: pays 6, the level, being blind"`` (RULES 5.7). Amounts are exact
(``8½``); cards are printed as on the card (``10♦``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeAlias, assert_never

from engine.hands import describe
from engine.state import State
from events import model as ev
from events.cards import card, face, faces
from present.numbers import amount, signed
from timeline.labels import letters

__all__ = [
    "StepLabel",
    "names",
    "pretty_card",
    "pretty_cards",
    "sentence",
    "step_in_deal",
]


def pretty_card(text: str) -> str:
    """``"Td"`` as ``"10♦"``: the rank as printed on the card, the suit as its symbol (the one
    face, :func:`events.cards.face`, which the log's refusals use too)."""
    return face(text)


def pretty_cards(cards: Iterable[str]) -> str:
    return faces(cards)


def names(names: Sequence[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _paid(before: State, after: State, player: str) -> Fraction:
    return after.paid_in_deal(player) - (
        before.paid_in_deal(player) if before.players else Fraction(0)
    )


def sentence(before: State, event: ev.AnyEvent, after: State) -> str:
    """The step in words, e.g. ``"B sees A: pays 6, the level, being blind"``.

    ``before`` and ``after`` are the states either side of ``event``; what was paid is read off them
    (no rule is applied here)."""
    match event:
        case ev.SessionStarted():
            return _session_started(event)
        case ev.DealerChosen():
            return f"{event.player} deals first (chosen by lot)"
        case ev.Shuffled():
            return _shuffled(before, event)
        case ev.Dealt():
            return _dealt(before, after)
        case ev.Voided():
            return (
                "Undone: the latest recorded action is withdrawn; the table goes back to before it"
            )
        case ev.Amended():
            done = {"withdraw": "withdrawn", "replace": "replaced", "insert": "preceded by"}
            return f"Correction: an earlier step is {done[event.action]}" + (
                f" {event.event.type}" if event.event is not None else ""
            )
        case (
            ev.Looked()
            | ev.Kept()
            | ev.Thrown()
            | ev.Bet()
            | ev.Folded()
            | ev.Saw()
            | ev.Shown()
            | ev.Conceded()
        ):
            return _acts(before, event, after)
        case ev.Retained():
            what = f"the {event.hand} hand" if event.hand else "the unseen hand"
            return f"{event.player} keeps {what} face down for the next deal"
        case ev.PotWon() | ev.PotCarried() | ev.SessionEnded():
            return _concluded(event)
        case _:
            assert_never(event)


_Act: TypeAlias = (
    ev.Looked | ev.Kept | ev.Thrown | ev.Bet | ev.Folded | ev.Saw | ev.Shown | ev.Conceded
)
"""What a player does in a deal, told by :func:`_acts`."""


def _acts(before: State, event: _Act, after: State) -> str:
    """A player's action in a deal in words (:func:`sentence`)."""
    match event:
        case ev.Looked():
            what = f"the {event.hand} hand" if event.hand else "their cards"
            return f"{event.player} looks at {what}"
        case ev.Kept():
            p = before.players[before.seat(event.player)]
            other = "new" if p.looking == "old" else "old"
            return f"{event.player} keeps the {p.looking} hand and throws the {other} one unseen"
        case ev.Thrown():
            p = before.players[before.seat(event.player)]
            other = "new" if p.looking == "old" else "old"
            return f"{event.player} throws the {p.looking} hand and keeps the {other} one, blind"
        case ev.Bet():
            return _bet(before, event, after)
        case ev.Folded():
            paid = before.paid_in_deal(event.player)
            return f"{event.player} folds, leaving {amount(paid)} in the pot"
        case ev.Saw():
            return _saw(before, event, after)
        case ev.Shown():
            return _shown(event)
        case ev.Conceded():
            return f"{event.player} concedes without showing"
        case _:
            assert_never(event)


def _session_started(event: ev.SessionStarted) -> str:
    where = f" at table {event.table}" if event.table else ""
    cards = (
        "every card is recorded"
        if event.cards == "all"
        else "only the cards shown at a showdown are recorded"
    )
    return f"Session {event.session} starts{where}: {names(event.seats)}, clockwise; {cards}"


def _shuffled(before: State, event: ev.Shuffled) -> str:
    why = " before the first deal" if before.deals == 0 else " after a prial won the pot"
    return "The pack is shuffled" + why + (" (its order is recorded)" if event.order else "")


def _dealt(before: State, after: State) -> str:
    ante = after.rules.ante
    carried = before.pot
    into = f" into the carried pot of {amount(carried)}" if carried else ""
    held = [p.name for p in after.players if p.two_hands]
    two = f"; {names(held)} also holds the retained hand" if held else ""
    return (
        f"Deal {after.deals}: {after.dealer_name} deals; everyone antes {amount(ante)}"
        f"{into}: pot {amount(after.pot)}{two}"
    )


def _bet(before: State, event: ev.Bet, after: State) -> str:
    paid = _paid(before, after, event.player)
    lv = int(event.level)
    if before.level is None:
        verb = f"bets level {lv}"
    elif lv > before.level:
        verb = f"raises to level {lv}"
    else:
        verb = f"bets level {lv}"
    blind = not before.players[before.seat(event.player)].seen
    return f"{event.player} {verb}: pays {amount(paid)}" + (
        ", half the level, being blind" if blind else ""
    )


def _saw(before: State, event: ev.Saw, after: State) -> str:
    paid = _paid(before, after, event.player)
    opp = after.seats[after.opponent] if after.opponent is not None else "the other"
    blind = not before.players[before.seat(event.player)].seen
    why = "the level, being blind" if blind else "twice the level"
    return f"{event.player} sees {opp}: pays {amount(paid)}, {why}"


def _shown(event: ev.Shown) -> str:
    if len(event.cards) == 1:
        return f"{event.player} turns {pretty_card(event.cards[0])}"
    return (
        f"{event.player} shows {pretty_cards(event.cards)}: "
        f"{describe(card(c) for c in event.cards)}"
    )


def _concluded(event: ev.DerivedEvent) -> str:
    """The engine's conclusion in words (:func:`sentence`)."""
    match event:
        case ev.PotWon() if event.showdown:
            hand = f" with a {event.hand}" if event.hand else ""
            cards = f" ({pretty_cards(event.cards)})" if event.cards else ""
            return (
                f"{event.player} wins the pot of {amount(event.amount)} "
                f"at the showdown{hand}{cards}"
            )
        case ev.PotWon():
            return (
                f"{event.player} wins the pot of {amount(event.amount)} "
                "uncontested, without showing"
            )
        case ev.PotCarried():
            return (
                f"The pot of {amount(event.amount)} is carried forward: "
                f"{event.player} was left in blind"
            )
        case ev.SessionEnded():
            nets = ", ".join(f"{p} {signed(v)}" for p, v in event.nets.items())
            if len(event.winners) > 1:
                who = f"{names(event.winners)} share the win"
            else:
                who = f"{event.winners[0]} wins the session"
            return f"The session ends: {who} ({nets})"
        case _:
            assert_never(event)


# --- one numbering: steps -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StepLabel:
    """The number and the words of one event of a stream, as every replay shows them.

    ``deal`` is the deal the event belongs to (0: before the first deal); ``step`` and ``sub`` its
    number for good (:class:`timeline.Label`: given when the event was recorded, ``"7"``, or
    ``"7a"`` for an event a correction inserted). ``withdrawn``: a later correction took this
    event back (it keeps its number); ``correction``: this event is a ``voided`` or an
    ``amended``, and ``step`` the step it corrects. ``text`` is the sentence (a correction names
    the step it corrects and that step's sentence, never a seq)."""

    deal: int
    step: int
    text: str
    withdrawn: bool = False
    correction: bool = False
    sub: int = 0

    @property
    def number(self) -> str:
        """The step's number as printed: ``"14"``, ``"14a"``."""
        return f"{self.step}{letters(self.sub)}"

    @property
    def label(self) -> str:
        """The step as printed: ``"14"``, ``"14a"``, or ``"↺14"`` for a correction of step 14."""
        return f"↺{self.number}" if self.correction else self.number


def step_in_deal(last: tuple[int, int] | None, deal: int) -> int:
    """The step number of an event in force of ``deal``, after the event in force ``last``
    (its ``(deal, step)``, ``None`` at the start): one more than ``last``'s step in the same deal,
    else 1 (:meth:`timeline.Label.next_after`).

    >>> step_in_deal(None, 0), step_in_deal((2, 7), 2), step_in_deal((2, 7), 3)
    (1, 8, 1)
    """
    return last[1] + 1 if last is not None and last[0] == deal else 1
