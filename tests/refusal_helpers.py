"""A refused log, checked the way a user meets it (``brag verify`` and ``brag import``): the card
example with a line edited (``log_with``), and both commands refusing it alike, in one line,
nothing stored (``verify_and_import``). Shared by the hostile-input tests
(``tests/hostile/test_hostile_inputs.py``) and the rules'
(``tests/engine/test_state_only_fields.py``)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from brag.cli import main
from log.open import open_store

ROOT = Path(__file__).resolve().parents[1]
CARD = ROOT / "data" / "examples" / "card_example.jsonl"
LINES = CARD.read_text().splitlines()  # 16 events with ids and seqs; seq 9 is A's bet


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exit_:  # as the interpreter does: the message on stderr, exit 1
        code = 1
        print(exit_.code, file=__import__("sys").stderr)
    out, err = capsys.readouterr()
    return code, out, err


def log_with(tmp_path: Path, name: str, edit: dict[int, Any]) -> str:
    """The card example with line k (1-based) replaced: a dict is merged into the event, a
    string replaces the line; ids are dropped (each file is its own session)."""
    out = []
    for k, text in enumerate(LINES, start=1):
        e = json.loads(text)
        e.pop("id")
        change = edit.get(k)
        if isinstance(change, str):
            out.append(change)
            continue
        if isinstance(change, dict):
            for key, value in change.items():
                if isinstance(value, dict) and isinstance(e.get(key), dict):
                    e[key] = {**e[key], **value}
                else:
                    e[key] = value
        out.append(json.dumps(e))  # a lone surrogate as its JSON escape, as in the trial
    path = tmp_path / f"{name}.jsonl"
    path.write_text("\n".join(out) + "\n", encoding="utf-8", errors="surrogatepass")
    return str(path)


def verify_and_import(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, path: str
) -> tuple[str, str]:
    """verify and import refuse the file alike (exit 1, the same one line); nothing is stored."""
    code, out, _ = run(capsys, "verify", path)
    assert code == 1
    lines = out.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in out
    verify_line = lines[0]
    db = tmp_path / "club.db"
    with open_store(str(db)) as s:
        s.import_log(str(CARD))  # another session, already stored
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    code, out, err = run(capsys, "--db", str(db), "import", path)
    assert code == 1
    assert "1 file: 0 stored, 0 unchanged, 1 refused" in out
    err_lines = err.strip().splitlines()
    assert len(err_lines) == 1
    assert err_lines[0] == verify_line.replace(f"{path}: ", f"{path}: invalid, nothing stored: ")
    with open_store(str(db), readonly=True) as s:
        assert [i.session for i in s.sessions()] == ["card-example"]
        assert s.last_seq("card-example") == 16
    del before  # the WAL checkpoint may rewrite the file; the content is what matters
    return verify_line, err_lines[0]
