"""What a device may receive of a session: the one rule every channel draws a deal by (issue 33.1).

A channel (the Replay page's frames, the pictures of ``GET /api/picture.png`` and ``brag share``,
anything added later) never draws a step from a bare replay: it asks :func:`sight_for` for a
:class:`DealSight` of one deal for one device, and draws the steps that object gives it
(:meth:`DealSight.view`, :meth:`DealSight.label`). The rule:

- The organiser's unlocked device receives what it asks (every card the log knows, or one
  player's view).
- Any other device, until the session ends, receives of every deal dealt since the last shuffle
  in force (RULES 3.2; :func:`guarded_from`) only what a spectator at the table saw: the cards
  shown at a showdown (RULES 3.5), whether the deal is in play, finished, between deals, or
  withdrawn by an Undo or a correction (in the ``log=recorded`` view too: a withdrawn ``shown``
  whose cards are not shown again in force is drawn face down and told without its cards). The
  cards of those deals went under the pack in an order the log tells (RULES 3.3) and come round
  again; an undone deal is dealt again from the same pack.
- The deals before the last shuffle of an unfinished session, and every deal of an ended one,
  show every card the log knows (or the player asked for), but a hand still in play: a retained
  hand (RULES 6.2, :func:`present.table.in_play`) stays face down to everyone.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from engine.state import State
from events.model import AnyEvent, PotWon, Shown, Shuffled
from log.steps import DealSlice
from present.narrate import StepLabel, names
from present.numbers import amount
from present.positions import Position
from present.table import (
    EVERYONE,
    SPECTATOR,
    Noted,
    Public,
    Secret,
    Sight,
    TableView,
    in_play,
    table_view,
)

__all__ = [
    "PACK",
    "DealSight",
    "ReplayLike",
    "guarded_from",
    "guards",
    "names_a_card",
    "public_cards",
    "sight_for",
    "spellings",
]


class ReplayLike(Protocol):
    """What the rule and the channels read of a replay (:class:`present.replay.Replay` is
    one): the stream (``events[k]`` followed by ``states[k]``), its deals, its step labels."""

    @property
    def session(self) -> str: ...
    @property
    def corrections(self) -> int: ...
    @property
    def slices(self) -> tuple[DealSlice, ...]: ...

    @property
    def events(self) -> tuple[AnyEvent, ...]: ...
    @property
    def states(self) -> tuple[State, ...]: ...
    @property
    def labels(self) -> tuple[StepLabel, ...]: ...
    @property
    def recorded(self) -> bool: ...
    @property
    def timeline(self) -> Any: ...
    @property
    def seats(self) -> tuple[str, ...]: ...
    @property
    def final(self) -> State: ...
    @property
    def live_deal(self) -> int | None: ...
    def slice(self, deal: int) -> DealSlice: ...
    def position(self, deal: Any, step: Any) -> Position: ...
    def deal_label(self, deal: int, *, spoilers: bool = True) -> str: ...


def in_force(rp: ReplayLike) -> list[int]:
    """The indices of ``rp``'s events still in force: neither a correction nor a step one took
    out of force (the labels the timeline gives, :mod:`present.steps`)."""
    return [k for k, lab in enumerate(rp.labels) if not lab.withdrawn and not lab.correction]


def withdrawals(rp: ReplayLike) -> tuple[tuple[int, ...], ...]:
    """For each event of ``rp``, the indices of the events it took out of force (a ``voided`` or
    an ``amended`` of the log as recorded; ``()`` elsewhere): the timeline's
    :attr:`timeline.Record.withdrew`, each step at the log row that carries it."""
    t = rp.timeline
    if t is None or not rp.recorded or len(t.log) != len(rp.events):
        return tuple(() for _ in rp.events)
    return tuple(tuple(s.row - 1 for s in r.withdrew if s.row > 0) for r in t.log)


def guarded_from(rp: ReplayLike) -> int | None:
    """The first deal a device other than the organiser's receives only as a spectator: the
    first deal dealt after the last shuffle in force (RULES 3.2), ``1`` when none is in force;
    ``None`` once the session has ended (RULES 1.4), when nothing is guarded. Every deal of
    ``rp`` numbered from it on is guarded (a withdrawn deal of the ``log=recorded`` view is
    numbered as the deal it was, :func:`log.steps.deal_slices`)."""
    if rp.final.finished:
        return None
    first = 1
    for k in in_force(rp):
        if isinstance(rp.events[k], Shuffled):
            first = rp.states[k].deals + 1
    return first


def guards(rp: ReplayLike, deal: int, *, organiser: bool = False) -> bool:
    """Whether a device receives deal ``deal`` of ``rp`` only as a spectator saw it: any device
    but the organiser's unlocked one (``organiser``), of a deal numbered from
    :func:`guarded_from` on (a deal a correction withdrew included: its number is the deal it
    was). The one decision :func:`sight_for` and the notes route
    (:mod:`dashboard.replay.notes_routes`)
    take."""
    first = guarded_from(rp)
    return not organiser and first is not None and deal >= max(first, 1)


def public_cards(rp: ReplayLike) -> dict[int, frozenset[tuple[str, str]]]:
    """The cards shown at a showdown in force (RULES 3.5, 5.8), by deal number: ``(player,
    card)`` pairs, canonical card text. What a spectator of that deal saw; a ``shown`` withdrawn
    by a correction is not in them."""
    out: dict[int, set[tuple[str, str]]] = {}
    for k in in_force(rp):
        e = rp.events[k]
        if isinstance(e, Shown):
            out.setdefault(rp.states[k].deals, set()).update((e.player, c) for c in e.cards)
    return {d: frozenset(s) for d, s in out.items()}


@dataclass(frozen=True, slots=True)
class DealSight:
    """Deal ``deal`` of ``replay`` as one device may receive it (:func:`sight_for`); the only
    thing a channel draws a deal from. ``sight``: the viewer drawn, the hands still in play and
    the note; ``guarded``: the deal is drawn as a spectator saw it (see the module);
    ``public``: then, the cards shown in force by deal number (:func:`public_cards`). Made by
    :func:`sight_for` only."""

    replay: ReplayLike
    deal: int
    sight: Sight
    guarded: bool = False
    public: Mapping[int, frozenset[tuple[str, str]]] = field(default_factory=dict)
    gone: tuple[tuple[int, ...], ...] = ()
    """Then, what each event withdrew (:func:`withdrawals`)."""

    @property
    def viewer(self) -> str | None:
        return self.sight.viewer

    @property
    def note(self) -> str:
        return self.sight.note

    @property
    def indices(self) -> range:
        """The indices into the replay's events of the deal's steps, in order."""
        sl = self.replay.slice(self.deal)
        return range(sl.start, sl.stop)

    def _public(self, k: int) -> Public | None:
        if not self.guarded:
            return None
        return self.public.get(self.replay.states[k].deals, frozenset())

    def view(self, k: int, *, noted: Noted | None = None) -> TableView:
        """The table after event ``k`` (an index of :attr:`indices`) as this device may see it,
        with the step's sentence (:meth:`label`); ``noted``: a player's own remembered cards
        (:func:`present.table.table_view`), drawn in that player's own view only."""
        rp = self.replay
        return table_view(
            rp.states[k],
            self.sight.viewer,
            self.label(k).text,
            secret=self.sight.secret,
            noted=noted,
            public=self._public(k),
        )

    def label(self, k: int) -> StepLabel:
        """The step number and sentence of event ``k``; in a guarded deal a withdrawn ``shown``
        (or the pot it won) whose cards were not shown again in force is told without its cards,
        and so is the correction that names it."""
        lab = self.replay.labels[k]
        if not self.guarded:
            return lab
        veiled = self._veiled(k)
        if veiled is not None:
            return replace(lab, text=veiled)
        if lab.correction and any(self._veiled(i) is not None for i in self.gone[k]):
            return replace(lab, text=_veiled_correction(lab))
        return lab

    def _veiled(self, k: int) -> str | None:
        """Event ``k``'s sentence without its cards when they are not all public, else
        ``None``."""
        e: AnyEvent = self.replay.events[k]
        if not isinstance(e, Shown | PotWon) or not e.cards:
            return None
        shown = self.public.get(self.replay.states[k].deals, frozenset())
        if all((e.player, c) in shown for c in e.cards):
            return None
        if isinstance(e, Shown):
            what = "a card" if len(e.cards) == 1 else "their cards"
            return f"{e.player} shows {what} (withdrawn)"
        return f"{e.player} wins the pot of {amount(e.amount)} at the showdown (withdrawn)"


