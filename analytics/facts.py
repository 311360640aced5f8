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
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from analytics.errors import ProjectionError
from analytics.luck import LuckTracker
from analytics.strength import hand_strength
from engine.apply import apply
from engine.hands import category_of_strength, strength_codes
from engine.legal import Option, options
from engine.rules.betting import can_see
from engine.state import Hand, Outcome, Phase, State, card_codes, card_texts, initial_state
from events.model import (
    DERIVED_TYPES,
    AnyEvent,
    Bet,
    Folded,
    Saw,
    Voided,
    is_derived,
)
from events.text import normal
from present.narrate import step_in_deal

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


_ACTIONS = frozenset({"bet", "folded", "saw"})
_IN_DEAL = frozenset({Phase.BETTING, Phase.SHOWDOWN})


EVENT_COLUMNS = (
    "position",
    "session",
    "seq",
    "type",
    "derived",
    "deal",
    "player",
    "level",
    "amount_t",
    "den",
    "hand",
    "voids_seq",
)
DEAL_COLUMNS = (
    "session",
    "deal",
    "dealer",
    "dealer_seat",
    "players",
    "den",
    "pot_t",
    "carried_in_t",
    "result",
    "winner",
    "showdown",
    "payer",
    "seen_player",
    "winning_category",
    "winning_strength",
    "winning_cards",
    "carried_by",
    "retained",
    "actions",
    "bets",
    "raises",
    "final_level",
    "events",
    "end_position",
)
HAND_COLUMNS = (
    "hand_cards",
    "hand_category",
    "hand_strength",
    "hand_beats",
    "hand_wins",
    "hand_ties",
    "hand_losses",
)
"""The shown hand of a player-deal row (all ``None`` when no three cards were shown)."""

PLAYER_DEAL_COLUMNS = (
    "session",
    "deal",
    "seat",
    "player",
    "is_dealer",
    "den",
    "two_hands",
    "first_action",
    "looked_turn",
    "bets",
    "blind_bets",
    "raises",
    "actions",
    "see_chances",
    "saw",
    "role",
    "paid_t",
    "won_t",
    "net_t",
    "luck_t",
    "adjusted_net_t",
    "won",
    "left_how",
    *HAND_COLUMNS,
    "player_key",
)

DECISION_ACTIONS: dict[str, str] = {
    "looked": "look",
    "bet": "bet",
    "saw": "see",
    "folded": "fold",
    "conceded": "concede",
    "retained": "retain",
    "kept": "keep",
    "thrown": "throw",
}
"""FORMAT.md recorded event type -> the ``decisions.action`` it is (every other event is the
table's, the engine's or a correction, not a player's choice)."""

DECISION_CONTEXT = (
    "seat",
    "phase",
    "players_in",
    "blind_in",
    "seen_in",
    "actor_seen",
    "opponents_blind",
    "opponents_seen",
    "two_hands",
    "level",
    "den",
    "pot_t",
    "see_cost_t",
    "options",
)
"""The columns :func:`decision_context` reads from the state before a decision."""

DECISION_FOLLOWED = ("hand_category", "net_t", "won")
"""The columns known when the decision's deal ends (:meth:`SessionFolder._emit_decisions`)."""

DECISION_COLUMNS = (
    "session",
    "deal",
    "seq",
    "step",
    "position",
    "player",
    "action",
    "table_name",
    "cards_mode",
    *DECISION_CONTEXT,
    "hand",
    "bet_level",
    "cost_t",
    "player_key",
    *DECISION_FOLLOWED,
)


