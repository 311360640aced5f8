"""The players' register on the command line (issue 35 item 2): ``brag players merge`` moves a
recorded name's deals under the merged name in ``brag stats``, the projection's rows and the
Parquet lake; ``brag players undo`` moves them back; ``rename`` shows the new name; the logs are
never rewritten. ``--player`` with an unknown name offers the nearest (issue 35, smaller items)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import duckdb
import pytest

from brag.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "data" / "examples"


def _as(tmp_path: Path, session: str, a: str) -> str:
    """The card's worked example as ``session``, its player A seated as ``a`` (A nets -7)."""
    out = []
    for line in (EXAMPLES / "card_example.jsonl").read_text(encoding="utf-8").splitlines():
        raw = json.loads(line)
        raw.pop("id", None)
        if raw["type"] == "session_started":
            raw.update(session=session, table="Top table")
            raw["seats"] = [a if s == "A" else s for s in raw["seats"]]
        if raw.get("player") == "A":
            raw["player"] = a
        out.append(json.dumps(raw))
    path = tmp_path / f"{session}.jsonl"
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return str(path)


def _stats(db: str, capsys: pytest.CaptureFixture[str]) -> dict[str, tuple[str, str, str]]:
    capsys.readouterr()
    assert main(["stats", "--db", db, "--format", "csv"]) == 0
    rows = csv.DictReader(io.StringIO(capsys.readouterr().out))
    return {r["player"]: (r["sessions"], r["deals"], r["net"]) for r in rows}


def _lake(db: str, lake: Path) -> dict[str, int]:
    assert main(["export", "--db", db, "--parquet", str(lake)]) == 0
    rows = duckdb.sql(
        f"SELECT player_key, count(*) FROM read_parquet('{lake}/player_deals/**/*.parquet', "
        "hive_partitioning=true) GROUP BY 1"
    ).fetchall()
    return dict(rows)


def test_a_merge_moves_the_statistics_and_its_undo_moves_them_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, lake = str(tmp_path / "club.db"), tmp_path / "lake"
    logs = [_as(tmp_path, "s1", "Jean"), _as(tmp_path, "s2", "Jaen"), _as(tmp_path, "s3", "Jean")]
    assert main(["import", "--db", db, *logs]) == 0
    before = _stats(db, capsys)
    assert before["Jean"] == ("2", "2", "-14") and before["Jaen"] == ("1", "1", "-7")
    assert _lake(db, lake) == {"jean": 2, "jaen": 1, "b": 3, "c": 3, "d": 3}

    capsys.readouterr()
    assert main(["players", "merge", "Jaen", "Jean", "--db", db, "--by", "Ann"]) == 0
    assert "Jaen merged into Jean" in capsys.readouterr().out
    merged = _stats(db, capsys)
    assert merged["Jean"] == ("3", "3", "-21") and "Jaen" not in merged
    assert main(["stats", "--db", db, "--player", "jaen", "--format", "csv"]) == 0
    assert "\nJean,3,3,-21," in capsys.readouterr().out  # a merged name: the player it is now
    with duckdb.connect(str(tmp_path / "club.duckdb"), read_only=True) as con:
        rows = con.execute(
            "SELECT session, player FROM player_deals WHERE player_key = 'jean' ORDER BY 1"
        ).fetchall()
    assert rows == [("s1", "Jean"), ("s2", "Jaen"), ("s3", "Jean")]  # as recorded, one key
    assert _lake(db, lake) == {"jean": 3, "b": 3, "c": 3, "d": 3}
    stats = duckdb.sql(f"SELECT player, deals FROM '{lake}/player_stats/data.parquet'").fetchall()
    assert ("Jean", 3) in stats
    assert main(["analytics", "refresh", "--db", db, "--rebuild", "--jobs", "2"]) == 0
    assert _stats(db, capsys) == merged  # a parallel rebuild follows the register too

    assert main(["players", "undo", "--db", db]) == 0
    assert _stats(db, capsys) == before
    assert _lake(db, lake) == {"jean": 2, "jaen": 1, "b": 3, "c": 3, "d": 3}
    capsys.readouterr()
    assert main(["export", "--db", db, "s2"]) == 0
    assert '"Jaen"' in capsys.readouterr().out  # the log is as recorded


def test_a_rename_shows_the_new_name_and_the_list_says_it_all(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "club.db")
    assert main(["import", "--db", db, _as(tmp_path, "s1", "Jean")]) == 0
    assert main(["players", "rename", "Jean", "Jean Smith", "--db", db]) == 0
    assert _stats(db, capsys)["Jean Smith"] == ("1", "1", "-7")
    assert main(["players", "list", "--db", db, "--json"]) == 0
    facts = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(f["kind"], f["name"], f["target"], f["in_force"]) for f in facts] == [
        ("rename", "Jean", "Jean Smith", True)
    ]


def test_refusals_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "club.db")
    assert main(["import", "--db", db, _as(tmp_path, "s1", "Jean")]) == 0
    with pytest.raises(SystemExit, match=r"^brag: no player named Jon; did you mean Jean\?$"):
        main(["stats", "--db", db, "--player", "Jon"])
    capsys.readouterr()
    assert main(["players", "merge", "B", "Jean", "--db", db]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "sat in one session" in err and "RULES 1.3" in err
    assert main(["players", "undo", "--db", db]) == 1
    assert "nothing to undo" in capsys.readouterr().err


@pytest.mark.postgres
def test_on_postgresql_a_merge_and_its_undo_move_the_statistics(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from store_helpers import pg_store, pg_url, require_pg

    require_pg()
    with pg_store() as store:
        for log in (_as(tmp_path, "s1", "Jean"), _as(tmp_path, "s2", "Jaen")):
            store.import_log(log)
        db = f"{pg_url()}?options=-csearch_path%3D{store.schema}"
        where = ["--db", db, "--analytics", str(tmp_path / "pg.duckdb")]

        def jean() -> str:
            capsys.readouterr()
            assert main(["stats", *where, "--format", "csv"]) == 0
            rows = csv.DictReader(io.StringIO(capsys.readouterr().out))
            return next(r["deals"] for r in rows if r["player"] == "Jean")

        assert jean() == "1"
        assert main(["players", "merge", "Jaen", "Jean", *where[:2]]) == 0
        assert jean() == "2"
        assert main(["players", "undo", *where[:2]]) == 0
        assert jean() == "1"
