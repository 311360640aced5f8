"""Where each page's script is: one table for the entry script (``dashboard/app.py``), the warm-up
(:mod:`dashboard.common.warm`) and the tests (``AppTest.switch_page``).

A page lives in its feature's folder (docs/architecture.md): the Record page in ``record/``, the
replay and the lists that open it in ``replay/``, the statistics in ``stats/``."""

from __future__ import annotations

from pathlib import Path

DASHBOARD = Path(__file__).resolve().parents[1]
"""The folder of ``app.py``, which the paths below are relative to."""

PAGE_FILES: dict[str, str] = {
    "sessions": "replay/sessions_page.py",
    "session": "replay/session_page.py",
    "replay": "replay/replay_page.py",
    "players": "stats/players_page.py",
    "decisions": "stats/decisions_page.py",
    "mine": "stats/mine_page.py",
    "record": "record/record_page.py",
    "explore": "stats/explore_page.py",
}
"""A page's url path (``?`` the link's ``/record``) -> its script, relative to :data:`DASHBOARD`."""


def page_file(name: str) -> Path:
    """The script of page ``name`` (a key of :data:`PAGE_FILES`); ``KeyError`` for another name."""
    return DASHBOARD / PAGE_FILES[name]
