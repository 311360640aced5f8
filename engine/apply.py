"""``apply(state, event) -> state``: the envelope checks and the one dispatch (RULES 1 to 6).

:func:`apply` takes what every event shares (the session has started and is not over, the engine's
pending conclusions come first, a ``voided`` withdraws the latest recorded event) and hands a
recorded event to its rule in :mod:`engine.rules`, in one ``match`` on the event's class (mypy
checks that it covers every event of :data:`~events.model.AnyEvent`). The result is a new state;
nothing is mutated. Refusals are :class:`~events.errors.RuleViolation` (naming the RULES section
and the player) or :class:`~events.errors.FormatError`.
"""

from __future__ import annotations

from typing import Never, NoReturn, cast

from engine.rules.betting import bet, folded, looked, saw
from engine.rules.carry import kept_or_thrown, retained
from engine.rules.common import fmt, viol
from engine.rules.deal import dealt
from engine.rules.setup import dealer_chosen, session_started, session_started_again, shuffled
from engine.rules.showdown import conceded, shown
from engine.rules.voided import voided
from engine.state import Phase, State, _evolve, replace
from events.errors import FormatError
from events.model import (
    DERIVED_CLASSES,
    Amended,
    AnyEvent,
    Bet,
    Conceded,
    DealerChosen,
    Dealt,
    DerivedEvent,
    Folded,
    Kept,
    Looked,
    PotCarried,
    PotWon,
    Retained,
    Saw,
    SessionEnded,
    SessionStarted,
    Shown,
    Shuffled,
    Thrown,
    Voided,
)

__all__ = ["apply"]

_NEW, _OVER = Phase.NEW, Phase.OVER


def _ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, ..., 11th, 12th, 13th, 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def apply(state: State, event: AnyEvent) -> State:
    """The state after ``event``; raises RuleViolation (or FormatError for a malformed stream).

    Shape: ``State x event -> State``; the input state is never changed. Recorded events are checked
    against RULES 1-6; a derived event must equal the engine's next conclusion in ``state.pending``.
    The envelope (``id``, ``seq``, ``at``, ``by``) is not checked here: the stream owner does that.
    """
    if state.pending or state.phase is _NEW or state.phase is _OVER:
        return _outside_rules(state, event)
    return _in_session(state, event)


def _in_session(state: State, event: AnyEvent) -> State:
    """:func:`apply` during the session with no conclusion pending (the fold's hot path): a
    recorded event to its rule, then :func:`_recorded`; a correction or a derived event to
    :func:`_outside_rules`."""
    # The most frequent events first: each case is one isinstance, and in RULES order the fold
    # took ~10% longer (issue 34; bets are 61% of the events of bench/replay.py's sessions).
    match event:
        case Bet():
            new = bet(state, event)  # RULES 5.2-5.5
        case Folded():
            new = folded(state, event)  # RULES 5.6, 6.1
        case Looked():
            new = looked(state, event)  # RULES 5.1, 6.4
        case Shown():
            new = shown(state, event)  # RULES 5.8-5.9
        case Dealt():
            new = dealt(state, event)  # RULES 3.3-4.1, 6.3
        case Saw():
            new = saw(state, event)  # RULES 5.7
        case Shuffled():
            new = shuffled(state, event)  # RULES 3.2
        case DealerChosen():
            new = dealer_chosen(state, event)  # RULES 3.1
        case Conceded():
            new = conceded(state, event)  # RULES 5.8
        case Retained():
            new = retained(state, event)  # RULES 6.2, 6.7
        case Kept() | Thrown():
            new = kept_or_thrown(state, event)  # RULES 6.4
        case SessionStarted():
            new = session_started_again(state, event)  # RULES 1.3 (the start: _outside_rules)
        case Voided() | Amended() | PotWon() | PotCarried() | SessionEnded():
            # a correction, or a derived event where the rules concluded nothing
            return _outside_rules(state, event)
        case _:
            _not_an_event(event)
    return _recorded(state, event, new)


def _not_an_event(event: Never) -> NoReturn:
    """The end of :func:`_in_session`'s ``match``: as :func:`typing.assert_never`, mypy refuses
    a match that leaves an event of :data:`~events.model.AnyEvent` out; at run time an object
    that is no event class of :mod:`events.model` (they are never subclassed) is a FormatError."""
    raise FormatError(f"{type(event).__name__} is not an event of this log", event=event.type)


def _outside_rules(state: State, event: AnyEvent) -> State:
    """:func:`apply` for every event that is not a recorded event during the session: the
    engine's pending conclusions, the session's start, a ``voided``, an ``amended`` and anything
    after the end."""
    if state.pending:
        return _conclusion(state, event)
    if type(event) in DERIVED_CLASSES:
        unasked = cast(DerivedEvent, event)
        raise viol(
            _derived_rule(unasked),
            f"the log says {_describe_derived(unasked)}, but the rules conclude nothing here",
        )
    if state.phase is Phase.NEW:
        if type(event) is not SessionStarted:
            raise FormatError("a session log starts with session_started", event=event.type)
        # The session's start is position 1 of the stream (FORMAT.md ``seq``).
        return replace(session_started(state, event), seq=state.seq + 1, last_event=event)
    if type(event) is Voided:
        return voided(state, event)
    if type(event) is Amended:
        raise FormatError(
            "an amended event corrects an earlier step: it is applied to the session's timeline "
            "(timeline.Timeline, docs/format.md), not to one state",
            event=event.type,
        )
    # the session is over (RULES 1.4)
    raise viol(
        "1.4",
        f"the session ended when its {_ordinal(state.rules.pots)} pot was resolved; "
        "nothing may follow"
        + (f" ({who}'s {event.type})" if (who := getattr(event, "player", None)) else ""),
        getattr(event, "player", None),
    )


