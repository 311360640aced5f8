"""Issue 21.4: a player's remembered cards are kept beside the game's stream, never in it: with
Sue's cards for deal 2 of a real-table session stored, ``brag export`` of the session is byte for
byte as before, ``brag stats`` and ``brag leaderboard`` print what they printed, no table of the
projection holds them (the Parquet lake: ``tests/cli/test_notes_command.py``), and the My
sessions page's rows show them only to Sue (the page lists one player's own:
``tests/dashboard/test_remembered_cards_on_my_deals.py``)."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
from remembered_cards_helpers import SESSION, SUE, mine_log
from remembered_cards_helpers import recorded as _recorded

from brag.cli import main
from log.annotations import private_cards, set_private_cards
from log.open import open_store


@pytest.fixture()
def db(tmp_path: Path) -> str:
    log = mine_log(tmp_path)
    path = str(tmp_path / "brag.db")
    assert main(["import", "--db", path, str(log)]) == 0
    return path


def _printed(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    assert main(argv) == 0
    return capsys.readouterr().out


def test_noted_cards_change_no_export_or_statistic(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    stats = ["stats", "--db", db, "--analytics", str(tmp_path / "a.duckdb"), "--format", "json"]
    board = ["leaderboard", "--db", db, "--analytics", str(tmp_path / "a.duckdb")]
    before = (
        _printed(capsys, ["export", SESSION, "--db", db]).encode("utf-8"),
        _printed(capsys, stats),
        _printed(capsys, board),
    )
    with open_store(db) as store:
        kept = set_private_cards(store, _recorded(store), 2, "Sue", ["KS", "kh", "2c"])
        assert kept.cards == SUE
        assert {d: p.cards for d, p in private_cards(store, _recorded(store), "Sue").items()} == {
            2: SUE
        }
        assert private_cards(store, _recorded(store), "Dave") == {}
    after = (
        _printed(capsys, ["export", SESSION, "--db", db]).encode("utf-8"),
        _printed(capsys, stats),
        _printed(capsys, board),
    )
    assert after[0] == before[0]  # the game log, byte for byte
    assert after[1] == before[1] and after[2] == before[2]
    # the projection holds no annotation: no table of it names the three cards together
    con = duckdb.connect(str(tmp_path / "a.duckdb"), read_only=True)
    for (table,) in con.execute("SELECT table_name FROM duckdb_tables()").fetchall():
        text = repr(con.execute(f'SELECT * FROM "{table}"').fetchall())
        assert "Ks Kh 2c" not in text and "'Ks', 'Kh', '2c'" not in text, table
