"""One name, one player (issue 24 item 4): the one normal form of names, tables and session ids
(events.text.normal). The places that ask it are tested in their layers' folders:
``test_one_name_in_the_log.py`` (log), ``test_one_name_shown.py`` (present),
``test_one_name_in_the_statistics.py`` (cli), ``test_one_name_on_the_pages.py`` (dashboard)."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from events.codec import parse_raw
from events.model import SessionStarted
from events.text import mixed_scripts, normal, same_name

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


def test_a_stored_row_with_two_spellings_is_still_read() -> None:
    raw = json.loads(_start("old", ["Ann", "ann"]))
    event = parse_raw(raw, stored=True)
    assert isinstance(event, SessionStarted) and event.seats == ("Ann", "ann")
