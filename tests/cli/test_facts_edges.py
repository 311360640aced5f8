"""The facts' rough edges (issue 20, item 4): every column has a meaning, the lake's partition is
``table_name`` (older exports with ``table`` still read), and a table is found by its name as
the project keys names (case and spacing aside), or a clear error."""

from __future__ import annotations

import json
import os
from pathlib import Path

import duckdb
import pytest

from brag.cli import main

ROOT = Path(__file__).resolve().parents[2]
SEASON = sorted(str(p) for p in (ROOT / "data" / "season").glob("*.jsonl"))[:6]


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("club")
    assert main(["import", "--db", str(folder / "club.db"), *SEASON]) == 0
    assert main(["export", "--db", str(folder / "club.db"), "--parquet", str(folder / "lake")]) == 0
    return folder


def test_every_fact_column_has_a_meaning(club: Path) -> None:
    import analytics.explore

    with duckdb.connect(str(club / "club.duckdb"), read_only=True) as con:
        tables = analytics.explore.schema(con)
    assert {t["table"] for t in tables} >= {"events", "deals", "player_deals", "sessions"}
    empty = [f"{t['table']}.{c['name']}" for t in tables for c in t["columns"] if not c["comment"]]
    assert empty == []
    docs = {
        (t["table"], c["name"]): c["comment"] for t in tables for c in t["columns"]
    }  # the columns the issue named
    assert "Ticks per stake unit" in docs[("player_deals", "den")]
    assert "RULES 3.1" in docs[("player_deals", "is_dealer")]
    assert "0 = the first name of session_started.seats" in docs[("player_deals", "seat")]


def _top_table_rows(path: Path) -> int:
    with duckdb.connect(str(path), read_only=True) as con:
        found = con.execute(
            "SELECT count(*) FROM player_deals JOIN sessions USING (session) "
            "WHERE table_name = 'Top table'"
        ).fetchall()
    return int(found[0][0])


def test_a_table_is_found_by_its_name_whatever_the_case(club: Path) -> None:
    from analytics import api

    want = _top_table_rows(club / "club.duckdb")
    assert want > 0
    for src in (club / "club.duckdb", club / "lake"):
        facts = api.open_facts(src)
        for name in ("Top table", "Top Table", "  TOP   table "):
            rel = api.load_player_deals(facts, table=name)
            assert len(rel.fetchall()) == want, (src, name)
        with pytest.raises(ValueError) as none:
            api.load_player_deals(facts, table="Top tabel")
        said = str(none.value)
        assert said.startswith("no table 'Top tabel' in ") and "Top table" in said
        marg = api.load_player_deals(facts, player="MARGARET").df()
        assert set(marg["player"]) == {"Margaret"}


def test_the_lake_partitions_by_table_name_and_old_exports_still_read(
    club: Path, tmp_path: Path
) -> None:
    import shutil

    from analytics import api

    lake = club / "lake"
    folders = sorted(p.name for p in (lake / "player_deals").iterdir())
    assert folders and all(f.startswith("table_name=") for f in folders)
    plain = duckdb.connect()  # a reader of the lake needs no quotes any more
    top = plain.execute(
        f"SELECT count(*) FROM read_parquet('{lake}/player_deals/**/*.parquet', "
        "hive_partitioning=true) WHERE table_name = 'Top table'"
    ).fetchall()
    assert top == [(_top_table_rows(club / "club.duckdb"),)]
    # An export written before the rename: partitions named "table", manifest version 1.
    old = tmp_path / "old"
    shutil.copytree(lake, old)
    for table_dir in old.iterdir():
        for part in list(table_dir.glob("table_name=*")):
            part.rename(table_dir / part.name.replace("table_name=", "table=", 1))
    manifest = old / "_bragbook_export.json"
    data = json.loads(manifest.read_text(encoding="utf-8"))
    manifest.write_text(json.dumps({**data, "version": 1}), encoding="utf-8")
    keys = ["session", "deal", "seat"]
    new_rows = api.load_player_deals(lake).df().sort_values(keys).reset_index(drop=True)
    old_rows = api.load_player_deals(old).df().sort_values(keys).reset_index(drop=True)
    assert "table" not in old_rows.columns
    assert old_rows[[*keys, "table_name", "month"]].equals(new_rows[[*keys, "table_name", "month"]])
    assert len(api.load_player_deals(old, table="top table").fetchall()) == _top_table_rows(
        club / "club.duckdb"
    )
    # Exporting into the old folder writes it again, in full, with the new name.
    assert main(["export", "--db", str(club / "club.db"), "--parquet", str(old)]) == 0
    names = {p.name.split("=")[0] for p in old.glob("*/*=*")}
    assert names == {"table_name"}
    assert json.loads(manifest.read_text(encoding="utf-8"))["version"] == 2
    assert os.path.exists(old / "player_deals")
