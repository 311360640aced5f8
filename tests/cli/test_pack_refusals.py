"""The pack's rules (RULES 3.3) met the way a user meets them: brag verify and brag import give the
same refusal of a showdown of a card that went under the pack. The rules themselves are tested in
tests/engine/test_pack.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from raw_log_helpers import four_players_until, showdown

from brag.cli import main


def test_brag_verify_and_import_give_the_same_refusal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log, ds = four_players_until(3)
    bad = [*log, *showdown("ABCD", ds[2], "C", "Qs 3c 4d")[:-1]]
    path = tmp_path / "bad.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in bad))
    words = "RULES 3.3: Qs went under the pack at deal 1's showdown; with 4 players"
    assert main(["verify", str(path)]) != 0
    out = capsys.readouterr()
    assert words in out.out + out.err
    assert main(["--db", str(tmp_path / "s.db"), "import", str(path)]) != 0
    out = capsys.readouterr()
    assert words in out.out + out.err and f"line {len(bad)}" in out.out + out.err
