"""``brag import``, ``export``, ``sessions`` and ``replay`` on a SQLite store (in-process)."""

from __future__ import annotations

import json
import os
import stat
import uuid
from datetime import datetime
from pathlib import Path

import pytest
from shared_paths import SCENARIOS, needs_shared

from brag.cli import main
from log.open import open_store


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@needs_shared
def test_import_export_sessions_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "club.db")
    good = str(SCENARIOS / "card_example.jsonl")
    bad = str(SCENARIOS / "bet_below_level.jsonl")
    code, out, err = run(capsys, "import", good, bad, "--db", db)  # --db after the command
    assert code == 1
    assert f"{good}: session card-example: stored 16 events" in out
    assert f"2 files: 1 stored, 0 unchanged, 1 refused; store {db}" in out  # which store
    assert f"{bad}: invalid, nothing stored: line 8, bet: RULES 5.5:" in err
    assert "Traceback" not in err

    code, out, _ = run(capsys, "--db", db, "import", good)
    assert code == 0 and "unchanged (16 events already stored)" in out
    assert f"1 file: 0 stored, 1 unchanged, 0 refused; store {db}" in out

    code, out, _ = run(capsys, "--db", db, "sessions")
    assert code == 0 and "card-example" in out and "A, B, C, D" in out
    code, out, _ = run(capsys, "--db", db, "sessions", "--json")
    info = json.loads(out.splitlines()[0])
    assert info["session"] == "card-example" and info["deals"] == 1 and info["resolved_pots"] == 1

    target = tmp_path / "out.jsonl"
    code, _, err = run(capsys, "--db", db, "export", "card-example", "-o", str(target))
    assert code == 0 and "16 events" in err
    lines = target.read_text().splitlines()
    assert len(lines) == 16 and json.loads(lines[-1])["type"] == "pot_won"
    code, out, _ = run(capsys, "--db", db, "export", "card-example")
    assert out.splitlines() == lines
    code, out, _ = run(capsys, "--db", db, "import", str(target))
    assert code == 0 and "unchanged" in out  # import, export, import: a fixed point

    code, out, _ = run(capsys, "--db", db, "replay", "card-example", "--deal", "1")
    assert code == 0
    # The same narration as the dashboard's replayer (present.narrate).
    for text in (
        "A bets level 2: pays 2",
        "A sees B: pays 4, twice the level",
        "B wins the pot of 12",
        "folded",
    ):
        assert text in out, text
    assert "seen 7" in out  # what A has paid in the deal after seeing
    # Steps as the dashboard numbers them (seq 15 and 16 are steps 12 and 13 of deal 1).
    # The pot stays on the table until the pot_won line (engine State.pot_on_table) ...
    shown = next(line for line in out.splitlines() if line.startswith("│   12 │"))
    won = next(line for line in out.splitlines() if line.startswith("│   13 │"))
    assert [c.strip() for c in shown.split("│")][3] == "12", shown
    assert [c.strip() for c in won.split("│")][3] == "0", won
    assert "5♠ 6♥ 7♦" in won  # cards as the sentences write them (not 5s 6h 7d)
    # ... and a deal's replay ends with how that deal ended, not with the session's state.
    assert out.rstrip().splitlines()[-1].startswith("deal 1: B wins the pot of 12 at the showdown")


