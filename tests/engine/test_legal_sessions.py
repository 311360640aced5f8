"""Property tests: sessions drawn only from :func:`engine.legal.legal_actions`.

A strategy plays a whole session, one legal action at a time (2 to 10 players, both card modes,
some rule parameters varied, now and then a correction). For ``cards: "all"`` the shuffles supply
a pack order drawn with ``st.permutations``; for ``cards: "shown"`` the showdowns supply cards not
already shown. The properties:

- stakes are conserved: after every event the nets plus the pot are 0 (RULES 1.5);
- in ``"all"`` logs with a tracked pack each of the 52 cards is in exactly one place: the pack, the
  hands of the players still in the deal, or a retained hand (RULES 3.3, 6.2);
- replaying a prefix equals the prefix of the replay;
- every event round-trips through JSON, and so does the whole log;
- a log with one event corrupted is refused with a BragError, never another exception (or, when
  the corruption happens to be legal, verifies fine).
"""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from session_strategies import (
    ALL_CARDS,
    SETTINGS,
    Session,
    lines_of,
    places,
    sessions,
)

from engine.fold import complete, replay, summary
from engine.state import Phase
from events.codec import dumps, parse_line, read_events, to_json
from events.errors import BragError
from events.model import (
    is_derived,
)

# --- properties --------------------------------------------------------------------------------


@pytest.mark.slow
@SETTINGS
@given(sessions())
def test_nets_plus_pot_is_zero_after_every_event(session: Session) -> None:
    for s in session.states:
        assert s.scale % 2 == 0
        assert sum(s.nets.values()) + s.pot == 0
        assert s.pot >= 0
        if s.in_deal:
            assert sum(s.paid_in_deal(p) for p in s.seats) <= s.pot


@pytest.mark.slow
@SETTINGS
@given(sessions())
def test_each_of_the_52_cards_is_in_exactly_one_place(session: Session) -> None:
    """Both card modes: the cards themselves (``all``) or the pack's slots (``shown``)."""
    for e, s in zip(session.events, session.states, strict=True):
        if not s.shuffled_once or s.phase is Phase.OVER:
            continue  # before the first shuffle (or after it was voided) nothing is tracked
        assert s.pack is not None, "a log whose shuffles are recorded tracks the pack"
        where = places(s)
        assert sorted(where) == list(range(52)), f"after {e.type}: {sorted(where)}"
        assert set(where.values()) == {1}, f"after {e.type}: a card in two places"


@pytest.mark.slow
@SETTINGS
@given(sessions(), st.data())
def test_replaying_a_prefix_equals_the_prefix_of_the_replay(session: Session, data: Any) -> None:
    events = list(session.events)
    full = replay(events)
    assert full == list(session.states)
    k = data.draw(st.integers(0, len(events)), label="prefix")
    assert replay(events[:k]) == full[:k]


@pytest.mark.slow
@SETTINGS
@given(sessions())
def test_every_event_round_trips_through_json(session: Session) -> None:
    for e in session.events:
        text = dumps(e)
        assert parse_line(text) == e
        assert json.loads(text) == to_json(e)
    # The whole log, written and read back, verifies to the same summary; so does the log with
    # its derived events left out (they are optional on import).
    lines = lines_of(session.events)
    steps = list(complete(read_events(lines)))
    assert [st.event for st in steps] == list(session.events)
    assert summary(steps[-1].state) == summary(session.states[-1])
    recorded = lines_of([e for e in session.events if not is_derived(e)])
    steps = list(complete(read_events(recorded)))
    assert summary(steps[-1].state) == summary(session.states[-1])


MUTATIONS = (
    "level",
    "paid",
    "player",
    "card",
    "hand",
    "drop",
    "duplicate",
    "swap",
    "swap_adjacent",
    "type",
    "drop_field",
    "add_field",
    "amount",
    "seq",
    "id",
    "truncate",
)


def with_key(raws: list[dict[str, Any]], *keys: str) -> list[int]:
    return [i for i, r in enumerate(raws) if any(k in r for k in keys)]


