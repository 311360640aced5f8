"""One name, one player (issue 24 item 4): the one normal form of names, tables and session ids
(events.text.normal) and every place that asks it."""

from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path

import duckdb
import pytest
from hypothesis import given
from hypothesis import strategies as st

from analytics import queries
from brag.cli import main
from dashboard.record.recorder import start_events
from events.codec import parse_raw
from events.errors import FormatError, ImportConflict, PlainError
from events.model import SessionStarted
from events.text import mixed_scripts, normal, same_name
from log.folds import checked_log
from log.open import open_store
from present.names import canonical, seat_clash, whole_number

CYRILLIC_A = "\u0410"  # looks like the Latin A
CYRILLIC_IE = "\u0435"  # looks like the Latin e


def test_case_width_and_spaces_make_one_name() -> None:
    assert normal("Ann") == normal("ann") == normal("  ANN ") == normal("\uff21nn") == "ann"
    assert normal("Top   table") == normal("top table")
    assert not same_name("Ann", "Anne")


def test_a_look_alike_letter_of_another_script_in_a_word_is_read_as_its_look_alike() -> None:
    assert same_name(CYRILLIC_A + "nn", "Ann")
    assert same_name(f"J{CYRILLIC_IE}an", "jean")
    assert mixed_scripts(CYRILLIC_A + "nn") is not None
    assert "Cyrillic" in (mixed_scripts(f"J{CYRILLIC_IE}an") or "")


def test_a_name_in_one_script_keeps_it() -> None:
    assert normal("Анна") == "анна"  # all Cyrillic: not read as Latin
    assert mixed_scripts("Анна") is None
    assert mixed_scripts("Zoë O'Neil") is None


@given(st.text(max_size=20))
def test_the_normal_form_is_idempotent(text: str) -> None:
    once = normal(text)
    assert normal(once) == once


@given(st.text(max_size=20))
def test_spaces_never_matter(text: str) -> None:
    assert normal(f"  {text} ") == normal(text)
    assert normal(text.replace(" ", "   ")) == normal(text)


@given(st.text(alphabet=st.characters(codec="ascii"), max_size=20))
def test_case_never_matters(text: str) -> None:
    assert normal(text.upper()) == normal(text.lower()) == normal(text)


# --- RULES 1.3: one name, one seat --------------------------------------------------------------


def _start(session: str, seats: list[str], **extra: object) -> str:
    return json.dumps(
        {"type": "session_started", "session": session, "seats": seats, "cards": "shown", **extra}
    )


@pytest.mark.parametrize("other", ["ann", "ANN", " Ann", CYRILLIC_A + "nn"])
def test_two_seats_of_one_name_are_refused_naming_the_line(other: str) -> None:
    lines = [_start("s", ["Ann", "Bob", other]), '{"type": "dealer_chosen", "player": "Bob"}']
    with pytest.raises(FormatError) as err:
        checked_log(lines)
    assert err.value.line == 1
    assert "are one name" in str(err.value) and "RULES 1.3" in str(err.value)


def test_a_stored_row_with_two_spellings_is_still_read() -> None:
    raw = json.loads(_start("old", ["Ann", "ann"]))
    event = parse_raw(raw, stored=True)
    assert isinstance(event, SessionStarted) and event.seats == ("Ann", "ann")


# --- one session name, one session ----------------------------------------------------------------


def _log(session: str, seats: tuple[str, str] = ("Ann", "Bob")) -> list[str]:
    return [_start(session, list(seats)), f'{{"type": "dealer_chosen", "player": "{seats[1]}"}}']


def test_a_session_name_differing_only_in_case_is_refused_in_one_line() -> None:
    with open_store("memory://") as store:
        store.import_log(_log("Oak Night"))
        assert store.import_log(_log("Oak Night")).stored == 0  # the very same: unchanged
        with pytest.raises(ImportConflict) as err:
            store.import_log(_log("oak  NIGHT"))
        assert "a session called Oak Night is already stored" in str(err.value)
        assert "\n" not in str(err.value)
        with pytest.raises(ImportConflict):  # the Record page's start: an append at seq 0
            store.append("OAK NIGHT", start_events("OAK NIGHT", ("Cy", "Di"), "shown"), 0)
        assert [i.session for i in store.sessions()] == ["Oak Night"]
        store.append("Elm", start_events("Elm", ("Cy", "Di"), "shown"), 0)
        assert store.namesake("elm") == "Elm" and store.namesake("Elm") is None


