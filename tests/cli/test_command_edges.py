"""``brag export --parquet DIR`` (issue 5): the fact tables as Parquet, read back by DuckDB."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from brag.cli import main

DATA = Path(__file__).resolve().parents[2] / "data" / "examples"


def test_export_parquet_writes_the_fact_tables(tmp_path: Path) -> None:
    db = str(tmp_path / "brag.db")
    assert main(["import", "--db", db, str(DATA / "card_example.jsonl")]) == 0
    out = tmp_path / "pq"
    assert main(["export", "--db", db, "--parquet", str(out)]) == 0
    con = duckdb.connect()
    deals = con.execute(f"select count(*) from '{out / 'deals' / '**' / '*.parquet'}'").fetchone()
    assert deals == (1,)
    # RULES 5.10: the card's example, four players, one deal; at no table, with no time.
    rows = con.execute(
        f"select count(*), any_value(table_name), any_value(month) "
        f"from read_parquet('{out / 'player_deals' / '**' / '*.parquet'}', hive_partitioning=1)"
    ).fetchone()
    assert rows == (4, None, None)


def test_export_without_session_or_parquet_is_one_clear_error(tmp_path: Path) -> None:
    db = str(tmp_path / "brag.db")
    try:
        code = main(["export", "--db", db])
    except SystemExit as exit_:
        code = exit_.code  # type: ignore[assignment]
    assert code not in (0, None)
    # A session with --parquet would be ignored (every session's facts are written): refused.
    with pytest.raises(SystemExit, match="--parquet writes the fact tables of every session"):
        main(["export", "card-example", "--db", db, "--parquet", str(tmp_path / "pq")])
    assert not (tmp_path / "pq").exists()


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
    # Money averages exact when whole, ½, ¼ or ¾, else "≈" the nearest ¼ (exact in JSON and CSV),
    # a net with its sign either way; other amounts exact, as ½.
    assert _cell("pot_mean", {"pot_mean": "56725/606"}) == "≈ 93½"
    assert _cell("net_per_deal", {"net_per_deal": "-7/3"}) == "≈ -2¼"
    assert _cell("net_per_deal", {"net_per_deal": "-9/4"}) == "-2¼"
    assert _cell("net_per_deal", {"net_per_deal": "7/2"}) == "+3½"
    assert _cell("pot_median", {"pot_median": "27/2"}) == "13½"


def test_show_refuses_a_filter_it_does_not_take_and_unknown_names(tmp_path: Path) -> None:
    db = str(tmp_path / "brag.db")
    for name in ("card_example", "seed002_open_example"):  # A to D, then A to E
        assert main(["import", "--db", db, str(DATA / f"{name}.jsonl")]) == 0
    cases = [
        (["analytics", "show", "pot_sizes", "--player", "A"], "pot_sizes has no --player"),
        (["analytics", "show", "pot_sizes", "--session", "nosuch"], "no session 'nosuch'"),
        (["stats", "--player", "Zed"], "no player named Zed"),
        (["stats", "--player", "E", "--session", "card-example"], "E did not play in session"),
    ]
    for argv, message in cases:
        with pytest.raises(SystemExit) as exit_:
            main(["--db", db, *argv])
        assert message in str(exit_.value.code), argv


def test_stats_on_an_80_column_terminal_are_split_not_cut(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nine players do not fit one 80-column table: the statistics come as several tables, each
    led by the player, every cell whole (rich alone would cut them to ``…``)."""
    db = str(tmp_path / "brag.db")
    for name in ("card_example", "seed002_open_example", "seed002_blind_example"):
        assert main(["import", "--db", db, str(DATA / f"{name}.jsonl")]) == 0
    season = DATA.parent / "season" / "2026-09-24-top-1.jsonl"  # four more players
    assert main(["import", "--db", db, str(season)]) == 0
    capsys.readouterr()
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["stats", "--db", db]) == 0
    whole = capsys.readouterr().out
    lines = whole.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert "…" not in whole
    # the statistics' tables, before the skill section (issue 37) that follows them
    cut = whole.find("Skill apart from luck")
    assert cut > 0, "the skill section follows the statistics"
    out = whole[:cut]
    lines = out.splitlines()
    tables = out.count("┏")
    assert tables >= 3
    assert out.count("(continued)") == tables - 1
    # Every statistic's header is there, and player A's row in every part.
    for header in ("net per deal", "blind rate", "payer win rate", "biggest pot won"):
        assert header in " ".join(out.split())
    assert sum(1 for line in lines if line.startswith("│ A ")) == tables
    # A's net over the three examples, whole: -7 (RULES 5.10) + 97 (seed 002 open) - 12 (blind).
    row = next(line for line in lines if line.startswith("│ A "))
    assert row.split("│")[4].strip() == "78"