class Rows:
    """Rows waiting to be written, column by column, plus the deletions a void asks for."""

    def __init__(self) -> None:
        self.event_rows: list[tuple[Any, ...]] = []
        self.deals: dict[str, list[Any]] = {c: [] for c in DEAL_COLUMNS}
        self.player_deals: dict[str, list[Any]] = {c: [] for c in PLAYER_DEAL_COLUMNS}
        self.decision_rows: list[tuple[Any, ...]] = []
        self.retract: dict[str, int] = {}
        """session -> the number of deals whose rows still hold; rows of later deals go."""

    def __len__(self) -> int:
        return len(self.event_rows)

    @property
    def events(self) -> dict[str, list[Any]]:
        """The event rows column by column."""
        return _by_column(EVENT_COLUMNS, self.event_rows)

    @property
    def decisions(self) -> dict[str, list[Any]]:
        """The decision rows column by column."""
        return _by_column(DECISION_COLUMNS, self.decision_rows)

    def drop_after(self, session: str, deal: int) -> None:
        """Rows of ``session`` for deals after ``deal`` no longer hold (buffered ones go now)."""
        for table in (self.deals, self.player_deals):
            keep = [
                k
                for k, (s, d) in enumerate(zip(table["session"], table["deal"], strict=True))
                if s != session or d <= deal
            ]
            if len(keep) != len(table["session"]):
                for col, values in table.items():
                    table[col] = [values[k] for k in keep]
        self.decision_rows = [
            r for r in self.decision_rows if r[0] != session or r[1] <= deal
        ]  # session, deal lead every decision row
        prior = self.retract.get(session)
        self.retract[session] = deal if prior is None else min(prior, deal)


def _by_column(names: tuple[str, ...], rows: list[tuple[Any, ...]]) -> dict[str, list[Any]]:
    if not rows:
        return {c: [] for c in names}
    return {c: list(v) for c, v in zip(names, zip(*rows, strict=True), strict=True)}


@dataclass(slots=True)
class _Decision:
    """A decision waiting for its deal's end: its row but for what followed, and the hand it was
    made with (card codes where the log knew them then; ``one_hand``: the player held one hand,
    so cards shown at the showdown are that hand)."""

    row: tuple[Any, ...]
    """The row's columns but :data:`DECISION_FOLLOWED`."""
    seat: int
    codes: tuple[int, ...] | None
    one_hand: bool


@dataclass(slots=True)
class _Deal:
    """What the engine does not keep about the deal in progress, seat by seat."""

    first_blind: list[bool | None]
    looked_turn: list[int | None]
    bets: list[int]
    blind_bets: list[int]
    raises: list[int]
    actions: list[int]
    see_chances: list[int]
    saw: list[bool]
    two_hands: list[bool]
    carried_in_t: int
    events: int = 0
    decisions: list[_Decision] = field(default_factory=list)
    luck_t: tuple[int, ...] | None = None
    """Each seat's luck term in ticks (analytics.luck), ``None`` where it is not defined."""

    @classmethod
    def start(cls, state: State, carried_in_t: int) -> _Deal:
        n = len(state.seats)
        return cls(
            first_blind=[None] * n,
            looked_turn=[0 if p.seen else None for p in state.players],
            bets=[0] * n,
            blind_bets=[0] * n,
            raises=[0] * n,
            actions=[0] * n,
            see_chances=[0] * n,
            saw=[False] * n,
            two_hands=[p.two_hands for p in state.players],
            carried_in_t=carried_in_t,
        )


