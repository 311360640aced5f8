"""Correcting any recorded step (issue 19, item 4; issue 32: one ``amended`` event): ``log.amend``,
``brag amend``, the Record page's "Correct a step" panel.

- Property: over random sessions (``sim.randplay``, both card modes, 2 to 5 players, 1 to 3 pots,
  some corrections already in the log) and a random step removed or replaced by another legal
  action at that point, the plan's impact equals the fold of the stream stored by its one append
  (nets, pot, winners, finished, the deals whose outcome changes); nets plus the pot are 0; the
  append stores the correction, its repairs and at most three conclusions; every earlier row keeps
  its seq and id, every recorded step in force keeps its number.
- The last action of a finished session can be withdrawn (``session_ended`` goes with it).
- Atomicity: a transaction that fails, or a process SIGKILLed, after the correction's rows are
  inserted leaves the old stream; a correction planned before another device recorded is a
  ConcurrencyConflict.
- ``brag amend`` shows the plan, stores only with ``--yes`` (and repairs only with ``--repair``),
  errors in one line.
"""

from __future__ import annotations

import os
import random
import signal
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st
from store_helpers import PROCESSES, faulty

from brag.cli import main
from engine.fold import fold
from engine.legal import legal_actions, possible_cards
from engine.state import State
from events.cards import FULL_PACK
from events.errors import ConcurrencyConflict
from events.model import AnyEvent, Shown, Shuffled, content, is_derived
from log.amend import AmendRefused, plan_amendment, plan_stored, store_amendment
from log.open import open_store
from log.service import EventStore
from present.amend import describe, step_choices, target_seq, target_step
from present.numbers import signed
from present.replay import Replay
from present.steps import step_text
from sim.randplay import random_session
from timeline import Step, Timeline

EXAMPLES = 100


def _session(seed: int, session: str = "s") -> list[AnyEvent]:
    rng = random.Random(seed)
    return random_session(
        rng,
        session,
        players=rng.randint(2, 5),
        cards=rng.choice(("all", "shown")),
        pots=rng.randint(1, 3),
        ante=rng.choice((1, Fraction(1, 2))),
        void_rate=rng.choice((0.0, 0.05)),
        max_events=rng.choice((None, None, 40)),
    )


def _stored(events: list[AnyEvent], url: str = "memory://", session: str = "s") -> EventStore:
    store = open_store(url)
    store.append(session, events, 0)
    return store


def _fill(state: State, event: AnyEvent, rng: random.Random) -> AnyEvent | None:
    """A legal action's template completed as a recorder would (None: the hands of a deal)."""
    if isinstance(event, Shuffled) and state.cards_mode == "all":
        order = [str(c) for c in FULL_PACK]
        rng.shuffle(order)
        return Shuffled(order=tuple(order))
    if isinstance(event, Shown) and state.cards_mode == "shown":
        # cards the tracked pack lets this hand hold (RULES 3.3), one at a time beside those
        # drawn before, as a recorder at a real table can only show (engine.legal.possible_cards)
        mine = {str(FULL_PACK[c]) for c in state.players[state.seat(event.player)].shown}
        cards: tuple[str, ...] = ()
        for _ in event.cards:
            fits = sorted(possible_cards(state, event.player, cards) - mine - set(cards))
            if not fits:
                return None
            cards += (rng.choice(fits),)
        return Shown(player=event.player, cards=cards)
    return event


def _outcomes(state: State) -> dict[int, tuple[Any, ...]]:
    return {o.deal: (o.result, o.winner, o.amount) for o in state.outcomes}


def _recorded_content(events: list[AnyEvent]) -> list[tuple[str, Any]]:
    return [(e.type, content(e)) for e in events if not is_derived(e)]


# --- the property ---------------------------------------------------------------------------------


