"""Hostile input (issue 13): each class of failure the adversarial trial found, with several inputs,
asserting the exact outcome: the exit code, the one line (naming the line, the event and the rule
or bound), the store unchanged, the other sessions intact.

Classes here: 1 bounds (verify and import), 4 crashes that must be FORMAT errors and a multi-file
import that must try every file, 5 costly input refused at once, 7 control characters (refused in
new logs, escaped in the terminal when an old store holds them), 10 ``export -o`` targets, 11
Unicode digits and the first ``seq``. Classes 3 and 9 are in
``tests/log/test_schema_and_migrations.py`` and ``tests/cli/test_store_schema_on_the_commands.py``,
8 in ``test_markdown_injection.py``, 6 in
``test_concurrent_imports.py``, 1 (projection) and 2 (Explore) in
``test_hostile_statistics.py``."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from refusal_helpers import CARD, LINES, log_with, run, verify_and_import

from log.open import open_store

BOUNDS = 'docs/format.md "Bounds"'


def raw_bet(value: str) -> str:
    """Line 9 (A's bet) with ``level`` written as this raw JSON text."""
    return f'{{"type": "bet", "player": "A", "level": {value}, "v": 1, "seq": 9}}'


# --- 1: every rule parameter and amount has bounds ----------------------------------------------

RULES_OUT_OF_BOUNDS = [
    ({"pots": 10_000_000_000}, "field 'rules.pots': 10000000000 is out of bounds: at most 1000"),
    ({"pots": 1001}, "field 'rules.pots': 1001 is out of bounds: at most 1000"),
    ({"ante": "1/1073741824"}, "field 'rules.ante': '1/1073741824' is out of bounds"),
    ({"ante": 10**19}, "field 'rules.ante': 10000000000000000000 is out of bounds"),
    (
        {"ante": "1/7919"},
        "the ante 1/7919 is out of bounds: at most 1,000,000 stake units, its "
        "denominator dividing 25,200",
    ),
    ({"ante": 1_000_001}, "the ante 1000001 is out of bounds"),
    ({"open_max": 3_000_000_000}, "field 'rules.open_max': 3000000000 is out of bounds"),
    ({"raise_max": 1001}, "field 'rules.raise_max': 1001 is out of bounds: at most 1000"),
]


@pytest.mark.parametrize(("rules", "message"), RULES_OUT_OF_BOUNDS)
def test_rule_parameters_out_of_bounds_are_format_errors(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, rules: dict[str, Any], message: str
) -> None:
    path = log_with(tmp_path, "rules", {1: {"rules": rules}})
    line, _ = verify_and_import(capsys, tmp_path, path)
    assert line.startswith(f"{path}: line 1, session_started: FORMAT: ")
    assert message in line
    assert BOUNDS in line


@pytest.mark.parametrize(
    ("level", "message"),
    [
        ("3000000000", "the level 3000000000 is out of bounds: at most 1,000,000"),
        ("1000001", "the level 1000001 is out of bounds"),
        ('"10000000000000"', "is out of bounds: amounts are at most 10^12 stake units"),
        ('"1/3000000"', "'1/3000000' is out of bounds"),
    ],
)
def test_levels_and_amounts_out_of_bounds(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, level: str, message: str
) -> None:
    path = log_with(tmp_path, "level", {9: raw_bet(level)})
    line, _ = verify_and_import(capsys, tmp_path, path)
    assert line.startswith(f"{path}: line 9, bet: FORMAT: field 'level': ")
    assert message in line


def test_the_largest_values_within_bounds_are_accepted(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    rules = {"pots": 1000, "ante": "999999/25200", "open_max": 1000, "raise_max": 1000}
    path = log_with(tmp_path, "edge", {1: {"rules": rules}, 9: raw_bet("1000")})
    # the card example's later bets no longer fit a level of 1000: only the first 9 lines
    Path(path).write_text("\n".join(Path(path).read_text().splitlines()[:9]) + "\n")
    code, out, _ = run(capsys, "verify", path)
    assert code == 0, out
    db = str(tmp_path / "edge.db")
    code, out, _ = run(capsys, "--db", db, "import", path)
    assert code == 0 and "stored 9 events" in out


# --- 4: crashes that are FORMAT errors; a multi-file import tries every file --------------------


@pytest.mark.parametrize(
    ("edit", "where", "message"),
    [
        ({1: "[" * 1000 + "]" * 1000}, "line 1: FORMAT: ", "not valid JSON (nested too deeply)"),
        (
            {1: '{"type": "session_started", "a": ' + "[" * 5000 + "]" * 5000 + "}"},
            "line 1: FORMAT: ",
            "not valid JSON (nested too deeply)",
        ),
        (
            {1: {"seats": ["\ud800", "B", "C", "D"]}},
            "line 1, session_started: FORMAT: ",
            "field 'seats.0': a name holds U+D800, which is not printable",
        ),
        (
            {9: raw_bet("1e5000")},
            "line 9, bet: FORMAT: ",
            "field 'level': 1E+5000 is out of bounds",
        ),
        (
            {1: {"rules": {"ante": "1e-5000"}}},
            "line 1, session_started: FORMAT: ",
            "field 'rules.ante': '1e-5000' is not an amount",
        ),
        (
            {
                1: '{"type": "session_started", "session": "x", "seats": ["A", "B"], '
                '"cards": "shown", "rules": {"ante": 1e-5000}}'
            },
            "line 1, session_started: FORMAT: ",
            "field 'rules.ante': 1E-5000 is out of bounds",
        ),
    ],
)
def test_crashes_of_the_trial_are_format_errors(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    edit: dict[int, Any],
    where: str,
    message: str,
) -> None:
    path = log_with(tmp_path, "crash", edit)
    line, _ = verify_and_import(capsys, tmp_path, path)
    assert line.startswith(f"{path}: {where}"), line
    assert message in line


def test_an_import_tries_every_file_and_always_sums_up(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    good_a = log_with(tmp_path, "a", {1: {"session": "a"}})
    bad = log_with(tmp_path, "bad", {1: "[" * 1000 + "]" * 1000})
    surrogate = log_with(tmp_path, "sur", {1: {"session": "s", "seats": ["\ud800", "B", "C", "D"]}})
    missing = str(tmp_path / "missing.jsonl")
    good_b = log_with(tmp_path, "b", {1: {"session": "b"}})
    db = str(tmp_path / "club.db")
    code, out, err = run(capsys, "--db", db, "import", good_a, bad, surrogate, missing, good_b)
    assert code == 1
    assert f"{good_a}: session a: stored 16 events" in out
    assert f"{good_b}: session b: stored 16 events" in out
    assert "5 files: 2 stored, 0 unchanged, 3 refused" in out
    assert len(err.strip().splitlines()) == 3 and "Traceback" not in err
    with open_store(db, readonly=True) as s:
        assert [i.session for i in s.sessions()] == ["a", "b"]


# --- 5: a small log never costs much; a long line is refused at once ----------------------------


@pytest.mark.parametrize("number", ["1e10000000", "1e40000000", "-1e-40000000", "9" * 41])
def test_huge_exponents_and_long_numbers_are_refused_in_linear_time(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, number: str
) -> None:
    path = log_with(tmp_path, "huge", {9: raw_bet(number)})
    code, out, _ = run(capsys, "verify", path)
    assert code == 1
    assert f"{path}: line 9" in out
    assert "out of bounds" in out or "numbers have at most 40" in out


def test_a_line_longer_than_1_mib_is_refused_without_reading_on(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "long.jsonl"
    path.write_text(LINES[0] + "\n" + '{"type": "shuffled", "by": "' + "x" * (1 << 20) + '"}\n')
    code, out, _ = run(capsys, "verify", str(path))
    assert code == 1
    assert out.strip() == (
        f"{path}: line 2: FORMAT: the line is longer than 1,048,576 bytes ({BOUNDS})"
    )
    if os.path.exists("/dev/zero"):
        code, out, _ = run(capsys, "verify", "/dev/zero")
        assert code == 1 and "line 1: FORMAT: the line is longer than 1,048,576 bytes" in out


# --- 7: names and ids are printable text; old stores are shown inert ------------------------------

CONTROL = ["\x1b[2J", "\r", "\x00", "\n", "\u202e", "\u2028", "\x7f", "\u200b"]


@pytest.mark.parametrize("char", CONTROL)
@pytest.mark.parametrize("field", ["seats", "table", "session", "by"])
def test_control_and_format_characters_in_names_and_ids_are_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, char: str, field: str
) -> None:
    value = f"A{char}x"
    change: dict[str, Any] = {field: ["B", value, "C", "D"] if field == "seats" else value}
    path = log_with(tmp_path, "ctl", {1: change})
    code, out, _ = run(capsys, "verify", path)
    assert code == 1
    lines = out.strip().splitlines()
    assert len(lines) == 1  # also for a newline or CR in the name: the line is escaped
    assert lines[0].startswith(f"{path}: line 1, session_started: FORMAT: field '{field}")
    assert f"U+{ord(char[0]):04X}, which is not printable" in lines[0]
    assert "valid." not in out


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("session", "s" * 129, "a session id is 129 characters long; at most 128"),
        ("table", "t" * 65, "a name is 65 characters long; at most 64"),
        ("seats", ["B", "p" * 65, "C", "D"], "a name is 65 characters long; at most 64"),
        ("seats", ["B", "   ", "C", "D"], "a name cannot be empty"),
    ],
)
def test_names_and_ids_have_a_documented_length(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, field: str, value: Any, message: str
) -> None:
    path = log_with(tmp_path, "len", {1: {field: value}})
    line, _ = verify_and_import(capsys, tmp_path, path)
    assert message in line


def test_what_an_old_store_holds_reaches_the_terminal_escaped(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A store written before the bounds (here: rows rewritten by hand) holding ESC, CR, a
    newline and a bidi override in a session id, a table and a name: every command that shows
    them writes their escapes, each line stays one line."""
    from events.codec import read_file

    db = tmp_path / "old.db"
    session = "ok\nsession 2\u202e"
    name = "A\x1b[2J\rvalid"
    events = []
    for _, e in read_file(str(CARD)):
        update: dict[str, Any] = {"id": None, "seq": None}
        if e.type == "session_started":
            update |= {"session": session, "table": "T\x1b]0;title\x07"}
            update["seats"] = tuple(name if p == "A" else p for p in e.seats)  # type: ignore[union-attr]
        elif getattr(e, "player", None) == "A":
            update["player"] = name
        events.append(e.model_copy(update=update))  # as an older version stored them
    with open_store(str(db)) as s:
        s.append(session, [e for e in events if not e.type.startswith("pot_")], 0)
    for argv in (["sessions"], ["replay", session], ["export", session, "-o", "/dev/null"]):
        code, out, err = run(capsys, "--db", str(db), *argv)
        assert code == 0, (argv, err)
        text = out + err
        for bad in ("\x1b", "\r", "\u202e", "\x07"):
            assert bad not in text, (argv, bad)
        assert "\\x1b" in text or "\\u202e" in text or "\\n" in text, argv
    code, out, _ = run(capsys, "--db", str(db), "sessions")
    assert "ok\\nsession 2\\u202e" in out and "T\\x1b]0;title\\x07" in out


# --- 10: export -o writes through links, never replaces a device or a folder ----------------


def test_export_output_targets(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = str(tmp_path / "club.db")
    with open_store(db) as s:
        s.import_log(str(CARD))
    real = tmp_path / "real.jsonl"
    real.write_text("old\n")
    real.chmod(0o640)
    link = tmp_path / "link.jsonl"
    link.symlink_to(real)
    code, _, _ = run(capsys, "--db", db, "export", "card-example", "-o", str(link))
    assert code == 0
    assert link.is_symlink() and len(real.read_text().splitlines()) == 16  # written through
    assert oct(real.stat().st_mode & 0o777) == oct(0o640)
    code, _, err = run(capsys, "--db", db, "export", "card-example", "-o", str(tmp_path))
    assert code == 1 and err.strip() == f"brag export: {tmp_path} is a folder; give a file name"
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        code, _, _ = run(capsys, "--db", db, "export", "card-example", "-o", str(fifo))
        assert code == 0
        got = os.read(reader, 1 << 16).decode()
    finally:
        os.close(reader)
    assert fifo.exists() and not fifo.is_file()  # still the FIFO
    assert len(got.splitlines()) == 16
    if os.path.exists("/dev/full"):
        code, _, err = run(capsys, "--db", db, "export", "card-example", "-o", "/dev/full")
        assert code == 1 and "cannot write /dev/full: No space left on device" in err
        assert Path("/dev/full").is_char_device()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")) == []


# --- 11: ASCII digits, and the first seq is 1 -----------------------------------------------------


@pytest.mark.parametrize("digit", ["\u0662", "\uff12", "\u09e8", "²"])
def test_only_ascii_digits_are_amounts(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, digit: str
) -> None:
    path = log_with(tmp_path, "digit", {9: raw_bet(json.dumps(digit))})
    line, _ = verify_and_import(capsys, tmp_path, path)
    assert f"field 'level': {digit!r} is not an amount" in line


@pytest.mark.parametrize(
    ("seq", "message"),
    [
        ("5", "field 'seq': seq 5 does not start the log at 1"),
        ("1e5000", "field 'seq': 1E+5000 is out of bounds"),
        ("1e40000000", "field 'seq': 1E+40000000 is out of bounds"),  # not 40M digits computed
        ("2147483648", "field 'seq': 2147483648 is out of bounds: at most 2147483647"),
        ("0", "field 'seq': 0 is out of bounds: at least 1"),
    ],
)
def test_the_first_seq_is_1(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, seq: str, message: str
) -> None:
    first = LINES[0].replace('"seq": 1}', f'"seq": {seq}}}')
    path = log_with(tmp_path, "seq", {1: first})
    line, _ = verify_and_import(capsys, tmp_path, path)
    assert line.startswith(f"{path}: line 1, session_started: FORMAT: ")
    assert message in line
