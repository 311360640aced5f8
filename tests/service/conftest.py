"""The use cases' tests (:mod:`service`): each handler called on a real store (in memory, or a
SQLite file where a lock is needed), no Streamlit and no HTTP (fakes: ``service_fakes.py``)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
from store_helpers import pg_store, require_pg

from log.open import open_store
from log.service import EventStore

SEASON = sorted((Path(__file__).resolve().parents[2] / "data" / "season").glob("*.jsonl"))
"""The bundled season's logs, in date order (the first four: 2026-09-24)."""


@pytest.fixture
def store() -> Iterator[EventStore]:
    """A fresh in-memory store."""
    with open_store("memory://") as s:
        yield s


@pytest.fixture(params=["sqlite", "postgresql"])
def first_night(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[EventStore]:
    """The season's first night (2026-09-24: four sessions at two tables) in a SQLite file, or
    in a fresh schema of the PostgreSQL test server (skipped without one)."""
    with ExitStack() as stack:
        if request.param == "sqlite":
            store = stack.enter_context(open_store(f"sqlite:///{tmp_path / 'club.db'}"))
        else:
            require_pg()
            store = stack.enter_context(pg_store())
        for path in SEASON[:4]:
            store.import_log(str(path))
        yield store
