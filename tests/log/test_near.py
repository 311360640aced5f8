"""Names close to a known one (:mod:`log.near`, issue 35 item 2): the spellings, initials and
prefixes the Record page's start form asks about, and what ``--player`` offers."""

from __future__ import annotations

import pytest

from log.near import by_prefix, distance, initials_match, near, nearest

CLUB = ["Jean", "Jean Smith", "Margaret", "Bob", "Ann", "Anne-Marie"]


@pytest.mark.parametrize(
    ("a", "b", "d"),
    [("jaen", "jean", 1), ("jon", "jean", 2), ("ca", "abc", 3), ("", "ann", 3), ("ab", "ab", 0),
     ("margaret", "margeret", 1), ("margaret", "mragaret", 1)],
)  # fmt: skip
def test_the_distance_counts_a_swap_as_one(a: str, b: str, d: int) -> None:
    assert distance(a, b) == d == distance(b, a)


@pytest.mark.parametrize(
    ("typed", "offered"),
    [
        ("Jaen", "Jean"),  # two letters swapped
        ("jaen ", "Jean"),  # the normal form first: case and spacing aside
        ("Jon", "Jean"),  # two edits, same first letter
        ("Margeret", "Margaret"),
        ("J. Smith", "Jean Smith"),  # initials
        ("Jean S.", "Jean Smith"),
        ("Anne", "Ann"),
        ("Zed", None),
        ("Rob", "Bob"),  # one edit on a short name: asked, the organiser decides
        ("Jean", None),  # known: nothing to ask
        ("JEAN", None),  # known under its normal form
        ("", None),
    ],
)
def test_nearest(typed: str, offered: str | None) -> None:
    assert nearest(typed, CLUB) == offered


def test_near_orders_initials_first_and_never_offers_far_names() -> None:
    assert [n.name for n in near("J Smith", CLUB)] == ["Jean Smith"]
    assert [n.why for n in near("J Smith", CLUB)] == ["initials"]
    assert near("Jaen", ["Ann", "Jean", "Jan"])[0].name == "Jean"  # same length before Jan
    assert all(n.name != "Ann" for n in near("Jaen", CLUB))  # 2 edits, another first letter
    assert not initials_match("j. s.", "jean smith")  # nothing spelled out: too loose


def test_tables_are_offered_by_prefix() -> None:
    tables = ["Top table", "Oak", "Back room", "Topaz"]
    assert by_prefix("Top", tables) == ["Top table", "Topaz"]
    assert by_prefix("top t", tables) == ["Top table"]
    assert by_prefix("room", tables) == ["Back room"]  # a word's beginning
    assert by_prefix("Oak", tables) == [] and by_prefix("  ", tables) == []
