"""``brag season`` (issue 36 item 7): the JSON shape, two formulas side by side, each total equal
to the sum of ``brag night --json``'s nets over the season's dates, the log's position and the
rules' name carried, a correction (``brag amend``) moving both, and one-line refusals."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from brag.cli import main
from log.open import open_store

SEASON = sorted((Path(__file__).resolve().parents[2] / "data" / "season").glob("*.jsonl"))
OCTOBER = [str(p) for p in SEASON if p.name.startswith(("2026-10-01", "2026-10-02", "2026-10-08"))]


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = str(tmp_path / "club.db")
    assert main(["import", "--db", path, *OCTOBER]) == 0
    return path


def _json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict:  # type: ignore[type-arg]
    capsys.readouterr()
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1
    return json.loads(out)  # type: ignore[no-any-return]


def test_two_formulas_side_by_side(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["season", "--db", db, "--from", "2026-10-01", "--to", "2026-10-31"]
    got = _json(capsys, [*argv, "--formula", "total", "--formula", "points", "--json"])
    assert set(got) == {"from", "to", "state", "position", "rules", "nights", "unit", "formulas"}
    assert (got["from"], got["to"], got["state"], got["rules"]) == (
        "2026-10-01", "2026-10-31", "provisional", "standard",
    )  # fmt: skip
    assert got["nights"] == ["2026-10-01", "2026-10-02", "2026-10-08"]
    assert [f["formula"] for f in got["formulas"]] == ["total", "points"]
    nets: dict[str, Fraction] = {}
    played: dict[str, int] = {}
    for day in got["nights"]:
        night = _json(capsys, ["night", day, "--db", db, "--json"])
        for r in night["standings"]:
            nets[r["player"]] = nets.get(r["player"], Fraction(0)) + Fraction(r["net"])
            played[r["player"]] = played.get(r["player"], 0) + 1
    for formula in got["formulas"]:
        rows = formula["standings"]
        assert set(rows[0]) == {"player", "place", "score", "net", "nights"}
        assert {r["player"]: Fraction(r["net"]) for r in rows} == nets
        assert {r["player"]: r["nights"] for r in rows} == played
        assert [r["place"] for r in rows] == sorted(r["place"] for r in rows)
    total = got["formulas"][0]["standings"]
    assert {r["player"]: Fraction(r["score"]) for r in total} == nets
    assert all(isinstance(r["score"], str) for r in total)  # exact, as brag night writes it
    points = got["formulas"][1]["standings"]  # each night gives out its table's first places
    seated = [
        len(_json(capsys, ["night", d, "--db", db, "--json"])["standings"]) for d in got["nights"]
    ]
    given = sum(sum((10, 8, 6, 5, 4, 3, 2, 1)[:n]) for n in seated)
    assert sum(Fraction(r["score"]) for r in points) == given


def test_position_and_standings_move_with_a_correction(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["season", "--db", db, "--from", "2026-10-08", "--to", "2026-10-08", "--json"]
    before = _json(capsys, argv)
    session = "2026-10-08-top-2"
    with open_store(db) as store:
        last = next(s for s in reversed(list(store.timeline(session).steps)) if not s.derived)
    where = ["--deal", str(last.label.deal), "--step", last.label.text]
    assert main(["amend", "--db", db, session, *where, "--remove", "--yes"]) == 0
    after = _json(capsys, argv)
    assert after["position"] > before["position"]
    assert after["formulas"] != before["formulas"]
    night = _json(capsys, ["night", "2026-10-08", "--db", db, "--json"])
    assert {r["player"]: r["net"] for r in night["standings"]} == {
        r["player"]: r["score"] for r in after["formulas"][0]["standings"]
    }


def test_without_dates_every_night_stored(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    got = _json(capsys, ["season", "--db", db, "--json"])
    assert (got["from"], got["to"]) == ("2026-10-01", "2026-10-08")


def test_the_table_names_the_formulas_and_the_position(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main(["season", "--db", db, "--formula", "best 1 of 2", "--formula", "total"]) == 0
    out = capsys.readouterr().out
    assert "best:1:2" in out and "total" in out and "standard" in out
    assert "position" in out and "3 nights" in out


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (["--formula", "median"], "formula 'median' is not one of"),
        (["--from", "2026-10-32"], "--from '2026-10-32' is not YYYY-MM-DD"),
        (["--from", "2027-01-01", "--to", "2027-02-01"], "no session started from 2027-01-01"),
        (["--from", "2026-10-09", "--to", "2026-10-01"], "is after its last"),
    ],
)
def test_refusals_are_one_line(
    db: str, capsys: pytest.CaptureFixture[str], argv: list[str], line: str
) -> None:
    capsys.readouterr()
    with pytest.raises(SystemExit) as exited:
        main(["season", "--db", db, *argv])
    assert line in str(exited.value) and "\n" not in str(exited.value).strip()


def test_a_night_finalised_makes_its_season_final(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["season", "--db", db, "--from", "2026-10-01", "--to", "2026-10-01", "--json"]
    assert _json(capsys, argv)["state"] == "provisional"
    capsys.readouterr()
    assert main(["night", "2026-10-01", "--db", db, "--finalise", "--by", "director"]) == 0
    assert _json(capsys, argv)["state"] == "final"
    both = [*argv[:5], "--to", "2026-10-02", "--json"]
    assert _json(capsys, both)["state"] == "provisional"  # the 2nd is not final yet


def test_the_statistics_file_beside_the_store_gives_the_same_season(
    db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """With ``brag analytics refresh``'s file beside the store, the nights are summed from it
    (none folded, issue 37 item 5); a night stored since is folded; the JSON is the same as
    without the file (its nights all folded), but for the position a new session moves."""
    from service import season_nights

    argv = ["season", "--db", db, "--formula", "total", "--formula", "points", "--json"]
    folded: list[str] = []
    night = season_nights.folded

    def counted(store: object, day: object) -> object:
        folded.append(str(day))
        return night(store, day)  # type: ignore[arg-type]

    monkeypatch.setattr(season_nights, "folded", counted)
    without = _json(capsys, argv)
    assert len(folded) == 3  # no file beside the store: every night folded
    assert main(["analytics", "refresh", "--db", db]) == 0
    folded.clear()
    assert _json(capsys, argv) == without and folded == []
    later = next(str(p) for p in SEASON if p.name.startswith("2026-10-09"))
    assert main(["import", "--db", db, later]) == 0
    with_new = _json(capsys, [*argv[:3], "--to", "2026-10-31", *argv[3:]])
    assert folded == ["2026-10-09"]  # the night the file has not caught up with
    (Path(db).with_suffix(".duckdb")).unlink()
    folded.clear()
    assert _json(capsys, [*argv[:3], "--to", "2026-10-31", *argv[3:]]) == with_new
    assert len(folded) == 4