class SessionFolder:
    """Folds one session's events into rows (see the module doc).

    ``emitted`` is the number of deals whose rows have been written (deals end in order, so they
    are deals 1..emitted); ``last_position``/``last_seq`` the last event applied."""

    def __init__(self, session: str) -> None:
        self.session = session
        self.state: State = initial_state()
        self.deal: _Deal | None = None
        self.carry: tuple[Outcome, State, _Deal, int] | None = None
        self.emitted = 0
        self.last_position = 0
        self.last_seq = 0
        self.history: list[tuple[int, int, AnyEvent]] = []
        self.step_at: tuple[int, int] | None = None
        """``(deal, step)`` of the last event in force, numbered as every replay numbers it
        (:func:`present.narrate.step_in_deal`)."""
        self._seq_of: list[int] | None = None
        """For a re-fold of the events in force: the stored seq of each (1-based) event."""
        self._keys: dict[str, str] = {}
        self.luck = LuckTracker()

    # --- the fold ------------------------------------------------------------------------------

    @classmethod
    def from_events(
        cls, session: str, events: Iterable[tuple[int, int, AnyEvent]]
    ) -> SessionFolder:
        """A folder that has applied ``(position, seq, event)`` already (their rows discarded)."""
        folder = cls(session)
        sink = Rows()
        for position, seq, event in events:
            folder.apply(position, seq, event, sink)
        return folder

    def apply(self, position: int, seq: int, event: AnyEvent, out: Rows) -> None:
        """Applies one event of the session, writing its rows into ``out``."""
        if seq != self.last_seq + 1:
            raise ProjectionError(
                f"session {self.session}: event seq {seq} at position {position} does not follow "
                f"seq {self.last_seq}"
            )
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
        kind = event.type
        self._event_row(position, seq, kind, event, before, after, out)
        self.state = after
        if kind == "voided":
            self._refold(out)
            return
        number = max(self.step_at[0] if self.step_at else 0, after.deals)
        self.step_at = (number, step_in_deal(self.step_at, number))
        action = DECISION_ACTIONS.get(kind)
        if action is not None and self.deal is not None:
            self._decision(position, seq, action, event, before, after)
        deal = self.deal
        if deal is not None and before.phase in _IN_DEAL:
            deal.events += 1  # events from ``dealt`` to the one that ends the deal
        if kind in _ACTIONS:
            self._action(event, kind, before, after)  # type: ignore[arg-type]
        elif kind == "dealt":
            if self.carry is not None:
                self._settle_carry(retained=False, out=out)
            # RULES 6.3: the pot on the table before the antes is the carried one (0 after a
            # pot was won), whether the blind survivor retained (phase BETWEEN) or not (CARRIED).
            carried_in = before.pot_t
            self.deal = _Deal.start(after, carried_in)
            self.deal.events = 1
            self.deal.luck_t = self.luck.dealt(after)
            return
        elif kind == "shuffled":
            self.luck.shuffled()
            return
        elif kind == "looked" or kind == "kept":
            i = after.index[event.player]  # type: ignore[index,union-attr]
            if after.players[i].seen and not before.players[i].seen and deal is not None:
                deal.looked_turn[i] = deal.actions[i]
            return
        elif kind == "retained":
            if self.carry is not None:
                self._settle_carry(retained=True, out=out)
            return
        elif kind != "shown" and kind != "conceded":
            return  # derived events, shuffles, the dealer, thrown: no deal ends here
        if len(after.outcomes) > len(before.outcomes):
            outcome = after.outcomes[-1]
            assert deal is not None
            if outcome.result == "won":
                self._emit(outcome, after, deal, position, retained=None, out=out)
            else:
                self.carry = (outcome, after, deal, position)

    def _refold(self, out: Rows) -> None:
        """After a void: fold the log as corrected (withdrawn events and their conclusions left
        out) from the start; rows of deals that no longer ended go. The engine's own state
        (which has seen the void) is kept: its ``seq`` counts every event, voids included."""
        in_force: list[tuple[int, int, AnyEvent]] = []
        for item in self.history:
            if isinstance(item[2], Voided):
                while in_force and is_derived(in_force[-1][2]):
                    in_force.pop()
                in_force.pop()  # the latest recorded event in force (FORMAT.md ``voided``)
            else:
                in_force.append(item)
        fresh = SessionFolder(self.session)
        fresh._seq_of = [seq for _, seq, _ in in_force]  # the decisions keep their stored seq
        sink = Rows()
        for k, (pos, _, e) in enumerate(in_force, start=1):
            fresh.apply(pos, k, e, sink)
        if fresh.emitted < self.emitted:
            out.drop_after(self.session, fresh.emitted)
        self.deal, self.carry, self.emitted = fresh.deal, fresh.carry, fresh.emitted
        self.step_at = fresh.step_at
        self.luck = fresh.luck

    def _decision(
        self, position: int, seq: int, action: str, event: AnyEvent, before: State, after: State
    ) -> None:
        """Notes a decision of the deal in progress, its context from ``before`` (the row is
        written when the deal ends, :meth:`_emit`)."""
        assert self.deal is not None and self.step_at is not None
        name: str = event.player  # type: ignore[union-attr]
        i = before.index[name]  # type: ignore[index]
        p = before.players[i]
        hand: str | None = None
        if action == "look" or action == "retain":
            hand = event.hand  # type: ignore[union-attr]  # one of two: RULES 6.4, 6.7
        elif action == "keep" or action == "throw":
            hand = p.looking  # RULES 6.4: the hand just looked at
        held: Hand | None = p.hands[0] if len(p.hands) == 1 else None
        if hand is not None:
            held = next((h for h in p.hands if h.origin == hand), None)
        row = (
            self.session,
            self.step_at[0],
            self._seq_of[seq - 1] if self._seq_of is not None else seq,
            self.step_at[1],
            position,
            name,
            action,
            before.table,
            before.cards_mode,
            *_context(before, i),
            hand,
            after.level if action == "bet" else None,
            after.paid_t[i] - before.paid_t[i],
            self._key(name),
        )  # in the order of DECISION_COLUMNS
        codes = held.cards if held is not None else None
        self.deal.decisions.append(_Decision(row, i, codes, len(p.hands) == 1))

    def _key(self, name: str) -> str:
        """The player's :func:`events.text.normal` form (kept: a session seats few names)."""
        key = self._keys.get(name)
        if key is None:
            key = self._keys[name] = normal(name)
        return key

    def _action(self, event: Bet | Folded | Saw, kind: str, before: State, after: State) -> None:
        d = self.deal
        assert d is not None
        i = before.index[event.player]  # type: ignore[index]
        players = before.players
        p = players[i]
        if d.first_blind[i] is None:
            d.first_blind[i] = not p.seen
        d.actions[i] += 1
        if can_see(before, i):  # RULES 5.7: the option to see
            d.see_chances[i] += 1
        if kind == "bet":
            d.bets[i] += 1
            if not p.seen:
                d.blind_bets[i] += 1
            if before.level is not None and (after.level or 0) > before.level:
                d.raises[i] += 1
        elif kind == "saw":
            d.saw[i] = True

    def _settle_carry(self, *, retained: bool, out: Rows) -> None:
        assert self.carry is not None
        outcome, state, deal, position = self.carry
        self.carry = None
        self._emit(outcome, state, deal, position, retained=retained, out=out)

    # --- rows ----------------------------------------------------------------------------------

    def _event_row(
        self,
        position: int,
        seq: int,
        kind: str,
        event: AnyEvent,
        before: State,
        after: State,
        out: Rows,
    ) -> None:
        player = getattr(event, "player", None)
        amount: int | None = None
        level: int | None = None
        hand: str | None = None
        if kind == "bet" or kind == "saw":
            i = after.index[player]  # type: ignore[index]
            amount = after.paid_t[i] - before.paid_t[i]
            if kind == "bet":
                level = after.level
        elif kind == "pot_won" or kind == "pot_carried":
            amount = int(event.amount * after.scale)  # type: ignore[union-attr]
        elif kind == "looked" or kind == "retained":
            hand = event.hand  # type: ignore[union-attr]
        out.event_rows.append(
            (
                position,
                self.session,
                seq,
                kind,
                kind in DERIVED_TYPES,
                after.deals,
                player,
                level,
                amount,
                after.scale,
                hand,
                event.seq if kind == "voided" else None,
            )
        )

    def _emit(
        self,
        outcome: Outcome,
        state: State,
        deal: _Deal,
        position: int,
        *,
        retained: bool | None,
        out: Rows,
    ) -> None:
        """The rows of one ended deal: ``state`` is the engine's state as the deal ended."""
        self.emitted = outcome.deal
        scale = state.scale
        pot_t = int(outcome.amount * scale)
        dealer = state.dealer or 0
        win_cards = outcome.cards
        win_strength = strength_codes(*card_codes(win_cards)) if win_cards else None
        d = out.deals
        d["session"].append(self.session)
        d["deal"].append(outcome.deal)
        d["dealer"].append(outcome.dealer)
        d["dealer_seat"].append(dealer)
        d["players"].append(len(state.seats))
        d["den"].append(scale)
        d["pot_t"].append(pot_t)
        d["carried_in_t"].append(deal.carried_in_t)
        d["result"].append(outcome.result)
        d["winner"].append(outcome.winner)
        d["showdown"].append(outcome.showdown)
        d["payer"].append(outcome.payer)
        d["seen_player"].append(outcome.seen_player)
        d["winning_category"].append(outcome.hand)
        d["winning_strength"].append(win_strength)
        d["winning_cards"].append(" ".join(win_cards) if win_cards else None)
        d["carried_by"].append(outcome.blind)
        d["retained"].append(retained)
        d["actions"].append(state.actions)
        d["bets"].append(sum(deal.bets))
        d["raises"].append(sum(deal.raises))
        d["final_level"].append(state.level)
        d["events"].append(deal.events)
        d["end_position"].append(position)
        pd = out.player_deals
        for i, p in enumerate(state.players):
            name = p.name
            won_t = pot_t if outcome.winner == name else 0
            if outcome.result == "carried" and outcome.blind == name:
                left = "retained" if retained else "carried"
            elif p.folded:
                left = "folded"
            elif outcome.showdown:
                left = "paid_to_see" if outcome.payer == name else "was_seen"
            else:
                left = "won_uncontested"
            role = (
                "payer"
                if outcome.showdown and outcome.payer == name
                else "seen"
                if outcome.showdown and outcome.seen_player == name
                else None
            )
            fb = deal.first_blind[i]
            pd["session"].append(self.session)
            pd["deal"].append(outcome.deal)
            pd["seat"].append(i)
            pd["player"].append(name)
            pd["player_key"].append(normal(name))
            pd["is_dealer"].append(i == dealer)
            pd["den"].append(scale)
            pd["two_hands"].append(deal.two_hands[i])
            pd["first_action"].append(None if fb is None else "blind" if fb else "seen")
            pd["looked_turn"].append(deal.looked_turn[i])
            pd["bets"].append(deal.bets[i])
            pd["blind_bets"].append(deal.blind_bets[i])
            pd["raises"].append(deal.raises[i])
            pd["actions"].append(deal.actions[i])
            pd["see_chances"].append(deal.see_chances[i])
            pd["saw"].append(deal.saw[i])
            pd["role"].append(role)
            pd["paid_t"].append(p.paid)
            pd["won_t"].append(won_t)
            pd["net_t"].append(won_t - p.paid)
            luck = None if deal.luck_t is None else deal.luck_t[i]
            pd["luck_t"].append(luck)
            pd["adjusted_net_t"].append(None if luck is None else won_t - p.paid - luck)
            pd["won"].append(outcome.winner == name)
            pd["left_how"].append(left)
            if len(p.shown) == 3:
                hs = hand_strength(*p.shown)
                pd["hand_cards"].append(" ".join(card_texts(p.shown)))
                pd["hand_category"].append(hs.category)
                pd["hand_strength"].append(hs.strength)
                pd["hand_beats"].append(hs.beats)
                pd["hand_wins"].append(hs.wins)
                pd["hand_ties"].append(hs.ties)
                pd["hand_losses"].append(hs.losses)
            else:
                for col in HAND_COLUMNS:
                    pd[col].append(None)
        self._emit_decisions(outcome, state, deal, pot_t, retained, out)

    def _emit_decisions(
        self,
        outcome: Outcome,
        state: State,
        deal: _Deal,
        pot_t: int,
        retained: bool | None,
        out: Rows,
    ) -> None:
        """The ``decisions`` rows of an ended deal, with what followed: the player's net in the
        deal and whether they won it, and the category of the hand decided with where the log
        knows it (dealt cards, ``cards: "all"``; else the hand shown at the showdown, RULES 3.5),
        but for a retained hand, still in play (RULES 6.2; :func:`present.replay.in_play`)."""
        rows = out.decision_rows
        winner = outcome.winner
        categories: dict[tuple[int, ...], str] = {}
        for dec in deal.decisions:
            p = state.players[dec.seat]
            name = p.name
            codes = dec.codes
            if codes is None and dec.one_hand and len(p.shown) == 3:
                codes = p.shown
            if retained and outcome.blind == name:
                codes = None
            category = None
            if codes:
                category = categories.get(codes)
                if category is None:
                    category = category_of_strength(strength_codes(*codes)).label
                    categories[codes] = category
            won = winner == name
            rows.append((*dec.row, category, (pot_t if won else 0) - p.paid, won))

    # --- the session's standing ----------------------------------------------------------------

    def session_row(self) -> dict[str, Any]:
        """The session as the engine sees it now (one row of ``sessions``)."""
        s = self.state
        at = self.history[0][2].at if self.history else None
        return {
            "session": self.session,
            "table_name": s.table,
            "cards": s.cards_mode,
            "players": len(s.seats),
            "den": s.scale,
            "ante_t": int(s.rules.ante * s.scale),
            "pots_rule": s.rules.pots,
            "blind_play": s.rules.blind_play,
            "phase": s.phase.value,
            "deals": s.deals,
            "deals_projected": self.emitted,
            "resolved": s.resolved,
            "carried": s.carried,
            "finished": s.finished,
            "pot_t": s.pot_t,
            "last_seq": self.last_seq,
            "last_position": self.last_position,
            "started": at.isoformat() if at is not None else None,
            "month": at.strftime("%Y-%m") if at is not None else None,
            "table_key": normal(s.table) if s.table is not None else None,
        }

    def player_rows(self) -> list[dict[str, Any]]:
        """Each seat's standing now (``session_players``): the engine's nets (RULES 1.5)."""
        s = self.state
        winners = set(s.winners) if s.finished else set()
        return [
            {
                "session": self.session,
                "seat": i,
                "player": name,
                "den": s.scale,
                "paid_t": s.paid_t[i],
                "won_t": s.won_t[i],
                "net_t": s.won_t[i] - s.paid_t[i],
                "winner": (name in winners) if s.finished else None,
                "winners": len(winners) if s.finished else None,
                "player_key": normal(name),
            }
            for i, name in enumerate(s.seats)
        ]


