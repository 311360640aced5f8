"""A replay as the page and the terminal both show it, computed from the engine's states: pure
functions, no Streamlit, no terminal.

The replayer walks a session's stream (:func:`corrected` or as recorded), cut into deals
(:func:`deal_slices`); a position is ``(deal, step)`` with ``step`` 1-based inside the deal
(:class:`Position`, :func:`clamp`: :mod:`present.positions`). At each step :func:`table_view` says
what the table looks like to a viewer: everyone (every card the log knows) or one player (RULES
3.5, 5.1: their own cards once they have looked, and the cards shown at a showdown)
(:mod:`present.table`). :func:`sentence` says the step in words.

:func:`status` words a player's standing for both; :func:`step_table` is the table of steps
``brag replay`` prints; the lists beside the table are :mod:`present.rows`'. Every name of
``__all__`` is importable from here.

Deal 0 holds what happens before the first deal (session start, the lot for the dealer, the first
shuffle); deal ``d`` starts with its ``dealt`` event and runs to the next one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from engine.state import Outcome, Phase, State
from events.model import (
    AnyEvent,
    PotCarried,
    PotWon,
    SessionStarted,
    Shuffled,
    is_derived,
)
from log.steps import corrected, deal_slices
from present.narrate import StepLabel, sentence
from present.numbers import amount, count_of
from present.positions import Position, clamp, link_number, move, opened, step_index
from present.rows import EventRow, deal_rows, event_rows, leaderboard, net_history
from present.sight import DealSight, sight_for
from present.steps import in_force_labels, recorded_view
from present.table import (
    EVERYONE,
    FROM_NOTE,
    SPECTATOR,
    HandView,
    Noted,
    SeatView,
    Sight,
    TableView,
    in_play,
    seat_text,
    status,
    table_view,
)
from timeline import DealSlice, Timeline, slices_of

__all__ = [
    "EVERYONE",
    "FROM_NOTE",
    "SPECTATOR",
    "DealSight",
    "DealSlice",
    "HandView",
    "Noted",
    "Position",
    "Replay",
    "SeatView",
    "Sight",
    "StepRow",
    "StepTable",
    "TableView",
    "clamp",
    "corrected",
    "deal_rows",
    "deal_slices",
    "event_rows",
    "in_play",
    "leaderboard",
    "move",
    "net_history",
    "seat_text",
    "status",
    "step_table",
    "table_view",
]

# --- a whole session, ready to step through -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Replay:
    """A session's stream replayed once: ``events[k]`` is followed by ``states[k]``.

    ``recorded`` is the log as recorded (corrections and what they withdrew included, each event
    with the corrected end state as it stood then); otherwise the steps in force of its
    :class:`~timeline.Timeline` (``voided`` and ``amended`` applied). Build with :meth:`of` or
    :meth:`from_timeline`; the states are the engine's, the labels the timeline's."""

    session: str
    events: tuple[AnyEvent, ...]
    states: tuple[State, ...]
    slices: tuple[DealSlice, ...]
    recorded: bool
    corrections: int
    labels: tuple[StepLabel, ...] = ()
    timeline: Timeline | None = None
    """The timeline it was built from (a correction names its steps)."""

    @classmethod
    def of(
        cls,
        events: Sequence[AnyEvent],
        *,
        recorded: bool = False,
        states: Sequence[State] | None = None,
    ) -> Replay:
        """The replay of a complete stored stream (folded once into its
        :class:`~timeline.Timeline`). ``states`` is not needed (kept for old callers): the
        timeline holds them; a store's reader passes its timeline to :meth:`from_timeline`."""
        return cls.from_timeline(Timeline.of(events), recorded=recorded)

    @classmethod
    def from_timeline(cls, t: Timeline, *, recorded: bool = False) -> Replay:
        """The replay of a session's timeline (:meth:`log.service.EventStore.timeline`): the
        steps in force, or with ``recorded`` the log as recorded. No fold."""
        if recorded:
            events, states, labels = recorded_view(t)
        else:
            events = [s.event for s in t.steps]
            states = [s.after for s in t.steps]
            labels = in_force_labels(t)
        fixes = sum(1 for r in t.log if r.correction)
        return cls(
            t.session,
            tuple(events),
            tuple(states),
            tuple(slices_of(_contiguous([lab.deal for lab in labels], recorded))),
            recorded,
            fixes,
            tuple(labels),
            t,
        )

    @property
    def seats(self) -> tuple[str, ...]:
        return self.states[-1].seats if self.states else ()

    @property
    def final(self) -> State:
        return self.states[-1] if self.states else State()

    def slice(self, deal: int) -> DealSlice:
        return next(s for s in self.slices if s.deal == deal)

    def position(self, deal: Any, step: Any) -> Position:
        """The position of a link's ``(deal, step)``: ``step`` is the step number every replay
        shows (``7``, ``"7a"``: :class:`timeline.Label`), resolved to the event in force with that
        number (a withdrawn event or a correction only when no event in force has it); junk,
        ``None`` or a step out of range lands on a real step as :func:`clamp` says."""
        pos = clamp(self.slices, deal, step)
        if not self.labels:
            return pos
        k = step_index(self.slices, self.labels, pos.deal, step)
        return pos if k is None else clamp(self.slices, pos.deal, k)

    def opened(self, deal: Any, step: Any) -> tuple[Position, str]:
        """Where a link's ``(deal, step)`` opens and the line that says what it lacks
        (:func:`present.positions.opened`: a deal or step the session does not have opens its
        start, never its end)."""
        return opened(self.slices, self.labels, deal, step, finished=self.final.finished)

    def at_seq(self, seq: Any) -> Position | None:
        """The position of the event with envelope ``seq`` (the numbering ``brag replay`` printed
        before steps; old notes and links may carry it), or ``None``."""
        n = link_number(seq)
        if n is None:
            return None
        for k, e in enumerate(self.events):
            if (e.seq if e.seq is not None else k + 1) == n:
                sl = next(s for s in self.slices if s.start <= k < s.stop)
                return clamp(self.slices, sl.deal, k - sl.start + 1)
        return None

    def label(self, pos: Position) -> StepLabel:
        """The step number and sentence at ``pos``."""
        return self.labels[pos.index]

    def last_position(self) -> Position:
        """The latest step of the session."""
        sl = self.slices[-1]
        return clamp(self.slices, sl.deal, sl.steps)

    def move(self, pos: Position, how: str) -> Position:
        return move(self.slices, pos, how)

    def before(self, index: int) -> State:
        return self.states[index - 1] if index > 0 else State()

    def sentence(self, index: int) -> str:
        return sentence(self.before(index), self.events[index], self.states[index])

    @property
    def live_deal(self) -> int | None:
        """The session's latest deal while it is still in play (the betting or the showdown),
        else ``None``."""
        s = self.final
        return s.deals if s.phase in (Phase.BETTING, Phase.SHOWDOWN) and s.deals else None

    def sight(self, deal: int, viewer: str | None = None, *, organiser: bool = False) -> Sight:
        """What a device may see of ``deal`` when it asks for ``viewer``: the one rule,
        :func:`present.sight.sight_for` (its ``sight``); a channel draws from
        :meth:`deal_sight`, never from the replay's states."""
        return sight_for(self, deal, viewer, organiser=organiser).sight

    def deal_sight(
        self, deal: int, viewer: str | None = None, *, organiser: bool = False
    ) -> DealSight:
        """Deal ``deal`` as a device may receive it (:func:`present.sight.sight_for`)."""
        return sight_for(self, deal, viewer, organiser=organiser)

    def same_pack(self, deal: int, later: int) -> bool:
        """Whether ``deal`` was dealt from the pack ``later`` is dealt from: no shuffle between
        them (RULES 3.2). The cards of a finished deal then go under that pack in an order the
        log tells (3.3), so with every card recorded they tell the cards of a later deal once
        the pack has gone round: while ``later`` is in play they are no more to be seen than
        its own."""
        if not 0 < deal < later:
            return False
        a, b = self.slice(deal).start, self.slice(later).start
        return not any(isinstance(e, Shuffled) for e in self.events[a:b])

    def view(
        self, pos: Position, viewer: str | None = None, *, organiser: bool = False
    ) -> TableView:
        """The table at ``pos`` as ``viewer`` knows it (``None`` or :data:`EVERYONE`: everyone),
        as far as the device may see it (:meth:`sight`; ``organiser``: its unlocked device)."""
        return sight_for(self, pos.deal, viewer, organiser=organiser).view(pos.index)

    def pot_change(self, pos: Position) -> Fraction:
        return self.states[pos.index].pot - self.before(pos.index).pot

    def rows(self, pos: Position) -> list[EventRow]:
        return event_rows(self.events, self.states, self.slice(pos.deal), pos.index)

    def deal_label(self, deal: int, *, spoilers: bool = True) -> str:
        """``"Deal 3: Bob deals, Ann wins 12 at the showdown"`` for a deal picker; without
        ``spoilers``, only who deals (``"Deal 3: Bob deals"``)."""
        if deal == 0:
            return "Before the first deal"
        sl = self.slice(deal)
        s = self.states[sl.start]
        o = next((o for o in self.final.outcomes if o.deal == deal), None)
        head = f"Deal {deal}: {s.dealer_name} deals"
        if not spoilers:
            return head
        if o is None:
            return head + ", in progress"
        if o.result == "carried":
            return head + f", pot of {amount(o.amount)} carried ({o.blind} blind)"
        how = "at the showdown" if o.showdown else "uncontested"
        return head + f", {o.winner} wins {amount(o.amount)} {how}"

    def deal_rows(self) -> list[dict[str, Any]]:
        return deal_rows(self.states, self.slices)

    def leaderboard(self) -> list[dict[str, Any]]:
        return leaderboard(self.final)

    def net_history(self) -> dict[str, list[Any]]:
        return net_history(self.states, self.slices)


