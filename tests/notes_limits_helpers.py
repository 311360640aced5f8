"""The notes' routes served over one store with a clock the test moves (shared by
tests/dashboard/test_notes_limits.py and tests/test_notes_limits_spare_the_terminal.py):
dashboard layer."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from clock_helpers import Clock
from shared_paths import SCENARIOS
from starlette.applications import Starlette

from dashboard.replay import notes_routes as notes_api
from dashboard.replay.notes_limits import NoteLimits
from log.open import open_store
from log.service import EventStore
from present.replay import Replay

S = "card-example"


@pytest.fixture(name="app")
def notes_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Starlette, Any]]:
    db = str(tmp_path / "brag.db")
    with open_store(db) as store:
        store.import_log(SCENARIOS / "card_example.jsonl")
        clock = Clock()
        monkeypatch.setattr(notes_api, "_reader", lambda: store)
        monkeypatch.setattr(notes_api, "_writer", lambda: store)
        monkeypatch.setattr(notes_api, "_replay", lambda s: rp(store) if store.has(s) else None)
        monkeypatch.setattr(notes_api, "LIMITS", NoteLimits(clock))
        yield Starlette(routes=notes_api.routes()), (store, clock, db)


def rp(store: EventStore) -> Replay:
    return Replay.of(store.events(S), recorded=True)
