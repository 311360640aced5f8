"""A SQLite store holding the card example, read back byte for byte and row for row (shared by
tests/log/test_schema_and_migrations.py and tests/cli/test_store_schema_on_the_commands.py): log
layer."""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from shared_paths import SCENARIOS

from log.open import open_store

CARD = str(SCENARIOS / "card_example.jsonl")


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def dump(path: Path) -> list[tuple[Any, ...]]:
    with sqlite3.connect(path) as c:
        return list(c.execute("SELECT * FROM events ORDER BY position"))


@pytest.fixture(name="club")
def club_store(tmp_path: Path) -> Iterator[Path]:
    """A SQLite store holding the card example (16 events; seq 16 is pot_won)."""
    db = tmp_path / "club.db"
    with open_store(str(db)) as s:
        s.import_log(CARD)
    yield db
