"""Issue 38.2 on the Review page: a player's own remembered cards grade that player's seen
decisions the log has no hand for, on the browser that picked that player on My sessions only
(the ``me`` preference); a visitor's review of the same player grades none of them."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from dashboard_store_helpers import dashboard_store
from remembered_cards_helpers import SESSION, mine_log
from remembered_cards_helpers import recorded as _recorded
from streamlit.testing.v1 import AppTest

from dashboard.common import state_keys as keys
from dashboard.stats import reviewing
from log.annotations import set_private_cards
from log.open import open_store
from solver.review import review
from timeline.core import Timeline

APP = str(Path(__file__).resolve().parents[2] / "dashboard" / "app.py")


def _unknown_deal(events: list[object]) -> tuple[int, list[str]]:
    """A deal where one of Sue's seen decisions has no hand in the log and three cards (none
    shown in that deal) that grade it: the solver's own review, with and without the note."""
    steps = Timeline.of(events).steps  # type: ignore[arg-type]
    rows = review(steps).rows
    cards = ["2h", "7d", "Jc"]
    for deal in sorted({r.deal for r in rows if r.grade.endswith("the hand is not known")}):
        noted = review(steps, remembered=("Sue", {deal: cards})).rows
        if sum(r.from_note for r in noted) > 0:
            return deal, cards
    raise AssertionError("no deal of the simulated session for Sue's note to grade")


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, int]]:
    monkeypatch.setattr(reviewing, "_solve", lambda key: None)
    url = dashboard_store(tmp_path, monkeypatch, [mine_log(tmp_path)])
    with open_store(url) as s:
        deal, cards = _unknown_deal(list(s.events(SESSION)))
        set_private_cards(s, _recorded(s), deal, "Sue", cards)
    yield url, deal


def _graded(me: str | None) -> tuple[int, str]:
    at = AppTest.from_file(APP, default_timeout=120)
    if me is not None:
        at.session_state[keys.PREFS] = {"me": me}
    at.run()
    at.switch_page("stats/review_page.py")
    at.query_params["session"] = SESSION
    at.query_params["player"] = "Sue"
    at.run()
    assert not at.exception
    text = "\n".join(str(m.value) for m in at.markdown)
    got = re.search(r"graded (\d+) of \d+ decisions", text)
    assert got, text[:500]
    return int(got.group(1)), text


@pytest.mark.slow
def test_sues_note_grades_her_decisions_on_her_browser_only(store: tuple[str, int]) -> None:
    mine, _ = _graded("Sue")
    visitor, _ = _graded(None)
    dave, _ = _graded("Dave")
    assert mine > visitor == dave  # her note grades more of her decisions, for her alone
