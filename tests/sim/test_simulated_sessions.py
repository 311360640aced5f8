"""Simulated players and sessions (issue 4): valid, deterministic, fair cards, distinct styles.

The sessions of the module fixture (:data:`N_SESSIONS` of 2 to 10 players, every other one a
``shown`` log) are shared by the tests below.
"""

from __future__ import annotations

import io
import random
import uuid
from collections import Counter
from datetime import datetime, timedelta, timezone
from fractions import Fraction

import pytest

import sim.table
from engine.fold import verify_events
from engine.hands import Category
from engine.legal import legal_actions
from engine.state import Phase, State
from events.codec import read_events, write_events
from events.model import (
    AnyEvent,
    Bet,
    DealerChosen,
    Dealt,
    Folded,
    Kept,
    Looked,
    PotCarried,
    PotWon,
    Retained,
    Saw,
    SessionStarted,
    Shown,
    Shuffled,
    Thrown,
)
from sim import STYLE_OF, SessionSpec, simulate_session
from sim.batch import deal_chunks, generate, parse_players
from sim.players import LEVEL_CAP, MAX_BETS, STYLES, View, percentile
from sim.stats import RULES_2_8, category_counts, sigma_bounds, style_table
from sim.table import finish, play

N_SESSIONS = 300
SIGMAS = 5.0


def _text(events: list[AnyEvent]) -> str:
    buf = io.StringIO()
    write_events(events, buf)
    return buf.getvalue()


@pytest.fixture(scope="module")
def runs() -> list[tuple[list[AnyEvent], list[AnyEvent]]]:
    """``(all-cards stream, the log as written)`` for each session; odd ones are ``shown`` logs."""
    out = []
    for k in range(N_SESSIONS):
        n = random.Random(k).randint(2, 10)
        spec = SessionSpec(
            session=f"t-{k}",
            seats=tuple(random.Random(f"seats{k}").sample(sorted(STYLE_OF.items()), n)),
            seed=k,
            cards="shown" if k % 2 else "all",
        )
        full = play(spec)
        out.append((full, finish(full, spec)))
    return out


# --- every session is a valid, complete log ------------------------------------------------------


@pytest.mark.slow  # the module's simulated sessions (runs) take long to play
def test_every_session_passes_verify(runs: list[tuple[list[AnyEvent], list[AnyEvent]]]) -> None:
    sizes = Counter()
    for _, log in runs:
        text = _text(log)
        state = verify_events(read_events(text.splitlines()))  # what brag verify does
        assert state.finished and state.resolved == 8  # RULES 1.4
        assert sum(state.nets.values()) == 0  # RULES 1.5
        started = log[0]
        assert isinstance(started, SessionStarted)
        sizes[len(started.seats)] += 1
        assert [e.seq for e in log] == list(range(1, len(log) + 1))
        assert all(e.by == "simulator" and e.id is not None for e in log)
    assert set(sizes) == set(range(2, 11))  # every table size of RULES 1.3 was played


@pytest.mark.slow
def test_shown_logs_record_only_the_shown_cards(
    runs: list[tuple[list[AnyEvent], list[AnyEvent]]],
) -> None:
    with_showdown = 0
    for full, log in runs[1::2]:
        assert isinstance(log[0], SessionStarted) and log[0].cards == "shown"
        assert not any(isinstance(e, Dealt) and e.hands for e in log)
        assert not any(isinstance(e, Shuffled) and e.order for e in log)
        with_showdown += any(isinstance(e, Shown) for e in log)
        # the same game as the all-cards stream, event for event
        assert [e.type for e in full] == [e.type for e in log]
        for a, b in zip(full, log, strict=True):
            if isinstance(a, Shown | PotWon | Bet | Folded | Saw | Looked):
                assert a.model_dump(exclude={"seq", "id", "at", "by"}) == b.model_dump(
                    exclude={"seq", "id", "at", "by"}
                )
    assert with_showdown > 0.9 * len(runs[1::2])