# --- the replay as a table of steps (brag replay) -------------------------------------------------


@dataclass(frozen=True, slots=True)
class StepRow:
    """One step of the replay table: its ``deal``, ``step`` label (``"14"``, ``"↺14"``) and
    sentence, the ``pot`` on the table, the ``level`` and whose ``turn`` (in a deal only), and
    each seat's :func:`seat_text` (``""`` before the player is dealt in); ``derived`` marks an
    event the engine added, ``withdrawn`` a step a later correction took out of force (it keeps
    its place and number)."""

    deal: int
    step: str
    text: str
    pot: str
    level: str
    turn: str
    seats: tuple[str, ...]
    derived: bool
    withdrawn: bool = False


@dataclass(frozen=True, slots=True)
class StepTable:
    """A session (or one deal of it) step by step: ``title``, the ``seats`` (a column each),
    the ``rows`` and the closing ``summary`` line; ``deal`` is the deal asked for, if any."""

    title: str
    seats: tuple[str, ...]
    rows: tuple[StepRow, ...]
    summary: str
    deal: int | None = None


def step_table(rp: Replay, deal: int | None = None) -> StepTable:
    """The table ``brag replay`` prints of ``rp`` (a replay as recorded, corrections included),
    one row a step, and the line that closes it: how the deal asked for ended, the session's
    winners, or where it stands (a deal it does not have: no rows)."""
    last = rp.final
    first = rp.events[0]
    assert isinstance(first, SessionStarted)
    title = rp.session + (f" at {first.table}" if first.table else "")
    title += f", deal {deal} of {last.deals}" if deal else f", {count_of(last.deals, 'deal')}"
    ended: str | None = None  # how the deal asked for ended: its pot_won / pot_carried sentence
    ended_by: PotWon | PotCarried | None = None  # the event of that sentence
    rows: list[StepRow] = []
    for k, (ev, st) in enumerate(zip(rp.events, rp.states, strict=True)):
        lab = rp.labels[k]
        if deal is not None and lab.deal != deal:
            continue
        if isinstance(ev, (PotWon, PotCarried)) and not lab.withdrawn:
            ended, ended_by = sentence(rp.before(k), ev, st), ev
        rows.append(_row(lab, ev, st, first.seats))
    summary = _summary(rp, deal, ended, ended_by)
    return StepTable(title, tuple(first.seats), tuple(rows), summary, deal)


