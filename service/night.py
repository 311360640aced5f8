"""A club night (issue 36, first slice): the sessions of one date, each player's net over them,
and who pays whom.

A *night* is every session whose recorded start (``session_started``'s ``at``, in its own offset;
else when it was stored) falls on one calendar date. FORMAT.md records no club, so a night is
not yet narrowed to one club. Nets come from the engine's fold of each session (RULES 1.5: won
minus paid, exact); a session still in progress may have a pot on the table (a pot being played
for, or one carried forward, RULES 6.1), which belongs to no one yet: the night reports it as
``pot`` beside the standings, and ``sum(nets) + pot == 0`` (RULES 1.5). A finished session has
none (RULES 1.4: it ends when a pot is resolved).

The night's facts beside the log (:mod:`store.night`, folded by :mod:`log.night_facts`) say who
checked in, the night's stake and whether the director finalised it: the night is ``final``
from a ``final`` fact not undone by a later ``reopen`` (:mod:`service.night_facts` writes them,
refusing to finalise while a session is in progress or a flag is open), else ``provisional``.
The ``final`` fact keeps the log's last event position then; a session of the night whose
events go on past it (a correction of the timeline, :mod:`log.amend`, or anything recorded
later) is listed in :attr:`Night.corrections` with the change in each player's net: the night
stays final and says it was corrected.

The pure parts (:func:`standings_of`, :func:`transfers_of`) take plain values; :func:`night_of`
reads them from a store (:class:`log.service.EventStore`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal

from events.amounts import amount_text
from log.night_facts import NightFacts, facts_of
from log.register import register_of
from store.records import SessionFilter

if TYPE_CHECKING:
    from log.service import EventStore

__all__ = [
    "Change",
    "Correction",
    "Night",
    "NightRefused",
    "SessionNets",
    "Standing",
    "Transfer",
    "corrections_of",
    "night_of",
    "settle",
    "standings_of",
    "transfers_of",
]


class NightRefused(ValueError):
    """A night that cannot be given or settled; ``str()`` is one line naming why."""


@dataclass(frozen=True, slots=True)
class SessionNets:
    """One session of a night: its id, table, whether it is over (RULES 1.4), each seated
    player's net in stake units (RULES 1.5, the engine's fold) and the pot still on the table
    (stake units; 0 once over)."""

    session: str
    table: str | None
    finished: bool
    nets: Mapping[str, Fraction]
    pot: Fraction


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's night: ``net`` (stake units, exact) summed over ``sessions`` sessions played
    at ``tables`` (the tables' names as recorded, sorted; a session without a table adds none)."""

    player: str
    net: Fraction
    sessions: int
    tables: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Transfer:
    """``payer`` pays ``payee`` ``amount`` (exact, > 0), in the settlement's unit."""

    payer: str
    payee: str
    amount: Fraction


@dataclass(frozen=True, slots=True)
class Change:
    """A player's net in one session (stake units, exact) at the night's final position
    (``before``) and now (``after``)."""

    player: str
    before: Fraction
    after: Fraction


@dataclass(frozen=True, slots=True)
class Correction:
    """A session of a final night changed since it was finalised: ``steps`` the corrections
    recorded since (``"deal 2 step 7 (replace)"``: the step each corrects, and how; empty when
    the events are no correction, e.g. a session recorded after), ``changes`` the players whose
    net moved (before, after), ``flags`` the positions of its flags marked corrected since."""

    session: str
    table: str | None
    steps: tuple[str, ...]
    changes: tuple[Change, ...]
    flags: tuple[int, ...] = ()

    def text(self) -> str:
        """One line: ``corrected after final: session S deal 2 step 7 (replace): Ann -3 -> 2``."""
        what = ", ".join(self.steps) or "events recorded after"
        moved = ", ".join(
            f"{c.player} {amount_text(c.before)} -> {amount_text(c.after)}" for c in self.changes
        )
        return f"corrected after final: session {self.session} {what}: " + (
            moved or "no net changed"
        )


