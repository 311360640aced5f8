"""State-only fields refused the way a user meets them: brag verify and brag import refuse a
retained hand by a holder of one, and a shuffle order in a shown session, alike, in one line,
nothing stored. The rules themselves are tested in tests/engine/test_state_only_fields.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from raw_log_helpers import ALL_CARDS, CARRY, retain
from refusal_helpers import log_with, verify_and_import

Raw = dict[str, Any]


def words(err: object, *keys: str) -> None:
    text = str(err)
    for k in keys:
        assert k in text, (k, text)


def _write(tmp_path: Path, name: str, events: list[Raw]) -> str:
    import json

    path = tmp_path / f"{name}.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in events))
    return str(path)


def test_import_of_a_retained_hand_by_a_holder_of_one_is_refused_and_nothing_stored(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    events = [*CARRY, retain("A", "new")]
    events[0] = {**events[0], "session": "one-hand"}
    path = _write(tmp_path, "one-hand", events)
    line, _ = verify_and_import(capsys, tmp_path, path)
    words(line, f"line {len(events)}", "retained", "RULES 6.7", "A holds one hand", "hand 'new'")


def test_import_of_a_shuffle_order_in_a_shown_session_is_refused_and_nothing_stored(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = log_with(tmp_path, "ordered", {1: {"session": "ordered"}, 3: {"order": ALL_CARDS}})
    line, _ = verify_and_import(capsys, tmp_path, path)
    words(line, "line 3", "shuffled", "FORMAT", "field 'order'", 'cards: "shown"')
