"""Facts from the engine's replay: one session folded event by event into table rows.

Pure: no DuckDB here. :class:`SessionFolder` applies a session's events with
:func:`engine.apply.apply` and, from the states before and after each event, writes rows into a
:class:`Rows` buffer (event rows as tuples, deal rows as columns of Python lists; flushed by
:mod:`analytics.projector`):

- ``events``: one row per event, as it arrives.
- ``deals`` and ``player_deals``: one row per deal and one per player per deal, written when the
  deal's facts are known: at the recorded event that resolves the pot (RULES 5.6, 5.9); for a
  carried pot (RULES 6.1) when the survivor's choice is known, at ``retained`` (RULES 6.2) or at the
  next ``dealt``.
- ``decisions``: one row per recorded decision in force (``looked``, ``bet``, ``saw``, ``folded``,
  ``conceded``, ``retained``, ``kept``, ``thrown``: :data:`DECISION_ACTIONS`), its context read from
  the engine's state *before* it (:func:`decision_context`), written with its deal's rows (what
  followed, the player's net in the deal and whether they won it, is known then) and dropped with
  them.

The rules are the engine's: who won, what was paid, who is seen or blind, whether a see was allowed
are all read from its states. What the engine does not keep (a player's first action, raises, the
turn at which a player looked, the chances to see) is counted here from consecutive states.

Money stays in the engine's *ticks*: whole numbers of ``1 / den`` stake units, ``den`` being the
session's ``2 x ante denominator`` (RULES 1.2, 5.3, 5.5: levels are whole units and a blind player
pays half, so every amount of the session is a whole number of ticks). Each money row carries its
``den``; see ``analytics/sql/schema.sql``.

A ``voided`` event (FORMAT.md) withdraws the latest recorded event in force and may reopen a deal
whose rows were written. The folder then re-folds its session from the first event (sessions are
short) and reports from which deal on the rows written so far no longer hold
(:attr:`SessionFolder.emitted` drops); the projector deletes them.

The tables' columns and the :class:`Rows` buffer are :mod:`analytics.rows`'s, a decision's context
:mod:`analytics.context`'s, a deal's counts and rows :mod:`analytics.deals`' (their names are
importable from here too).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TypeAlias, assert_never

from analytics.columns import DECISION_ACTIONS
from analytics.context import context_values, decision_context, options_text
from analytics.deals import DealInProgress, PendingDecision
from analytics.errors import ProjectionError
from analytics.luck import LuckTracker
from analytics.priors import OrderKey, digest, order_key
from analytics.rows import (
    DEAL_COLUMNS,
    DECISION_COLUMNS,
    EVENT_COLUMNS,
    PLAYER_DEAL_COLUMNS,
    PlayerRow,
    Rows,
    SessionRow,
    player_rows,
    session_row,
)
from analytics.veil import Written
from engine.apply import apply
from engine.rules.betting import can_see
from engine.state import Hand, Outcome, Phase, State, initial_state
from events import model as ev
from events.text import normal
from present.narrate import step_in_deal
from timeline import Timeline, Unfit

__all__ = [
    "DEAL_COLUMNS",
    "DECISION_ACTIONS",
    "DECISION_COLUMNS",
    "EVENT_COLUMNS",
    "PLAYER_DEAL_COLUMNS",
    "ProjectionError",
    "Rows",
    "SessionFolder",
    "decision_context",
    "options_text",
]


_IN_DEAL = frozenset({Phase.BETTING, Phase.SHOWDOWN})

Priors: TypeAlias = Callable[[str, OrderKey, str], Mapping[str, int]]
"""``(session, its order key, a player's name) ->`` the player's signature counts from their
earlier sessions (:mod:`analytics.priors`)."""

DecisionEvent: TypeAlias = (
    ev.Looked | ev.Bet | ev.Saw | ev.Folded | ev.Conceded | ev.Retained | ev.Kept | ev.Thrown
)
"""The recorded events that are a player's decision (:data:`DECISION_ACTIONS`)."""


class SessionFolder:
    """Folds one session's events into rows (see the module doc).

    ``written`` holds the deals whose rows have been written, in full or veiled while guarded
    (:mod:`analytics.veil`); ``last_position``/``last_seq`` the last event applied."""

    def __init__(self, session: str, priors: Priors | None = None) -> None:
        """``priors``: the players' earlier sessions, as ``(session, its order key, name) ->
        signature counts`` (:mod:`analytics.priors`; the projector's), for the luck term."""
        self.session = session
        self.state: State = initial_state()
        self.deal: DealInProgress | None = None
        self.carry: tuple[Outcome, State, DealInProgress, int] | None = None
        self.written = Written(session)
        self.last_position = 0
        self.last_seq = 0
        self.history: list[tuple[int, int, ev.AnyEvent]] = []
        self.step_at: tuple[int, int] | None = None
        """``(deal, step)`` of the last event in force, numbered as every replay numbers it
        (:func:`present.narrate.step_in_deal`)."""
        self._seq_of: list[int] | None = None
        """For a re-fold of the events in force: the stored seq of each (1-based) event."""
        self._labels: list[tuple[int, int]] | None = None
        """For a re-fold of the events in force: each step's ``(deal, step)`` (the timeline's
        number for good; an inserted step's letters are not kept in the ``step`` column)."""
        self._deferred = False
        """An ``amended`` of a correction whose later ``amended`` events (its repairs) are
        still to come: the rows wait for the whole correction."""
        self._keys: dict[str, str] = {}
        self._priors = priors
        self.luck = LuckTracker(self._prior_of if priors is not None else None)
        self.rows_prior: dict[str, str] | None = None
        """The digests of the priors the session's written rows took, by player key, where they may
        not be the tracker's (a folder made again from stored events: the projection's)."""

    # --- the fold ------------------------------------------------------------------------------

    @classmethod
    def from_events(
        cls,
        session: str,
        events: Iterable[tuple[int, int, ev.AnyEvent]],
        priors: Priors | None = None,
        rows_prior: dict[str, str] | None = None,
    ) -> SessionFolder:
        """A folder that has applied ``(position, seq, event)`` already (their rows discarded;
        ``rows_prior``: the digests of the priors those rows took, :attr:`rows_prior`)."""
        folder = cls(session, priors)
        sink = Rows()
        for position, seq, event in events:
            folder.apply(position, seq, event, sink)
        folder.written.flush(sink)  # its veiled rows were stored with those events
        folder.rows_prior = rows_prior
        return folder

    def apply(self, position: int, seq: int, event: ev.AnyEvent, out: Rows) -> None:
        """Applies one event of the session, writing its rows into ``out``."""
        if seq != self.last_seq + 1:
            raise ProjectionError(
                f"session {self.session}: event seq {seq} at position {position} does not follow "
                f"seq {self.last_seq}"
            )
        if self._deferred or isinstance(event, ev.Amended):
            self.history.append((position, seq, event))
            self.last_position, self.last_seq = position, seq
            self._corrected(position, seq, event, out)
            return
        before = self.state
        try:
            after = apply(before, event)
        except ValueError as err:
            raise ProjectionError(
                f"session {self.session}: the engine refuses seq {seq} "
                f"at position {position}: {err}"
            ) from err
        self.history.append((position, seq, event))
        self.last_position, self.last_seq = position, seq
        self._event_row(position, seq, event, before, after, out)
        self.state = after
        if isinstance(event, ev.Voided):
            self._refold(out)
            return
        if self._labels is not None:
            self.step_at = self._labels[seq - 1]
        else:
            number = max(self.step_at[0] if self.step_at else 0, after.deals)
            self.step_at = (number, step_in_deal(self.step_at, number))
        self._note_decision(position, seq, event, before, after)
        if self.deal is not None and before.phase in _IN_DEAL:
            self.deal.events += 1  # events from ``dealt`` to the one that ends the deal
        self._follow(position, seq, event, before, after, out)
        if after.finished or isinstance(event, ev.Shuffled):
            self.written.open(out)  # the deals veiled so far open (analytics.veil)

    def _follow(
        self, position: int, seq: int, event: ev.AnyEvent, before: State, after: State, out: Rows
    ) -> None:
        """What ``event`` (in force) tells of the deal: its counts, a deal started, a carried
        pot settled, a deal ended."""
        self.luck.acted(event, before)  # what a player did: the luck term's tendencies
        match event:
            case ev.Bet() | ev.Folded() | ev.Saw():
                self._action(event, before, after)
                self._ended((position, self._stored(seq), event.type), before, after, out)
            case ev.Shown() | ev.Conceded():
                self._ended((position, self._stored(seq), event.type), before, after, out)
            case ev.Dealt():
                self._dealt(before, after, out)
            case ev.Shuffled():
                self.luck.shuffled()
            case ev.Looked() | ev.Kept():
                self._looked(event.player, before, after)
            case ev.Retained():
                if self.carry is not None:
                    self._settle_carry(retained=True, out=out)
            case ev.SessionStarted() | ev.DealerChosen() | ev.Thrown() | ev.Voided() | ev.Amended():
                pass  # no deal ends here
            case ev.PotWon() | ev.PotCarried() | ev.SessionEnded():
                pass  # derived: the deal ended at the recorded event they follow
            case _:
                assert_never(event)

    def _dealt(self, before: State, after: State, out: Rows) -> None:
        """A deal starts (settling a carried pot the survivor did not retain)."""
        if self.carry is not None:
            self._settle_carry(retained=False, out=out)
        # RULES 6.3: the pot on the table before the antes is the carried one (0 after a
        # pot was won), whether the blind survivor retained (phase BETWEEN) or not (CARRIED).
        carried_in = before.pot_t
        self.deal = DealInProgress.start(after, carried_in)
        self.deal.events = 1
        self.deal.luck_t = self.luck.dealt(after)

    def _looked(self, player: str, before: State, after: State) -> None:
        """The turn at which the player looked (their actions before it), if they just did."""
        i = after.seat(player)
        deal = self.deal
        if after.players[i].seen and not before.players[i].seen and deal is not None:
            deal.looked_turn[i] = deal.actions[i]

    def _ended(self, at: tuple[int, int, str], before: State, after: State, out: Rows) -> None:
        """The deal's rows if ``after`` ended it (``at``: the event's position, seq and type): at
        once for a pot won, else once the survivor's choice is known (RULES 6.2)."""
        if len(after.outcomes) > len(before.outcomes):
            outcome = after.outcomes[-1]
            deal = self.deal
            assert deal is not None
            position, deal.end_seq, deal.end_type = at
            if outcome.result == "won":
                self.written.emit(outcome, after, deal, position, retained=None, out=out)
            else:
                self.carry = (outcome, after, deal, position)

    def _corrected(self, position: int, seq: int, event: ev.AnyEvent, out: Rows) -> None:
        """An ``amended`` (or an event of a correction not whole yet: nothing changes until its
        repairs come): the steps in force folded again (:meth:`_refold`)."""
        try:
            t = self._timeline()
        except Unfit:
            self._deferred = True
            self._event_row(position, seq, event, self.state, self.state, out)
            return
        self._deferred = False
        before = self.state
        self._refold(out, t, from_deal=max(1, _corrected_deal(t)))
        self.state = t.state
        self._event_row(position, seq, event, before, t.state, out)

    def _timeline(self) -> Timeline:
        """The session's timeline of the events applied so far."""
        try:
            return Timeline.of([e for _, _, e in self.history])
        except Unfit:
            raise
        except ValueError as err:
            raise ProjectionError(
                f"session {self.session}: the engine refuses the corrected stream: {err}"
            ) from err

    def _refold(self, out: Rows, t: Timeline | None = None, from_deal: int | None = None) -> None:
        """After a correction: fold the steps in force (:class:`timeline.Timeline`: a
        ``voided``'s withdrawn events and their conclusions left out, each ``amended`` applied)
        from the start. After a void, rows of deals that no longer ended go; after an
        ``amended``, those of deals from ``from_deal`` on are written again. The engine's own
        state (which has seen the correction) is kept: its ``seq`` counts every event."""
        if t is None:
            t = self._timeline()
        steps = list(t.steps)
        where = {seq: pos for pos, seq, _ in self.history}
        fresh = SessionFolder(self.session, self._priors)
        fresh._seq_of = [s.row for s in steps]  # the decisions keep their stored seq
        fresh._labels = [(s.label.deal, s.label.step) for s in steps]
        sink = Rows()
        for k, s in enumerate(steps, start=1):
            fresh.apply(where.get(s.row, self.last_position), k, s.event, sink)
        if fresh.prior_digests() != self.prior_digests():
            from_deal = 1  # the priors moved: every deal's luck is written again
        self.rows_prior = None
        self.written.after_refold(fresh.written, sink, out, from_deal)
        self.deal, self.carry = fresh.deal, fresh.carry
        self.step_at = fresh.step_at
        self.luck = fresh.luck
        self._labels = None

    def order_key(self) -> OrderKey:
        """The session's place among a player's sessions (:func:`analytics.priors.order_key`)."""
        first = self.history[0] if self.history else (self.last_position, 0, None)
        return order_key(getattr(first[2], "at", None), first[0])

    def _prior_of(self, name: str) -> Mapping[str, int]:
        assert self._priors is not None
        return self._priors(self.session, self.order_key(), name)

    def prior_digests(self) -> dict[str, str]:
        """The digest of each player's prior (:func:`analytics.priors.digest`) that the rows
        written took, by the name's normal form: :attr:`rows_prior`, else the tracker's."""
        out = {normal(name): digest(c) for name, c in self.luck.taken().items()}
        if self.rows_prior is not None:  # a player first seated since: the tracker's
            out.update(self.rows_prior)
        return out

    def relucked(self, out: Rows) -> None:
        """Every deal's rows written again with the luck terms of the priors as they are now
        (a player's earlier session changed: :mod:`analytics.priors`); nothing else changes."""
        if not self._deferred and self.history:
            self._refold(out, from_deal=1)

    def _stored(self, seq: int) -> int:
        """The stored seq of the event applied as ``seq``: in a refold the steps in force are
        applied numbered 1, 2, ... (:meth:`_refold`), each keeping its stored seq."""
        return self._seq_of[seq - 1] if self._seq_of is not None else seq

    def _note_decision(
        self, position: int, seq: int, event: ev.AnyEvent, before: State, after: State
    ) -> None:
        match event:
            case (
                ev.Looked()
                | ev.Bet()
                | ev.Saw()
                | ev.Folded()
                | ev.Conceded()
                | ev.Retained()
                | ev.Kept()
                | ev.Thrown()
            ):
                if self.deal is not None:
                    self._decision(position, seq, event, before, after)

    def _decision(
        self, position: int, seq: int, event: DecisionEvent, before: State, after: State
    ) -> None:
        """Notes a decision of the deal in progress, its context from ``before`` (the row is
        written when the deal ends, :meth:`analytics.veil.Written.emit`)."""
        assert self.deal is not None and self.step_at is not None
        action = DECISION_ACTIONS[event.type]
        name = event.player
        i = before.seat(name)
        p = before.players[i]
        hand: str | None = None
        match event:
            case ev.Looked() | ev.Retained():
                hand = event.hand  # one of two: RULES 6.4, 6.7
            case ev.Kept() | ev.Thrown():
                hand = p.looking  # RULES 6.4: the hand just looked at
        held: Hand | None = p.hands[0] if len(p.hands) == 1 else None
        if hand is not None:
            held = next((h for h in p.hands if h.origin == hand), None)
        row = (
            self.session,
            self.step_at[0],
            self._stored(seq),
            self.step_at[1],
            position,
            name,
            action,
            before.table,
            before.cards_mode,
            *context_values(before, i),
            hand,
            after.level if action == "bet" else None,
            after.paid_t[i] - before.paid_t[i],
            self._key(name),
        )  # in the order of DECISION_COLUMNS
        codes = held.cards if held is not None else None
        self.deal.decisions.append(PendingDecision(row, i, codes, len(p.hands) == 1))

    def _key(self, name: str) -> str:
        """The player's :func:`events.text.normal` form (kept: a session seats few names)."""
        key = self._keys.get(name)
        if key is None:
            key = self._keys[name] = normal(name)
        return key

    def _action(self, event: ev.Bet | ev.Folded | ev.Saw, before: State, after: State) -> None:
        d = self.deal
        assert d is not None
        i = before.seat(event.player)
        players = before.players
        p = players[i]
        if d.first_blind[i] is None:
            d.first_blind[i] = not p.seen
        d.actions[i] += 1
        if can_see(before, i):  # RULES 5.7: the option to see
            d.see_chances[i] += 1
        match event:
            case ev.Bet():
                d.bets[i] += 1
                if not p.seen:
                    d.blind_bets[i] += 1
                if before.level is not None and (after.level or 0) > before.level:
                    d.raises[i] += 1
            case ev.Saw():
                d.saw[i] = True
            case ev.Folded():
                pass
            case _:
                assert_never(event)

    def _settle_carry(self, *, retained: bool, out: Rows) -> None:
        assert self.carry is not None
        outcome, state, deal, position = self.carry
        self.carry = None
        self.written.emit(outcome, state, deal, position, retained=retained, out=out)

    # --- rows ----------------------------------------------------------------------------------

    def _event_row(
        self,
        position: int,
        seq: int,
        event: ev.AnyEvent,
        before: State,
        after: State,
        out: Rows,
    ) -> None:
        kind = event.type
        amount: int | None = None
        level: int | None = None
        hand: str | None = None
        match event:
            case ev.Bet() | ev.Saw():
                i = after.seat(event.player)
                amount = after.paid_t[i] - before.paid_t[i]
                if isinstance(event, ev.Bet):
                    level = after.level
            case ev.PotWon() | ev.PotCarried():
                amount = int(event.amount * after.scale)
            case ev.Looked() | ev.Retained():
                hand = event.hand
        out.event_rows.append(
            (
                position,
                self.session,
                seq,
                kind,
                kind in ev.DERIVED_TYPES,
                after.deals,
                getattr(event, "player", None),
                level,
                amount,
                after.scale,
                hand,
                event.seq if isinstance(event, ev.Voided) else None,
            )
        )

    @property
    def emitted(self) -> int:
        """The number of deals whose rows have been written (deals ``1 .. emitted``)."""
        return self.written.emitted

    # --- the session's standing ----------------------------------------------------------------

    def session_row(self) -> SessionRow:
        """The session as the engine sees it now (one row of ``sessions``)."""
        at = self.history[0][2].at if self.history else None
        return session_row(self.session, self.state, at, self.emitted, self.last_seq,
                           self.last_position)  # fmt: skip

    def player_rows(self) -> list[PlayerRow]:
        """Each seat's standing now (``session_players``): the engine's nets (RULES 1.5)."""
        return player_rows(self.session, self.state)


def _corrected_deal(t: Timeline) -> int:
    """The earliest deal the correction at the end of ``t``'s log (its ``amended`` events)
    names: the rows of that deal and later ones are written again."""
    deals: list[int] = []
    for r in reversed(list(t.log)):
        if r.event.type != "amended":
            if deals:
                break
            continue
        deals += [s.label.deal for s in (*r.withdrew, *((r.put,) if r.put else ()))]
        deals.append(r.label.deal)
    return min(deals, default=t.state.deals)
