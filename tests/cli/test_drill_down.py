"""The deals behind a statistic (the Players page's drill-down, ``brag stats --deals``) read a
page's own rows only (issue 22: at 1M deals the page scanned the session of all 33.6M projected
events, 9.9 s): the events that ended its deals by position, the player's decisions, the voids.
The rows are those of the query it replaced (kept here as the reference), for every drill-down
statistic, player, table and page, on the season and on random sessions with corrections
(FORMAT.md ``voided``), where the steps are compared as every replay numbers them
(:func:`analytics.queries.renumber`)."""

from __future__ import annotations

import functools
import random
from fractions import Fraction
from pathlib import Path
from typing import Any

import duckdb
import pytest
from store_helpers import advance, choose, start

from analytics import queries
from brag.cli import main
from engine.legal import can_void
from engine.state import initial_state
from events.model import Voided
from log.open import open_store

ROOT = Path(__file__).resolve().parents[2]
SEASON = sorted(str(p) for p in (ROOT / "data" / "season").glob("*.jsonl"))

REFERENCE = """
WITH pd AS (
    SELECT p.*, d.end_position
    FROM player_deals p JOIN deals d USING (session, deal)
    WHERE p.player_key = $player_key
      AND ($session::VARCHAR IS NULL OR p.session = $session)
      AND ($table_key::VARCHAR IS NULL
           OR p.session IN (SELECT session FROM sessions WHERE table_key = $table_key))
),
picked AS (
    SELECT session, deal, end_position, ({weight})::BIGINT AS counted, ({hit})::BIGINT AS hits
    FROM pd
    WHERE ({weight})::BIGINT > 0
    ORDER BY session, deal
    LIMIT $limit OFFSET $offset
),
ev AS (
    SELECT e.session, e.deal, e.seq, e.type, e.player, e.position,
           min(e.seq) OVER (PARTITION BY e.session, e.deal) AS first_seq
    FROM events e
    WHERE e.session IN (SELECT session FROM picked WHERE counted > 0)
),
own AS (
    SELECT session, deal, {pick}(seq) AS seq
    FROM ev
    WHERE EXISTS (SELECT 1 FROM session_players sp WHERE sp.session = ev.session
                  AND sp.player = ev.player AND sp.player_key = $player_key)
      AND list_contains($types::VARCHAR[], type)
      AND {at}
      AND NOT EXISTS (SELECT 1 FROM events v WHERE v.session = ev.session
                      AND v.type = 'voided' AND v.voids_seq = ev.seq)
    GROUP BY session, deal
)
SELECT p.session, p.deal,
       coalesce(o.seq, e.seq) - f.first_seq + 1 AS step,
       coalesce(o.seq, e.seq) AS seq,
       (SELECT any_value(type) FROM ev x
        WHERE x.session = p.session AND x.seq = coalesce(o.seq, e.seq)) AS event,
       p.counted, p.hits,
       EXISTS (SELECT 1 FROM ev v WHERE v.session = p.session AND v.type = 'voided') AS corrected
FROM picked p
LEFT JOIN own o USING (session, deal)
JOIN ev e ON e.position = p.end_position
JOIN (SELECT DISTINCT session, deal, first_seq FROM ev) f
  ON f.session = p.session AND f.deal = p.deal
WHERE p.counted > 0
ORDER BY p.session, p.deal
"""
"""The drill-down's query before issue 22's last step: every event of the page's sessions read."""


