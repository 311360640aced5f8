"""Benchmark of the analytics (issue 5): projector catch-up, statistics over >= 1,000,000 deals.

What is done, so the figures can be read honestly:

1. Sessions are drawn at random with ``sim.randplay`` (every event from
   ``engine.legal.legal_actions``; default 400 sessions of 8 pots, 2 to 6 players).
2. *Bare replay*: the engine folds each session's events (``engine.fold.replay``), no I/O.
   *Catch-up*: the projector applies the same events from an in-memory source (stored one session
   after another, as a simulator appends them) into a fresh DuckDB file, rows and checkpoint
   committed per batch of 10,000. Both are measured in CPU seconds of this process (DuckDB's
   threads included) as the best of ``--repeat`` runs, because the machine may be shared; a
   warm-up run first pays the one-time imports (pyarrow brings pandas in) and the hand table.
3. The projected facts (deals, player_deals, sessions, session_players) are replicated inside
   DuckDB under new session ids until there are at least ``--deals`` deals (default 1,000,000).
   The refresh time for that many deals is extrapolated from the catch-up rate (events per deal
   of the sample; the catch-up includes the projector's upkeep of ``player_session_summary``);
   the events table is not replicated (no statistic reads it). The summary is not replicated:
   it is rebuilt from the replicated facts with the projector's own ``insert_summary`` (timed
   and printed apart, the cost of building it for all those deals at once), and its rows for the
   sample's sessions are checked equal to the ones the projector kept batch by batch.
4. *Statistics*: every statistic of ``analytics/sql/stats.sql`` through ``analytics.queries``
   (player stats over all sessions and for one session and one player, the leaderboard of one
   session, the leaderboard over all finished sessions, showdown hands, pot sizes, deal lengths),
   wall time, best of ``--repeat``. Beside it (a) pandas computing the same statistics from the
   same fact tables already loaded as DataFrames (loading not timed; results checked equal) and
   (b) a bare DuckDB scan of the fact columns each statistic is computed from, with its filter
   (ungrouped sums and maxima, so every value is read and nothing else is done: the limit of
   scanning the facts). player_stats reads the per-(session, player) summary instead, so a
   second bare scan reads the tables each statistic now reads (the summary for player_stats).

Targets (issue 5): statistics >= 10x faster than pandas, within 3x of the bare scan; catch-up >=
half the replay speed. Run: ``.venv/bin/python bench/analytics.py [--deals N] [--sessions N]``.
Since issue 20 the catch-up also writes the ``decisions`` facts (a row per decision, about 0.8 per
event, each asking ``engine.legal.options`` what the player could do): on a shared 2-core machine
it measured 0.31 to 0.41 of the replay speed in several runs (0.65 to 0.75 before, in the same
conditions), short of the issue 5 target. After the factspeed work (hand categories counted once
per process, every table of a batch through arrow once it is loaded, options built from their
fields): 0.34 to 0.35 against 0.32 to 0.33 for main in alternate runs (``--deals 20000 --repeat
3``, load about 2-3), still short. Where the catch-up's CPU goes (150 sessions, about 30,000
events): engine apply 0.27 s, ``engine.legal.options`` and the rest of the decision context
0.40 s, the other facts 0.27 s, DuckDB writes 0.2 s; the bare replay is 0.45 to 0.58 s.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import resource
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


import analytics.tables
from analytics import queries
from analytics.projector import Projector
from analytics.sources import MemorySource
from analytics.sqlfiles import query
from engine.fold import replay
from events.model import AnyEvent
from sim.randplay import random_session


def best(fn: Callable[[], Any], repeat: int, clock: Callable[[], float]) -> tuple[float, Any]:
    times, out = [], None
    for _ in range(repeat):
        t = clock()
        out = fn()
        times.append(clock() - t)
    return min(times), out


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# --- 1-2: replay and catch-up ---------------------------------------------------------------------


def make_sessions(n: int, seed: int) -> dict[str, list[AnyEvent]]:
    rng = random.Random(seed)
    return {
        f"b{k}": random_session(rng, f"b{k}", players=rng.randint(2, 6), pots=8) for k in range(n)
    }


def catch_up(src: MemorySource, path: str) -> tuple[Any, Any]:
    if os.path.exists(path):
        os.remove(path)
    con = analytics.tables.connect(path)
    report = Projector(src, con, batch_size=10_000).refresh()
    return con, report


# --- 3: replication -------------------------------------------------------------------------------


REPLICATE = {
    "deals": "session",
    "player_deals": "session",
    "sessions": "session",
    "session_players": "session",
}


def replicate(con: Any, copies: int) -> None:
    """Copies of every fact row under session ids ``S~k`` for k in 1..copies-1."""
    for table in REPLICATE:
        con.execute(f"CREATE TEMP TABLE base_{table} AS SELECT * FROM {table}")
        con.execute(
            f"INSERT INTO {table} SELECT b.* REPLACE (b.session || '~' || k AS session) "
            f"FROM base_{table} AS b, range(1, {copies}) AS r(k)"
        )
        con.execute(f"DROP TABLE base_{table}")
    con.execute("CHECKPOINT")


SUMMARY = "SELECT * FROM player_session_summary ORDER BY session, player, den"


def build_summary(con: Any) -> None:
    """``player_session_summary`` rebuilt from all of player_deals, in one transaction, with the
    projector's own query (``schema.sql`` insert_summary)."""
    sessions = [r[0] for r in con.execute("SELECT DISTINCT session FROM player_deals").fetchall()]
    con.begin()
    con.execute("DELETE FROM player_session_summary")
    con.execute(query("schema.sql", "insert_summary").sql, {"sessions": sessions})
    con.commit()
    con.execute("CHECKPOINT")


