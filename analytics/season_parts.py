"""The season's nights from the projection (issue 37 item 5: the Players page at league scale):
what the DuckDB projection holds of a season's sessions, so that a league's season of 100,000
sessions is summed in DuckDB, not folded again session by session (``analytics/sql/season.sql``).

The store stays the authority (:mod:`service.season`). A night is taken from the projection
whole when the projection's sessions of its date add up as the store's do (how many, the sum of
their last seqs, the highest last position: sessions only grow and keep their date, so any
event stored since moves one of the three); else the store lists the night's sessions and each
is taken when the projection folded it up to the store's last seq, the same events and so the
same engine's state (RULES 1.5 nets, the pot on its table, RULES 1.4 over or not). Every other
session is named in :attr:`Parts.unprojected`, for the caller to fold from the store.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from analytics.sqlfiles import query
from analytics.summaries import kept
from events.model import Rules

if TYPE_CHECKING:
    import duckdb

__all__ = ["NightPart", "NightSums", "Parts", "season_parts"]

_SQL = "season.sql"

NightSums = tuple[int, int, int]
"""A night's sessions as the store counts them: how many, the sum of their last seqs, the
highest last position (:meth:`store.port.Recorder.night_sums`)."""

Listing = Callable[[Sequence[date]], Sequence[tuple[str, date, int]]]
"""The store's sessions of some nights: ``(session, night's date, last seq)``."""


@dataclass(slots=True)
class NightPart:
    """What the projection holds of one night's sessions (those it folded up to the store's
    last seq): how many ``sessions``, how many of them are ``going`` (not over, RULES 1.4), the
    ``pot`` on their tables and each name's ``nets`` as written in the log (stake units, exact
    Fractions, RULES 1.5, open deals included) and the ``rules`` they were played under."""

    sessions: int = 0
    going: int = 0
    pot: Fraction = Fraction(0)
    nets: dict[str, Fraction] = field(default_factory=dict)
    rules: set[Rules] = field(default_factory=set)


@dataclass(frozen=True, slots=True)
class Parts:
    """:func:`season_parts`' answer: a :class:`NightPart` per night with a session taken, and
    per night the sessions the projection has not folded up to the store's last seq (to be
    folded from the store)."""

    nights: dict[date, NightPart]
    unprojected: dict[date, tuple[str, ...]]


def season_parts(
    con: duckdb.DuckDBPyConnection, sums: Mapping[date, NightSums], listing: Listing
) -> Parts:
    """What the projection on ``con`` holds of the nights of ``sums`` (the store's, by date):
    a night whose sums the projection's equal is taken whole (no session listed); the others'
    sessions are asked of ``listing`` and each taken when the projection folded it up to the
    store's last seq (the module's rule). A few statements however many sessions (pyarrow, as
    Streamlit has it, carries the session ids)."""
    import pyarrow  # type: ignore[import-untyped,unused-ignore]  # Streamlit's; untyped where installed

    if not sums:
        return Parts({}, {})
    summed = "_kept" if kept(con) else ""  # the nights' summaries agree with the facts
    first, last = min(sums).isoformat(), max(sums).isoformat()
    theirs = {
        d: (int(n), int(q), int(p))
        for d, n, q, p in _rows(con, f"night_sums{summed}", {"first": first, "last": last})
    }
    whole = [d.isoformat() for d in sums if theirs.get(d) == sums[d]]
    others = [d for d in sums if theirs.get(d) != sums[d]]
    nights: dict[date, NightPart] = {}
    taken = None
    if summed:
        nights = _nights(con, summed, {"days": whole})
    else:
        taken = con.sql(query(_SQL, "night_of_sessions").sql, params={"days": whole})
        taken = taken.to_arrow_table()
    unprojected: dict[date, tuple[str, ...]] = {}
    if others:
        listed = list(listing(others))
        con.register("brag_listed", _listed(pyarrow, listed))
        try:
            one_by_one = con.sql(query(_SQL, "projected_of").sql).to_arrow_table()
        finally:
            con.unregister("brag_listed")
        found = set(one_by_one.column("session").to_pylist())
        for session, day, _ in listed:
            if session not in found:
                unprojected[day] = (*unprojected.get(day, ()), session)
        taken = (
            one_by_one
            if taken is None
            else pyarrow.concat_tables([taken, one_by_one.cast(taken.schema)])
        )
    if taken is not None:
        con.register("brag_night", taken)
        try:
            nights.update(_nights(con))  # other nights than those summed
        finally:
            con.unregister("brag_night")
    return Parts(nights, unprojected)


def _listed(pa: Any, listed: Iterable[tuple[str, date, int]]) -> Any:
    rows = list(listed)
    return pa.table(
        {
            "session": pa.array([s for s, _, _ in rows], pa.string()),
            "day": pa.array([d for _, d, _ in rows], pa.date32()),
            "last_seq": pa.array([q for _, _, q in rows], pa.int32()),
        }
    )


def _rows(
    con: duckdb.DuckDBPyConnection, name: str, params: Mapping[str, Any] | None = None
) -> list[tuple[Any, ...]]:
    return con.execute(query(_SQL, name).sql, dict(params or {})).fetchall()


def _nights(
    con: duckdb.DuckDBPyConnection, summed: str = "", params: Mapping[str, Any] | None = None
) -> dict[date, NightPart]:
    """The parts of the nights of the sessions taken (``brag_night``), or (``summed``:
    ``"_kept"``) of the nights ``params["days"]`` from the nights' summaries."""
    nights: dict[date, NightPart] = {}
    for day, den, sessions, going, pot_t in _rows(con, f"night_sessions{summed}", params):
        part = nights.setdefault(day, NightPart())
        part.sessions += int(sessions)
        part.going += int(going)
        part.pot += Fraction(int(pot_t), int(den))
    for day, ante_t, den, open_min, open_max, raise_max, pots, blind in _rows(
        con, f"night_rules{summed}", params
    ):
        nights[day].rules.add(
            Rules(
                ante=Fraction(int(ante_t), int(den)),
                open_min=open_min,
                open_max=open_max,
                raise_max=raise_max,
                pots=pots,
                blind_play=blind,
            )
        )
    for day, player, den, net_t in _rows(con, f"night_nets{summed}", params):
        nets = nights[day].nets
        nets[player] = nets.get(player, Fraction(0)) + Fraction(int(net_t), int(den))
    return nights
