"""``brag export --parquet DIR`` (issue 5): the fact tables as Parquet, read back by DuckDB."""

from __future__ import annotations

from pathlib import Path

import duckdb

from brag.cli import main

DATA = Path(__file__).resolve().parents[1] / "data" / "examples"


def test_export_parquet_writes_the_fact_tables(tmp_path: Path) -> None:
    db = str(tmp_path / "brag.db")
    assert main(["import", "--db", db, str(DATA / "card_example.jsonl")]) == 0
    out = tmp_path / "pq"
    assert main(["export", "--db", db, "--parquet", str(out)]) == 0
    con = duckdb.connect()
    deals = con.execute(f"select count(*) from '{out / 'deals.parquet'}'").fetchone()
    assert deals == (1,)
    # RULES 5.10: the card's example, four players, one deal.
    rows = con.execute(f"select count(*) from '{out / 'player_deals.parquet'}'").fetchone()
    assert rows == (4,)


def test_export_without_session_or_parquet_is_one_clear_error(tmp_path: Path) -> None:
    db = str(tmp_path / "brag.db")
    try:
        code = main(["export", "--db", db])
    except SystemExit as exit_:
        code = exit_.code  # type: ignore[assignment]
    assert code not in (0, None)


def test_stats_for_an_unknown_session_or_player_is_an_error(tmp_path: Path) -> None:
    db = str(tmp_path / "brag.db")
    assert main(["import", "--db", db, str(DATA / "card_example.jsonl")]) == 0
    for argv in (["stats", "--session", "nosuch"], ["stats", "--player", "Nobody"]):
        try:
            main([*argv, "--db", db])
        except SystemExit as exit_:
            assert "no " in str(exit_.code)
        else:
            raise AssertionError(f"{argv} exited 0")


def test_verify_refuses_an_empty_log(tmp_path: Path, capsys: object) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n\n", encoding="utf-8")
    assert main(["verify", str(empty), "--json"]) == 1


def test_stats_cells_show_shares_and_averages_with_their_counts() -> None:
    from brag.cmd_analytics import _cell

    row = {
        "blind_rate": 230 / 231,
        "blind_rate_n": 231,
        "see_rate": 1.0,
        "see_rate_n": 4,
        "avg_bets_before_looking": 816 / 231,
        "avg_bets_before_looking_n": 231,
    }
    assert _cell("blind_rate", row) == "99.6% of 231"  # not rounded up to 100%
    assert _cell("see_rate", row) == "100% of 4"
    assert _cell("blind_rate", {"blind_rate": 4999 / 5000}) == ">99.9%"
    assert _cell("blind_rate", {"blind_rate": 1 / 3000}) == "<0.1%"
    assert _cell("blind_rate", {"blind_rate": 0.0}) == "0%"
    assert _cell("avg_bets_before_looking", row) == "3.53 over 231"  # an average, not a share