# --- 4: the statistics three ways -----------------------------------------------------------------


def duckdb_stats(con: Any, session: str, player: str) -> dict[str, Any]:
    return {
        "player_stats": queries.player_stats(con),
        "player_stats_session": queries.player_stats(con, session=session),
        "player_stats_player": queries.player_stats(con, player=player),
        "leaderboard_session": queries.leaderboard(con, session=session),
        "overall_leaderboard": queries.overall_leaderboard(con),
        "showdown_hands": queries.showdown_hands(con),
        "pot_sizes": queries.pot_sizes(con),
        "deal_lengths": queries.deal_lengths(con),
    }


_PD = (
    "max(player), max(session), max(deal), sum(net_t), sum(den), sum(won::INT), max(role), "
    "max(left_how), max(first_action), sum(blind_bets), sum(bets), sum(raises), sum(saw::INT), "
    "sum(see_chances), sum(won_t)"
)
BARE = {
    # Each statistic's limit: one scan of the columns it reads (with the same filter), folded
    # by ungrouped aggregates so that every value is read and nothing else is done.
    "player_stats": f"SELECT {_PD} FROM player_deals",
    "player_stats_session": f"SELECT {_PD} FROM player_deals WHERE session = $session",
    "player_stats_player": f"SELECT {_PD} FROM player_deals WHERE player = $player",
    "leaderboard_session": "SELECT max(sp.player), sum(sp.seat), sum(sp.net_t), sum(sp.den), "
    "max(s.finished::INT), sum(s.deals) FROM session_players sp JOIN sessions s USING (session) "
    "WHERE sp.session = $session",
    "overall_leaderboard": "SELECT max(player), sum(net_t), sum(den), sum(winner::INT), "
    "sum(winners) FROM session_players WHERE winner IS NOT NULL",
    "showdown_hands": "SELECT max(hand_category), sum(won::INT), sum(hand_wins), max(session), "
    "max(player) FROM player_deals",
    "pot_sizes": "SELECT max(result), sum(showdown::INT), sum(pot_t), sum(carried_in_t), "
    "sum(den), max(session) FROM deals",
    "deal_lengths": "SELECT max(result), sum(showdown::INT), sum(actions), sum(raises), "
    "max(session) FROM deals",
}


_SUM = (
    "max(player), max(session), sum(den), sum(first_deals), sum(deals), sum(net_t), "
    "sum(pots_won), sum(pots_won_showdown), sum(pots_won_uncontested), sum(blind_first), "
    "sum(acted), sum(blind_bets), sum(deals_with_bet), sum(raises), sum(bets), sum(sees), "
    "sum(see_chances), sum(payer_wins), sum(payer_showdowns), sum(seen_wins), "
    "sum(seen_showdowns), sum(carried_caused), max(biggest_pot_t)"
)
BARE_READ = BARE | {
    # What player_stats reads now: the summary, every column it aggregates.
    "player_stats": f"SELECT {_SUM} FROM player_session_summary",
    "player_stats_session": f"SELECT {_SUM} FROM player_session_summary WHERE session = $session",
    "player_stats_player": f"SELECT {_SUM} FROM player_session_summary WHERE player = $player",
}


