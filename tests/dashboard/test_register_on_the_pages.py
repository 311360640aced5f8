"""The register on the pages (issue 35 item 2). The start form asks before a new name close to a
known one is taken: "Jaen" with Jean in the store asks "did you mean Jean?"; the Start button
stores nothing until it is answered (the known name picked, or the new one kept). ("Top" for Top
table: a table typed as a new option, which AppTest cannot type, is
tests/browser/test_register_page.py's.) The organiser's unlocked device merges two names on the
Players page: the statistics follow at once, "also recorded as" says it, and the undo moves them
back."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("streamlit")
from apptest_helpers import APP
from streamlit.testing.v1 import AppTest

from log.open import open_store

SECRET = "open sesame please"
EXAMPLES = Path(__file__).resolve().parents[2] / "data" / "examples"


@pytest.fixture
def club(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A store holding one session of Jean, B, C and D at Top table, served with the organiser
    secret set."""
    monkeypatch.setitem(sys.modules, "__main__", sys.modules["__main__"])
    monkeypatch.setenv("BRAG_ANALYTICS", str(tmp_path / "brag.duckdb"))
    monkeypatch.setenv("BRAG_ORGANISER_SECRET", SECRET)
    url = str(tmp_path / "brag.db")
    monkeypatch.setenv("BRAG_DB", url)
    out = []
    for line in (EXAMPLES / "card_example.jsonl").read_text(encoding="utf-8").splitlines():
        raw = json.loads(line)
        raw.pop("id", None)  # ids of its own: the second session copies this one
        if raw["type"] == "session_started":
            raw.update(table="Top table")
            raw["seats"] = ["Jean" if s == "A" else s for s in raw["seats"]]
        if raw.get("player") == "A":
            raw["player"] = "Jean"
        out.append(json.dumps(raw))
    log = tmp_path / "first.jsonl"
    log.write_text("\n".join(out) + "\n", encoding="utf-8")
    with open_store(url) as store:
        store.import_log(str(log))
    yield url


def _unlocked() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.switch_page("record/record_page.py").run()
    at.text_input(key="secret_input").input(SECRET)
    at.button[0].click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _fill(at: AppTest, seats: list[str], table: str) -> None:
    at.text_input(key="start_session").input("friday")
    at.session_state["start_players"] = seats
    at.session_state["start_table"] = table
    at.run()


def _button(at: AppTest, label: str) -> Any:
    return next(b for b in at.button if b.label == label)


def _stored(url: str) -> list[str]:
    with open_store(url) as store:
        return [i.session for i in store.sessions()]


def test_jaen_asks_first_and_the_known_name_is_taken(club: str) -> None:
    at = _unlocked()
    _fill(at, ["Jaen", "B", "C"], "Top table")
    asked = [m.value for m in at.markdown if "did you mean" in m.value]
    assert asked == ["**Jaen is not a player yet: did you mean Jean?**"]
    _button(at, "Start the session").click().run()
    assert _stored(club) == ["card-example"]  # asked, nothing stored
    assert any("did you mean Jean?" in e.value for e in at.error)
    _button(at, "Jean").click().run()
    assert not [m.value for m in at.markdown if "did you mean" in m.value]
    _button(at, "Start the session").click().run()
    assert not at.exception, [e.value for e in at.exception]
    with open_store(club) as store:
        first = store.events("friday")[0]
    assert (first.seats, first.table) == (("Jean", "B", "C"), "Top table")  # type: ignore[union-attr]


def test_a_new_name_kept_explicitly_is_taken_as_typed(club: str) -> None:
    at = _unlocked()
    _fill(at, ["Jaen", "B", "C"], "Top table")
    _button(at, "Keep Jaen (a new player)").click().run()
    assert not [m.value for m in at.markdown if "did you mean" in m.value]
    _button(at, "Start the session").click().run()
    with open_store(club) as store:
        assert store.events("friday")[0].seats == ("Jaen", "B", "C")  # type: ignore[union-attr]


# --- the organiser's register on the Players page ----------------------------------------------


def _players(at: AppTest) -> dict[str, str]:
    """The Players page's first table: each player's sessions (by the column's name)."""
    rows = at.dataframe[0].value
    return {str(p): str(d) for p, d in zip(rows["player"], rows["Sessions"], strict=True)}


def test_the_organiser_merges_on_the_players_page_and_undoes_it(club: str, tmp_path: Path) -> None:
    log = tmp_path / "second.jsonl"
    text = (tmp_path / "first.jsonl").read_text(encoding="utf-8")
    log.write_text(text.replace('"Jean"', '"Jaen"').replace("card-example", "s2"), "utf-8")
    with open_store(club) as store:
        store.import_log(str(log))
    at = _unlocked()
    at.switch_page("stats/players_page.py").run()
    assert not at.exception, [e.value for e in at.exception]
    before = _players(at)
    assert (before["Jean"], before["Jaen"]) == ("1", "1")
    at.selectbox(key="register_name").set_value("Jaen")
    at.selectbox(key="register_into").set_value("Jean").run()
    _button(at, "Merge").click().run()
    assert not at.exception, [e.value for e in at.exception]
    after = _players(at)
    assert after["Jean"] == "2" and "Jaen" not in after
    assert any(s.value == "Jaen merged into Jean: the statistics follow it." for s in at.success)
    assert any("Jean: also recorded as Jaen (merged" in c.value for c in at.caption)
    _button(at, "Undo the latest: Jaen merged into Jean").click().run()
    assert _players(at) == before


def test_a_renamed_name_typed_again_says_whom_it_counts_as(club: str, tmp_path: Path) -> None:
    from log.register import Seated, rename

    with open_store(club) as store:
        rename(store, "Jean", "Jean Smith", Seated(["Jean", "B", "C", "D"]), by="o")
    at = _unlocked()
    _fill(at, ["Jean", "C", "D"], "Top table")
    said = "Jean is Jean Smith in the club's register: counted as Jean Smith."
    assert said in [c.value for c in at.caption]


def test_a_visitor_sees_no_register_section(club: str) -> None:
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.switch_page("stats/players_page.py").run()
    assert not at.exception and not at.warning and not at.text_input
    assert not [e for e in at.expander if "register" in e.label]
    assert not [b for b in at.button if b.label in ("Merge", "Rename")]
