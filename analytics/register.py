"""The statistics follow the club's register (issue 35 item 2, :mod:`log.register`): each
recorded name is keyed by the name it goes by now, so a merge moves its deals under the merged
name and an undo moves them back; the lake, Spark and every statistic read those keys.

One place applies it: :func:`rekey`, run by the projector in the transaction that writes a
batch (the sessions it touched) and, when the store's register has moved since the projection
last followed it (``meta`` key :data:`REGISTER_KEY`), over every session. The rows keep the
names as recorded (``player``); only ``player_key`` moves, in the four tables that have one
(``player_deals``, ``decisions``, ``player_session_summary``, ``session_players``), and the
``register_names`` table gives each key the register's name (``player_names`` prefers it).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

import duckdb

from analytics.summaries import mark_stale
from events.text import normal
from log.register import Register

__all__ = ["KEYED", "REGISTER_KEY", "follow", "recorded_version", "register_of_source", "rekey"]

REGISTER_KEY = "register_version"
"""``meta`` key: the register's version (:attr:`log.register.Register.version`) the keys follow."""

KEYED = ("player_deals", "decisions", "player_session_summary", "session_players")
"""The projection's tables with a ``player_key`` (and the recorded ``player``)."""


def register_of_source(source: Any) -> Register:
    """The register of the store ``source`` reads (an empty one for a source without one: the
    test and benchmark stand-ins, :mod:`analytics.sources`)."""
    inner = getattr(source, "recorder", source)
    facts = getattr(inner, "register_facts", None)
    return Register(tuple(facts())) if callable(facts) else Register()


def recorded_version(con: duckdb.DuckDBPyConnection) -> int:
    """The register's version the projection ``con`` follows (0: none recorded)."""
    try:
        got = con.execute("SELECT value FROM meta WHERE key = $k", {"k": REGISTER_KEY}).fetchall()
    except duckdb.CatalogException:
        return 0
    return int(got[0][0]) if got else 0


def follow(con: duckdb.DuckDBPyConnection, source: Any, *, begun: bool) -> Register:
    """The store's register, every session re-keyed by it first when the projection follows
    another version: inside the caller's transaction (``begun``), or in one of its own."""
    reg = register_of_source(source)
    if recorded_version(con) == reg.version:
        return reg
    if begun:
        rekey(con, reg)
        return reg
    con.begin()
    try:
        rekey(con, reg)
        con.commit()
    except BaseException:
        con.rollback()
        raise
    return reg


def rekey(
    con: duckdb.DuckDBPyConnection, reg: Register, sessions: Iterable[str] | None = None
) -> int:
    """Keys the rows of ``sessions`` (``None``: every session) by ``reg``: each recorded name by
    the name its session's seats go by (:meth:`log.register.Register.seats`); the register's
    names and version recorded. Returns how many (session, player) pairs changed key."""
    only = None if sessions is None else sorted(set(sessions))
    if only is not None and not reg.facts:
        return 0  # nothing to follow: the fold's keys (the recorded names' normal form) hold
    where, params = ("WHERE session IN (SELECT unnest($s::VARCHAR[]))", {"s": only}) if only \
        else ("", {})  # fmt: skip
    rows = con.execute(
        f"SELECT session, player, player_key FROM session_players {where}", params
    ).fetchall()
    seats: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for session, player, key in rows:
        seats[session].append((player, key))
    moved = []
    for session, found in seats.items():
        now = reg.seats([p for p, _ in found])
        moved += [(session, p, normal(now[p])) for p, k in found if normal(now[p]) != k]
    if moved:
        con.execute("CREATE TEMP TABLE IF NOT EXISTS brag_rekey "
                    "(session VARCHAR, player VARCHAR, k VARCHAR)")  # fmt: skip
        con.execute("DELETE FROM brag_rekey")
        con.executemany("INSERT INTO brag_rekey VALUES (?, ?, ?)", moved)
        for table in KEYED:
            con.execute(
                f"UPDATE {table} t SET player_key = r.k FROM brag_rekey r "
                "WHERE t.session = r.session AND t.player = r.player"
            )
    if only is None:
        _names(con, reg)
        if moved:  # every summary made again at the refresh's end (analytics/summaries)
            mark_stale(con)
    return len(moved)


def _names(con: duckdb.DuckDBPyConnection, reg: Register) -> None:
    """The register's names (each merge's or rename's name now) and its version, recorded."""
    names = {normal(reg.resolve(f.target)): reg.resolve(f.target) for f in reg.in_force()}
    con.execute("DELETE FROM register_names")
    if names:
        con.executemany("INSERT INTO register_names VALUES (?, ?)", sorted(names.items()))
    con.execute(
        "INSERT OR REPLACE INTO meta VALUES ($k, $v)", {"k": REGISTER_KEY, "v": str(reg.version)}
    )