def reference(
    con: duckdb.DuckDBPyConnection, player: str, statistic: str, **kw: Any
) -> list[dict[str, Any]]:
    weight, hit, types, _ = queries.DRILL[statistic]
    params = {
        "player_key": queries.key(player),
        "session": kw.get("session"),
        "table_key": queries.key(kw.get("table")),
        "types": list(types),
        "limit": kw.get("limit"),
        "offset": kw.get("offset", 0),
    }
    at, last = queries.DRILL_AT.get(statistic, (None, False))  # a decision's context
    where = "TRUE"
    if at is not None:
        where = "EXISTS (SELECT 1 FROM decisions d WHERE d.session = ev.session "
        where += f"AND d.seq = ev.seq AND d.{at})"
    sql = REFERENCE.replace("{weight}", weight).replace("{hit}", hit).replace("{at}", where)
    sql = sql.replace("{pick}", "max" if last else "min")
    cur = con.execute(sql, params)
    names = [d[0] for d in cur.description]
    rows = [dict(zip(names, r, strict=True)) for r in cur.fetchall()]
    if statistic in queries.MONEY_DRILLS:
        dens = dict(con.execute("SELECT session, den FROM sessions").fetchall())
        for r in rows:
            r["hits"] = Fraction(int(r["hits"]), int(dens[r["session"]]))
    return rows


def corrected_sessions(db: str, count: int, seed: int) -> None:
    """``count`` random sessions stored event by event, about one event in eight then voided
    (the latest recorded event in force, FORMAT.md), until the rules end them or 400 events."""
    rng = random.Random(seed)
    with open_store(db) as store:
        for k in range(count):
            name = f"fix-{k}"
            state, _ = advance(initial_state(), first := start(name, rng, pots=3))
            store.append(name, [first], 0)
            for _ in range(400):
                state = store.state(name)
                target = can_void(state)
                event = Voided(seq=target) if target and rng.random() < 0.12 else choose(state, rng)
                if event is None:
                    break
                store.append(name, [event], state.seq)


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    folder = tmp_path_factory.mktemp("drill")
    db, duck = str(folder / "club.db"), str(folder / "club.duckdb")
    assert main(["import", "--db", db, *SEASON]) == 0
    corrected_sessions(db, 12, 22)
    assert main(["analytics", "refresh", "--db", db, "--analytics", duck]) == 0
    return db, duck


def steps(rows: list[dict[str, Any]], events_of: Any) -> list[dict[str, Any]]:
    """The rows with every corrected session's steps numbered as every replay numbers them."""
    rows = [dict(r) for r in rows]
    queries.renumber(rows, events_of)
    return rows


@pytest.mark.slow  # a store of 52 sessions and ~1,000 queries of each kind: ~20 s
def test_the_page_reads_its_own_rows_and_lists_what_the_whole_scan_listed(
    club: tuple[str, str],
) -> None:
    db, duck = club
    store = open_store(db, readonly=True)
    events_of = functools.cache(store.events)
    with store, duckdb.connect(duck, read_only=True) as con:
        found = con.execute("SELECT session FROM events WHERE voids_seq > 0").fetchall()
        corrected = {r[0] for r in found}
        assert len(corrected) >= 8  # the random sessions did correct themselves
        ended = {r[0] for r in con.execute("SELECT DISTINCT session FROM deals").fetchall()}
        assert len(corrected & ended) >= 8
        compared = fixed = 0
        everyone = [r["player"] for r in queries.player_stats(con)]
        assert len(everyone) == 16  # the season's 9, the random sessions' 7
        cases: list[tuple[str | None, str, dict[str, Any]]] = [(None, p, {}) for p in everyone]
        for table in (None, "Top table"):  # a few players' pages, over all or one table
            players = [r["player"] for r in queries.player_stats(con, table=table)][::3]
            cases += [(table, p, {"limit": 7, "offset": k}) for p in players for k in (0, 14)]
        for table, player, page in cases:
            for stat in queries.DRILL:
                got = queries.deals_behind(con, player, stat, table=table, **page)
                want = reference(con, player, stat, table=table, **page)
                assert [r["corrected"] for r in got] == [r["session"] in corrected for r in want]
                plain = [r for r in got if not r["corrected"]]
                assert plain == [r for r in want if not r["corrected"]], (player, stat)
                assert steps(got, events_of) == steps(want, events_of), (player, stat, table, page)
                compared += len(got)
                fixed += sum(bool(r["corrected"]) for r in got)
        assert compared > 10_000 and fixed > 500
