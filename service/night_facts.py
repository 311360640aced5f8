"""A club night's facts written (issue 36 items 1, 4 and 5): check-in, seats, the night's
stake, finalising and reopening, a player's flag on a deal and its resolution. Each is one row
of :mod:`store.night`, written inside the store's write transaction (the night's facts read
again there, so two devices cannot both finalise or resolve one flag twice); never an event.

Every refusal is a :class:`service.night.NightRefused`, one line naming what and why; nothing
is stored then. Names go through the club's register (:mod:`log.register`), as the standings.

- :func:`check_in`: a player present (or gone); refused on a final night;
- :func:`seat_table`: a table's players; refused on a final night;
- :func:`set_stake`: the club's money per stake unit (exact, > 0) and the house limit on it;
  refused on a final night, or above the limit;
- :func:`finalise`: the director's word; refused while a session of the night is in progress
  (RULES 1.4: its pot belongs to no one yet) or a flag is open, or when final already;
- :func:`reopen`: the final fact no longer holds (the night is provisional again);
- :func:`flag`: a player flags a deal (a step of it) of a session of the night, with a reason;
- :func:`dismiss` / :func:`mark_corrected`: the director resolves an open flag, with a reason;
  marking it corrected needs a correction of that deal in the session's timeline
  (:mod:`log.amend`: ``brag amend``).
"""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from events.text import inert
from log.night_facts import NightFacts, facts_of, night_facts
from log.register import register_of
from service.night import NightRefused, night_of
from store.night import Kind, NightFact

if TYPE_CHECKING:
    from collections.abc import Callable

    from log.service import EventStore

__all__ = [
    "check_in",
    "dismiss",
    "finalise",
    "flag",
    "mark_corrected",
    "reopen",
    "seat_table",
    "seat_tables",
    "set_stake",
]

MAX_REASON = 500
"""The longest reason kept with a flag or its resolution (characters)."""


def _write(
    store: EventStore,
    day: date,
    club: str,
    kind: Kind,
    subject: str,
    value: dict[str, Any],
    *,
    by: str,
    undoes: int | None = None,
    check: Callable[[NightFacts], None] = lambda facts: None,
) -> NightFact:
    """One fact, written after ``check`` passed on the night's facts read in the transaction."""
    with store.recorder.transaction() as tx:
        book = tx.night()
        check(night_facts(book.facts(day.isoformat(), club)))
        text = json.dumps(value, ensure_ascii=False, sort_keys=True)
        fact = book.add(day.isoformat(), club, kind, subject, text, undoes, datetime.now(UTC), by)
    return fact


def _provisional(day: date, what: str) -> Callable[[NightFacts], None]:
    def check(facts: NightFacts) -> None:
        if facts.state == "final":
            raise NightRefused(
                f"the night of {day.isoformat()} is final: reopen it to change {what}"
            )

    return check


def _name(name: str) -> str:
    name = name.strip()
    if not name or len(name) > 64 or inert(name) != name:
        raise NightRefused(
            f"{inert(name)!r}: a player's name is 1 to 64 printable characters (FORMAT.md)"
        )
    return name


def _reason(reason: str) -> str:
    reason = reason.strip()
    if not reason or len(reason) > MAX_REASON or inert(reason) != reason:
        raise NightRefused(f"give a reason: 1 to {MAX_REASON} printable characters, one line")
    return reason


def check_in(
    store: EventStore, day: date, name: str, *, present: bool = True, by: str = "", club: str = ""
) -> NightFact | None:
    """Records ``name`` (through the register: the name it goes by now) present at the night
    of ``day`` (or gone, ``present=False``); ``None`` when it says so already (a second tap
    stores nothing). :class:`NightRefused` for a name that is no player's name, or on a final
    night."""
    who = register_of(store).resolve(_name(name))
    kind: Kind = "present" if present else "absent"
    done: list[bool] = []

    def check(facts: NightFacts) -> None:
        _provisional(day, "its check-in")(facts)
        here = any(p.casefold() == who.casefold() for p in facts.present)
        done.append(here == present)

    with store.recorder.transaction() as tx:
        book = tx.night()
        check(night_facts(book.facts(day.isoformat(), club)))
        if done[-1]:
            return None
        now = datetime.now(UTC)
        return book.add(day.isoformat(), club, kind, who, "{}", None, now, by or who)


