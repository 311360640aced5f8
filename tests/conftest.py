"""The tests' shared fixtures (the checkout's ``conftest.py`` holds the collection settings).

The tests are grouped by layer (``tests/events/``, ``engine/``, ``store/``, ``log/``, ``present/``,
``analytics/``, ``sim/``, ``cli/``, ``dashboard/``, ``browser/``, ``hostile/``); their shared
helpers sit here, imported by bare name (``pytest``'s ``pythonpath``): ``shared_paths`` (the
checkout and the team's scenarios, worked out once), ``store_helpers``, ``browser_helpers``,
``live_helpers``, ``hostile_helpers``, ``apptest_helpers``, ``session_strategies``,
``raw_log_helpers``, ``example_logs``."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from shared_paths import HAVE_SHARED, NO_SHARED, SCENARIOS


@pytest.fixture
def scenarios_dir() -> Path:
    """The team's scenarios folder (``../shared/scenarios``; :mod:`shared_paths` says how); the
    test skips (:data:`shared_paths.NO_SHARED`) where there is none."""
    if not HAVE_SHARED:
        pytest.skip(NO_SHARED)
    return SCENARIOS


@pytest.fixture
def store_url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A fresh SQLite store holding three sessions; the dashboard pointed at it. One of them is a
    scenario: the test skips (:data:`shared_paths.NO_SHARED`) where there is none."""
    if not HAVE_SHARED:
        pytest.skip(NO_SHARED)
    from dashboard_store_helpers import dashboard_store
    from example_logs import LOGS

    yield dashboard_store(tmp_path, monkeypatch, LOGS)


@pytest.fixture(autouse=True)
def _let_go_of_postgres() -> Iterator[None]:
    """Lets go, after every test and its fixtures, of the hold a test took on the shared
    PostgreSQL server (``tests/store_helpers.py``'s ``require_pg``)."""
    yield
    helpers = sys.modules.get("store_helpers")
    if helpers is not None:
        helpers.release_pg()