@pytest.mark.slow
def test_bets_are_bounded(runs: list[tuple[list[AnyEvent], list[AnyEvent]]]) -> None:
    for full, _ in runs:
        per_deal: Counter[str] = Counter()
        for e in full:
            if isinstance(e, Dealt):
                per_deal.clear()
            elif isinstance(e, Bet):
                assert e.level <= LEVEL_CAP
                per_deal[e.player] += 1
                assert per_deal[e.player] <= MAX_BETS


# --- determinism ----------------------------------------------------------------------------------


def test_same_seed_same_bytes() -> None:
    a = [_text(s) for s in generate(42, 5, (2, 10), "shown")]
    b = [_text(s) for s in generate(42, 5, (2, 10), "shown")]
    assert a == b
    c = [_text(s) for s in generate(43, 5, (2, 10), "shown")]
    assert a != c
    assert _text(simulate_session(9, 6)) == _text(simulate_session(9, 6))


def test_event_ids_are_version_7_from_the_event_time_and_stable() -> None:
    # Time-ordered ids keep the store's unique id index growing at its end (store.records.new_ids).
    at = datetime(2026, 9, 24, 19, 30, 5, 250_000, tzinfo=timezone(timedelta(hours=1)))
    one = sim.table.event_id("2026-09-24-top-1", "all", 7, at)
    assert one.version == 7 and one.variant == uuid.RFC_4122
    assert one.int >> 80 == 1_790_274_605_250  # 18:30:05.250 UTC in Unix milliseconds (timegm)
    assert one == sim.table.event_id("2026-09-24-top-1", "all", 7, at)
    assert one != sim.table.event_id("2026-09-24-top-1", "shown", 7, at)
    later = sim.table.event_id("2026-09-24-top-1", "all", 8, at + timedelta(seconds=1))
    assert later > one
    named = uuid.uuid5(sim.table.NAMESPACE, "2026-09-24-top-1/all/7")
    assert sim.table.event_id("2026-09-24-top-1", "all", 7, None) == named
    assert one.int & ((1 << 76) - 1) == named.int & ((1 << 76) - 1)


def test_parse_players() -> None:
    assert parse_players("5") == (5, 5)
    assert parse_players("2-10") == (2, 10)
    for bad in ("1", "3-11", "x", "7-4"):
        with pytest.raises(ValueError):
            parse_players(bad)


@pytest.mark.slow
def test_deal_chunks_cut_at_each_deal(runs: list[tuple[list[AnyEvent], list[AnyEvent]]]) -> None:
    for _, log in runs[:20]:
        chunks = list(deal_chunks(log))
        assert [e for c in chunks for e in c] == log
        assert len(chunks) == sum(isinstance(e, Dealt) for e in log)
        for c in chunks:
            assert sum(isinstance(e, Dealt) for e in c) == 1
        for c in chunks[1:]:
            assert isinstance(c[0], Dealt | Shuffled)


# --- the pack: RULES 2.8 after a shuffle, RULES 3.3 otherwise -----------------------------------


@pytest.mark.slow
def test_after_shuffle_shares_hold_to_rules_2_8(
    runs: list[tuple[list[AnyEvent], list[AnyEvent]]],
) -> None:
    """Hands dealt right after a shuffle are hands from a randomly ordered pack: each category's
    share is within SIGMAS binomial standard deviations of RULES 2.8 (hands of one deal are drawn
    without replacement, which only narrows the spread, so the bound is conservative)."""
    counts = category_counts(full for full, _ in runs)
    n = sum(counts.after_shuffle.values())
    assert n > 1500
    for cat in Category:
        lo, hi = sigma_bounds(n, cat, SIGMAS)
        share = counts.after_shuffle[cat] / n
        assert lo <= share <= hi, (cat.label, share, RULES_2_8[cat] / 22100)