@dataclass(frozen=True, slots=True)
class Night:
    """The night of ``day``: its sessions (oldest first), the standings (by net, highest first,
    ties by name), ``pot`` (stake units left on the tables of sessions in progress) and
    ``state`` (final once the director finalised it and while every session is over: a
    correction since that puts a pot back on a table makes it provisional again, until it is
    finalised again); its ``facts`` folded (:class:`log.night_facts.NightFacts`: check-in,
    stake, flags) and, once final, the sessions ``corrections`` changed since."""

    day: date
    sessions: tuple[SessionNets, ...]
    standings: tuple[Standing, ...]
    pot: Fraction
    state: Literal["provisional", "final"]
    facts: NightFacts = field(default_factory=NightFacts)
    corrections: tuple[Correction, ...] = ()
    club: str = ""


def _order(name: str) -> tuple[str, str]:
    return (name.casefold(), name)


def standings_of(
    sessions: Iterable[SessionNets], resolve: Callable[[str], str] = lambda n: n
) -> tuple[Standing, ...]:
    """Each player's net over ``sessions``: the sum of their nets (RULES 1.5), a name recorded
    under an old or merged spelling counted as the player it goes by now (``resolve``, e.g.
    :meth:`log.register.Register.resolve`). Ordered by net, highest first, ties by name
    (case-insensitive). Exact: Fractions in, Fractions out."""
    net: dict[str, Fraction] = {}
    count: dict[str, set[str]] = {}
    tables: dict[str, set[str]] = {}
    for s in sessions:
        for recorded, amount in s.nets.items():
            p = resolve(recorded)
            net[p] = net.get(p, Fraction(0)) + amount
            count.setdefault(p, set()).add(s.session)
            if s.table is not None:
                tables.setdefault(p, set()).add(s.table)
            else:
                tables.setdefault(p, set())
    rows = [Standing(p, net[p], len(count[p]), tuple(sorted(tables[p], key=_order))) for p in net]
    return tuple(sorted(rows, key=lambda r: (-r.net, *_order(r.player))))


def transfers_of(nets: Mapping[str, Fraction]) -> tuple[Transfer, ...]:
    """Who pays whom to settle ``nets`` (player -> net; a negative net pays): greedy, the largest
    debtor pays the largest creditor the smaller of the two amounts, until all are square (ties
    by name, so the answer is the same every time). Each transfer squares at least one of the
    two, and the last squares both, so ``n`` players with a non-zero net need at most ``n - 1``
    transfers; money in equals money out exactly (Fractions).

    Raises :class:`NightRefused` when the nets do not sum to 0 (RULES 1.5)."""
    total = sum(nets.values(), Fraction(0))
    if total != 0:
        raise NightRefused(f"the nets do not balance (they sum to {total}, RULES 1.5)")
    owe = {p: -v for p, v in nets.items() if v < 0}
    due = {p: v for p, v in nets.items() if v > 0}
    out: list[Transfer] = []
    while owe and due:
        payer = min(owe, key=lambda p: (-owe[p], *_order(p)))
        payee = min(due, key=lambda p: (-due[p], *_order(p)))
        amount = min(owe[payer], due[payee])
        out.append(Transfer(payer, payee, amount))
        for side, p in ((owe, payer), (due, payee)):
            side[p] -= amount
            if side[p] == 0:
                del side[p]
    return tuple(out)


def settle(night: Night, stake: Fraction | None = None) -> tuple[Transfer, ...]:
    """The night's transfers (:func:`transfers_of` over its standings), in stake units, or in the
    club's money at ``stake`` per unit (exact, > 0). Refuses (:class:`NightRefused`, one line
    naming the session) while a pot is on a table: that money belongs to no one yet (RULES 6.1,
    1.4)."""
    for s in night.sessions:
        if s.pot != 0:
            raise NightRefused(
                f"session {s.session!r} has a pot of {s.pot} on the table (in progress, "
                "RULES 1.4): the nets do not balance until it is won"
            )
    scale = Fraction(1) if stake is None else stake
    return transfers_of({r.player: r.net * scale for r in night.standings})


