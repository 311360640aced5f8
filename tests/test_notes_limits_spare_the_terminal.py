"""The notes' limits are the dashboard's (per client, per name): the organiser's terminal (brag
notes add) is not limited, even while the dashboard's limits are full. Across the system: the
dashboard's notes routes and the CLI on one store. The limits themselves are tested in
tests/dashboard/test_notes_limits.py."""

from __future__ import annotations

from typing import Any

from notes_limits_helpers import S, notes_app  # noqa: F401 (the fixture app)
from notes_limits_helpers import rp as _rp
from shared_paths import needs_shared
from starlette.applications import Starlette

from brag.cli import main
from dashboard.replay.notes_limits import (
    NOTES_PER_CLIENT,
    NOTES_PER_NAME,
)
from log.annotations import notes

pytestmark = needs_shared  # the tests here read a scenario


def test_the_organisers_terminal_is_not_limited(app: tuple[Starlette, Any]) -> None:
    _, (store, _, db) = app
    for k in range(NOTES_PER_CLIENT + NOTES_PER_NAME + 1):
        argv = ["notes", "add", S, "--db", db, "--deal", "1", "--step", "2", "--text", f"n{k}"]
        assert main([*argv, "--by", "Organiser"]) == 0
    assert len(notes(store, _rp(store))) == NOTES_PER_CLIENT + NOTES_PER_NAME + 1
