"""Where each page's script is: one table for the entry script (``dashboard/app.py``), the warm-up
(:mod:`dashboard.common.warm`) and the tests (``AppTest.switch_page``).

A page lives in its feature's folder (docs/architecture.md): the Record page in ``record/``, the
replay and the lists that open it in ``replay/``, the statistics in ``stats/``, the club night's
board and report in ``night/``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

DASHBOARD = Path(__file__).resolve().parents[1]
"""The folder of ``app.py``, which the paths below are relative to."""


@dataclass(frozen=True, slots=True)
class PageEntry:
    """One page of the navigation: its script (relative to :data:`DASHBOARD`), title, icon
    (a Material symbol) and the menu group it is listed under."""

    file: str
    title: str
    icon: str
    group: str


SESSIONS_GROUP, ORGANISER_GROUP = "Sessions", "Organiser and analysts"

PAGES: dict[str, PageEntry] = {
    "sessions": PageEntry("replay/sessions_page.py", "Sessions", "list", SESSIONS_GROUP),
    "session": PageEntry("replay/session_page.py", "Session", "emoji_events", SESSIONS_GROUP),
    "replay": PageEntry("replay/replay_page.py", "Replay", "play_circle", SESSIONS_GROUP),
    "night": PageEntry("night/night_page.py", "Night", "nightlife", SESSIONS_GROUP),
    "players": PageEntry("stats/players_page.py", "Players", "group", SESSIONS_GROUP),
    "decisions": PageEntry("stats/decisions_page.py", "Decisions", "alt_route", SESSIONS_GROUP),
    "mine": PageEntry("stats/mine_page.py", "My sessions", "person", SESSIONS_GROUP),
    "review": PageEntry("stats/review_page.py", "Review", "grading", SESSIONS_GROUP),
    "record": PageEntry("record/record_page.py", "Record", "edit_note", ORGANISER_GROUP),
    "explore": PageEntry("stats/explore_page.py", "Explore", "query_stats", ORGANISER_GROUP),
}
"""A page's url path (the link's ``/record``) -> its entry, in the menu's order; the first is
the default page."""

PAGE_FILES: dict[str, str] = {name: entry.file for name, entry in PAGES.items()}
"""A page's url path -> its script, relative to :data:`DASHBOARD` (what ``AppTest.switch_page``
takes)."""


def page_file(name: str) -> Path:
    """The script of page ``name`` (a key of :data:`PAGE_FILES`); ``KeyError`` for another name."""
    return DASHBOARD / PAGE_FILES[name]