def _conclusion(state: State, event: AnyEvent) -> State:
    """A derived event where the engine has concluded something: it must be the next conclusion
    (``state.pending[0]``) and agree with it."""
    expected = state.pending[0]
    if type(event) not in DERIVED_CLASSES:
        raise FormatError(
            f"the engine's conclusion {expected.type} must come first "
            f"({_describe_derived(expected)})",
            event=event.type,
        )
    logged = cast(DerivedEvent, event)
    if not _agrees(logged, expected):
        raise viol(
            _derived_rule(expected),
            _shown_disagrees(logged, expected)
            or f"the log says {_describe_derived(logged)}, "
            f"but the rules give {_describe_derived(expected)}",
        )
    return replace(state, pending=state.pending[1:], seq=state.seq + 1, last_event=event)


def _recorded(state: State, event: AnyEvent, new: State) -> State:
    """``new`` (the state a rule built from ``state``) after the recorded ``event``: the next seq,
    the event, and ``state`` kept for a ``voided``. A rule returns a state made for this event
    (never one anyone else holds, unless ``state`` itself): it is filled in place."""
    seq = state.seq + 1
    return _evolve(new, new is not state, seq=seq, recorded_seq=seq, last_event=event, undo=state)


def _agrees(logged: DerivedEvent, expected: DerivedEvent) -> bool:
    """A derived event of the log agrees with the engine's conclusion (FORMAT.md: "where present
    they must agree"): the same content (the envelope aside), except that the optional ``hand``
    and ``cards`` of a ``pot_won`` may be left out, the cards may be listed in any order, and
    ``winners`` is a set. Compared field by field (amounts exactly), not through JSON dumps."""
    if isinstance(logged, PotWon) and isinstance(expected, PotWon):
        return _same_pot(logged, expected) and _same_shown(logged, expected)
    if isinstance(logged, PotCarried) and isinstance(expected, PotCarried):
        return (logged.deal, logged.player, logged.amount) == (
            expected.deal,
            expected.player,
            expected.amount,
        )
    if isinstance(logged, SessionEnded) and isinstance(expected, SessionEnded):
        return logged.nets == expected.nets and sorted(logged.winners) == sorted(expected.winners)
    return False


def _same_pot(logged: PotWon, expected: PotWon) -> bool:
    """The same pot to the same player, the same way (at a showdown or not)."""
    return (logged.deal, logged.player, logged.amount, logged.showdown) == (
        expected.deal,
        expected.player,
        expected.amount,
        expected.showdown,
    )


def _same_hand(logged: PotWon, expected: PotWon) -> bool:
    """The log's ``hand``, when it gives one, is the engine's."""
    return logged.hand is None or logged.hand == expected.hand


def _same_shown(logged: PotWon, expected: PotWon) -> bool:
    """The log's ``hand`` and ``cards``, where given, are the engine's (cards in any order)."""
    return _same_hand(logged, expected) and (
        logged.cards is None
        or (expected.cards is not None and sorted(logged.cards) == sorted(expected.cards))
    )


def _shown_disagrees(logged: DerivedEvent, expected: DerivedEvent) -> str | None:
    """When a logged ``pot_won`` agrees with the engine's but for its ``hand`` or ``cards``: the
    sentence naming that field (they are the winner's shown hand, so only at a showdown, RULES
    5.6 and 5.9); otherwise ``None``."""
    if not (
        isinstance(logged, PotWon) and isinstance(expected, PotWon) and _same_pot(logged, expected)
    ):
        return None
    field, value = (
        ("hand", logged.hand)
        if not _same_hand(logged, expected)
        else ("cards", " ".join(logged.cards or ()))
    )
    if not expected.showdown:
        return (
            f"the log's pot_won gives {field} {value!r}, but {_describe_derived(expected)}: "
            "no hand is shown"
        )
    shown = f"{expected.hand} ({' '.join(expected.cards or ())})"
    return f"the log's pot_won gives {field} {value!r}, but {expected.player} showed {shown}"


def _derived_rule(e: DerivedEvent) -> str:
    if isinstance(e, PotWon):
        return "5.9" if e.showdown else "5.6"
    if isinstance(e, PotCarried):
        return "6.1"
    return "1.5"


def _describe_derived(e: DerivedEvent) -> str:
    if isinstance(e, PotWon):
        how = "at a showdown" if e.showdown else "uncontested"
        return f"{e.player} wins the pot of {fmt(e.amount)} {how}"
    if isinstance(e, PotCarried):
        return f"the pot of {fmt(e.amount)} is carried forward (blind survivor {e.player})"
    nets = ", ".join(f"{p} {fmt(v)}" for p, v in e.nets.items())
    return f"the session ends (nets {nets}; winners {', '.join(e.winners)})"