def _veiled_correction(lab: StepLabel) -> str:
    """A correction's sentence that names no card (it withdrew a step told without its
    cards)."""
    back = f"step {lab.step - 1}" if lab.step > 1 else "before that step"
    return f"Correction: step {lab.step} is withdrawn; the table goes back to {back}"


def sight_for(
    rp: ReplayLike, deal: int, viewer: str | None = None, *, organiser: bool = False
) -> DealSight:
    """Deal ``deal`` of ``rp`` as a device may receive it when it asks for ``viewer``
    (``None``/``""``/:data:`EVERYONE`: every card; a player; an unknown name: everyone):
    ``organiser``, the organiser's unlocked device, receives what it asks; any other device
    receives a guarded deal (:func:`guarded_from`) as a :data:`SPECTATOR`, whatever it asked,
    and in every deal a hand still in play face down (:func:`in_play`). Raises
    ``StopIteration`` for a deal ``rp`` does not have."""
    rp.slice(deal)  # a deal the replay has
    who = None if viewer in (None, "", EVERYONE) else viewer
    if who is not None and who != SPECTATOR and who not in rp.seats:
        who = None
    if organiser:
        return DealSight(rp, deal, Sight(who))
    secret = in_play(rp.final)
    if guards(rp, deal):
        public = public_cards(rp)
        # said only when it hides something: at a table that records only the cards shown
        # (``cards: "shown"``) a spectator's deal is the log's, unless a player's view was asked
        hides = who not in (None, SPECTATOR) or _unshown(rp, deal, public)
        note = _guarded_note(rp, deal, who) if hides else ""
        sight = Sight(SPECTATOR, secret, note)
        return DealSight(rp, deal, sight, True, public, withdrawals(rp))
    held = _held(rp, deal, secret)
    note = ""
    if held and who != SPECTATOR:
        note = f"{names(held)}'s unseen hand is still in play (RULES 6.2), so it stays face down."
    return DealSight(rp, deal, Sight(who, secret, note))


