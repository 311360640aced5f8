"""One name, one player (issue 24 item 4), in the session log: a log seating one name twice is
refused (RULES 1.3); the rest of the names' tests are in tests/events/test_names.py."""

from __future__ import annotations

import json

import pytest

from events.errors import FormatError
from log.folds import checked_log

CYRILLIC_A = "\u0410"  # looks like the Latin A


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