def _independent_pack_check(events: list[AnyEvent]) -> int:
    """Follows the pack by RULES 3.2-3.4 without the engine and checks every ``dealt`` against
    it; returns how many deals came from the unshuffled pack."""
    seats: tuple[str, ...] = ()
    pack: list[str] = []
    hands: dict[str, list[tuple[str, ...]]] = {}  # old first, then new
    looking: dict[str, int] = {}
    dealer = -1
    payer = survivor = ""
    retained: tuple[str, tuple[str, ...]] | None = None
    unshuffled = 0
    fresh = False
    for e in events:
        if isinstance(e, SessionStarted):
            seats = e.seats
        elif isinstance(e, DealerChosen):
            dealer = seats.index(e.player) - 1
        elif isinstance(e, Shuffled):
            assert e.order is not None
            pack, fresh = list(e.order), True
        elif isinstance(e, Dealt):
            assert e.hands is not None
            if survivor:  # a carried pot not retained: the hand goes under (RULES 6.2, 3.3)
                for h in hands[survivor]:
                    pack += h
            n = len(seats)
            assert len(pack) + (3 if retained else 0) == 52  # every card is accounted for
            dealer = (dealer + 1) % n
            order = [seats[(dealer + 1 + k) % n] for k in range(n)]
            for k, p in enumerate(order):
                assert tuple(e.hands[p]) == (pack[k], pack[n + k], pack[2 * n + k]), "RULES 3.4"
            pack = pack[3 * n :]
            hands = {p: [tuple(e.hands[p])] for p in seats}
            if retained is not None:
                hands[retained[0]].insert(0, retained[1])
            retained, survivor, payer = None, "", ""
            unshuffled += not fresh
            fresh = False
        elif isinstance(e, Looked) and e.hand is not None:
            looking[e.player] = 0 if e.hand == "old" and len(hands[e.player]) == 2 else 1
        elif isinstance(e, Kept):
            k = looking.pop(e.player)
            pack += hands[e.player][1 - k]
            hands[e.player] = [hands[e.player][k]]
        elif isinstance(e, Thrown):
            k = looking.pop(e.player)
            pack += hands[e.player][k]
            hands[e.player] = [hands[e.player][1 - k]]
        elif isinstance(e, Folded):
            for h in hands.pop(e.player):
                pack += h
        elif isinstance(e, Saw):
            payer = e.player
        elif isinstance(e, PotWon):
            if e.showdown:
                opp = next(p for p in hands if p != payer)
                order_under = [opp, payer]
            else:
                order_under = list(hands)
            for p in order_under:
                for h in hands[p]:
                    pack += h
        elif isinstance(e, PotCarried):
            survivor = e.player
        elif isinstance(e, Retained):
            held = hands[e.player]
            k = 0 if len(held) == 1 or e.hand == "old" else 1
            if len(held) == 2:
                pack += held[1 - k]
            retained, survivor = (e.player, held[k]), ""
    return unshuffled


@pytest.mark.slow
def test_unshuffled_deals_follow_rules_3_3(
    runs: list[tuple[list[AnyEvent], list[AnyEvent]]],
) -> None:
    """Every ``all`` stream is verified with the tracked pack (the engine refuses a deal that does
    not come from it, RULES 3.3), and an independent model of the pack agrees deal by deal."""
    unshuffled = 0
    for full, _ in runs:
        unshuffled += _independent_pack_check(full)
    assert unshuffled > 1000


# --- what a player may know -----------------------------------------------------------------------


def test_players_never_see_unlooked_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = 0
    real = sim.table.view_of

    def checked(state: State, name: str, memory: object = None) -> View:
        nonlocal calls
        calls += 1
        view = real(state, name, memory)  # type: ignore[arg-type]
        p = state.players[state.seat(name)]
        if p.looking is None and not p.seen:
            assert view.cards is None and view.strength is None
        if view.cards is not None:
            assert any(h.cards == view.cards for h in p.hands)
        if state.phase is not Phase.SHOWDOWN:
            assert view.opponent_shown == ()
        return view

    monkeypatch.setattr(sim.table, "view_of", checked)
    for k in range(40):
        simulate_session(k, random.Random(k).randint(2, 10))
    assert calls > 1000


