"""The dashboard never shows another store's statistics: a projection file named for the dashboard
(BRAG_ANALYTICS) that belongs to another store is refused, and the page says so. Across the system:
the stores are filled and refreshed with brag. The CLI's side is in
tests/cli/test_projection_owner.py."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from projection_owner_helpers import A_LOG, B_LOG
from projection_owner_helpers import projected_sessions as _projected_sessions
from projection_owner_helpers import seated as _seated
from projection_owner_helpers import session_of as _session_of

from brag.cli import main

ROOT = Path(__file__).resolve().parents[1]


def _two_stores(tmp_path: Path) -> tuple[str, str]:
    a, b = str(tmp_path / "a.db"), str(tmp_path / "b.db")
    assert main(["import", "--db", a, str(A_LOG)]) == 0
    assert main(["import", "--db", b, str(B_LOG)]) == 0
    return a, b


def _players_page(monkeypatch: pytest.MonkeyPatch, db: str, analytics: Path) -> Any:
    from streamlit.testing.v1 import AppTest

    monkeypatch.setenv("BRAG_DB", db)
    monkeypatch.setenv("BRAG_ANALYTICS", str(analytics))
    monkeypatch.delenv("BRAG_ORGANISER_SECRET", raising=False)
    at = AppTest.from_file(str(ROOT / "dashboard" / "app.py"), default_timeout=60)
    at.run()
    at.switch_page("stats/players_page.py")
    return at.run()


@pytest.mark.slow
def test_the_dashboard_never_shows_another_stores_statistics(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = _two_stores(tmp_path)
    assert main(["analytics", "refresh", "--db", a, "--analytics", str(tmp_path / "a.duckdb")]) == 0
    # A file named for the dashboard (BRAG_ANALYTICS) that is store A's: refused, said on the page.
    named = tmp_path / "named.duckdb"
    shutil.copyfile(tmp_path / "a.duckdb", named)
    at = _players_page(monkeypatch, b, named)
    assert not at.exception
    said = " ".join(w.value for w in at.warning)
    assert "The statistics are not available" in said and "belongs to the store" in said
    assert not at.dataframe  # no table of store A's players
    assert _projected_sessions(named) == {_session_of(A_LOG)}  # left as it was
    # Store B's default file holding store A's projection: rebuilt from B, B's players shown.
    shutil.copyfile(tmp_path / "a.duckdb", tmp_path / "b.duckdb")
    at = _players_page(monkeypatch, b, tmp_path / "b.duckdb")
    assert not at.exception and not at.warning
    assert set(at.dataframe[0].value["player"]) == _seated(B_LOG)
    assert _projected_sessions(tmp_path / "b.duckdb") == {_session_of(B_LOG)}