def night_of(store: EventStore, day: date, club: str = "") -> Night:
    """The night of ``day`` in ``store``: its sessions folded by the engine (each one's
    ``State.nets`` and ``State.pot``), its standings through the club's register of names, the
    facts of ``club``'s night (``''``: none named) and, when final, what changed since.
    Raises :class:`NightRefused` when no session started that day."""
    infos = store.sessions(order="oldest", where=SessionFilter(dates=(day, day)))
    if not infos:
        raise NightRefused(f"no session started on {day.isoformat()} (see brag sessions)")
    sessions = []
    for info in infos:
        state = store.state(info.session)
        sessions.append(
            SessionNets(info.session, state.table, state.finished, state.nets, state.pot)
        )
    resolve = register_of(store).resolve
    standings = standings_of(sessions, resolve)
    pot = sum((s.pot for s in sessions), Fraction(0))
    facts = facts_of(store, day, club)
    fixes: tuple[Correction, ...] = ()
    if facts.state == "final" and facts.final_at is not None:
        fixes = corrections_of(store, sessions, facts, resolve)
    # a correction since the night was finalised may put a pot back on a table (a deal won
    # becomes carried): the night is then not final until that session is over again (RULES
    # 1.4) and the director finalises it again (service.night_facts.finalise)
    going = any(not s.finished for s in sessions)
    now: Literal["provisional", "final"] = "provisional" if going else facts.state
    return Night(day, tuple(sessions), standings, pot, now, facts, fixes, club)


def _steps(records: Iterable[Any]) -> tuple[str, ...]:
    """Each correction among ``records`` (:class:`timeline.Record`, in log order) named by the
    step it corrects and how: consecutive corrections are one (the organiser's first, then the
    repairs it needed, :mod:`log.amend`), ``"deal 2 step 5 (withdraw, 3 repairs)"``."""
    runs: list[list[Any]] = []
    last = -1
    for r in records:
        if r.correction:
            if runs and r.seq == last + 1:
                runs[-1].append(r)
            else:
                runs.append([r])
            last = r.seq
    out = []
    for run in runs:
        first = run[0]
        how = str(getattr(first.event, "action", "void"))
        more = len(run) - 1
        extra = f", {more} repair{'s' * (more != 1)}" if more else ""
        out.append(f"deal {first.label.deal} step {first.label.text} ({how}{extra})")
    return tuple(out)


def corrections_of(
    store: EventStore,
    sessions: Iterable[SessionNets],
    facts: NightFacts,
    resolve: Callable[[str], str] = lambda n: n,
) -> tuple[Correction, ...]:
    """The sessions changed since the night was finalised: each one's events up to the final
    fact's log position (``facts.final_at``) folded again by the engine and compared with its
    state now (RULES 1.5), the corrections recorded since named by the step each corrects
    (:class:`timeline.Record`'s label). Names through ``resolve``, as the standings."""
    at = facts.final_at or 0
    out = []
    for s in sessions:
        rows = store.read(s.session)
        kept = sum(1 for r in rows if r.position <= at)
        if kept == len(rows):
            continue
        then = store.timeline(s.session, kept).state.nets if kept else {}
        steps = _steps(list(store.timeline(s.session).log)[kept:])
        players = sorted({*then, *s.nets}, key=_order)
        changes = tuple(
            Change(resolve(p), then.get(p, Fraction(0)), s.nets.get(p, Fraction(0)))
            for p in players
            if then.get(p, Fraction(0)) != s.nets.get(p, Fraction(0))
        )
        flags = tuple(f.position for f in facts.corrected_after_final if f.session == s.session)
        out.append(Correction(s.session, s.table, steps, changes, flags))
    return tuple(out)