@pytest.mark.parametrize(
    "argv, message",
    [
        (["replay", "nope"], "no session 'nope'"),
        (["export", "nope"], "no session 'nope'"),
        (["replay", "card-example", "--deal", "9"], "has 1 deal;"),
        (["--db", "postgresql://nobody@127.0.0.1:1/none", "sessions"], "cannot connect"),
        (["--db", "mysql://root@localhost/x", "sessions"], "unsupported database"),
        (["--db", "/no/such/dir/x.db", "sessions"], "no event store"),
        (["--db", "/no/such/dir/x.db", "import", "x.jsonl"], "no directory"),
    ],
)
@needs_shared
def test_errors_are_one_line(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "club.db")
    run(capsys, "--db", db, "import", str(SCENARIOS / "card_example.jsonl"))
    if "--db" not in argv:
        argv = ["--db", db, *argv]
    code, _, err = run(capsys, *argv)
    assert code != 0
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_empty_store(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from log.open import open_store

    open_store(f"sqlite:///{tmp_path / 'e.db'}").close()
    code, out, _ = run(capsys, "--db", f"sqlite:///{tmp_path / 'e.db'}", "sessions")
    assert code == 0 and "no sessions" in out


def test_reading_commands_do_not_create_a_store(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A typo in --db must not silently make an empty store (nor an empty statistics file)."""
    typo = tmp_path / "clbu.db"
    for argv in (["sessions"], ["export", "x"], ["replay", "x"]):
        code, _, err = run(capsys, "--db", str(typo), *argv)
        assert code == 1 and "no event store at" in err
    for argv in (["stats"], ["leaderboard"]):
        with pytest.raises(SystemExit, match="no event store at"):
            main(["--db", str(typo), *argv])
    assert list(tmp_path.iterdir()) == []


@needs_shared
def test_an_import_that_stores_nothing_makes_no_store(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every file refused: no empty store is left behind (a later `brag sessions` says there is
    no store, as for a typo); the first file stored makes it."""
    db = tmp_path / "new.db"
    bad = str(SCENARIOS / "bet_below_level.jsonl")
    code, out, err = run(capsys, "--db", str(db), "import", bad, str(tmp_path / "missing.jsonl"))
    assert code == 1 and "RULES 5.5" in err and "cannot read" in err
    assert f"2 files: 0 stored, 0 unchanged, 2 refused; no store made at {db}" in out
    assert list(tmp_path.iterdir()) == []
    code, out, _ = run(
        capsys, "--db", str(db), "import", bad, str(SCENARIOS / "card_example.jsonl")
    )
    assert code == 1 and f"1 stored, 0 unchanged, 1 refused; store {db}" in out
    with open_store(str(db)) as store:
        assert [s.session for s in store.sessions()] == ["card-example"]


@needs_shared
def test_export_to_a_missing_folder_names_the_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "club.db")
    run(capsys, "--db", db, "import", str(SCENARIOS / "card_example.jsonl"))
    target = tmp_path / "no" / "such" / "x.jsonl"
    with pytest.raises(SystemExit, match=r"no folder .*such'? for .*x\.jsonl$"):
        main(["--db", db, "export", "card-example", "-o", str(target)])
    assert not (tmp_path / "no").exists()


@needs_shared
@pytest.mark.parametrize(("umask", "mode"), [(0o022, 0o644), (0o027, 0o640), (0o077, 0o600)])
def test_an_exported_file_gets_the_mode_open_would_give(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], umask: int, mode: int
) -> None:
    # A new file: 0666 less the umask (as open() makes it), though written under a temporary
    # name and renamed; a file replaced keeps its own mode.
    db = str(tmp_path / "club.db")
    run(capsys, "--db", db, "import", str(SCENARIOS / "card_example.jsonl"))
    new, kept = tmp_path / "new.jsonl", tmp_path / "kept.jsonl"
    kept.write_text("old")
    kept.chmod(0o604)
    old = os.umask(umask)
    try:
        for target in (new, kept):
            assert main(["--db", db, "export", "card-example", "-o", str(target)]) == 0
    finally:
        os.umask(old)
    assert stat.S_IMODE(new.stat().st_mode) == mode
    assert stat.S_IMODE(kept.stat().st_mode) == 0o604
    assert kept.read_text() == new.read_text() != "old"
    assert sorted(p.name for p in tmp_path.iterdir() if p.suffix == ".tmp") == []


def test_sessions_are_listed_oldest_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # brag sessions sorts by the recorded start (store.sessions() lists them as stored).
    db = str(tmp_path / "club.db")
    season = Path(__file__).resolve().parents[2] / "data" / "season"
    names = ["2026-11-20-back-1", "2026-09-24-top-1", "2026-10-01-top-1"]
    code, _, _ = run(capsys, "--db", db, "import", *(str(season / f"{n}.jsonl") for n in names))
    assert code == 0
    code, out, _ = run(capsys, "--db", db, "sessions", "--json")
    order = [json.loads(line)["session"] for line in out.splitlines()]
    assert order == ["2026-09-24-top-1", "2026-10-01-top-1", "2026-11-20-back-1"]


def test_import_of_a_session_stored_under_other_ids_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A store filled from the bundled season of an earlier version (other ids): unchanged.
    db = str(tmp_path / "club.db")
    src = Path(__file__).resolve().parents[2] / "data" / "season" / "2026-09-24-top-1.jsonl"
    lines = src.read_text().splitlines()
    old = tmp_path / "old.jsonl"
    old.write_text(
        "".join(json.dumps({**json.loads(x), "id": str(uuid.uuid4())}) + "\n" for x in lines)
    )
    assert run(capsys, "--db", db, "import", str(old))[0] == 0
    code, out, _ = run(capsys, "--db", db, "import", str(src))
    assert code == 0
    n = len(lines)
    assert f"unchanged ({n} events already stored; {n} under other ids, which are kept)" in out


