"""The bundled sessions in data/: every file verifies, and data/README.md's commands remake them
byte for byte."""

from __future__ import annotations

import json
import runpy
import sys
from collections import Counter
from datetime import date
from pathlib import Path

import pytest
from shared_paths import ROOT, needs_shared

from engine.fold import verify_events
from events.codec import read_file

DATA = ROOT / "data"
FILES = sorted(DATA.rglob("*.jsonl"))


def test_there_are_bundled_sessions() -> None:
    assert len(list((DATA / "season").glob("*.jsonl"))) == 40
    assert {p.name for p in (DATA / "examples").glob("*.jsonl")} == {
        "card_example.jsonl",
        "seed002_open_example.jsonl",
        "seed002_blind_example.jsonl",
    }


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_every_file_verifies(path: Path) -> None:
    state = verify_events(read_file(str(path)))
    if path.parent.name == "season":
        assert state.finished and state.resolved == 8


def test_season_is_a_club_season() -> None:
    cards: Counter[str] = Counter()
    members: set[str] = set()
    tables: set[str] = set()
    for path in (DATA / "season").glob("*.jsonl"):
        first = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
        assert path.stem == first["session"]
        assert 4 <= len(first["seats"]) <= 7
        day = date.fromisoformat(first["at"][:10])
        assert day.weekday() in (3, 4) and date(2026, 9, 22) <= day <= date(2026, 11, 30)
        cards[first["cards"]] += 1
        members.update(first["seats"])
        tables.add(first["table"])
    assert cards["all"] >= 10 and cards["shown"] >= 10
    assert len(members) == 10 and 2 <= len(tables) <= 3


@needs_shared
def test_examples_script_remakes_the_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "argv", ["make_examples.py", str(tmp_path)])
    with pytest.raises(SystemExit) as done:
        runpy.run_path(str(DATA / "make_examples.py"), run_name="__main__")
    assert done.value.code == 0
    for path in (DATA / "examples").glob("*.jsonl"):
        assert (tmp_path / path.name).read_bytes() == path.read_bytes(), path.name
