"""Issue 15, from a club to a league: the examples kept apart, parallel rebuild, the lake export,
the analyst API and drill-down."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from brag.cli import main

ROOT = Path(__file__).resolve().parents[2]
SEASON = ROOT / "data" / "season"
EXAMPLES = ROOT / "data" / "examples"


def _sessions(db: str, capsys: pytest.CaptureFixture[str]) -> list[dict[str, object]]:
    capsys.readouterr()
    assert main(["sessions", "--db", db, "--json"]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


@pytest.mark.slow
def test_run_keeps_the_rule_cards_examples_out_of_the_club_store(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "club.db")
    assert main(["run", "--no-serve", "--db", db]) == 0
    listed = _sessions(db, capsys)
    assert len(listed) == len(list(SEASON.glob("*.jsonl"))) == 40
    players = {p for s in listed for p in s["players"]}  # type: ignore[attr-defined]
    assert players.isdisjoint({"A", "B", "C", "D", "E"})
    # The first session listed is the season's first night, not an example dated by its import.
    assert listed[0]["session"] == "2026-09-24-top-1"
    # Asked for explicitly, the examples join (RULES 5.10's card example among them).
    assert main(["run", "--no-serve", "--examples", "--db", db]) == 0
    ids = {s["session"] for s in _sessions(db, capsys)}
    assert len(ids) == 43
    assert {"card-example"} <= ids


def _tables(path: Path) -> dict[str, list[tuple[object, ...]]]:
    import duckdb

    from analytics.parallel import PROJECTED_TABLES

    con = duckdb.connect(str(path), read_only=True)
    try:
        return {
            t: con.execute(f"SELECT * FROM {t} ORDER BY ALL").fetchall()
            for t in (*PROJECTED_TABLES, "checkpoint", "hand_categories")
        }
    finally:
        con.close()


@pytest.mark.slow
def test_parallel_rebuild_equals_a_sequential_one_and_catches_up_once(tmp_path: Path) -> None:
    db = str(tmp_path / "club.db")
    season = sorted(str(p) for p in SEASON.glob("*.jsonl"))
    assert main(["import", "--db", db, *season[:30]]) == 0
    one, two = tmp_path / "one.duckdb", tmp_path / "two.duckdb"
    refresh = ["analytics", "refresh", "--db", db, "--rebuild"]
    assert main([*refresh, "--analytics", str(one), "--jobs", "1"]) == 0
    assert main([*refresh, "--analytics", str(two), "--jobs", "2"]) == 0
    first = _tables(two)
    assert first == _tables(one)
    assert first["sessions"] and len(first["sessions"]) == 30
    # More sessions arrive (and the examples, at no table): a catch-up applies each new event once.
    assert main(["import", "--db", db, *season[30:], *map(str, EXAMPLES.glob("*.jsonl"))]) == 0
    assert main(["analytics", "refresh", "--db", db, "--analytics", str(two)]) == 0
    assert main([*refresh, "--analytics", str(one), "--jobs", "1"]) == 0
    caught_up = _tables(two)
    assert caught_up == _tables(one)
    assert len(caught_up["sessions"]) == 43
    assert caught_up["checkpoint"][0][1] == len(caught_up["events"])  # each event once


def test_jobs_is_only_for_a_rebuild(tmp_path: Path) -> None:
    db = str(tmp_path / "club.db")
    assert main(["import", "--db", db, str(EXAMPLES / "card_example.jsonl")]) == 0
    with pytest.raises(SystemExit, match="--jobs is for --rebuild"):
        main(["analytics", "refresh", "--db", db, "--jobs", "2"])
    with pytest.raises(SystemExit):
        main(["analytics", "refresh", "--db", db, "--rebuild", "--jobs", "0"])


@pytest.mark.slow
def test_lake_export_is_read_by_partition_by_plain_duckdb(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import duckdb

    db = str(tmp_path / "club.db")
    season = sorted(str(p) for p in SEASON.glob("*.jsonl"))
    assert main(["import", "--db", db, *season[:25]]) == 0
    lake = tmp_path / "lake"
    assert main(["export", "--db", db, "--parquet", str(lake)]) == 0
    capsys.readouterr()
    assert main(["stats", "--db", db, "--format", "json", "--no-refresh"]) == 0
    stats = json.loads(capsys.readouterr().out)

    plain = duckdb.connect()  # nothing of Bragbook: files and SQL only
    pd_glob = f"{lake}/player_deals/**/*.parquet"
    parts = plain.execute(
        f"SELECT table_name, month, count(*) FROM read_parquet('{pd_glob}', hive_partitioning=true)"
        " GROUP BY ALL ORDER BY ALL"
    ).fetchall()
    folders = sorted(p.name for p in (lake / "player_deals").iterdir())
    assert folders == [
        "table_name=Back%20room",
        "table_name=Top%20table",
        "table_name=Window%20table",
    ]
    assert {(t, m) for t, m, _ in parts} <= {
        (t, m)
        for t in ("Back room", "Top table", "Window table")
        for m in ("2026-09", "2026-10", "2026-11")
    }
    # One partition read alone holds that table's deals only (partition pruning by folder).
    top = plain.execute(
        "SELECT count(*) FROM "
        f"read_parquet('{lake}/player_deals/table_name=Top%20table/*/*.parquet')"
    ).fetchone()
    assert top == (sum(n for t, _, n in parts if t == "Top table"),)
    # The exported player_stats equals brag stats, and recomputing from the facts agrees.
    exported = plain.execute(f"SELECT * FROM '{lake}/player_stats/data.parquet'").fetchall()
    names = [d[0] for d in plain.description]
    assert [dict(zip(names, r, strict=True)) for r in exported] == stats
    again = plain.execute(
        f"SELECT player, count(*), sum(saw::INT), sum(see_chances) "
        f"FROM read_parquet('{pd_glob}', hive_partitioning=true) GROUP BY player"
    ).fetchall()
    by_player = {s["player"]: s for s in stats}
    for player, deals, sees, chances in again:
        s = by_player[player]
        assert (s["deals"], s["see_rate_n"]) == (deals, chances)
        assert s["see_rate"] == pytest.approx(sees / chances if chances else None)
    # The dictionary says what --describe says.
    see = plain.execute(
        f"SELECT unit, rules, count FROM '{lake}/_dictionary/data.parquet' "
        "WHERE \"table\" = 'player_stats' AND \"column\" = 'see_rate'"
    ).fetchall()
    assert see == [("share of turns", "RULES 5.7", "see_rate_n")]

    # Incremental: the next export appends only the sessions stored since.
    before = {p.relative_to(lake) for p in lake.rglob("part_*.parquet")}
    assert main(["import", "--db", db, *season[25:]]) == 0
    assert main(["export", "--db", db, "--parquet", str(lake)]) == 0
    assert "15 new sessions appended, 25 already there" in capsys.readouterr().out
    after = {p.relative_to(lake) for p in lake.rglob("part_*.parquet")}
    assert before < after
    n_sessions = plain.execute(
        f"SELECT count(*), count(DISTINCT session) FROM "
        f"read_parquet('{lake}/sessions/**/*.parquet', hive_partitioning=true)"
    ).fetchone()
    assert n_sessions == (40, 40)


@pytest.mark.slow
def test_the_analysts_notebook_runs_on_a_small_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import duckdb
    import nbclient
    import nbformat

    db = str(tmp_path / "club.db")
    assert main(["import", "--db", db, *sorted(str(p) for p in SEASON.glob("*.jsonl"))[:8]]) == 0
    assert main(["analytics", "refresh", "--db", db]) == 0
    monkeypatch.setenv("BRAG_DB", db)
    monkeypatch.delenv("BRAG_ANALYTICS", raising=False)
    nb = nbformat.read(ROOT / "docs" / "seeing_blind.ipynb", as_version=4)
    nbclient.NotebookClient(
        nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(ROOT)}}
    ).execute()
    outputs = [
        "".join(
            o.get("text") or o.get("data", {}).get("text/markdown", "")
            or o.get("data", {}).get("text/plain", "")
            for o in c.outputs
        )
        for c in nb.cells
        if c.cell_type == "code"
    ]  # fmt: skip
    # The payers' showdowns (RULES 5.7, 5.8) the notebook's closing sentence quotes are the
    # projection's, blind (never looked, RULES 5.1) and after looking, counted here in SQL.
    con = duckdb.connect(str(tmp_path / "club.duckdb"), read_only=True)
    counts = dict(
        (bool(blind), (int(n), int(won)))
        for blind, n, won in con.execute(
            "SELECT looked_turn IS NULL, count(*), count(*) FILTER (won) FROM player_deals "
            "WHERE saw AND role = 'payer' GROUP BY 1"
        ).fetchall()
    )
    sessions = con.execute("SELECT count(*) FROM sessions").fetchall()[0][0]
    con.close()
    assert counts[True][0] > 0 and counts[False][0] > 0
    closing = outputs[-1]
    assert closing.startswith(f"Over the {sessions} sessions of this store, blind payers won "
                              f"{counts[True][1]} of {counts[True][0]} showdowns")  # fmt: skip
    assert f"looked first won {counts[False][1]} of {counts[False][0]} showdowns" in closing
    assert "style" not in "".join(outputs)  # a real club's members and tables, not bot styles


def test_api_loads_the_same_facts_from_the_projection_and_the_lake(tmp_path: Path) -> None:
    from fractions import Fraction

    from analytics import api

    db = str(tmp_path / "club.db")
    assert main(["import", "--db", db, *sorted(str(p) for p in SEASON.glob("*.jsonl"))[:6]]) == 0
    assert main(["export", "--db", db, "--parquet", str(tmp_path / "lake")]) == 0
    projection = api.open_facts(tmp_path / "club.duckdb")
    lake = api.open_facts(tmp_path / "lake")
    for src in (projection, lake):
        top = api.load_player_deals(src, table="Top table")
        df, pl, arrow = top.df(), top.pl(), top.to_arrow_table()
        assert len(df) == pl.height == arrow.num_rows > 0
        assert set(df["table_name"]) == {"Top table"}
        margaret = api.load_player_deals(src, player="Margaret", month="2026-09").df()
        net = sum(
            Fraction(int(n), int(d)) for n, d in zip(margaret.net_t, margaret.den, strict=True)
        )
        stats = api.load_player_stats(src, player="Margaret").df()
        assert len(stats) == 1 and stats.deals[0] >= len(margaret)
        if (api.load_player_deals(src, player="Margaret").df().month == "2026-09").all():
            assert Fraction(stats.net[0]) == net  # exact amount text, RULES 1.5
    keys = ["session", "deal", "seat"]
    assert (
        api.load_player_deals(projection).df().sort_values(keys).reset_index(drop=True)
        [["session", "deal", "seat", "net_t", "table_name", "month"]]
        .equals(
            api.load_player_deals(lake).df().sort_values(keys).reset_index(drop=True)
            [["session", "deal", "seat", "net_t", "table_name", "month"]]
        )
    )  # fmt: skip
    docs = api.dictionary(lake).df()
    assert docs.equals(api.dictionary(projection).df())
    row = docs[(docs.table == "player_stats") & (docs.column == "blind_rate")].iloc[0]
    assert (row.unit, row.rules, row["count"]) == ("share of first actions", "RULES 5.1",
                                                   "blind_rate_n")  # fmt: skip
    assert api.stake_units(-17, 2) == Fraction(-17, 2)
    with pytest.raises(FileNotFoundError, match="no projection file or lake folder"):
        api.open_facts(tmp_path / "nothing.duckdb")


@pytest.mark.slow
def test_drill_down_counts_equal_the_statistics_counts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import duckdb

    from analytics import queries

    db = str(tmp_path / "club.db")
    assert main(["import", "--db", db, *sorted(str(p) for p in SEASON.glob("*.jsonl"))[:10]]) == 0
    assert main(["analytics", "refresh", "--db", db]) == 0
    con = duckdb.connect(str(tmp_path / "club.duckdb"), read_only=True)
    hits_of = {"see_rate": "sees", "raise_rate": "raises", "blind_rate": "blind_first",
               "payer_win_rate": "payer_wins", "seen_win_rate": "seen_wins",
               "avg_bets_before_looking": "blind_bets", "bet_share": "deals_with_bet",
               "net": "net"}  # fmt: skip
    for table in (None, "Top table"):
        for row in queries.player_stats(con, table=table):
            for stat, (_, _, _, count) in queries.DRILL.items():
                deals = queries.deals_behind(con, row["player"], stat, table=table)
                assert sum(r["counted"] for r in deals) == row[count], (row["player"], stat)
                if stat in hits_of:
                    assert sum(r["hits"] for r in deals) == row[hits_of[stat]]
                assert all(r["step"] >= 1 and r["seq"] >= r["step"] for r in deals)
    # Each deal's step is the player's own see (RULES 5.7) where they saw.
    # Where they did not, the bet or fold that answered their last chance to (a deal without a
    # see used to open at its end: a new user's trial).
    sees = queries.deals_behind(con, "Sandra", "see_rate")
    chances = {
        (s, q): cost
        for s, q, cost in con.execute(
            "SELECT session, seq, see_cost_t FROM decisions WHERE player = 'Sandra'"
        ).fetchall()
    }
    con.close()
    assert {r["event"] for r in sees if r["hits"]} == {"saw"}
    assert {r["event"] for r in sees if not r["hits"]} == {"bet", "folded"}
    assert all(chances[r["session"], r["seq"]] is not None for r in sees)
    capsys.readouterr()
    assert main(["stats", "--db", db, "--player", "Sandra", "--deals", "see_rate",
                 "--format", "json", "--no-refresh"]) == 0  # fmt: skip
    listed = json.loads(capsys.readouterr().out)
    assert [(r["session"], r["deal"], r["step"]) for r in listed] == [
        (r["session"], r["deal"], r["step"]) for r in sees
    ]
    with pytest.raises(SystemExit, match="give --player P too"):
        main(["stats", "--db", db, "--deals", "see_rate"])
    with pytest.raises(SystemExit, match="no drill-down for 'luck'"):
        main(["stats", "--db", db, "--player", "Sandra", "--deals", "luck"])


def test_lake_export_rewrites_when_a_written_session_has_grown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import random

    import duckdb
    from store_helpers import advance, play_deal, start

    from engine.state import initial_state
    from log.open import open_store

    db = str(tmp_path / "club.db")
    rng = random.Random(7)
    with open_store(db) as store:
        store.import_log(sorted(SEASON.glob("*.jsonl"))[0])
        first = start("open", rng, pots=4, table="Top table")
        state, _ = advance(initial_state(), first)
        state, deal = play_deal(state, rng)
        rows = store.append("open", [first, *deal], 0)
    lake = tmp_path / "lake"
    assert main(["export", "--db", db, "--parquet", str(lake)]) == 0
    with open_store(db) as store:  # the open session plays on: its rows in the lake are stale
        _, deal = play_deal(state, rng)
        store.append("open", deal, rows[-1].seq)
    capsys.readouterr()
    assert main(["export", "--db", db, "--parquet", str(lake)]) == 0
    assert "written in full" in capsys.readouterr().out
    plain = duckdb.connect()
    got = plain.execute(
        f"SELECT count(*), count(DISTINCT (session, deal, seat)) FROM "
        f"read_parquet('{lake}/player_deals/**/*.parquet', hive_partitioning=true)"
    ).fetchone()
    con = duckdb.connect(str(tmp_path / "club.duckdb"), read_only=True)
    want = con.execute("SELECT count(*) FROM player_deals").fetchone()
    con.close()
    assert got == (want[0], want[0])  # every fact once, the open session's second deal included


def test_drill_down_steps_of_a_corrected_session_are_the_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import duckdb
    from store_helpers import store_a_correction

    from analytics import queries
    from log.open import open_store
    from present.replay import Replay

    db = str(tmp_path / "fix.db")
    with open_store(db) as store:
        store_a_correction(store)  # A's bet at seq 6 is voided (seq 7); A bets again at seq 8
        rp = Replay.of(store.events("fix"))
        events = store.events
        con_path = tmp_path / "fix.duckdb"
        assert main(["analytics", "refresh", "--db", db, "--analytics", str(con_path)]) == 0
        con = duckdb.connect(str(con_path), read_only=True)
        rows = queries.deals_behind(con, "A", "bet_share")
        con.close()
        assert [(r["seq"], r["event"], r["corrected"]) for r in rows] == [(8, "bet", True)]
        queries.renumber(rows, events)
    pos = rp.at_seq(8)
    assert pos is not None
    assert (rows[0]["deal"], rows[0]["step"]) == (pos.deal, rp.label(pos).step) == (1, 3)
    capsys.readouterr()
    argv = ["stats", "--db", db, "--analytics", str(con_path), "--player", "A"]
    assert main([*argv, "--deals", "bet_share", "--format", "json", "--no-refresh"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [(r["deal"], r["step"], r["seq"]) for r in listed] == [(1, 3, 8)]