def test_choices_come_from_legal_actions(monkeypatch: pytest.MonkeyPatch) -> None:
    seen_kinds: Counter[str] = Counter()
    real_ask = sim.table._Table.ask

    def ask(self: sim.table._Table, name: str, actions: list, *, may_pass: bool = False) -> bool:  # type: ignore[type-arg]
        legal = legal_actions(self.state)
        assert all(a in legal for a in actions)
        before = len(self.events)
        done = real_ask(self, name, actions, may_pass=may_pass)
        if done:
            seen_kinds[self.events[before].type] += 1
            assert any(a.event == self.events[before] for a in actions)
        return done

    monkeypatch.setattr(sim.table._Table, "ask", ask)
    for k in range(30):
        simulate_session(k, 5)
    assert {"bet", "folded", "looked", "saw", "shown"} <= set(seen_kinds)


# --- the styles ---------------------------------------------------------------------------------


@pytest.mark.slow
def test_styles_differ_measurably(runs: list[tuple[list[AnyEvent], list[AnyEvent]]]) -> None:
    rows = style_table((full for full, _ in runs), STYLE_OF)
    assert set(rows) == set(STYLES)
    rock, loose, blind, seer, bluffer = (
        rows[s] for s in ("rock", "loose", "blind", "seer", "bluffer")
    )
    assert all(r.deals > 2000 for r in rows.values())
    # the blind lover plays blind; the rock and the see-er always look first
    assert blind.rate(blind.blind) > 0.8
    assert rock.blind == 0 and seer.blind == 0
    assert blind.rate(blind.blind) > bluffer.rate(bluffer.blind) > loose.rate(loose.blind) > 0
    # the rock folds most; the see-er sees when it can, the bluffer seldom does
    assert rock.rate(rock.folded) == max(r.rate(r.folded) for r in rows.values())
    assert seer.rate(seer.saw) > rock.rate(rock.saw)
    see_when_able = {s: r.saw / r.see_turns for s, r in rows.items()}
    assert see_when_able["seer"] == max(see_when_able.values()) > 0.7
    assert see_when_able["bluffer"] == min(see_when_able.values()) < 0.35
    # the bluffer raises most of its bets
    raise_share = {s: r.raises / r.bets for s, r in rows.items()}
    assert raise_share["bluffer"] == max(raise_share.values())
    assert raise_share["bluffer"] > 2 * raise_share["rock"]
    # money is conserved over the styles
    assert sum((r.net for r in rows.values()), Fraction(0)) == 0


def test_percentile_is_the_rules_2_8_distribution() -> None:
    from engine.hands import strength_codes

    # 2c 3d 5c, the lowest high card (60 equal hands)
    assert percentile(strength_codes(0, 5, 12)) < 0.002
    pair_of_twos = strength_codes(0, 1, 4)  # 2c 2d 3c
    assert 0.74 < percentile(pair_of_twos) < 0.76  # above every high card (16,440 / 22,100)
    assert percentile(strength_codes(4, 5, 6)) > 0.999  # 3-3-3, the best hand (RULES 2.3)


@pytest.mark.slow
def test_blind_lover_retains_and_rock_does_not(
    runs: list[tuple[list[AnyEvent], list[AnyEvent]]],
) -> None:
    retained: Counter[str] = Counter()
    carried: Counter[str] = Counter()
    for events, _ in runs:
        for e in events:
            if isinstance(e, PotCarried):
                carried[STYLE_OF[e.player]] += 1
            elif isinstance(e, Retained):
                retained[STYLE_OF[e.player]] += 1
    assert carried["blind"] > 20 and retained["blind"] == carried["blind"]
    assert retained["rock"] == 0
