"""``brag night DATE`` (issue 36, first slice): the JSON shapes of the standings and of the
settlement, exact amounts as FORMAT.md writes them, money at ``--stake``, names shown inert, and
one-line refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from brag.cli import main
from brag.cmd_night import money_text

SEASON = sorted((Path(__file__).resolve().parents[2] / "data" / "season").glob("*.jsonl"))
FIRST = [str(p) for p in SEASON if p.name.startswith("2026-09-24-")]


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = str(tmp_path / "club.db")
    assert main(["import", "--db", path, *FIRST]) == 0
    return path


def _json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict:  # type: ignore[type-arg]
    capsys.readouterr()
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1
    return json.loads(out)  # type: ignore[no-any-return]


def test_standings_json(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    got = _json(capsys, ["night", "2026-09-24", "--db", db, "--json"])
    assert set(got) == {"date", "club", "state", "sessions", "unit", "pot", "standings", "final",
                        "present", "stake_setting", "flags", "corrected_after_final"}  # fmt: skip
    assert (got["date"], got["club"], got["state"], got["unit"], got["pot"]) == (
        "2026-09-24", None, "provisional", "stake units", "0",
    )  # fmt: skip
    assert len(got["sessions"]) == 4 and all(s["finished"] for s in got["sessions"])
    rows = got["standings"]
    assert rows[0] == {"player": "Sandra", "net": "103", "sessions": 3, "tables": ["Top table"]}
    assert {"player": "Tony", "net": "-119/2", "sessions": 1, "tables": ["Window table"]} in rows
    assert [r["player"] for r in rows] == [
        "Sandra", "Bev", "Gary", "Colin", "Dave", "Jean", "Keith", "Tony", "Margaret",
    ]  # fmt: skip


def test_settle_json_in_units_and_in_money(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    units = _json(capsys, ["night", "2026-09-24", "--db", db, "--settle", "--json"])
    assert (units["unit"], units["stake"]) == ("stake units", None)
    transfers = units["transfers"]
    assert len(transfers) == 8  # 9 players with a non-zero net
    assert transfers[0] == {"from": "Margaret", "to": "Sandra", "amount": "61"}
    assert {"from": "Tony", "to": "Bev", "amount": "93/2"} in transfers
    money = _json(
        capsys, ["night", "2026-09-24", "--db", db, "--settle", "--stake", "0.50", "--json"]
    )
    assert (money["unit"], money["stake"]) == ("money", "0.5")
    assert {"from": "Tony", "to": "Bev", "amount": "23.25"} in money["transfers"]
    assert [(t["from"], t["to"]) for t in money["transfers"]] == [
        (t["from"], t["to"]) for t in transfers
    ]


def test_plain_table(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["night", "2026-09-24", "--db", db]) == 0
    out = capsys.readouterr().out
    assert "Night of 2026-09-24, provisional" in out and "-119/2" in out and "Sandra" in out
    assert main(["night", "2026-09-24", "--db", db, "--settle", "--stake", "0.5"]) == 0
    out = capsys.readouterr().out
    assert "23.25" in out and "in money at 0.5 a stake unit" in out


def test_a_name_is_shown_as_data(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Markup in a name is printed as it is, not rendered (brag.safe_console)."""
    text = SEASON[0].read_text(encoding="utf-8").replace('"Sandra"', '"[red]San[/red]"')
    log = tmp_path / "odd.jsonl"
    log.write_text(text, encoding="utf-8")
    db = str(tmp_path / "odd.db")
    assert main(["import", "--db", db, str(log)]) == 0
    capsys.readouterr()
    assert main(["night", "2026-09-24", "--db", db]) == 0
    out = capsys.readouterr().out
    assert "[red]San[/red]" in out and "\x1b" not in out


def test_club_filters_no_session_and_says_so(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    got = _json(capsys, ["night", "2026-09-24", "--db", db, "--club", "Crown", "--json"])
    assert got["club"] == "Crown" and len(got["sessions"]) == 4
    capsys.readouterr()
    assert main(["night", "2026-09-24", "--db", db, "--club", "Crown", "--json"]) == 0
    assert "filters no session" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (["night", "24/09/2026"], r"^brag night: DATE '24/09/2026' is not YYYY-MM-DD$"),
        (["night", "2026-09-23"], r"^brag night: no session started on 2026-09-23 \(see brag"),
        (["night", "2026-09-24", "--settle", "--stake", "0,5"], r"^brag night: --stake '0,5': "),
        (["night", "2026-09-24", "--settle", "--stake", "0"], r"^brag night: --stake '0': "),
    ],
)  # fmt: skip
def test_refusals_are_one_line(db: str, argv: list[str], line: str) -> None:
    with pytest.raises(SystemExit, match=line) as err:
        main([*argv, "--db", db])
    assert "\n" not in str(err.value.code)


def test_a_pot_on_the_table_refuses_the_settlement(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "going.jsonl"
    lines = SEASON[0].read_text(encoding="utf-8").splitlines()[:12]
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    db = str(tmp_path / "going.db")
    assert main(["import", "--db", db, str(log)]) == 0
    got = _json(capsys, ["night", "2026-09-24", "--db", db, "--json"])
    assert got["sessions"][0]["finished"] is False and got["pot"] != "0"
    total = sum(_fraction(r["net"]) for r in got["standings"]) + _fraction(got["pot"])
    assert total == 0
    with pytest.raises(SystemExit, match=r"^brag night: cannot settle the night: session "
                       r"'2026-09-24-top-1' has a pot of \d+ on the table"):  # fmt: skip
        main(["night", "2026-09-24", "--db", db, "--settle"])


def _fraction(text: str) -> object:
    from fractions import Fraction

    return Fraction(text)


def test_money_text() -> None:
    from fractions import Fraction

    cases = {Fraction(17, 4): "4.25", Fraction(-3): "-3", Fraction(1, 3): "1/3",
             Fraction(-1, 20): "-0.05", Fraction(1, 2): "0.5", Fraction(7, 6): "7/6"}  # fmt: skip
    assert {v: money_text(v) for v in cases} == cases
