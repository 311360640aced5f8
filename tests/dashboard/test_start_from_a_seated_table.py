"""The Night desk's "Start its session" (issue 36 item 1: each table's session started
from the seating): its link, ``record?table=T&player=A&player=B``, fills the Record page's start
form once, players in their seats as seated, a player never seen before included; the start then
records that table and those seats."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest

pytest.importorskip("streamlit")
from apptest_helpers import APP
from streamlit.testing.v1 import AppTest

from dashboard.common.links import start_link
from log.open import open_store

SECRET = "open sesame please"
EXAMPLES = Path(__file__).resolve().parents[2] / "data" / "examples"
SEATED = ["Jean", "Zoë <b>New</b>", "B"]


@pytest.fixture
def club(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setitem(sys.modules, "__main__", sys.modules["__main__"])
    monkeypatch.setenv("BRAG_ANALYTICS", str(tmp_path / "brag.duckdb"))
    monkeypatch.setenv("BRAG_ORGANISER_SECRET", SECRET)
    url = str(tmp_path / "brag.db")
    monkeypatch.setenv("BRAG_DB", url)
    with open_store(url) as store:
        store.import_log(str(EXAMPLES / "card_example.jsonl"))
    yield url


def test_the_link_fills_the_start_form_once_and_the_start_records_it(club: str) -> None:
    link = start_link("Table 2 & co", SEATED)
    assert urlsplit(link).path == "record"
    params = parse_qsl(urlsplit(link).query)
    assert params == [("table", "Table 2 & co"), *(("player", p) for p in SEATED)]

    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.switch_page("record/record_page.py").run()
    at.text_input(key="secret_input").input(SECRET)
    at.button[0].click().run()
    for k, v in params:
        if k == "table":
            at.query_params["table"] = v
    at.query_params["player"] = SEATED
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.session_state["start_table"] == "Table 2 & co"
    assert at.session_state["start_players"] == SEATED
    assert "table" not in at.query_params and "player" not in at.query_params  # taken once
    at.text_input(key="start_session").input("night-table-2")
    at.run()
    next(b for b in at.button if b.label == "Start the session").click().run()
    assert not at.exception, [e.value for e in at.exception]
    with open_store(club) as store:
        first = store.events("night-table-2")[0]
    assert (first.table, list(first.seats)) == ("Table 2 & co", SEATED)  # type: ignore[union-attr]
