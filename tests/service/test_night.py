"""A club night (issue 36, first slice, :mod:`service.night`): for every date of the bundled
season the standings are the sum of each player's nets over that date's sessions, computed here
from the engine's fold of each log; transfers settle the nets exactly in at most n-1 transfers
(also for random nets); a session in progress keeps its pot apart and the night refuses to
settle."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from datetime import date
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.fold import fold
from events.codec import read_file
from events.model import SessionStarted
from log.open import open_store
from log.register import rename, seated_of
from log.service import EventStore
from service.night import (
    NightRefused,
    SessionNets,
    night_of,
    settle,
    standings_of,
    transfers_of,
)

SEASON = sorted((Path(__file__).resolve().parents[2] / "data" / "season").glob("*.jsonl"))


@pytest.fixture(scope="module")
def season() -> Iterator[EventStore]:
    """Every bundled season log in one in-memory store."""
    with open_store("memory://") as s:
        for path in SEASON:
            s.import_log(str(path))
        yield s


def _expected() -> dict[date, dict[str, tuple[Fraction, int]]]:
    """Each date's players: (sum of nets, sessions), from the engine's fold of each log file."""
    out: dict[date, dict[str, tuple[Fraction, int]]] = defaultdict(dict)
    for path in SEASON:
        events = [e for _, e in read_file(str(path))]
        first = events[0]
        assert isinstance(first, SessionStarted) and first.at is not None
        state = fold(events)
        assert state.finished and state.pot == 0
        day = out[first.at.date()]
        for p, net in state.nets.items():
            total, n = day.get(p, (Fraction(0), 0))
            day[p] = (total + net, n + 1)
    return out


def test_every_night_of_the_season_sums_the_folded_nets(season: EventStore) -> None:
    expected = _expected()
    assert len(expected) == 17 and sum(len(v) for v in expected.values()) > 80
    for day, players in expected.items():
        night = night_of(season, day)
        got = {r.player: (r.net, r.sessions) for r in night.standings}
        assert got == players, day
        assert sum(r.net for r in night.standings) == 0 and night.pot == 0
        nets = [r.net for r in night.standings]
        assert nets == sorted(nets, reverse=True)
        assert night.state == "provisional"  # no finalising fact in this slice
        transfers = settle(night)
        _check_settles({r.player: r.net for r in night.standings}, transfers)


def test_the_first_night_as_the_logs_say(season: EventStore) -> None:
    night = night_of(season, date(2026, 9, 24))
    assert [s.session for s in night.sessions] == [
        "2026-09-24-top-1", "2026-09-24-window-1", "2026-09-24-top-2", "2026-09-24-top-3",
    ]  # fmt: skip
    top = night.standings[0]
    assert (top.player, top.net, top.sessions, top.tables) == ("Sandra", 103, 3, ("Top table",))
    money = settle(night, Fraction("0.50"))
    assert len(money) == 8 and money[0].payer == "Margaret" and money[0].amount == Fraction(61, 2)


def test_a_renamed_player_counts_under_the_new_name() -> None:
    with open_store("memory://") as s:
        for path in SEASON[:4]:
            s.import_log(str(path))
        rename(s, "Sandra", "Sandra B", seated_of(s), by="test")
        night = night_of(s, date(2026, 9, 24))
        assert night.standings[0].player == "Sandra B" and night.standings[0].net == 103
        assert "Sandra" not in {r.player for r in night.standings}


def test_a_merged_name_counts_as_its_player() -> None:
    a = SessionNets("s1", "Top", True, {"Jean": Fraction(5), "Bob": Fraction(-5)}, Fraction(0))
    b = SessionNets("s2", None, True, {"Jaen": Fraction(3, 2), "Al": Fraction(-3, 2)}, Fraction(0))
    rows = standings_of([a, b], lambda n: "Jean" if n == "Jaen" else n)
    assert [(r.player, r.net, r.sessions, r.tables) for r in rows] == [
        ("Jean", Fraction(13, 2), 2, ("Top",)),
        ("Al", Fraction(-3, 2), 1, ()),
        ("Bob", Fraction(-5), 1, ("Top",)),
    ]


def test_a_session_in_progress_keeps_its_pot_and_refuses_to_settle() -> None:
    lines = SEASON[0].read_text(encoding="utf-8").splitlines()[:12]  # bets made, no pot won
    with open_store("memory://") as s:
        s.import_log(lines)
        night = night_of(s, date(2026, 9, 24))
        assert not night.sessions[0].finished and night.pot > 0
        assert sum(r.net for r in night.standings) + night.pot == 0  # RULES 1.5
        assert night.state == "provisional"
        with pytest.raises(NightRefused, match=r"^session '2026-09-24-top-1' has a pot of \d+"):
            settle(night)
        with pytest.raises(NightRefused, match=r"^no session started on 2026-09-23"):
            night_of(s, date(2026, 9, 23))


def _check_settles(nets: dict[str, Fraction], transfers: tuple) -> None:  # type: ignore[type-arg]
    left = dict(nets)
    for t in transfers:
        assert t.amount > 0 and t.payer != t.payee
        left[t.payer] += t.amount
        left[t.payee] -= t.amount
    assert all(v == 0 for v in left.values())
    movers = sum(1 for v in nets.values() if v != 0)
    assert len(transfers) <= max(movers - 1, 0)


amounts = st.fractions(min_value=-500, max_value=500, max_denominator=12)


@given(st.lists(amounts, min_size=1, max_size=12))
def test_random_nets_settle_exactly_in_at_most_n_minus_one(values: list[Fraction]) -> None:
    nets = {f"P{i}": v for i, v in enumerate(values)}
    nets["last"] = -sum(values, Fraction(0))
    _check_settles(nets, transfers_of(nets))


@given(st.lists(amounts, min_size=1, max_size=6), amounts.filter(lambda v: v != 0))
def test_nets_that_do_not_balance_are_refused(values: list[Fraction], off: Fraction) -> None:
    nets = {f"P{i}": v for i, v in enumerate(values)}
    nets["last"] = off - sum(values, Fraction(0))
    with pytest.raises(NightRefused, match=r"^the nets do not balance"):
        transfers_of(nets)