@pytest.mark.slow
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(seed=st.integers(0, 2**31), data=st.data())
def test_the_preview_is_what_the_stored_correction_folds_to(seed: int, data: st.DataObject) -> None:
    store = _stored(_session(seed))
    rows = store.read("s")
    old = [r.event for r in rows]
    t = store.timeline("s")
    targets = [(s.label.deal, n) for s in t.steps for n, _ in step_choices(t, s.label.deal)]
    if not targets:
        return
    deal, number = data.draw(st.sampled_from(sorted(set(targets))), label="deal, step")
    target = target_step(t, deal, number)
    assert target.label.deal == deal and target.label.text == number
    rng = random.Random(seed)
    others = [
        a.event
        for a in legal_actions(target.before)
        if "hands" not in a.needs and content(a.event) != content(target.event)
    ]
    replacement: AnyEvent | None = None
    if others and data.draw(st.booleans(), label="replace"):
        replacement = _fill(target.before, data.draw(st.sampled_from(others)), rng)
        # A template's cards filled at random can be the very cards recorded (a one-card show,
        # RULES 5.8): that is no correction, and plan_amendment refuses it (tested below).
        assume(replacement is not None and content(replacement) != content(target.event))
    plan = plan_stored(store, "s", target, replacement, by="organiser")
    imp = plan.impact
    event("replaced" if replacement is not None else "removed")
    event("some later steps repaired" if plan.repairs else "every later step fits")
    event("an outcome changes" if imp.changed else "no outcome changes")

    stored = store_amendment(store, plan, repair=True)
    assert stored[0].seq == rows[-1].seq + 1  # one append, right after the stream planned from
    assert len(stored) <= 1 + len(plan.repairs) + 3  # one fact a repair, the new conclusions
    new = store.events("s")
    assert len(new) == len(old) + len(stored)
    assert [(r.seq, r.id) for r in store.read("s")[: len(rows)]] == [(r.seq, r.id) for r in rows]
    # What the preview said would be stored is what was stored (envelope aside).
    assert [(e.type, content(e)) for e in plan.preview] == [
        (r.event.type, content(r.event)) for r in stored
    ]
    # Recomputed from the stored streams alone.
    before, after = Timeline.of(old).state, Timeline.of(new).state
    assert imp.nets_before == before.nets and imp.pot_before == before.pot
    assert imp.nets_after == after.nets and imp.pot_after == after.pot
    assert sum(imp.nets_after.values()) + imp.pot_after == 0
    assert imp.winners_after == after.winners and imp.finished_after == after.finished
    ob, oa = _outcomes(before), _outcomes(after)
    assert {c.deal for c in imp.changed} == {
        d for d in ob.keys() | oa.keys() if ob.get(d) != oa.get(d)
    }
    # Every recorded step in force before keeps its number, and stays in force unless it was
    # the target or a repair withdrew it.
    gone = {target.key} | {r.step.key for r in plan.repairs if r.action == "withdraw"}
    now = {s.key: s.label for s in store.timeline("s").steps}
    for s in t.steps:
        if not s.derived and s.key not in gone:
            assert now[s.key] == s.label
    # The replacement takes its target's number; the log as recorded replays.
    if replacement is not None:
        put = store.timeline("s").log[plan.expected_seq].put
        assert put is not None and put.label == target.label
    shown = Replay.from_timeline(store.timeline("s"), recorded=True)
    assert shown.final.nets == after.nets
    assert sum(1 for lab in shown.labels if lab.correction) == shown.corrections


# --- a finished session ---------------------------------------------------------------------------


def _finished(seed: int = 7) -> list[AnyEvent]:
    rng = random.Random(seed)
    events = random_session(rng, "s", players=3, pots=2)
    assert fold(events).finished
    return events


def _last_step(store: EventStore) -> Step:
    t = store.timeline("s")
    return next(x for x in reversed(list(t.steps)) if not x.derived)


def test_the_last_action_of_a_finished_session_can_be_withdrawn() -> None:
    events = _finished()
    store = _stored(events)
    old = store.events("s")
    last = _last_step(store)
    # Independently: the stream without the last recorded event and what it concluded.
    k = last.row - 1
    expected = fold(old[:k])
    assert [e.type for e in old[k + 1 :]][-1] == "session_ended"
    plan = plan_stored(store, "s", last)
    assert not plan.repairs and plan.correction.action == "withdraw"
    stored = store_amendment(store, plan)
    assert [r.type for r in stored] == ["amended"]
    now = store.state("s")
    assert not now.finished and now.nets == expected.nets and now.pot == expected.pot
    assert plan.impact.finished_before and not plan.impact.finished_after
    assert [c.deal for c in plan.impact.changed] == [fold(old).deals]
    info = store.session_info("s")
    assert info is not None and not info.finished


