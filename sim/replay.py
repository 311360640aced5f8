"""Replaying one deal of a simulated session: the same cards or fresh ones, the play drawn anew.

Used to measure what a luck term could remove at best (``bench/luck.py``) and to check that a
deal's luck term uses nothing of the play in it (``tests/analytics``). A :class:`Snapshot` is the
table just before a deal is dealt (RULES 3.4): the engine's state (immutable), the players'
memories and generators, the events so far. :func:`replay_deal` plays that deal out from it:

- ``play_seed`` reseeds every player's generator, so the choices are drawn anew from the same
  strategies (the styles of :mod:`sim.players`);
- ``fresh`` reorders the unseen top of the pack (the cards not dealt since the last shuffle,
  RULES 3.2), as another uniform shuffle would have: a deal with fresh cards.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction

from engine.legal import LegalAction, legal_actions
from engine.state import Phase, card_codes
from events.model import AnyEvent, Dealt
from sim.players import STYLES
from sim.table import SessionSpec, _Table

__all__ = ["Snapshot", "before_deals", "play_out", "replay_deal"]


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The table just before deal number ``deal`` (1-based) is dealt."""

    deal: int
    table: _Table


def _copy(t: _Table) -> _Table:
    c = object.__new__(_Table)
    c.spec, c.state, c.events = t.spec, t.state, list(t.events)
    c.rng = random.Random()
    c.rng.setstate(t.rng.getstate())
    c.players = copy.deepcopy(t.players)
    c.deal = copy.deepcopy(t.deal)
    return c


class _Watched(_Table):
    def __init__(self, spec: SessionSpec) -> None:
        super().__init__(spec)
        self.snapshots: list[Snapshot] = []

    def table_action(self, legal: list[LegalAction]) -> None:
        if legal and isinstance(legal[0].event, Dealt):
            self.snapshots.append(Snapshot(self.state.deals + 1, _copy(self)))
        super().table_action(legal)


def before_deals(spec: SessionSpec) -> tuple[list[AnyEvent], list[Snapshot]]:
    """Plays the session of ``spec`` (as :func:`sim.table.play`) and returns its events (no
    envelope) and a snapshot before each deal."""
    t = _Watched(spec)
    t.run()
    return t.events, t.snapshots


def replay_deal(
    snap: Snapshot, play_seed: str, fresh: Iterable[int] | None = None
) -> tuple[list[AnyEvent], tuple[Fraction, ...]]:
    """Plays the deal of ``snap`` to its end (won or carried, RULES 6-7) with every player's
    generator reseeded from ``play_seed``; with ``fresh`` (the unseen cards, RULES 3.2, which
    must be the top of the pack) the top is first reordered by a generator of ``play_seed``.

    Returns the events up to the deal's end (the snapshot's ones first) and each seat's net in
    the deal in stake units (what it won minus what it paid in it; a carried pot is won by no
    one in it). Raises ``ValueError`` if ``fresh`` is not the top of the pack."""
    t, _, nets = _play_out(snap, play_seed, fresh, f"{play_seed}/pack")
    return t.events, nets


def play_out(
    snap: Snapshot,
    play_seed: str,
    fresh: Iterable[int] | None = None,
    order_seed: str = "",
    styles: Mapping[str, str] | None = None,
) -> tuple[list[tuple[int, int, int]], tuple[Fraction, ...]]:
    """As :func:`replay_deal`, but the reordering of ``fresh`` is drawn from ``order_seed``,
    apart from the players' ``play_seed`` (so one seed of play can be paired with many orders
    of the pack, and with the order that came); ``styles`` (player -> a style of
    :data:`sim.players.STYLES`) plays those players by that style instead of their own (a model
    of their strategy). Returns each seat's new hand (card codes, in seat order) and each seat's
    net in the deal (stake units). Raises ``ValueError`` as :func:`replay_deal`, ``KeyError``
    for a style or player that is not there."""
    _, hands, nets = _play_out(snap, play_seed, fresh, order_seed, styles)
    return hands, nets


def _play_out(
    snap: Snapshot,
    play_seed: str,
    fresh: Iterable[int] | None,
    order_seed: str,
    styles: Mapping[str, str] | None = None,
) -> tuple[_Table, list[tuple[int, int, int]], tuple[Fraction, ...]]:
    t = _copy(snap.table)
    for name, style in (styles or {}).items():  # the deal not begun: no plan of theirs made yet
        t.players[name] = STYLES[style](name, t.players[name].rng)
    t.rng = random.Random(f"{play_seed}/table")  # nothing of the generator that shuffled
    for k, (name, p) in enumerate(sorted(t.players.items())):
        p.rng = random.Random(f"{play_seed}/{k}/{name}")
    if fresh is not None:
        _reorder(t, set(fresh), order_seed)
    outcomes, at = len(t.state.outcomes), len(t.events)
    t.table_action([a for a in legal_actions(t.state) if a.player is None])
    dealt = next(e for e in t.events[at:] if isinstance(e, Dealt))
    assert dealt.hands is not None  # the simulator deals with cards: all
    hands = [card_codes(dealt.hands[name]) for name in t.state.seats]
    while len(t.state.outcomes) == outcomes and t.state.phase is not Phase.OVER:
        t.step()
    s = t.state
    out = s.outcomes[-1]
    nets = tuple(
        (out.amount if out.winner == p.name else 0) - Fraction(p.paid, s.scale) for p in s.players
    )
    return t, hands, nets  # type: ignore[return-value]  # cards: all, every hand dealt


def _reorder(t: _Table, unseen: set[int], order_seed: str) -> None:
    """The unseen top of ``t``'s pack reordered by ``order_seed`` (RULES 3.2: as another uniform
    shuffle would have). Raises ``ValueError`` if ``unseen`` is not the top of the pack."""
    pack = t.state.pack or ()
    top = list(pack[: len(unseen)])
    if set(top) != unseen:
        raise ValueError("replay_deal: the fresh cards are not the top of the pack (RULES 3.3)")
    random.Random(order_seed).shuffle(top)
    t.state = replace(t.state, pack=(*top, *pack[len(top) :]))
