"""A session's other spellings found from the store's catalogue (``log/names.py``): a store's
first new session of a process asks the catalogue for the ids, not every stored event (33.6M at
league scale: minutes), and answers as reading the events does: the first stored spelling, a
session stored since the listing included."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from log.open import open_store
from sim.randplay import random_session


def _session(name: str, seed: int) -> list[Any]:
    return random_session(random.Random(seed), name, players=("Ann", "Bob"), pots=1)


def test_the_catalogue_answers_without_reading_the_events(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'club.db'}"
    with open_store(url) as store:
        for k, name in enumerate(("Oak night", "elm", "oak  NIGHT two")):
            store.append(name, _session(name, k), 0)
    with open_store(url) as store:
        read: list[int] = []
        real = store.recorder.read_all

        def counting(after: int = 0, limit: int = 10_000) -> Any:
            rows = real(after=after, limit=limit)
            read.append(len(rows))
            return rows

        store.recorder.read_all = counting  # type: ignore[method-assign]
        assert store.namesake("OAK   night") == "Oak night"
        assert store.namesake("Elm") == "elm" and store.namesake("elm") is None
        assert sum(read) == 0  # no event read: the catalogue listed the ids
        with pytest.raises(Exception, match="already stored"):
            store.append("ELM", _session("ELM", 9), 0)
        store.append("Ash", _session("Ash", 4), 0)
        assert store.namesake("ash") == "Ash"  # stored since: read from its events
        assert sum(read) > 0


def test_a_memory_store_reads_its_events() -> None:
    store = open_store("memory://")
    store.append("Oak night", _session("Oak night", 1), 0)
    assert store.namesake("oak NIGHT") == "Oak night"