def decision_context(state: State, seat: int) -> dict[str, Any]:
    """The context of a decision by the player at ``seat``, as the engine's ``state`` before it
    stands: the ``decisions`` columns of :data:`DECISION_CONTEXT`.

    ``players_in`` counts the players not folded (RULES 5.6), ``blind_in``/``seen_in`` those of
    them blind or seen (RULES 5.1), ``opponents_*`` the same without the player; ``level`` is
    whole stake units (``None`` before the first bet, RULES 5.5); ``pot_t`` and ``see_cost_t``
    are ticks of ``den``. The options are :func:`engine.legal.options` (the one place that says
    what may happen next and what it costs; :func:`~engine.legal.legal_actions` lists the same),
    the player's own, as :func:`options_text` writes them; ``see_cost_t`` is the cost of the see
    among them (RULES 5.7, ``None`` when seeing is not one)."""
    return dict(zip(DECISION_CONTEXT, _context(state, seat), strict=True))


def _context(state: State, seat: int) -> tuple[Any, ...]:
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
    name = actor.name
    survivor = state.phase is Phase.CARRIED and state.survivor == seat
    mine = tuple(o for o in options(state) if o.player == name or (survivor and o.player is None))
    said = _SAID.get(mine)
    if said is None:
        see = next((o.cost_t for o in mine if o.kind == "saw"), None)
        said = _SAID[mine] = (see, options_text(mine))
        if len(_SAID) > 50_000:
            _SAID.clear()
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
        *said,  # see_cost_t, options
    )


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