def _seat_value(table: str, players: list[str], resolve: Callable[[str], str]) -> dict[str, Any]:
    """The fact's value for ``table`` seating ``players``, or :class:`NightRefused` (RULES 1.3)."""
    table = table.strip()
    if not table or len(table) > 64 or inert(table) != table:
        raise NightRefused(f"{inert(table)!r}: a table's name is 1 to 64 printable characters")
    seated = [resolve(_name(p)) for p in players]
    if len({p.casefold() for p in seated}) != len(seated):
        raise NightRefused(f"table {table}: a player is seated twice (RULES 1.3)")
    if not 2 <= len(seated) <= 10:
        raise NightRefused(
            f"table {table}: {len(seated)} player{'s' * (len(seated) != 1)}; a table seats 2 "
            "to 10 (RULES 1.3)"
        )
    return {"table": table, "players": seated}


def seat_table(
    store: EventStore, day: date, table: str, players: list[str], *, by: str, club: str = ""
) -> NightFact:
    """Records ``table`` seating ``players`` (names through the register; RULES 1.3: two to
    ten players, no name twice) at the night of ``day``; a player seated at another table
    before leaves it. :class:`NightRefused` on a final night or for a table the rules refuse."""
    (fact,) = seat_tables(store, day, [(table, players)], by=by, club=club)
    return fact


def seat_tables(
    store: EventStore,
    day: date,
    tables: list[tuple[str, list[str]]],
    *,
    by: str,
    club: str = "",
) -> list[NightFact]:
    """Records every ``(table, players)`` of ``tables`` at the night of ``day`` in ONE write
    (the organiser's "Make tables"): all of them or, on a refusal, none (each table checked as
    :func:`seat_table` checks it, and no player at two of them: RULES 1.3).
    :class:`NightRefused` on a final night or for a table the rules refuse."""
    resolve = register_of(store).resolve
    values = [_seat_value(t, ps, resolve) for t, ps in tables]
    names = [v["table"] for v in values]
    if len(set(names)) != len(names):
        raise NightRefused("two tables of one name: each table is seated once")
    everyone = [p.casefold() for v in values for p in v["players"]]
    if len(set(everyone)) != len(everyone):
        raise NightRefused("a player is seated at two tables (RULES 1.3)")
    check = _provisional(day, "a seat")
    with store.recorder.transaction() as tx:
        book = tx.night()
        check(night_facts(book.facts(day.isoformat(), club)))
        now = datetime.now(UTC)
        return [
            book.add(
                day.isoformat(),
                club,
                "seat",
                v["table"],
                json.dumps(v, ensure_ascii=False, sort_keys=True),
                None,
                now,
                by,
            )
            for v in values
        ]


def set_stake(
    store: EventStore,
    day: date,
    stake: Fraction,
    limit: Fraction | None = None,
    *,
    by: str = "",
    club: str = "",
) -> NightFact:
    """Records the club's money per stake unit at the night of ``day`` (exact, > 0) and the
    house ``limit`` on it (``None``: none). Refused (:class:`NightRefused`) for a stake of 0 or
    less, a stake above the limit, or on a final night (its settlement is published)."""
    if stake <= 0 or (limit is not None and limit <= 0):
        raise NightRefused("the stake and the house limit are amounts of money above 0")
    if limit is not None and stake > limit:
        raise NightRefused(f"the stake {stake} a unit is above the house limit {limit}")
    value = {"stake": str(stake), "limit": None if limit is None else str(limit)}
    return _write(store, day, club, "stake", "", value, by=by, check=_provisional(day, "its stake"))


def finalise(store: EventStore, day: date, *, by: str, club: str = "") -> NightFact:
    """The director finalises the night of ``day``: its standings are those of the events up to
    the log's last position now (kept in the fact). Refused (:class:`NightRefused`, one line)
    when no session started that day, while a session of it is in progress (RULES 1.4), while a
    flag is open, or when it is final already and nothing was corrected since (a final night
    corrected since is finalised again at the log's position now)."""
    at = store.last_position()
    night = night_of(store, day, club)
    going = [s.session for s in night.sessions if not s.finished]
    if going:
        raise NightRefused(
            f"session {going[0]!r} is in progress (RULES 1.4): a night is finalised once "
            "every session of it is over"
        )

    # a final night corrected since (night.corrections) is finalised again: the new final fact
    # takes the standings at the log's position now
    again = night.facts.final_fact if night.corrections else None

    def check(facts: NightFacts) -> None:
        if facts.state == "final" and (again is None or facts.final_fact != again):
            raise NightRefused(
                f"the night of {day.isoformat()} is final already (fact {facts.final_fact}, "
                f"by {facts.finalised_by}), and nothing was corrected since"
            )
        if facts.open_flags:
            f = facts.open_flags[0]
            raise NightRefused(
                f"flag {f.position} on session {f.session!r} deal {f.deal} is open: correct the "
                "deal (brag amend) and mark it corrected, or dismiss it, first"
            )

    return _write(store, day, club, "final", "", {"position": at}, by=by, check=check)