def bare_scan(con: Any, name: str, session: str, player: str, scans: dict[str, str] = BARE) -> None:
    sql = scans[name]
    params = {k: v for k, v in (("session", session), ("player", player)) if f"${k}" in sql}
    con.execute(sql, params).fetchall()


def bare_scans(con: Any, session: str, player: str, scans: dict[str, str] = BARE) -> None:
    for name in scans:
        bare_scan(con, name, session, player, scans)


def pandas_stats(f: dict[str, Any], den: int, session: str, player: str) -> dict[str, Any]:
    import numpy as np
    import pandas as pd

    pdl, deals, sp, sessions = f["player_deals"], f["deals"], f["session_players"], f["sessions"]

    def player_stats(df: Any) -> Any:
        k = den // df["den"]
        role = df["role"]
        won = df["won"]
        x = pd.DataFrame(
            {
                "player": df["player"],
                "first_deal": df["deal"] == 1,
                "net_num": df["net_t"] * k,
                "won": won,
                "sd_won": won & role.notna(),
                "unc": df["left_how"] == "won_uncontested",
                "blind_first": df["first_action"] == "blind",
                "acted": df["first_action"].notna(),
                "blind_bets": df["blind_bets"],
                "with_bet": df["bets"] > 0,
                "raises": df["raises"],
                "bets": df["bets"],
                "sees": df["saw"],
                "see_chances": df["see_chances"],
                "payer_wins": (role == "payer") & won,
                "payer": role == "payer",
                "seen_wins": (role == "seen") & won,
                "seen": role == "seen",
                "carried": df["left_how"].isin(["carried", "retained"]),
                "pot_won": np.where(won, df["won_t"] * k, np.nan),
            }
        )
        g = x.groupby("player", sort=False)
        out = g.agg(
            sessions=("first_deal", "sum"),
            deals=("first_deal", "size"),
            net_num=("net_num", "sum"),
            pots_won=("won", "sum"),
            pots_won_showdown=("sd_won", "sum"),
            pots_won_uncontested=("unc", "sum"),
            blind_first=("blind_first", "sum"),
            blind_rate_n=("acted", "sum"),
            blind_bets=("blind_bets", "sum"),
            deals_with_bet=("with_bet", "sum"),
            raises=("raises", "sum"),
            bets=("bets", "sum"),
            sees=("sees", "sum"),
            see_chances=("see_chances", "sum"),
            payer_wins=("payer_wins", "sum"),
            payer_showdowns=("payer", "sum"),
            seen_wins=("seen_wins", "sum"),
            seen_showdowns=("seen", "sum"),
            carried_caused=("carried", "sum"),
            biggest_pot_num=("pot_won", "max"),
        )
        out["blind_rate"] = out["blind_first"] / out["blind_rate_n"].replace(0, np.nan)
        out["avg_bets_before_looking"] = out["blind_bets"] / out["deals"]
        out["bet_share"] = out["deals_with_bet"] / out["deals"]
        out["raise_rate"] = out["raises"] / out["bets"].replace(0, np.nan)
        out["see_rate"] = out["sees"] / out["see_chances"].replace(0, np.nan)
        out["payer_win_rate"] = out["payer_wins"] / out["payer_showdowns"].replace(0, np.nan)
        out["seen_win_rate"] = out["seen_wins"] / out["seen_showdowns"].replace(0, np.nan)
        return out.sort_values(["net_num"], ascending=False)

    def leaderboard(s: str) -> Any:
        x = sp[sp["session"] == s].merge(sessions[["session", "finished", "deals"]], on="session")
        x = x.assign(net_num=x["net_t"] * (den // x["den"]))
        x["place"] = x["net_num"].rank(method="min", ascending=False)
        x["top"] = x["net_num"] == x["net_num"].max()
        x["winner"] = x["top"] & x["finished"]
        x["shared_by"] = x["top"].sum()
        return x.sort_values(["place", "seat"])

    def overall() -> Any:
        x = sp[sp["winner"].notna()]
        winner = x["winner"].astype(bool)
        x = pd.DataFrame(
            {
                "player": x["player"],
                "win": winner & (x["winners"] == 1),
                "shared": winner & (x["winners"] > 1),
                "share": np.where(winner, 1.0 / x["winners"], 0.0),
                "net_num": x["net_t"] * (den // x["den"]),
            }
        )
        return (
            x.groupby("player")
            .agg(
                sessions=("win", "size"),
                wins=("win", "sum"),
                shared_wins=("shared", "sum"),
                win_points=("share", "sum"),
                net_num=("net_num", "sum"),
            )
            .sort_values(["win_points", "net_num"], ascending=False)
        )

    def showdown() -> Any:
        x = pdl.loc[pdl["hand_category"].notna(), ["hand_category", "won", "hand_wins"]]
        g = x.groupby("hand_category").agg(
            shown=("won", "size"), won=("won", "sum"), avg_wins=("hand_wins", "mean")
        )
        g["avg_win_chance"] = g["avg_wins"] / 18424
        cats = f["hand_categories"].set_index("category")
        out = cats.join(g, how="left").fillna({"shown": 0, "won": 0})
        out["shown_share"] = out["shown"] / out["shown"].sum()
        out["win_rate"] = out["won"] / out["shown"].replace(0, np.nan)
        out["rules_share"] = out["hands"] / 22100
        return out.sort_values("rank", ascending=False)

    def kinds() -> Any:
        return np.where(
            deals["result"] == "carried",
            "carried",
            np.where(deals["showdown"], "showdown", "uncontested"),
        )

    def pot_sizes() -> Any:
        x = pd.DataFrame(
            {
                "kind": kinds(),
                "pot_num": deals["pot_t"] * (den // deals["den"]),
                "carried_in_num": deals["carried_in_t"] * (den // deals["den"]),
            }
        )

        def agg(d: Any) -> Any:
            return d.agg(
                deals=("pot_num", "size"),
                pot_sum_num=("pot_num", "sum"),
                pot_min_num=("pot_num", "min"),
                pot_median_num=("pot_num", lambda s: s.quantile(0.5, interpolation="lower")),
                pot_max_num=("pot_num", "max"),
                carried_in_sum_num=("carried_in_num", "sum"),
            )

        by = agg(x.groupby("kind"))
        allrow = agg(x.assign(kind="all").groupby("kind"))
        return pd.concat([by, allrow])

    def deal_lengths() -> Any:
        x = pd.DataFrame({"kind": kinds(), "actions": deals["actions"], "raises": deals["raises"]})

        def agg(d: Any) -> Any:
            return d.agg(
                deals=("actions", "size"),
                actions_mean=("actions", "mean"),
                actions_min=("actions", "min"),
                actions_median=("actions", lambda s: s.quantile(0.5, interpolation="lower")),
                actions_max=("actions", "max"),
                raises_mean=("raises", "mean"),
            )

        return pd.concat([agg(x.groupby("kind")), agg(x.assign(kind="all").groupby("kind"))])

    return {
        "player_stats": player_stats(pdl),
        "player_stats_session": player_stats(pdl[pdl["session"] == session]),
        "player_stats_player": player_stats(pdl[pdl["player"] == player]),
        "leaderboard_session": leaderboard(session),
        "overall_leaderboard": overall(),
        "showdown_hands": showdown(),
        "pot_sizes": pot_sizes(),
        "deal_lengths": deal_lengths(),
    }


def check_same(sql: dict[str, Any], pan: dict[str, Any]) -> None:
    """The two ways give the same statistics (integer columns exactly, rates closely)."""
    for name in ("player_stats", "player_stats_session", "player_stats_player"):
        want = {r["player"]: r for r in sql[name]}
        got = pan[name]
        assert set(got.index) == set(want), name
        for p, r in want.items():
            for col in ("deals", "sessions", "net_num", "pots_won", "blind_first", "see_chances",
                        "sees", "raises", "payer_wins", "carried_caused"):  # fmt: skip
                a = r["see_rate_n"] if col == "see_chances" else r[col]
                assert int(got.at[p, col]) == int(a), (name, p, col)
            if r["blind_rate"] is not None:
                assert math.isclose(got.at[p, "blind_rate"], r["blind_rate"]), (name, p)
    ov = {r["player"]: r for r in sql["overall_leaderboard"]}
    for p, r in ov.items():
        assert int(pan["overall_leaderboard"].at[p, "wins"]) == r["wins"]
        assert int(pan["overall_leaderboard"].at[p, "net_num"]) == int(r["net_num"])
    pots = {r["kind"]: r for r in sql["pot_sizes"]}
    for kind, r in pots.items():
        assert int(pan["pot_sizes"].at[kind, "pot_sum_num"]) == int(r["pot_sum_num"]), kind
        assert int(pan["pot_sizes"].at[kind, "pot_median_num"]) == int(r["pot_median_num"]), kind
    lengths = {r["kind"]: r for r in sql["deal_lengths"]}
    for kind, r in lengths.items():
        assert int(pan["deal_lengths"].at[kind, "actions_median"]) == r["actions_median"], kind
    hands = {r["category"]: r for r in sql["showdown_hands"]}
    for cat, r in hands.items():
        assert int(pan["showdown_hands"].at[cat, "shown"]) == r["shown"], cat
    assert len(pan["leaderboard_session"]) == len(sql["leaderboard_session"])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=1_000_000)
    ap.add_argument("--sessions", type=int, default=400)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--breakdown", action="store_true", help="time each statistic apart")
    ap.add_argument(
        "--store",
        action="store_true",
        help="also time the catch-up reading a SQLite event store (log) instead of memory",
    )
    args = ap.parse_args()
    cpu = time.process_time
    wall = time.perf_counter

    t = wall()
    streams = make_sessions(args.sessions, args.seed)
    events = sum(len(s) for s in streams.values())
    print(f"generated {args.sessions} sessions, {events:,} events in {wall() - t:.1f} s")
    src = MemorySource()
    for name, stream in streams.items():
        src.append(name, stream)

    tmp = tempfile.mkdtemp(prefix="brag-bench-")
    warm = MemorySource(src.events[:3000])
    catch_up(warm, os.path.join(tmp, "warm.duckdb"))[0].close()

    t_replay, _ = best(lambda: [replay(s) for s in streams.values()], args.repeat, cpu)
    runs = iter(range(args.repeat))
    opened: list[Any] = []

    def one_catch_up() -> Any:
        for c in opened:  # a file open in this process is the same database: close it first
            c.close()
        opened.clear()
        out = catch_up(src, os.path.join(tmp, f"bench{next(runs)}.duckdb"))
        opened.append(out[0])
        return out

    t_catch, (con, report) = best(one_catch_up, args.repeat, cpu)
    assert report.events == events
    replay_rate, catch_rate = events / t_replay, events / t_catch
    deals = int(con.execute("SELECT count(*) FROM deals").fetchall()[0][0])
    print(f"sample: {deals:,} deals, {events / deals:.1f} events per deal")
    print(f"engine bare replay      {replay_rate:>12,.0f} events/s  (CPU)")
    print(
        f"projector catch-up      {catch_rate:>12,.0f} events/s  (CPU, DuckDB file, batch 10,000)"
    )
    print(f"  ratio catch-up/replay {catch_rate / replay_rate:>12.2f}   (target >= 0.50)")

    if args.store:
        from log.open import open_store

        db = os.path.join(tmp, "store.db")
        store = open_store(db)
        t = wall()
        for name, stream in streams.items():
            store.append(name, stream, 0)
        print(f"SQLite store written in {wall() - t:.1f} s")
        store.close()
        k = iter(range(args.repeat))

        def from_store() -> Any:
            path = os.path.join(tmp, f"store{next(k)}.duckdb")
            c = analytics.tables.connect(path)
            s = open_store(db)
            r = Projector(s, c, batch_size=10_000).refresh()
            s.close()
            c.close()
            return r

        t_store, rep = best(from_store, args.repeat, cpu)
        assert rep.events == events
        print(
            f"catch-up from SQLite     {events / t_store:>12,.0f} events/s  (CPU, store reads "
            f"included; ratio to replay {events / t_store / replay_rate:.2f})"
        )

    copies = max(1, math.ceil(args.deals / deals))
    kept = con.execute(SUMMARY).fetchall()  # the projector's, batch by batch
    t = wall()
    replicate(con, copies)
    total_deals = int(con.execute("SELECT count(*) FROM deals").fetchall()[0][0])
    rows = int(con.execute("SELECT count(*) FROM player_deals").fetchall()[0][0])
    print(
        f"replicated x{copies}: {total_deals:,} deals, {rows:,} player-deal rows "
        f"in {wall() - t:.1f} s"
    )
    t = wall()
    build_summary(con)
    t_summary = wall() - t
    summary_rows = int(con.execute("SELECT count(*) FROM player_session_summary").fetchall()[0][0])
    rebuilt = con.execute(
        "SELECT * FROM player_session_summary WHERE session NOT LIKE '%~%' "
        "ORDER BY session, player, den"
    ).fetchall()
    assert rebuilt == kept, "summary: the full build differs from the projector's"
    t_refresh = total_deals * events / deals / catch_rate
    print(
        f"refresh for {total_deals:,} deals (extrapolated from the catch-up rate, summary "
        f"upkeep included): {t_refresh:,.0f} s"
    )
    print(
        f"  player_session_summary built at once from all {rows:,} player-deal rows: "
        f"{t_summary:.2f} s ({summary_rows:,} rows; equal to the projector's for the sample)"
    )

    session, player = "b0~7" if copies > 7 else "b0", "Ann"
    import pandas as pd  # noqa: F401  (timed apart: the load into DataFrames)

    t = wall()
    frames = {
        name: con.execute(f"SELECT * FROM {name}").df()
        for name in ("player_deals", "deals", "session_players", "sessions", "hand_categories")
    }
    t_load = wall() - t
    den = queries.common_den(con)
    duckdb_stats(con, session, player)  # warm
    # The three contenders take turns, round after round, so a change of the machine's load falls
    # on all of them alike; each keeps its best round.
    t_sql = t_bare = t_read = t_pandas = math.inf
    sql: dict[str, Any] = {}
    pan: dict[str, Any] = {}
    for _ in range(args.repeat):
        t = wall()
        sql = duckdb_stats(con, session, player)
        t_sql = min(t_sql, wall() - t)
        t = wall()
        bare_scans(con, session, player)
        t_bare = min(t_bare, wall() - t)
        t = wall()
        bare_scans(con, session, player, BARE_READ)
        t_read = min(t_read, wall() - t)
        t = wall()
        pan = pandas_stats(frames, den, session, player)
        t_pandas = min(t_pandas, wall() - t)
    check_same(sql, pan)

    print(f"statistics ({len(sql)} queries) over {total_deals:,} deals, wall time, best of "
          f"{args.repeat}:")  # fmt: skip
    print(f"  DuckDB (analytics.queries)  {t_sql:8.3f} s")
    print(f"  bare DuckDB scans (facts)   {t_bare:8.3f} s")
    print(f"  bare scans of what is read  {t_read:8.3f} s   (player_stats: the summary)")
    print(f"  pandas (same statistics)    {t_pandas:8.3f} s   (+ {t_load:.1f} s to load frames)")
    print(f"  ratio pandas/DuckDB         {t_pandas / t_sql:8.1f}   (target >= 10)")
    print(f"  ratio DuckDB/bare scan      {t_sql / t_bare:8.2f}   (target <= 3; facts)")
    print(f"  ratio DuckDB/bare read      {t_sql / t_read:8.2f}   (the tables actually read)")
    if args.breakdown:
        print("  per statistic (s): DuckDB / bare scan of the facts / bare scan of what is read")
        calls = {
            "player_stats": lambda: queries.player_stats(con),
            "player_stats_session": lambda: queries.player_stats(con, session=session),
            "player_stats_player": lambda: queries.player_stats(con, player=player),
            "leaderboard_session": lambda: queries.leaderboard(con, session=session),
            "overall_leaderboard": lambda: queries.overall_leaderboard(con),
            "showdown_hands": lambda: queries.showdown_hands(con),
            "pot_sizes": lambda: queries.pot_sizes(con),
            "deal_lengths": lambda: queries.deal_lengths(con),
        }
        for name, fn in calls.items():
            sql_t, _ = best(fn, args.repeat, wall)
            bare_t, _ = best(lambda n=name: bare_scan(con, n, session, player), args.repeat, wall)
            read_t, _ = best(
                lambda n=name: bare_scan(con, n, session, player, BARE_READ), args.repeat, wall
            )
            print(f"    {name:22} {sql_t:7.3f} {bare_t:7.3f} {read_t:7.3f}")
    print(f"peak memory (RSS) {peak_mb():,.0f} MB")
    con.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
