"""A SQLite store the dashboard is pointed at (shared by tests/conftest.py's ``store_url`` and
tests/dashboard/test_my_sessions_apptest.py): log layer."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pytest

from log.open import open_store


def dashboard_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, logs: Iterable[Path]) -> str:
    """A new SQLite store in ``tmp_path`` holding ``logs``, with BRAG_DB and BRAG_ANALYTICS set to
    it and its projection and no organiser secret set; the store's URL."""
    url = str(tmp_path / "brag.db")
    with open_store(url) as store:
        for log in logs:
            store.import_log(str(log))
    monkeypatch.setenv("BRAG_DB", url)
    monkeypatch.setenv("BRAG_ANALYTICS", str(tmp_path / "brag.duckdb"))
    monkeypatch.delenv("BRAG_ORGANISER_SECRET", raising=False)
    return url
