"""Two addresses of one store (shared by tests/dashboard/test_store_identity.py and
tests/test_one_dashboard_per_store.py): dashboard layer."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from dashboard.access import check as access
from log.open import open_store

SECRET = "open sesame please"


@pytest.fixture(
    name="two_urls",
    params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)],
)
def two_urls_of_one_store(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[str, str]]:
    """Two addresses of one store, as two dashboards started from two folders name it: a
    SQLite file and a symlink to it elsewhere, or two URLs of one PostgreSQL schema."""
    monkeypatch.setenv("BRAG_ORGANISER_SECRET", SECRET)
    monkeypatch.setenv("BRAG_ANALYTICS", str(tmp_path / "brag.duckdb"))
    monkeypatch.setattr(access, "FRESH_SECONDS", 0.0)  # every sight check reads the store
    if request.param == "sqlite":
        db = tmp_path / "club" / "brag.db"
        db.parent.mkdir()
        open_store(str(db)).close()
        link = tmp_path / "other" / "brag.db"
        link.parent.mkdir()
        link.symlink_to(db)
        yield str(db), str(link)
        return
    from store_helpers import pg_store, pg_url, require_pg

    require_pg()
    with pg_store() as store:
        base = f"{pg_url()}?options=-csearch_path%3D{store.schema}"
        yield base, base + "&application_name=other-folder"
