"""``brag notes`` (issue 21, item 2): list, add and hide notes on a stored session's steps; the
session's export is byte for byte the same with notes; a hostile note stays text on the terminal."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from shared_paths import SCENARIOS, needs_shared

from brag.cli import main
from log.annotations import add_note
from present.replay import Replay

S = "card-example"


def _recorded(store: Any) -> Replay:
    """The session as recorded, as ``brag notes`` and the notes' route read it (issue 32)."""
    return Replay.of(store.events(S), recorded=True)


HOSTILE = "\x1b[2J\x1b[31mred\r [bold]b[/bold] <script>alert(1)</script> **md** \u202eevil\nnext"

pytestmark = needs_shared  # every test here reads the scenarios


@pytest.fixture
def db(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    path = str(tmp_path / "brag.db")
    assert main(["import", str(SCENARIOS / "card_example.jsonl"), "--db", path]) == 0
    capsys.readouterr()
    return path


def _out(capsys: pytest.CaptureFixture[str], argv: list[str], status: int = 0) -> str:
    assert main(argv) == status
    return capsys.readouterr().out


def test_notes_are_added_listed_and_hidden(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert _out(capsys, ["notes", "card-example", "--db", db]) == (
        "no notes on session card-example\n"
    )
    add = ["notes", "add", "card-example", "--deal", "1", "--step", "5", "--db", db]
    said = _out(capsys, [*add, "--text", "should have folded here", "--by", "Ann"])
    # Deal 1's fifth line of the card example is D's look (dealt, A, B, C, D look).
    assert said.startswith("Stored note #1 on deal 1, step 5 (D looks at their cards) of session")
    _out(capsys, [*add[:4], "0", "--step", "2", "--db", db, "--text", "lot", "--by", "Bo"])
    lines = _out(capsys, ["notes", "card-example", "--json", "--db", db]).splitlines()
    got = [json.loads(x) for x in lines]
    assert [(n["id"], n["deal"], n["step"], n["by"], n["text"], n["hidden"]) for n in got] == [
        (2, 0, 2, "Bo", "lot", False),
        (1, 1, 5, "Ann", "should have folded here", False),
    ]
    said = _out(capsys, ["notes", "hide", "card-example", "1", "--db", db])
    assert said == "Note #1 of session card-example is hidden; it is kept.\n"
    listed = _out(capsys, ["notes", "card-example", "--db", db])
    assert "lot" in listed and "should have folded" not in listed
    listed = _out(capsys, ["notes", "card-example", "--hidden", "--db", db])
    assert "should have folded here" in listed and "[hidden]" in listed


def test_the_export_is_byte_for_byte_the_same_with_notes(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before, after = tmp_path / "before.jsonl", tmp_path / "after.jsonl"
    _out(capsys, ["export", "card-example", "-o", str(before), "--db", db])
    add = ["notes", "add", "card-example", "--deal", "1", "--step", "13", "--db", db]
    _out(capsys, [*add, "--text", HOSTILE, "--by", "Ann"])
    _out(capsys, ["notes", "hide", "card-example", "1", "--db", db])
    _out(capsys, ["export", "card-example", "-o", str(after), "--db", db])
    assert before.read_bytes() == after.read_bytes()
    assert len(before.read_bytes().splitlines()) == 16  # 15 lines and the pot_won


def test_a_hostile_note_stays_text(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    add = ["notes", "add", "card-example", "--deal", "1", "--step", "1", "--db", db]
    _out(capsys, [*add, "--text", HOSTILE, "--by", "[red]Eve\x1b[0m"])
    listed = _out(capsys, ["notes", "card-example", "--db", db])
    assert "\x1b" not in listed and "\r" not in listed and "\u202e" not in listed
    assert len(listed.splitlines()) == 2  # the note's heading and its text, one line each
    assert "\\x1b[2J\\x1b[31mred\\r [bold]b[/bold] <script>alert(1)</script> **md**" in listed
    assert "\\u202eevil\\nnext" in listed and "by [red]Eve\\x1b[0m" in listed
    got = json.loads(_out(capsys, ["notes", "card-example", "--json", "--db", db]))
    assert got["text"] == HOSTILE  # JSON keeps the text as written, escaped by JSON itself


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["notes", "add", S, "--deal", "1"], "brag notes: add needs --step, --text, --by"),
        (["notes", "add", S, "--deal", "1", "--step", "14", "--text", "x", "--by", "A"],
         f"brag: deal 1 of session '{S}' has no step 14 (its steps are 1 to 13)"),
        (["notes", "hide", S, "9"], f"brag notes: session '{S}' has no note #9"),
        (["notes", "hide", S, "x"], "brag notes: NOTE is a note's number"),
        (["notes", "nosuch"], "brag: no session 'nosuch' in the store"),
        (["notes", "a", "b"], "brag notes: one session to list, not 2 words"),
    ],
)  # fmt: skip
def test_refusals_are_one_line(
    db: str, capsys: pytest.CaptureFixture[str], argv: list[str], said: str
) -> None:
    try:
        status = main([*argv, "--db", db])
    except SystemExit as stop:  # a CommandError leaves as SystemExit with its line
        err = str(stop.code)
    else:
        assert status == 1
        err = capsys.readouterr().err.strip()
    assert err.startswith(said) and "\n" not in err
    assert _out(capsys, ["notes", "card-example", "--hidden", "--db", db]).startswith("no notes")


def test_private_cards_reach_neither_the_lake_nor_the_statistics(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import duckdb

    from log.annotations import private_cards, set_private_cards
    from log.open import open_store

    def lake(name: str) -> tuple[dict[str, list[str]], str]:
        """The Parquet lake and the statistics of a projection built from nothing, as text."""
        out, projection = tmp_path / name, str(tmp_path / f"{name}.duckdb")
        _out(capsys, ["export", "--parquet", str(out), "--db", db, "--analytics", projection])
        con = duckdb.connect()
        rows = {
            t.name: sorted(
                repr(r)
                for r in con.execute(
                    f"SELECT * FROM read_parquet('{t}/**/*.parquet', hive_partitioning = true)"
                ).fetchall()
            )
            for t in sorted(out.iterdir())
            if t.is_dir()
        }
        stats = ["stats", "--db", db, "--analytics", projection, "--format", "json"]
        return rows, _out(capsys, stats)

    before = lake("before")
    with open_store(db) as store:  # C and D folded unseen: their cards are no one's to know
        set_private_cards(store, _recorded(store), 1, "C", ["Ah", "Ad", "Ac"])
        set_private_cards(store, _recorded(store), 1, "D", ["2h", "3h", "4h"])
        add_note(store, _recorded(store), 1, 11, "C held aces", "C")
        assert private_cards(store, _recorded(store), "C")[1].cards == ("Ah", "Ad", "Ac")
    after = lake("after")
    assert after == before
    assert len(after[0]["player_deals"]) == 4 and '"net": "9"' in after[1]
    text = repr(after)
    for card in ("Ah", "Ad", "Ac", "2h", "3h", "4h", "A♥", "A♦", "A♣"):
        assert card not in text


def test_notes_are_numbered_in_their_session_not_by_the_stores_id(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 35 (item 6d): a session's first note is #1 though the store holds other sessions'
    notes and remembered cards (one global id for all of them); the numbers follow the order
    written, hidden notes keep theirs, and ``hide`` by the number shown hides that very note."""
    assert main(["import", str(SCENARIOS / "blind_pays_half.jsonl"), "--db", db]) == 0
    other = ["notes", "add", "blind-half", "--deal", "1", "--step", "2", "--db", db]
    _out(capsys, [*other, "--text", "elsewhere", "--by", "Ann"])
    _out(capsys, [*other, "--text", "elsewhere again", "--by", "Ann"])
    add = ["notes", "add", "card-example", "--deal", "1", "--step", "5", "--db", db]
    said = _out(capsys, [*add, "--text", "first here", "--by", "Bo"])
    assert said.startswith("Stored note #1 on deal 1, step 5")
    said = _out(capsys, [*add[:6], "3", *add[7:], "--text", "second here", "--by", "Cy"])
    assert said.startswith("Stored note #2 on deal 1, step 3")
    got = [json.loads(x) for x in _out(capsys, ["notes", "card-example", "--json", "--db", db])
           .splitlines()]  # fmt: skip
    assert [(n["number"], n["id"], n["text"]) for n in got] == [
        (2, 4, "second here"),  # listed by step: step 3 first
        (1, 3, "first here"),
    ]
    listed = _out(capsys, ["notes", "card-example", "--db", db])
    assert listed.startswith("#2 deal 1, step 3") and "\n#1 deal 1, step 5" in listed
    said = _out(capsys, ["notes", "hide", "card-example", "#1", "--db", db])
    assert said == "Note #1 of session card-example is hidden; it is kept.\n"
    listed = _out(capsys, ["notes", "card-example", "--hidden", "--db", db])
    assert "#1 deal 1, step 5" in listed and "first here" in listed and "[hidden]" in listed
    assert "elsewhere" not in _out(capsys, ["notes", "card-example", "--db", db])
    kept = [json.loads(x) for x in _out(capsys, ["notes", "blind-half", "--json", "--db", db])
            .splitlines()]  # fmt: skip
    assert [(n["number"], n["hidden"]) for n in kept] == [(1, False), (2, False)]