def test_dashboard_on_a_busy_port_is_one_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An explicit --port that something listens on: refused before anything is started or
    announced (no URL printed for a server that will not come up)."""
    import socket

    from brag.cmd_app import free_port, port_is_free, serve

    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as busy:
        busy.bind(("localhost", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert not port_is_free(port)
        assert free_port(port) != port
        assert serve(str(tmp_path / "brag.db"), str(tmp_path / "a.duckdb"), port) == 1
    out, err = capsys.readouterr()
    assert out == "" and f"port {port} on localhost is in use" in err
    # Only a listener makes a port busy; an address that cannot be served on is said so.
    assert port_is_free(port, "no-such-host.invalid")
    from brag.cmd_app import address_problem

    assert address_problem("localhost") is None
    assert (
        address_problem("no-such-host.invalid") == "the address 'no-such-host.invalid' is unknown"
    )
    problem = address_problem("192.0.2.1")  # TEST-NET-1 (RFC 5737): never this machine's
    assert problem is not None and problem.startswith("cannot serve on 192.0.2.1: ")
    assert serve(str(tmp_path / "brag.db"), str(tmp_path / "a.duckdb"), None, "192.0.2.1") == 1
    assert capsys.readouterr().err.startswith("brag: cannot serve on 192.0.2.1")


@pytest.mark.parametrize("port", ["0", "70000", "web"])
def test_dashboard_port_must_be_a_port(port: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["dashboard", "--port", port])
    assert exit_.value.code == 2 and "--port" in capsys.readouterr().err


def test_leaderboard_parts_are_led_by_session_and_player(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A leaderboard row is a session's player: on a narrow terminal both lead every part."""
    db = str(tmp_path / "brag.db")
    assert main(["import", "--db", db, str(DATA.parent / "season" / "2026-09-24-top-1.jsonl")]) == 0
    capsys.readouterr()
    monkeypatch.setenv("COLUMNS", "60")
    assert main(["leaderboard", "--db", db]) == 0
    out = capsys.readouterr().out
    assert max(len(line) for line in out.splitlines()) <= 60
    sessions, overall = out.split("Over all finished sessions", 1)
    assert "Colin" in overall  # then the players over all finished sessions
    parts = sessions.split("┏")[1:]
    assert len(parts) >= 2
    for part in parts:
        header = part.splitlines()[1]
        assert [c.strip() for c in header.split("┃")[1:3]] == ["session", "player"]
        # 2026-09-24-top-1: Colin won with 49 (RULES 1.5), in every part beside the session.
        assert any(line.startswith("│ 2026-09-24-top-1 │ Colin ") for line in part.splitlines())


def test_an_empty_statistic_is_one_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from log.open import open_store

    db = str(tmp_path / "brag.db")
    open_store(db).close()
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["stats", "--db", db]) == 0
    out = capsys.readouterr().out
    assert out.count("┏") == 1 and "(continued)" not in out and "(no ended deals yet)" in out


def test_no_refresh_without_a_statistics_file_makes_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    typo = str(tmp_path / "clbu.db")
    for argv in (["stats"], ["leaderboard"], ["analytics", "show", "pot_sizes"]):
        with pytest.raises(SystemExit, match=r"no statistics file at .*clbu\.duckdb"):
            main(["--db", typo, *argv, "--no-refresh"])
    assert list(tmp_path.iterdir()) == []


def test_stats_at_one_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--table``: the sessions played at that table (``session_started.table``) only; the same
    numbers as the one session there; an unknown table names the known ones."""
    db = str(tmp_path / "brag.db")
    season = DATA.parent / "season"
    for log in (DATA / "card_example.jsonl", season / "2026-09-24-top-1.jsonl"):
        assert main(["import", "--db", db, str(log)]) == 0
    capsys.readouterr()
    assert main(["stats", "--db", db, "--table", "Top table", "--format", "csv"]) == 0
    at_table = capsys.readouterr().out
    assert main(["stats", "--db", db, "--session", "2026-09-24-top-1", "--format", "csv"]) == 0
    assert at_table == capsys.readouterr().out
    assert "\nA," not in at_table and "\nColin,1,8,49," in at_table  # RULES 1.5: Colin won 49
    with pytest.raises(SystemExit, match=r"no table 'Top' in the store \(tables: Top table\)"):
        main(["stats", "--db", db, "--table", "Top"])
    # The card example is at no table: none of its players' deals are at the Top table.
    assert main(["stats", "--db", db, "--table", "Top table", "--player", "A"]) == 0
    assert "no ended deals in all sessions, table Top table, A" in capsys.readouterr().out
    assert main(["leaderboard", "--db", db, "--table", "Top table", "--format", "csv"]) == 0
    sessions = {line.split(",")[0] for line in capsys.readouterr().out.splitlines()[1:]}
    assert sessions == {"2026-09-24-top-1"}
    argv = ["analytics", "show", "showdown_hands", "--table", "Top table", "--format", "csv"]
    assert main(["--db", db, *argv]) == 0
    at_table = capsys.readouterr().out
    argv[3:5] = ["--session", "2026-09-24-top-1"]  # the one session at the Top table
    assert main(["--db", db, *argv]) == 0
    assert capsys.readouterr().out == at_table


def test_a_port_busy_on_one_of_the_names_addresses_is_busy(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``localhost`` is often ``::1`` then ``127.0.0.1``: a listener on either makes it busy."""
    import socket

    from brag import cmd_app

    real = socket.getaddrinfo

    def both(host: str, port: int, *args: object, **kwargs: object) -> list[object]:
        if host != "localhost":
            return real(host, port, *args, **kwargs)  # type: ignore[arg-type]
        six = (socket.AF_INET6, socket.SOCK_STREAM, 6, "", ("::1", port, 0, 0))
        four = (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.1", port))
        return [six, four]

    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        monkeypatch.setattr(cmd_app.socket, "getaddrinfo", both)
        assert not cmd_app.port_is_free(port, "localhost")
        assert cmd_app.address_problem("localhost") is None