def _unshown(rp: ReplayLike, deal: int, public: Mapping[int, frozenset[tuple[str, str]]]) -> bool:
    """Whether the log knows a card of ``deal`` that was not shown at a showdown in force
    (:func:`public_cards`): what drawing it as a spectator hides."""
    sl = rp.slice(deal)
    for s in rp.states[sl.start : sl.stop]:
        shown = public.get(s.deals, frozenset())
        for p in s.players:
            for h in p.hands:
                if any((p.name, c) not in shown for c in h.texts() or ()):
                    return True
    return False


def _held(rp: ReplayLike, deal: int, secret: Secret) -> list[str]:
    """The players with a hand in ``deal`` that is still in play (``secret``), by name."""
    sl = rp.slice(deal)
    return sorted(
        {
            p.name
            for s in rp.states[sl.start : sl.stop]
            for p in s.players
            for h in p.hands
            if (p.name, h.cards) in secret
        }
    )


def _guarded_note(rp: ReplayLike, deal: int, who: str | None) -> str:
    """Why :func:`sight_for` draws the guarded ``deal`` as a :data:`SPECTATOR` (``who``: the
    viewer asked for)."""
    live = rp.live_deal
    if deal == live:
        if who not in (None, SPECTATOR):
            return (
                f"Deal {deal} is still in play: viewing as {who} waits until the pack is "
                "shuffled or the session ends (or the organiser's device); meanwhile only the "
                "cards shown are face up."
            )
        return (
            f"Deal {deal} is still in play: only the cards shown are face up until the pack "
            "is shuffled or the session ends (RULES 3.5)."
        )
    return (
        f"Deal {deal} was dealt since the last shuffle: its cards went under the pack and come "
        "round again (RULES 3.2-3.3), so only the cards shown are face up until the pack is "
        "shuffled or the session ends."
    )


_SUITS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
PACK = frozenset(r + u for r in "23456789TJQKA" for u in "shdc")
"""The 52 cards, canonical text."""


def spellings(card: str) -> tuple[str, ...]:
    """The ways a card is written (``Qs``: ``Qs``, ``QS``, ``Q♠``; ``Ts``: also ``10s``,
    ``10S``, ``10♠``), for a text a person typed (a note)."""
    rank, suit = card[0], card[1]
    ranks = (rank, "10") if rank == "T" else (rank,)
    return tuple(w for r in ranks for w in (r + suit, r + suit.upper(), r + _SUITS[suit]))


def names_a_card(text: str, cards: frozenset[str] = PACK) -> bool:
    """Whether ``text`` names one of ``cards`` (canonical text; every card of the pack by
    default) in any of its :func:`spellings`, as a word of its own (``As`` in "As I said" is
    one: asked of the whole pack, the answer tells nothing of which cards a deal holds)."""
    words = "|".join(re.escape(w) for c in sorted(cards) for w in spellings(c))
    return (
        bool(words) and re.search(rf"(?<![0-9A-Za-z])(?:{words})(?![0-9A-Za-z])", text) is not None
    )