def test_what_cannot_be_corrected_is_refused_in_one_sentence() -> None:
    store = _stored(_finished())
    old = store.events("s")
    t = store.timeline("s")
    derived = next(e for e in old if is_derived(e))
    with pytest.raises(AmendRefused, match="conclusion"):
        plan_amendment(t, derived.seq or 0)
    with pytest.raises(AmendRefused, match="start"):
        plan_amendment(t, 1)
    with pytest.raises(AmendRefused, match="no step 999"):
        target_seq(t, 1, 999)
    with pytest.raises(AmendRefused, match="no deal 99"):
        target_seq(t, 99, 1)
    last = _last_step(store)
    with pytest.raises(AmendRefused, match="already recorded"):
        plan_amendment(t, last, last.event)


# --- atomicity ------------------------------------------------------------------------------------


class Boom(Exception):
    pass


def _middle_target(store: EventStore) -> int:
    chain = [x.row for x in store.timeline("s").steps if not x.derived][1:]
    return chain[len(chain) // 2]


def test_a_failure_inside_the_transaction_leaves_the_old_stream(tmp_path: Path) -> None:
    url = str(tmp_path / "a.db")
    _stored(_finished(), url).close()
    store = open_store(url)
    before = [(r.seq, r.id, r.type) for r in store.read("s")]
    plan = plan_stored(store, "s", _middle_target(store))

    def boom(info: Any) -> None:
        raise Boom

    with pytest.raises(Boom):
        store_amendment(faulty(store, boom), plan, repair=True)
    again = open_store(url)
    assert [(r.seq, r.id, r.type) for r in again.read("s")] == before
    assert again.session_info("s").finished  # type: ignore[union-attr]
    store_amendment(again, plan, repair=True)  # the same plan applies: nothing half stored
    assert len(again.read("s")) == len(before) + len(plan.preview)


def _kill_inside(url: str, target: int) -> None:
    store = open_store(url)
    plan = plan_stored(store, "s", target)
    killer = faulty(store, lambda info: os.kill(os.getpid(), signal.SIGKILL))
    store_amendment(killer, plan, repair=True)


def test_a_process_killed_inside_the_transaction_leaves_the_old_stream(tmp_path: Path) -> None:
    url = str(tmp_path / "k.db")
    store = _stored(_finished(), url)
    before = [(r.seq, r.id, r.type) for r in store.read("s")]
    target = _middle_target(store)
    store.close()
    p = PROCESSES.Process(target=_kill_inside, args=(url, target))
    p.start()
    p.join(60)
    assert p.exitcode == -signal.SIGKILL
    again = open_store(url)
    assert [(r.seq, r.id, r.type) for r in again.read("s")] == before
    plan = plan_stored(again, "s", target)
    store_amendment(again, plan, repair=True)
    assert again.state("s").nets == plan.impact.nets_after


def test_a_correction_planned_before_another_device_recorded_is_a_conflict() -> None:
    rng = random.Random(11)
    events = random_session(rng, "s", players=3, pots=3, max_events=40)
    store = _stored(events)
    state = store.state("s")
    assert not state.finished and legal_actions(state)
    plan = plan_stored(store, "s", _middle_target(store))
    store.append("s", [legal_actions(state)[0].event], state.seq)  # another device, meanwhile
    n = len(store.read("s"))
    with pytest.raises(ConcurrencyConflict):
        store_amendment(store, plan, repair=True)
    assert len(store.read("s")) == n


# --- brag amend -----------------------------------------------------------------------------------


def test_brag_amend_shows_the_plan_and_stores_only_with_yes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = str(tmp_path / "c.db")
    store = _stored(_finished(), url)
    old = store.events("s")
    store.close()
    last = _last_step(open_store(url))
    deal, step = last.label.deal, last.label.text
    expected = fold(old[: last.row - 1])  # without the last recorded event and its conclusions

    args = ["amend", "s", "--deal", str(deal), "--step", step, "--remove", "--db", url]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "Nothing stored" in out and step_text(last) in out
    for p, v in expected.nets.items():
        assert signed(v) in out and p in out
    assert len(open_store(url).read("s")) == len(old)

    assert main([*args, "--yes", "--by", "Org"]) == 0
    out = capsys.readouterr().out
    assert "Corrected:" in out
    stored = open_store(url).events("s")
    assert len(stored) == len(old) + 1 and stored[-1].type == "amended" and stored[-1].by == "Org"
    assert open_store(url).state("s").nets == expected.nets

    assert main(["amend", "s", "--deal", "99", "--step", "1", "--remove", "--db", url]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("brag: ") and "no deal 99" in err and "\n" not in err


def test_brag_amend_replaces_a_step(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = str(tmp_path / "r.db")
    store = _stored(_finished(3), url)
    t = store.timeline("s")
    # The first bet of deal 1 replaced by the acting player's fold.
    bet = next(x for x in t.steps if x.event.type == "bet")
    bettor = bet.event.player  # type: ignore[union-attr]
    fold_line = f'{{"type": "folded", "player": "{bettor}"}}'
    deal, step = bet.label.deal, bet.label.text
    args = ["amend", "s", "--deal", str(deal), "--step", step, "--as", fold_line]
    assert main([*args, "--db", url, "--yes", "--repair"]) == 0
    out = capsys.readouterr().out
    assert f"{bettor} folds" in out
    fixed = open_store(url).timeline("s")
    now = fixed.find(deal, step)
    assert now is not None and now.event.type == "folded"
    assert now.event.player == bettor  # type: ignore[union-attr]
    again = plan_stored(open_store(url), "s", _last_step(open_store(url)))
    assert describe(again).target.text  # the amended stream can be corrected again


def test_brag_amend_refuses_an_illegal_replacement(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = str(tmp_path / "i.db")
    _stored(_finished(), url).close()
    line = '{"type": "bet", "player": "Nobody", "level": 1}'
    assert main(["amend", "s", "--deal", "1", "--step", "2", "--as", line, "--db", url]) == 1
    err = capsys.readouterr().err.strip()
    assert "RULES 1.3" in err and "\n" not in err


# --- the Record page's panel ----------------------------------------------------------------------


def _panel(session):  # type: ignore[no-untyped-def]  # run as a script: no annotations
    from dashboard.record import amend as ui_amend

    ui_amend.amend_panel(session)


def test_the_panel_previews_and_stores_the_correction(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from streamlit.testing.v1 import AppTest

    from dashboard.record.amend import REMOVE

    # Streamlit's script runner makes the script the process's __main__ and leaves it there; a
    # later test whose multiprocessing spawns children would run it again: it is put back after.
    monkeypatch.setitem(sys.modules, "__main__", sys.modules["__main__"])
    url = str(tmp_path / "p.db")
    old = _stored(_finished(), url).events("s")
    monkeypatch.setenv("BRAG_DB", url)
    monkeypatch.setenv("BRAG_ANALYTICS", str(tmp_path / "p.duckdb"))
    last = _last_step(open_store(url))
    deal, step = last.label.deal, last.label.text
    expected = fold(old[: last.row - 1])

    monkeypatch.setenv("BRAG_ORGANISER_SECRET", "open sesame please")
    from dashboard.access import check as access

    at = AppTest.from_function(_panel, args=("s",), default_timeout=60)
    at.session_state["device_token"] = access.issue_token()  # an unlocked device (issue 33)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    at.selectbox(key="amend-s-deal").set_value(deal).run()
    at.selectbox(key=f"amend-s-step-{deal}").set_value(step).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.radio(key=f"amend-s-as-{deal}-{step}").value == REMOVE
    nets = next(d.value for d in at.dataframe if "change" in d.value)
    shown = dict(zip(nets["player"], nets["after"], strict=True))
    for p, v in expected.nets.items():
        assert shown[p] == signed(v)
    assert len(open_store(url).read("s")) == len(old)  # nothing stored by the preview
    at.button(key="amend-s-store").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.success and at.success[0].value.startswith("Corrected:")
    stored = open_store(url)
    assert len(stored.read("s")) == len(old) + 1 and stored.state("s").nets == expected.nets
