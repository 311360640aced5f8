"""The dashboard's pure helpers: deals and positions, sentences, view-as, the table picture and
the recorder's choices (no Streamlit here)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from shared_paths import SCENARIOS, needs_shared

from dashboard.access import tokens
from dashboard.record import choices, recorder
from engine.apply import apply
from engine.fold import complete, record
from engine.legal import legal_actions
from engine.state import initial_state
from events.codec import read_file
from events.model import (
    AnyEvent,
    Bet,
    Folded,
    Looked,
    Retained,
    SessionStarted,
    Shown,
    Shuffled,
    Voided,
)
from present import replay as view
from present import table_svg
from present.replay import EVERYONE, Replay


def stream(name: str) -> list[AnyEvent]:
    """A shared scenario as the full stream (derived events added by the engine)."""
    return [s.event for s in complete(read_file(str(SCENARIOS / f"{name}.jsonl")))]


def at_event(rp: Replay, predicate: object) -> int:
    return next(k for k, e in enumerate(rp.events) if predicate(e))  # type: ignore[operator]


# --- deals, positions, moves --------------------------------------------------------------------


@needs_shared
def test_deals_are_cut_at_each_dealt() -> None:
    rp = Replay.of(stream("blind_survivor_pot_carried"))
    assert [s.deal for s in rp.slices] == [0, 1, 2]
    assert rp.slices[0].steps == 3  # session_started, dealer_chosen, shuffled
    for sl in rp.slices[1:]:
        assert rp.events[sl.start].type == "dealt"
    assert sum(s.steps for s in rp.slices) == len(rp.events)


@needs_shared
def test_position_from_a_link_is_clamped() -> None:
    rp = Replay.of(stream("card_example"))
    assert rp.position(None, None) == view.Position(1, 1, 3, 13)
    assert rp.position("1", "999").step == 13
    assert rp.position("junk", "-4") == rp.position(1, 1)
    assert rp.position("7", "2").deal == 1  # no deal 7: the nearest one
    assert rp.position("0", "2").index == 1


@needs_shared
def test_next_and_previous_cross_deals() -> None:
    rp = Replay.of(stream("blind_survivor_pot_carried"))
    end_of_1 = rp.position(1, 10**6)
    assert end_of_1.last
    nxt = rp.move(end_of_1, "next")
    assert (nxt.deal, nxt.step) == (2, 1)
    back = rp.move(nxt, "prev")
    assert back == end_of_1
    assert rp.move(rp.position(1, 5), "first").step == 1
    assert rp.move(rp.position(1, 5), "last").last
    last = rp.last_position()
    assert rp.move(last, "next") == last


@needs_shared
def test_corrected_leaves_out_voided_and_what_it_withdrew() -> None:
    base = stream("card_example")[:9]  # up to A's bet
    bet_seq = len(base)
    voided = Voided(seq=bet_seq)
    events = [*base, voided, Bet(player="A", level=Fraction(3))]
    corrected = view.corrected(events)
    assert [e.type for e in corrected][-2:] == ["looked", "bet"]
    assert corrected[-1].level == 3  # type: ignore[union-attr]
    recorded = Replay.of(events, recorded=True)
    fixed = Replay.of(events)
    assert recorded.corrections == 1 and len(recorded.events) == len(events)
    assert len(fixed.events) == len(events) - 2
    assert fixed.final.pot == recorded.final.pot


# --- sentences ----------------------------------------------------------------------------------


@needs_shared
def test_the_sentence_of_a_blind_see() -> None:
    rp = Replay.of(stream("blind_pays_half"))
    k = at_event(rp, lambda e: e.type == "saw")
    assert rp.sentence(k) == "B sees A: pays 6, the level, being blind"


@needs_shared
def test_sentences_of_the_card_example() -> None:
    rp = Replay.of(stream("card_example"))
    texts = [rp.sentence(k) for k in range(len(rp.events))]
    assert "Deal 1: D deals; everyone antes 1: pot 4" in texts
    assert "A bets level 2: pays 2" in texts
    assert "A sees B: pays 4, twice the level" in texts
    assert "B shows 5♠ 6♥ 7♦: run, 7-6-5" in texts
    assert texts[-1] == "B wins the pot of 12 at the showdown with a run (5♠ 6♥ 7♦)"


@needs_shared
def test_the_pot_leaves_the_table_on_the_pot_won_step() -> None:
    # The engine moves the money at B's last shown card (pot_won pending); the picture and the
    # step list keep the pot on the table until the pot_won step (State.pot_on_table).
    rp = Replay.of(stream("card_example"))
    last_shown, won = len(rp.events) - 2, len(rp.events) - 1
    assert rp.states[last_shown].pot == 0 and rp.states[last_shown].pending  # already awarded
    assert rp.states[last_shown].pot_on_table == 12
    sl = rp.slices[1]  # deal 1; steps count from 1 within the deal
    assert rp.view(rp.position(1, last_shown - sl.start + 1)).pot == 12
    assert rp.view(rp.position(1, won - sl.start + 1)).pot == 0
    rows = view.event_rows(rp.events, rp.states, sl)
    assert [r["pot"] for r in rows[-2:]] == ["12", "0"]


def test_every_scenario_has_a_sentence_for_every_step() -> None:
    for path in sorted(SCENARIOS.glob("*.jsonl")):
        try:
            events = [s.event for s in complete(read_file(str(path)))]
        except ValueError:
            continue  # a log that must be refused
        rp = Replay.of(events)
        for k in range(len(rp.events)):
            text = rp.sentence(k)
            assert text and not text.startswith(rp.events[k].type), (path.name, k)
            viewer = (None, *rp.seats)[k % (len(rp.seats) + 1)]  # each viewer in turn
            svg = table_svg.render(view.table_view(rp.states[k], viewer, text))
            assert svg.startswith('<div class="brag-table"><svg')


# --- view-as ------------------------------------------------------------------------------------


def _faces(rp: Replay, k: int, viewer: str | None) -> dict[str, tuple[str | None, ...]]:
    tv = view.table_view(rp.states[k], viewer)
    return {s.name: tuple(c for h in s.hands for c in h.cards) for s in tv.seats}


@needs_shared
def test_view_as_hides_what_a_player_could_not_know() -> None:
    rp = Replay.of(stream("random_all_11"))  # every card recorded
    first = rp.slices[1]
    # just after the deal: nobody has looked
    k = first.start
    everyone = _faces(rp, k, None)
    assert all(None not in cs for cs in everyone.values())
    for p in rp.seats:
        mine = _faces(rp, k, p)
        assert all(c is None for cs in mine.values() for c in cs), p
    # after Cal looks, Cal sees Cal's cards and nobody else's; Ann still sees nothing
    k = at_event(rp, lambda e: isinstance(e, Looked) and e.player == "Cal")
    cal = _faces(rp, k, "Cal")
    assert None not in cal["Cal"]
    assert all(c is None for p in ("Ann", "Bob") for c in cal[p])
    assert all(c is None for c in _faces(rp, k, "Ann")["Cal"])


@needs_shared
def test_shown_cards_are_known_to_everyone() -> None:
    rp = Replay.of(stream("random_all_11"))
    k = at_event(rp, lambda e: isinstance(e, Shown))
    shower = rp.events[k].player  # type: ignore[union-attr]
    for viewer in rp.seats:
        assert None not in _faces(rp, k, viewer)[shower]


@needs_shared
def test_cards_not_in_the_log_stay_face_down_even_for_everyone() -> None:
    rp = Replay.of(stream("card_example"))  # cards: "shown"
    k = at_event(rp, lambda e: e.type == "saw")
    faces = _faces(rp, k, None)
    assert all(c is None for cs in faces.values() for c in cs)
    tv = view.table_view(rp.states[k], None)
    assert not any(h.known for s in tv.seats for h in s.hands)
    k = at_event(rp, lambda e: isinstance(e, Shown) and e.player == "B")
    assert _faces(rp, k, "A")["B"] == ("5s", "6h", "7d")


def _two_hands_all_cards() -> list[AnyEvent]:
    """A, B, C with every card recorded: A survives blind, retains, and holds two hands."""
    rng = random.Random(7)
    events: list[AnyEvent] = [
        SessionStarted(session="two", seats=("A", "B", "C"), cards="all"),
        *recorder.start_events("two", ("A", "B", "C"), "all", dealer="C")[1:],
        recorder.shuffle_event(True, rng),
    ]
    s = initial_state()
    for e in events:
        s = apply(s, e)

    def do(e: AnyEvent) -> None:
        nonlocal s
        s, stream = record(s, e)
        events.extend(stream)

    deal = next(a.event for a in legal_actions(s) if a.kind == "dealt")
    do(deal)
    do(Looked(player="B"))
    do(Looked(player="C"))
    do(Bet(player="A", level=Fraction(1)))
    do(Folded(player="B"))
    do(Folded(player="C"))
    do(Retained(player="A"))
    do(next(a.event for a in legal_actions(s) if a.kind == "dealt"))
    do(Looked(player="A", hand="old"))
    return events


def test_a_holder_of_two_hands_sees_only_the_one_looked_at() -> None:
    rp = Replay.of(_two_hands_all_cards())
    k = len(rp.events) - 1
    a = view.table_view(rp.states[k], "A").seat("A")
    assert [h.origin for h in a.hands] == ["old", "new"]
    assert None not in a.hands[0].cards
    assert all(c is None for c in a.hands[1].cards)
    assert a.status == "looking at the old hand"
    everyone = view.table_view(rp.states[k], None).seat("A")
    assert all(None not in h.cards for h in everyone.hands)


# --- the table picture --------------------------------------------------------------------------


@needs_shared
def test_the_picture_shows_pot_dealer_turn_and_seats() -> None:
    rp = Replay.of(stream("card_example"))
    pos = rp.position(1, 6)  # after A's bet
    tv = rp.view(pos, EVERYONE)
    svg = table_svg.render(tv)
    assert 'data-pot="6"' in svg
    assert 'data-dealer="D"' in svg
    assert "B to act" in svg
    for name in "ABCD":
        assert f'data-seat="{name}"' in svg
    assert svg.count('data-card="down"') == 12
    assert tv.seat("A").paid == 3


def test_the_picture_escapes_names() -> None:
    events: list[AnyEvent] = [
        SessionStarted(session="x", seats=("<b>_x_</b>", "$y$"), cards="shown"),
        Shuffled(),
    ]
    svg = table_svg.render(view.table_view(apply(initial_state(), events[0])))
    assert "<b>" not in svg and "_x_" not in svg and "$y$" not in svg


# --- the recorder -------------------------------------------------------------------------------


@needs_shared
def test_choices_are_the_legal_actions_with_their_cost() -> None:
    rp = Replay.of(stream("card_example")[:8])  # everyone has looked; A to act
    labels = [c.label for c in choices.choices(rp.final)]
    assert labels[0] == "A bets level 1: pays 1"
    assert "A folds" in labels
    assert {c.group for c in choices.choices(rp.final)} == {"turn"}
    blind = Replay.of(stream("blind_pays_half"))
    k = at_event(blind, lambda e: e.type == "saw")
    saw = [c for c in choices.choices(blind.states[k - 1]) if c.action.kind == "saw"]
    assert saw[0].label == "B sees A: pays 6, the level, being blind"


@needs_shared
def test_complete_fills_in_the_cards_shown() -> None:
    rp = Replay.of(stream("card_example")[:13])  # after A sees B
    (show,) = choices.choices(rp.final)
    assert show.needs == ("cards",) and show.card_count == 3 and show.group == "showdown"
    event = choices.complete(show, cards=["5♠", "6h", "7D"], by="Ann")
    assert isinstance(event, Shown) and event.cards == ("5s", "6h", "7d") and event.by == "Ann"
    apply(rp.final, event)  # the engine takes it


@needs_shared
def test_undo_is_a_voided_of_the_latest_recorded_event() -> None:
    rp = Replay.of(stream("card_example")[:9], recorded=True)
    undo = recorder.undo(rp.final)
    assert undo == Voided(seq=9)
    assert recorder.undo_index(rp.states) == 8
    after = apply(rp.final, undo)
    assert after.pot == rp.states[7].pot
    start = Replay.of(stream("card_example")[:1], recorded=True)
    assert recorder.undo(start.final) is None


@needs_shared
def test_recorded_events_are_timed_unless_they_already_are() -> None:
    """FORMAT.md ``at``: the Record page times what it records (with the device's UTC offset), so
    a session recorded live keeps its times through export and import."""
    from datetime import UTC, datetime, timedelta, timezone

    rp = Replay.of(stream("card_example")[:9], recorded=True)
    undo = recorder.undo(rp.final)
    assert undo is not None and undo.at is None
    earlier = datetime(2026, 11, 27, 21, 0, tzinfo=timezone(timedelta(hours=1)))
    kept = Voided(seq=9, at=earlier)
    when = datetime(2026, 11, 29, 22, 31, 5, tzinfo=UTC)
    out = recorder.stamped([undo, kept], when)
    assert [e.at for e in out] == [when, earlier]
    assert out[0].seq == 9 and undo.at is None  # a copy: the event given is unchanged
    now = recorder.stamped([undo])[0].at
    assert now is not None and now.utcoffset() is not None and now.microsecond == 0
    assert abs(now - datetime.now(UTC)) < timedelta(minutes=1)
    with pytest.raises(ValueError, match="offset"):
        recorder.stamped([undo], datetime(2026, 11, 29, 22, 31))


def test_recorded_times_are_in_the_organisers_time_zone() -> None:
    """The Record page passes the browser's IANA zone: a London table in summer records +01:00,
    whatever the server's zone; no zone or an unknown one falls back to the server's."""
    from datetime import UTC, datetime

    t = datetime(2026, 7, 1, 12, 0, 0, 123456, tzinfo=UTC)
    london = recorder.now_in("Europe/London", t)
    assert london.isoformat() == "2026-07-01T13:00:00+01:00"
    assert recorder.now_in("Europe/London", t.replace(month=12)).isoformat() == (
        "2026-12-01T12:00:00+00:00"
    )
    for zone in (None, "", "Nowhere/Else", "../etc/passwd"):
        here = recorder.now_in(zone, t)
        assert here == t.replace(microsecond=0) and here.utcoffset() is not None


def test_start_events_and_seats() -> None:
    assert recorder.parse_seats(" Ann, Bob\nCal\n\n") == ("Ann", "Bob", "Cal")
    started, chosen = recorder.start_events("s", ("Ann", "Bob"), "shown", rng=random.Random(1))
    assert isinstance(started, SessionStarted) and started.seats == ("Ann", "Bob")
    assert chosen.player in ("Ann", "Bob")  # type: ignore[union-attr]
    assert recorder.start_events("s", ("Ann", "Bob"), "shown", dealer="Bob")[1].player == "Bob"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("configured", "given", "ok"),
    [("sesame", "sesame", True), ("sesame", "wrong", False), (None, "x", False), ("x", "", False)],
)
def test_the_organiser_secret(configured: str | None, given: str, ok: bool) -> None:
    assert tokens.check_secret(configured, given) is ok
