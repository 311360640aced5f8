"""The notes' limits are the dashboard's (per client, per name): the organiser's terminal (brag
notes add) is not limited, even while the dashboard's limits are full. Across the system: the
dashboard's notes routes and the CLI on one store. The limits themselves are tested in
tests/dashboard/test_notes_limits.py."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from shared_paths import SCENARIOS, needs_shared
from starlette.applications import Starlette

from brag.cli import main
from dashboard.replay import notes_routes as notes_api
from dashboard.replay.notes_limits import (
    NOTES_PER_CLIENT,
    NOTES_PER_NAME,
    NoteLimits,
)
from log.annotations import notes
from log.open import open_store
from log.service import EventStore
from present.replay import Replay

pytestmark = needs_shared  # the tests here read a scenario


S = "card-example"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Starlette, Any]]:
    db = str(tmp_path / "brag.db")
    with open_store(db) as store:
        store.import_log(SCENARIOS / "card_example.jsonl")
        clock = Clock()
        monkeypatch.setattr(notes_api, "_reader", lambda: store)
        monkeypatch.setattr(notes_api, "_writer", lambda: store)
        monkeypatch.setattr(notes_api, "_replay", lambda s: _rp(store) if store.has(s) else None)
        monkeypatch.setattr(notes_api, "LIMITS", NoteLimits(clock))
        yield Starlette(routes=notes_api.routes()), (store, clock, db)


def _rp(store: EventStore) -> Replay:
    return Replay.of(store.events(S), recorded=True)


def test_the_organisers_terminal_is_not_limited(app: tuple[Starlette, Any]) -> None:
    _, (store, _, db) = app
    for k in range(NOTES_PER_CLIENT + NOTES_PER_NAME + 1):
        argv = ["notes", "add", S, "--db", db, "--deal", "1", "--step", "2", "--text", f"n{k}"]
        assert main([*argv, "--by", "Organiser"]) == 0
    assert len(notes(store, _rp(store))) == NOTES_PER_CLIENT + NOTES_PER_NAME + 1