@st.composite
def corrupted(draw: st.DrawFn, session: Session) -> tuple[str, list[str]]:
    """The session's log as JSON Lines (derived events kept or left out) with one corruption."""
    events = session.events
    if draw(st.booleans()):
        events = tuple(e for e in events if not is_derived(e))
    raws = [to_json(e) for e in events]
    kind = draw(st.sampled_from(MUTATIONS))
    i = draw(st.integers(0, len(raws) - 1))
    seats = list(session.states[-1].seats)

    def pick(*keys: str) -> int | None:
        idx = with_key(raws, *keys)
        return draw(st.sampled_from(idx)) if idx else None

    k: int | None
    if kind == "level" and (k := pick("level")) is not None:
        raws[k]["level"] = draw(st.sampled_from([-1, 0, 1, 2, 4, 6, 11, 25, "5/2", "1.5"]))
    elif (
        kind == "paid"
        and (k := pick("level", "paid")) is not None
        and raws[k]["type"]
        in (
            "bet",
            "saw",
        )
    ):
        raws[k]["paid"] = draw(st.sampled_from([0, "1/2", 1, "3/2", 2, 3, 5, 8, 100]))
    elif kind == "player" and (k := pick("player")) is not None:
        raws[k]["player"] = draw(st.sampled_from([*seats, "Zed", ""]))
    elif kind == "card" and (k := pick("hands", "cards", "order")) is not None:
        r = raws[k]
        new = draw(st.sampled_from(ALL_CARDS))
        if "hands" in r:
            who = draw(st.sampled_from(sorted(r["hands"])))
            j = draw(st.integers(0, 2))
            r["hands"][who] = [new if n == j else c for n, c in enumerate(r["hands"][who])]
        else:
            field = "cards" if "cards" in r else "order"
            j = draw(st.integers(0, len(r[field]) - 1))
            r[field] = [new if n == j else c for n, c in enumerate(r[field])]
    elif kind == "hand" and (k := pick("player")) is not None:
        raws[k]["hand"] = draw(st.sampled_from(["old", "new"]))
    elif kind == "duplicate":
        raws.insert(i + 1, dict(raws[i]))
    elif kind in ("swap", "swap_adjacent") and len(raws) > 1:
        j = draw(st.integers(0, len(raws) - 1)) if kind == "swap" else min(i + 1, len(raws) - 1)
        raws[i], raws[j] = raws[j], raws[i]
    elif kind == "type":
        raws[i]["type"] = draw(
            st.sampled_from(
                [
                    "bet",
                    "folded",
                    "saw",
                    "looked",
                    "kept",
                    "thrown",
                    "shown",
                    "conceded",
                    "retained",
                    "dealt",
                    "shuffled",
                    "dealer_chosen",
                    "voided",
                    "pot_won",
                    "session_started",
                ]
            )
        )
    elif kind == "drop_field" and len(raws[i]) > 1:
        field = draw(st.sampled_from(sorted(f for f in raws[i] if f != "type")))
        del raws[i][field]
    elif kind == "add_field":
        raws[i][draw(st.sampled_from(["colour", "hand", "level", "cards", "player"]))] = "x"
    elif kind == "amount" and (k := pick("amount", "nets")) is not None:
        if "amount" in raws[k]:
            raws[k]["amount"] = draw(st.sampled_from([0, "1/2", 1, 99]))
        else:
            raws[k]["winners"] = [draw(st.sampled_from(seats))]
    elif kind == "seq":
        # Number every event (as an export does), then put one number wrong.
        for n, r in enumerate(raws, start=1):
            if r["type"] != "voided":
                r["seq"] = n
        if raws[i]["type"] != "voided":
            raws[i]["seq"] = draw(st.sampled_from([0, i, i + 2, i + 3, len(raws) + 1]))
    elif kind == "id":
        # Give every event an id, then reuse one: a retry of the same event is skipped, a
        # different event under a used id is refused.
        for n, r in enumerate(raws):
            r["id"] = str(uuid.UUID(int=n + 1))
        j = draw(st.integers(0, len(raws) - 1))
        raws[i]["id"] = raws[j]["id"]
    else:
        del raws[i]  # "drop", and the fallback when the corruption has nothing to change
    lines = [json.dumps(r, ensure_ascii=False) for r in raws]
    if kind == "truncate":
        j = draw(st.integers(0, len(lines) - 1))
        lines[j] = lines[j][: draw(st.integers(0, max(0, len(lines[j]) - 1)))]
    return kind, lines


@pytest.mark.slow
@settings(SETTINGS, max_examples=300)
@given(sessions(max_events=100), st.data())
def test_a_corrupted_log_is_refused_with_a_brag_error(session: Session, data: Any) -> None:
    kind, lines = data.draw(corrupted(session), label="corruption")
    try:
        for _ in complete(read_events(lines)):
            pass
    except BragError as err:
        assert err.rule == "FORMAT" or err.rule[0].isdigit(), kind
        assert err.line is not None and 1 <= err.line <= len(lines), (kind, err.line)
        assert err.message
    # Any other exception fails the test: it would be a crash, not a refusal.
