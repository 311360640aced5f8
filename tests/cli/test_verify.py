"""``brag verify FILE [--json]`` (contract: ``../shared/scenarios/README.md``), run in-process."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from brag.cli import main

CARD_EXAMPLE = """\
{"type": "session_started", "session": "card", "seats": ["A", "B", "C", "D"], "cards": "shown"}
{"type": "dealer_chosen", "player": "D"}
{"type": "shuffled"}
{"type": "dealt"}
{"type": "looked", "player": "A"}
{"type": "looked", "player": "B"}
{"type": "looked", "player": "C"}
{"type": "looked", "player": "D"}
{"type": "bet", "player": "A", "level": 2}
{"type": "bet", "player": "B", "level": 2}
{"type": "folded", "player": "C"}
{"type": "folded", "player": "D"}
{"type": "saw", "player": "A", "paid": 4}
{"type": "shown", "player": "B", "cards": ["5s", "6h", "7d"]}
{"type": "conceded", "player": "A"}
"""

BLIND_CARRIED = """\
{"type": "session_started", "session": "carry", "seats": ["Ann", "Bob", "Cy"], "cards": "shown"}
{"type": "dealer_chosen", "player": "Cy"}
{"type": "shuffled"}
{"type": "dealt"}
{"type": "looked", "player": "Bob"}
{"type": "looked", "player": "Cy"}
{"type": "bet", "player": "Ann", "level": 1}
{"type": "folded", "player": "Bob"}
{"type": "folded", "player": "Cy"}
"""

SEEN_SEES_BLIND = """\
{"type": "session_started", "session": "bad", "seats": ["A", "B"], "cards": "shown"}
{"type": "dealer_chosen", "player": "B"}
{"type": "shuffled"}
{"type": "dealt"}
{"type": "looked", "player": "B"}
{"type": "bet", "player": "A", "level": 3}
{"type": "saw", "player": "B"}
"""


def write(tmp_path: Path, text: str, name: str = "log.jsonl") -> str:
    f = tmp_path / name
    f.write_text(text, "utf-8")
    return str(f)


def test_valid_log_exit_0_and_json_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["verify", write(tmp_path, CARD_EXAMPLE), "--json"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    got = json.loads(out)
    assert got["deals"] == 1 and got["resolved_pots"] == 1 and got["carried_pots"] == 0
    assert got["finished"] is False and "winners" not in got
    assert got["pot"] == "0"
    assert got["nets"] == {"A": "-7", "B": "9", "C": "-1", "D": "-1"}
    [o] = got["outcomes"]
    assert o["deal"] == 1 and o["dealer"] == "D" and o["result"] == "won"
    assert o["winner"] == "B" and o["amount"] == "12" and o["showdown"] is True
    assert o["hand"] == "run"


def test_carried_pot_summary_has_exact_fractions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["verify", write(tmp_path, BLIND_CARRIED), "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["carried_pots"] == 1 and got["resolved_pots"] == 0
    assert got["pot"] == "7/2"
    assert got["nets"] == {"Ann": "-3/2", "Bob": "-1", "Cy": "-1"}
    assert got["outcomes"][0]["result"] == "carried" and got["outcomes"][0]["winner"] is None


def test_invalid_log_exit_1_and_json_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["verify", write(tmp_path, SEEN_SEES_BLIND), "--json"]) == 1
    got = json.loads(capsys.readouterr().out)
    assert set(got) == {"error"}
    e = got["error"]
    assert e["line"] == 7 and e["rule"] == "5.7"
    assert "B is seen and cannot see a blind player" in e["message"]


def test_malformed_line_is_a_format_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = CARD_EXAMPLE.replace('"level": 2}', '"level": 2, "colour": "red"}', 1)
    assert main(["verify", write(tmp_path, text), "--json"]) == 1
    e = json.loads(capsys.readouterr().out)["error"]
    assert e["line"] == 9 and e["rule"] == "FORMAT" and "colour" in e["message"]


def test_invalid_log_without_json_is_one_readable_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, SEEN_SEES_BLIND)
    assert main(["verify", path]) == 1
    out, err = capsys.readouterr()
    lines = [ln for ln in (out + err).splitlines() if ln.strip()]
    assert len(lines) == 1
    assert "line 7" in lines[0] and "RULES 5.7" in lines[0] and "B is seen" in lines[0]
    assert not lines[0].lstrip().startswith("{")


@pytest.mark.parametrize("json_flag", [[], ["--json"]])
def test_missing_file_exit_2_clear_message_no_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], json_flag: list[str]
) -> None:
    missing = str(tmp_path / "nope.jsonl")
    assert main(["verify", missing, *json_flag]) == 2
    out, err = capsys.readouterr()
    assert "nope.jsonl" in err and "No such file" in err
    assert "Traceback" not in out + err
    if json_flag:
        assert json.loads(out)["error"]["rule"] == "FILE"


def test_unreadable_file_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", str(tmp_path)]) == 2  # a directory
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err and str(tmp_path) in err
    f = tmp_path / "latin1.jsonl"
    f.write_bytes('{"type": "session_started", "session": "é"}\n'.encode("latin-1"))
    assert main(["verify", str(f)]) in (1, 2)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err


def test_human_table_shows_the_outcomes_and_the_nets(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "60")  # a narrow pipe: the summary stays one line
    assert main(["verify", write(tmp_path, CARD_EXAMPLE)]) == 0
    out = capsys.readouterr().out
    assert "valid" in out and "Nets" in out
    first = out.splitlines()[0]
    assert first.endswith(
        ": valid. 1 deal, 1 resolved pot, 0 carried; not finished; pot on the table 0"
    )
    rows = {
        ln.split("│")[1].strip(): ln.split("│")[2].strip()
        for ln in out.splitlines()
        if ln.count("│") == 3
    }
    assert rows == {"A": "-7", "B": "9", "C": "-1", "D": "-1"}
    assert "run" in out  # the winning hand of the showdown
    assert main(["verify", write(tmp_path, BLIND_CARRIED, "carry.jsonl")]) == 0
    out = capsys.readouterr().out
    assert "-1½" in out and "carried" in out
