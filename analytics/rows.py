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

from typing import Any, TypedDict

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