# --- the statistics: one key, one player ----------------------------------------------------------

EXAMPLES = Path(__file__).resolve().parents[2] / "data" / "examples"


def _card_example_as(tmp_path: Path, session: str, a: str, table: str) -> Path:
    """The card's worked example (data/examples), player A seated as ``a``, at ``table``."""
    lines = (EXAMPLES / "card_example.jsonl").read_text(encoding="utf-8").splitlines()
    out = []
    for line in lines:
        raw = json.loads(line)
        raw.pop("id", None)  # the same events in another session: ids of their own
        if raw["type"] == "session_started":
            raw.update(session=session, table=table)
            raw["seats"] = [a if s == "A" else s for s in raw["seats"]]
        if raw.get("player") == "A":
            raw["player"] = a
        out.append(json.dumps(raw, ensure_ascii=False))
    path = tmp_path / f"{session}.jsonl"
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return path


def test_ann_ann_and_a_cyrillic_look_alike_are_one_player(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "brag.db")
    spellings = [
        ("s1", "Ann", "Top table"),
        ("s2", "ann", "top  table"),
        ("s3", CYRILLIC_A + "nn", "TOP table"),
    ]
    for session, name, table in spellings:
        assert (
            main(["import", "--db", db, str(_card_example_as(tmp_path, session, name, table))]) == 0
        )
    capsys.readouterr()
    assert main(["stats", "--db", db, "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert sorted(r["player"] for r in rows) == ["Ann", "B", "C", "D"]
    ann = next(r for r in rows if r["player"] == "Ann")
    assert (ann["sessions"], ann["deals"], ann["net"]) == ("3", "3", "-21")  # -7 in each
    for asked in ("ann", CYRILLIC_A + "NN"):
        assert main(["stats", "--db", db, "--player", asked, "--format", "csv"]) == 0
        assert "\nAnn,3,3,-21," in capsys.readouterr().out
    assert main(["leaderboard", "--db", db, "--table", "top TABLE", "--format", "csv"]) == 0
    board = capsys.readouterr().out
    assert board.count(",Ann,") == 3 and ",ann," not in board
    with duckdb.connect(str(tmp_path / "brag.duckdb"), read_only=True) as con:
        assert queries.tables(con) == ["Top table"]
        keys = con.execute("SELECT DISTINCT player_key FROM session_players ORDER BY 1").fetchall()
        assert keys == [("ann",), ("b",), ("c",), ("d",)]
        assert [r["player"] for r in queries.overall_leaderboard(con)] == []  # none finished
        stored = con.execute("SELECT player FROM session_players WHERE seat = 0 ORDER BY session")
        assert [r[0] for r in stored.fetchall()] == ["Ann", "ann", CYRILLIC_A + "nn"]  # as typed


# --- numbers from a client ------------------------------------------------------------------------


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, 2.5, True, "8", None, 0, 51])
def test_a_client_number_out_of_bounds_is_refused_in_one_line(value: object) -> None:
    with pytest.raises(PlainError) as err:
        whole_number(value, "Pots to play", 1, 50)
    assert str(err.value).count("\n") == 0 and "Pots to play must be a whole number" in str(
        err.value
    )
    assert whole_number(8.0, "Pots to play", 1, 50) == 8


def test_the_start_form_refuses_nan_pots_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    from dashboard.record import start as ui_start

    said: list[tuple[str, str]] = []
    monkeypatch.setattr(ui_start, "flash", lambda kind, text, *a: said.append((kind, text)))
    monkeypatch.setattr(
        ui_start, "start_session", lambda *a, **k: pytest.fail("nothing is recorded")
    )
    state = {"start_session": "s", "start_players": ["Ann", "Bob"], "start_pots": math.nan}
    monkeypatch.setattr(ui_start.st, "session_state", state)
    ui_start._start()
    assert said == [
        ("error", "Refused: Pots to play must be a whole number from 1 to 50, not nan.")
    ]


def test_a_typed_name_is_offered_as_the_stored_one() -> None:
    assert canonical("ann", ["Bob", "Ann"]) == "Ann"
    assert canonical(CYRILLIC_A + "NN", ["Ann"]) == "Ann"
    assert canonical("Anne", ["Ann"]) is None
    assert seat_clash(["Ann", "Bob", "ANN"]) is not None and seat_clash(["Ann", "Bob"]) is None