def _row(lab: StepLabel, ev: AnyEvent, st: State, seats: Sequence[str]) -> StepRow:
    """One step's row of :func:`step_table`: its label, sentence, pot, level, turn and seats."""
    in_deal = st.phase in (Phase.BETTING, Phase.SHOWDOWN)
    by_name = {p.name: p for p in st.players}
    return StepRow(
        deal=lab.deal,
        step=lab.label,
        text=lab.text,
        pot=amount(st.pot_on_table),
        level=str(st.level) if st.level is not None and in_deal else "",
        turn=(st.turn_name or "") if in_deal else "",
        seats=tuple(seat_text(by_name[n], st) if n in by_name else "" for n in seats),
        derived=is_derived(ev),
        withdrawn=lab.withdrawn,
    )


def _says(ev: PotWon | PotCarried | None, o: Outcome) -> bool:
    """Whether the recorded outcome event ``ev`` is the deal's outcome in force ``o``."""
    if isinstance(ev, PotWon):
        return o.result == "won" and ev.player == o.winner and ev.amount == o.amount
    return isinstance(ev, PotCarried) and o.result == "carried" and ev.amount == o.amount


def _summary(
    rp: Replay, deal: int | None, ended: str | None, ended_by: PotWon | PotCarried | None
) -> str:
    last = rp.final
    if deal is not None:
        # How the deal ended is the final state's say (RULES 1.4): a correction may have
        # withdrawn a pot_won shown above, or made a deal won by a fold a carried pot without a
        # new event recorded; the last pot_won / pot_carried line is used only where it agrees.
        o = next((o for o in reversed(last.outcomes) if o.deal == deal), None)
        if o is None:
            return f"deal {deal} is in progress: pot on the table {amount(last.pot)}"
        if ended and _says(ended_by, o):
            return f"deal {deal}: {ended}"
        if o.result == "won":
            return f"deal {deal}: {o.winner} wins the pot of {amount(o.amount)} (as corrected)"
        return f"deal {deal}: the pot of {amount(o.amount)} is carried (as corrected)"
    if last.finished:
        return f"the session is over; its winner(s) (RULES 1.5): {', '.join(last.winners)}"
    at = rp.labels[-1]
    return (
        f"after step {at.step} of deal {at.deal}: {last.resolved} of "
        f"{count_of(last.rules.pots, 'pot')} resolved; pot on the table {amount(last.pot)}"
    )


def _contiguous(deals: list[int], recorded: bool) -> list[int]:
    """The deal each event is shown under: its label's deal; in the log as recorded the highest
    deal so far, so each deal is one run of events even where an Undo took a deal back and
    later steps of the deal before it were recorded again (their labels keep their own deal)."""
    if not recorded:
        return deals
    out, top = [], 0
    for d in deals:
        top = max(top, d)
        out.append(top)
    return out
