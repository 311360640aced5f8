"""The use cases' tests (:mod:`service`): each handler called on a real store (in memory, or a
SQLite file where a lock is needed), no Streamlit and no HTTP (fakes: ``service_fakes.py``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from log.open import open_store
from log.service import EventStore


@pytest.fixture
def store() -> Iterator[EventStore]:
    """A fresh in-memory store."""
    with open_store("memory://") as s:
        yield s