@needs_shared
def test_replay_of_a_deal_whose_pot_was_voided_says_it_is_in_progress(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from events.model import Voided
    from log.open import open_store

    db = str(tmp_path / "club.db")
    assert run(capsys, "--db", db, "import", str(SCENARIOS / "card_example.jsonl"))[0] == 0
    code, out, _ = run(capsys, "--db", db, "replay", "card-example", "--deal", "1")
    assert out.rstrip().splitlines()[-1].startswith("deal 1: B wins the pot of 12")
    with open_store(db) as store:  # B's last shown card (seq 15) withdrawn, and its pot_won
        store.append("card-example", [Voided(seq=15)], 16)
    code, out, _ = run(capsys, "--db", db, "replay", "card-example", "--deal", "1")
    assert code == 0 and "B wins the pot of 12" in out  # the withdrawn line is still listed
    assert out.rstrip().splitlines()[-1] == "deal 1 is in progress: pot on the table 12"


def test_sessions_on_an_80_column_terminal_keep_the_ids_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The session id is what ``replay`` and ``export`` take: a narrow terminal splits the table
    into parts led by the id rather than cutting it to ``2026-0…``."""
    db = str(tmp_path / "club.db")
    season = Path(__file__).resolve().parents[2] / "data" / "season"
    files = sorted(season.glob("*.jsonl"))[:3]
    run(capsys, "--db", db, "import", *map(str, files))
    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = run(capsys, "--db", db, "sessions")
    assert code == 0
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 80 and "…" not in out
    parts = out.count("┏")
    assert parts >= 2 and out.count("(continued)") == parts - 1
    for f in files:  # each id whole, once per part
        assert sum(1 for line in lines if line.startswith(f"│ {f.stem} ")) == parts
    assert "Jean, Margaret, Colin, Sandra" in out  # 2026-09-24-top-1's seats, whole


def test_replay_on_an_80_column_terminal_is_a_few_lines_per_step(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Four players' columns do not fit 80 columns: each step comes as its sentence, the table
    (pot, level, whose turn) and the players' status, nothing cut to ``…``."""
    from rich.cells import cell_len

    db = str(tmp_path / "club.db")
    season = Path(__file__).resolve().parents[2] / "data" / "season"
    run(capsys, "--db", db, "import", str(season / "2026-09-24-top-1.jsonl"))
    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = run(capsys, "--db", db, "replay", "2026-09-24-top-1", "--deal", "1")
    assert code == 0 and "…" not in out and "┃" not in out
    lines = out.splitlines()
    assert max(cell_len(line) for line in lines) <= 80
    bet = lines.index(
        "   4  Jean bets level 2: pays 1, half the level, being blind"
    )  # step 4 (seq 7)
    assert lines[bet + 1] == "      pot 5, level 2, Margaret to act"  # RULES 5.3: blind pays half
    status = " ".join(lines[bet + 2 : bet + 4])
    assert "Jean: blind 2 6♣ 9♥ Q♥" in status and "Margaret: seen 1 A♥ 8♠ K♦" in status
    assert lines[-1].startswith("deal 1: Sandra wins the pot of 14 at the showdown")
    monkeypatch.setenv("COLUMNS", "250")  # wide enough: the table, a column per player
    code, out, _ = run(capsys, "--db", db, "replay", "2026-09-24-top-1", "--deal", "1")
    assert "┃ Jean " in out and "│    4 │ Jean bets level 2" in out


def test_import_says_when_the_file_gives_other_times_or_recorders(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The log is append-only: a file whose events differ from the stored ones only in ``at`` or
    ``by`` stores nothing, keeps the stored envelope, and says how many differ."""
    db = str(tmp_path / "club.db")
    season = Path(__file__).resolve().parents[2] / "data" / "season" / "2026-09-24-top-1.jsonl"
    run(capsys, "--db", db, "import", str(season))
    lines = season.read_text(encoding="utf-8").splitlines()
    edited = [json.loads(line) for line in lines]
    edited[9]["by"] = "somebody else"
    edited[10]["at"] = "2026-09-24T19:59:00+01:00"
    other = tmp_path / "edited.jsonl"
    other.write_text("".join(json.dumps(e) + "\n" for e in edited), encoding="utf-8")
    code, out, _ = run(capsys, "--db", db, "import", str(other))
    assert code == 0
    assert f"unchanged ({len(lines)} events already stored; 2 with another time (at) or " in out
    with open_store(db) as store:
        kept = store.events("2026-09-24-top-1")
    original = datetime.fromisoformat(json.loads(lines[10])["at"])
    assert kept[9].by == "simulator" and kept[10].at == original
    assert original != datetime.fromisoformat(edited[10]["at"])
