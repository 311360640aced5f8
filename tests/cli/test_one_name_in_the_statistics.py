"""One name, one player (issue 24 item 4), in the statistics: Ann, ann and a Cyrillic look-alike are
one player to brag stats and leaderboard, and one key in the projection."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import duckdb
import pytest

from analytics import queries
from brag.cli import main

CYRILLIC_A = "\u0410"  # looks like the Latin A


EXAMPLES = Path(__file__).resolve().parents[2] / "data" / "examples"


def _card_example_as(tmp_path: Path, session: str, a: str, table: str) -> Path:
    """The card's worked example (data/examples), player A seated as ``a``, at ``table``."""
    lines = (EXAMPLES / "card_example.jsonl").read_text(encoding="utf-8").splitlines()
    out = []
    for line in lines:
        raw = json.loads(line)
        raw.pop("id", None)  # the same events in another session: ids of their own
        if raw["type"] == "session_started":
            raw.update(session=session, table=table)
            raw["seats"] = [a if s == "A" else s for s in raw["seats"]]
        if raw.get("player") == "A":
            raw["player"] = a
        out.append(json.dumps(raw, ensure_ascii=False))
    path = tmp_path / f"{session}.jsonl"
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return path


def test_ann_ann_and_a_cyrillic_look_alike_are_one_player(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "brag.db")
    spellings = [
        ("s1", "Ann", "Top table"),
        ("s2", "ann", "top  table"),
        ("s3", CYRILLIC_A + "nn", "TOP table"),
    ]
    for session, name, table in spellings:
        assert (
            main(["import", "--db", db, str(_card_example_as(tmp_path, session, name, table))]) == 0
        )
    capsys.readouterr()
    assert main(["stats", "--db", db, "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert sorted(r["player"] for r in rows) == ["Ann", "B", "C", "D"]
    ann = next(r for r in rows if r["player"] == "Ann")
    assert (ann["sessions"], ann["deals"], ann["net"]) == ("3", "3", "-21")  # -7 in each
    for asked in ("ann", CYRILLIC_A + "NN"):
        assert main(["stats", "--db", db, "--player", asked, "--format", "csv"]) == 0
        assert "\nAnn,3,3,-21," in capsys.readouterr().out
    assert main(["leaderboard", "--db", db, "--table", "top TABLE", "--format", "csv"]) == 0
    board = capsys.readouterr().out
    assert board.count(",Ann,") == 3 and ",ann," not in board
    with duckdb.connect(str(tmp_path / "brag.duckdb"), read_only=True) as con:
        assert queries.tables(con) == ["Top table"]
        keys = con.execute("SELECT DISTINCT player_key FROM session_players ORDER BY 1").fetchall()
        assert keys == [("ann",), ("b",), ("c",), ("d",)]
        assert [r["player"] for r in queries.overall_leaderboard(con)] == []  # none finished
        stored = con.execute("SELECT player FROM session_players WHERE seat = 0 ORDER BY session")
        assert [r[0] for r in stored.fetchall()] == ["Ann", "ann", CYRILLIC_A + "nn"]  # as typed
