"""One name, one player (issue 24 item 4), as offered and checked for a screen: a typed name is
offered as the stored one, a seat clash is found, a client number out of bounds is refused in one
line."""

from __future__ import annotations

import math

import pytest

from events.errors import PlainError
from present.names import canonical, seat_clash, whole_number

CYRILLIC_A = "\u0410"  # looks like the Latin A


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, 2.5, True, "8", None, 0, 51])
def test_a_client_number_out_of_bounds_is_refused_in_one_line(value: object) -> None:
    with pytest.raises(PlainError) as err:
        whole_number(value, "Pots to play", 1, 50)
    assert str(err.value).count("\n") == 0 and "Pots to play must be a whole number" in str(
        err.value
    )
    assert whole_number(8.0, "Pots to play", 1, 50) == 8


def test_a_typed_name_is_offered_as_the_stored_one() -> None:
    assert canonical("ann", ["Bob", "Ann"]) == "Ann"
    assert canonical(CYRILLIC_A + "NN", ["Ann"]) == "Ann"
    assert canonical("Anne", ["Ann"]) is None
    assert seat_clash(["Ann", "Bob", "ANN"]) is not None and seat_clash(["Ann", "Bob"]) is None
