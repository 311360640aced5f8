"""The rows the fold writes: the projection's columns and the buffer that holds them.

:class:`Rows` keeps a batch's rows until :mod:`analytics.projector` flushes them (event and
decision rows as tuples, deal rows as columns of Python lists), with the deletions a ``voided``
asks for. The column tuples name every table's columns in the order of the rows, as
:mod:`analytics.columns` declares them (with ``DECISION_ACTIONS``, the recorded events that are a
player's decisions). :class:`SessionRow` and :class:`PlayerRow` are the rows of ``sessions``
and ``session_players`` (:meth:`analytics.facts.SessionFolder.session_row`, ``player_rows``), typed
for mypy: ``tests/analytics/test_columns.py`` holds them to the declared columns.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any, TypedDict

from analytics.columns import (
    DEALS,
    DECISION_AFTER,
    DECISION_BEFORE,
    DECISIONS,
    EVENTS,
    PLAYER_DEALS,
    SHOWN_HAND,
)
from analytics.ddl import names
from events.text import normal

if TYPE_CHECKING:
    from engine.state import State

__all__ = [
    "DEAL_COLUMNS",
    "DECISION_COLUMNS",
    "DECISION_CONTEXT",
    "DECISION_FOLLOWED",
    "EVENT_COLUMNS",
    "HAND_COLUMNS",
    "PLAYER_DEAL_COLUMNS",
    "PlayerRow",
    "Rows",
    "SessionRow",
    "player_rows",
    "session_row",
]


EVENT_COLUMNS = EVENTS.names
DEAL_COLUMNS = DEALS.names
PLAYER_DEAL_COLUMNS = PLAYER_DEALS.names
DECISION_COLUMNS = DECISIONS.names
HAND_COLUMNS = names(SHOWN_HAND)
"""The shown hand of a player-deal row (all ``None`` when no three cards were shown)."""
DECISION_CONTEXT = names(DECISION_BEFORE)
"""The columns :func:`analytics.context.decision_context` reads from the state before a decision."""
DECISION_FOLLOWED = names(DECISION_AFTER)
"""The columns known when the decision's deal ends (:func:`analytics.deals.write_deal`)."""


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
        self.retract_after(session, deal)

    def retract_after(self, session: str, deal: int) -> None:
        """The stored rows of ``session`` for deals after ``deal`` no longer hold (the buffered
        rows are left: the caller knows none of them is such a row)."""
        prior = self.retract.get(session)
        self.retract[session] = deal if prior is None else min(prior, deal)

    def extend(self, other: Rows) -> None:
        """``other``'s deal, player and decision rows appended to these."""
        for mine, theirs in ((self.deals, other.deals), (self.player_deals, other.player_deals)):
            for col, values in theirs.items():
                mine[col] += values
        self.decision_rows += other.decision_rows

    def take_after(self, other: Rows, session: str, deal: int) -> None:
        """``other``'s rows of ``session`` for deals after ``deal`` (a correction's re-fold),
        added to these."""
        for mine, theirs in ((self.deals, other.deals), (self.player_deals, other.player_deals)):
            for k, (s, d) in enumerate(zip(theirs["session"], theirs["deal"], strict=True)):
                if s == session and d > deal:
                    for col, values in theirs.items():
                        mine[col].append(values[k])
        self.decision_rows += [r for r in other.decision_rows if r[0] == session and r[1] > deal]


def _by_column(names: tuple[str, ...], rows: list[tuple[Any, ...]]) -> dict[str, list[Any]]:
    if not rows:
        return {c: [] for c in names}
    return {c: list(v) for c, v in zip(names, zip(*rows, strict=True), strict=True)}


class SessionRow(TypedDict):
    """One row of ``sessions``: the session as the engine sees it now."""

    session: str
    table_name: str | None
    cards: str
    players: int
    den: int
    ante_t: int
    pots_rule: int
    blind_play: bool
    open_min: int
    open_max: int
    raise_max: int
    phase: str
    deals: int
    deals_projected: int
    resolved: int
    carried: int
    finished: bool
    pot_t: int
    last_seq: int
    last_position: int
    started: str | None
    month: str | None
    table_key: str | None


class PlayerRow(TypedDict):
    """One row of ``session_players``: a seat's standing now (money in ticks of ``den``)."""

    session: str
    seat: int
    player: str
    den: int
    paid_t: int
    won_t: int
    net_t: int
    winner: bool | None
    winners: int | None
    player_key: str


def session_row(
    session: str,
    s: State,
    at: datetime | None,
    emitted: int,
    last_seq: int,
    last_position: int,
) -> SessionRow:
    """The session as the engine's state ``s`` has it (one row of ``sessions``); ``at`` the
    ``session_started`` time, ``emitted`` the deals whose rows are written."""
    return {
        "session": session,
        "table_name": s.table,
        "cards": s.cards_mode,
        "players": len(s.seats),
        "den": s.scale,
        "ante_t": int(s.rules.ante * s.scale),
        "pots_rule": s.rules.pots,
        "blind_play": s.rules.blind_play,
        "open_min": s.rules.open_min,
        "open_max": s.rules.open_max,
        "raise_max": s.rules.raise_max,
        "phase": s.phase.value,
        "deals": s.deals,
        "deals_projected": emitted,
        "resolved": s.resolved,
        "carried": s.carried,
        "finished": s.finished,
        "pot_t": s.pot_t,
        "last_seq": last_seq,
        "last_position": last_position,
        "started": at.isoformat() if at is not None else None,
        "month": at.strftime("%Y-%m") if at is not None else None,
        "table_key": normal(s.table) if s.table is not None else None,
    }


def player_rows(session: str, s: State) -> list[PlayerRow]:
    """Each seat's standing in the engine's state ``s`` (``session_players``): the engine's nets
    (RULES 1.5)."""
    winners = set(s.winners) if s.finished else set()
    return [
        {
            "session": session,
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