def reopen(
    store: EventStore, day: date, *, by: str, reason: str = "reopened", club: str = ""
) -> NightFact:
    """The final fact of the night of ``day`` no longer holds: provisional again (the final
    fact's position in ``undoes``). :class:`NightRefused` when the night is not final."""
    why = _reason(reason)
    undone: list[int] = []

    def check(facts: NightFacts) -> None:
        if facts.state != "final" or facts.final_fact is None:
            raise NightRefused(f"the night of {day.isoformat()} is not final: nothing to reopen")
        undone.append(facts.final_fact)

    with store.recorder.transaction() as tx:
        book = tx.night()
        check(night_facts(book.facts(day.isoformat(), club)))
        value = json.dumps({"reason": why}, ensure_ascii=False)
        now = datetime.now(UTC)
        return book.add(day.isoformat(), club, "reopen", "", value, undone[0], now, by)


def flag(
    store: EventStore,
    day: date,
    session: str,
    deal: int,
    step: str | None,
    reason: str,
    *,
    by: str,
    club: str = "",
) -> NightFact:
    """A player (``by``) flags ``deal`` (and ``step``, a label such as ``"7a"``) of ``session``
    at the night of ``day``, for ``reason``. Refused (:class:`NightRefused`) for a session not
    of that night, a deal it has not dealt, a step the deal does not have, or no reason. A final
    night may be flagged too (the director corrects it, and the night says so)."""
    why = _reason(reason)
    night = night_of(store, day, club)
    s = next((x for x in night.sessions if x.session == session), None)
    if s is None:
        raise NightRefused(f"session {session!r} is not of the night of {day.isoformat()}")
    timeline = store.timeline(session)
    if not 1 <= deal <= timeline.state.deals:
        raise NightRefused(
            f"session {session!r} has no deal {deal} (deals 1 to {timeline.state.deals})"
        )
    if step is not None and timeline.find(deal, step) is None:
        raise NightRefused(f"deal {deal} of session {session!r} has no step {inert(step)!r}")
    value = {"deal": deal, "step": step, "reason": why, "seen": store.last_position()}
    return _write(store, day, club, "flag", session, value, by=_name(by))


def _resolve(
    store: EventStore,
    day: date,
    position: int,
    reason: str,
    kind: Kind,
    *,
    by: str,
    club: str,
) -> NightFact:
    why = _reason(reason)

    def check(facts: NightFacts) -> None:
        f = facts.flag(position)
        if f is None:
            raise NightRefused(f"no flag {position} at the night of {day.isoformat()}")
        if f.status != "open":
            raise NightRefused(
                f"flag {position} is {f.status} already ({f.resolution}, by {f.resolved_by})"
            )

    value = {"reason": why}
    return _write(store, day, club, kind, str(position), value, by=by, undoes=position, check=check)


def dismiss(
    store: EventStore, day: date, position: int, reason: str, *, by: str, club: str = ""
) -> NightFact:
    """The director dismisses the open flag at ``position`` (the deal stands), for ``reason``.
    :class:`NightRefused` for no such flag, one resolved already, or no reason."""
    return _resolve(store, day, position, reason, "dismiss", by=by, club=club)


def mark_corrected(
    store: EventStore, day: date, position: int, reason: str, *, by: str, club: str = ""
) -> NightFact:
    """The director marks the open flag at ``position`` corrected, for ``reason``: the flagged
    deal has a correction recorded since the flag was raised (an ``amended`` or ``voided`` of a
    step of that deal stored after the flag's ``seen`` position, :mod:`log.amend`).
    :class:`NightRefused` otherwise, or as :func:`dismiss`."""
    f = facts_of(store, day, club).flag(position)
    if f is not None and f.status == "open":  # else refused below, in the transaction
        where = {r.seq: r.position for r in store.read(f.session)}
        log = store.timeline(f.session).log
        if not any(
            r.correction and r.label.deal == f.deal and where.get(r.seq, 0) > f.seen for r in log
        ):
            raise NightRefused(
                f"deal {f.deal} of session {f.session!r} has no correction since flag "
                f"{position}: correct it first (brag amend), or dismiss the flag"
            )
    return _resolve(store, day, position, reason, "corrected", by=by, club=club)
