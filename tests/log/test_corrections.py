"""Correcting any recorded step (issue 19, item 4): ``log.amend``, ``brag amend``, the Record
page's "Correct a step" panel.

- Property: over random sessions (``sim.randplay``, both card modes, 2 to 5 players, 1 to 3 pots,
  some corrections already in the log) and a random step removed or replaced by another legal
  action at that point, the plan's impact equals the fold of the stream stored by its one append
  (nets, pot, winners, finished, the deals whose outcome changes); nets plus the pot are 0; the
  stream in force is the prefix, the replacement and the later events kept, and every later event
  left out is refused by the engine where it would go.
- The last action of a finished session can be withdrawn (``session_ended`` goes with it).
- Atomicity: a transaction that fails, or a process SIGKILLed, after the correction's rows are
  inserted leaves the old stream; a correction planned before another device recorded is a
  ConcurrencyConflict.
- ``brag amend`` shows the plan, stores only with ``--yes``, errors in one line.
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
from engine.fold import fold, replay
from engine.legal import legal_actions
from engine.state import State
from events.cards import FULL_PACK
from events.errors import BragError, ConcurrencyConflict
from events.model import AnyEvent, Dealt, Shown, Shuffled, content, is_derived
from log import EventStore, open_store
from log.amend import AmendRefused, in_force, plan_amendment, plan_stored, store_amendment
from present.amend import describe, step_choices, target_seq
from present.numbers import signed
from present.replay import Replay, corrected
from sim.randplay import random_session

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
        taken = {str(FULL_PACK[c]) for p in state.players for c in p.shown}
        free = [str(c) for c in FULL_PACK if str(c) not in taken]
        return Shown(player=event.player, cards=tuple(rng.sample(free, len(event.cards))))
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
    rp = Replay.of(old)
    targets = [(d, k) for d in (s.deal for s in rp.slices) for k, _ in step_choices(rp, d)]
    if not targets:
        return
    deal, step = data.draw(st.sampled_from(targets), label="deal, step")
    seq = target_seq(rp, deal, step)
    i = next(k for k, e in enumerate(rp.events) if e.seq == seq)
    target = rp.events[i]
    assert rp.labels[i].deal == deal and rp.labels[i].step == step
    rng = random.Random(seed)
    others = [
        a.event
        for a in legal_actions(rp.before(i))
        if "hands" not in a.needs and content(a.event) != content(target)
    ]
    replacement: AnyEvent | None = None
    replace: bool = data.draw(st.booleans(), label="replace")
    if others and replace:
        replacement = _fill(rp.before(i), data.draw(st.sampled_from(others)), rng)
        # A template's cards filled at random can be the very cards recorded (a one-card show,
        # RULES 5.8): that is no correction, and plan_amendment refuses it (tested below).
        assume(content(replacement) != content(target))
    plan = plan_stored(store, "s", seq, replacement, by="organiser")
    imp = plan.impact
    event("replaced" if replacement is not None else "removed")
    event(f"finished before: {imp.finished_before}, after: {imp.finished_after}")
    event("some later events left out" if plan.dropped else "every later event kept")
    event("an outcome changes" if imp.changed else "no outcome changes")

    # The stream in force before: its recorded events, the target, those after it.
    in_force_old = corrected(old)
    t = next(k for k, e in enumerate(in_force_old) if e.seq == seq)
    later_old = [e for e in in_force_old[t + 1 :] if not is_derived(e)]
    assert [x.seq for x in plan.kept] == sorted(x.seq for x in plan.kept)
    assert sorted(x.seq for x in (*plan.kept, *plan.dropped)) == [e.seq for e in later_old]
    assert list(plan.withdrawn) == sorted([seq, *(e.seq or 0 for e in later_old)], reverse=True)

    stored = store_amendment(store, plan)
    assert stored[0].seq == rows[-1].seq + 1  # one append, right after the stream planned from
    new = store.events("s")
    assert len(new) == len(old) + len(stored)
    # What the preview said would be stored is what was stored (envelope aside).
    assert [(e.type, content(e)) for e in plan.preview] == [
        (r.event.type, content(r.event)) for r in stored
    ]

    # Recomputed from the streams alone.
    before, after = fold(old), fold(new)
    assert imp.nets_before == before.nets and imp.pot_before == before.pot
    assert imp.nets_after == after.nets and imp.pot_after == after.pot
    assert sum(imp.nets_after.values()) + imp.pot_after == 0
    assert sum(imp.nets_before.values()) + imp.pot_before == 0
    assert imp.winners_after == after.winners and imp.finished_after == after.finished
    ob, oa = _outcomes(before), _outcomes(after)
    assert {c.deal for c in imp.changed} == {
        d for d in ob.keys() | oa.keys() if ob.get(d) != oa.get(d)
    }

    # The stream in force after: the prefix, the replacement, the later events kept (in order).
    in_force_new = corrected(new)
    expect = in_force_old[:t] + ([replacement] if replacement is not None else [])
    expect += [e for e in later_old if e.seq in {x.seq for x in plan.kept}]
    assert _recorded_content(in_force_new) == _recorded_content(expect)
    kept_at = [e.at for e in in_force_new[t:] if not is_derived(e)]
    assert kept_at[1 if replacement is not None else 0 :] == [x.event.at for x in plan.kept]

    # Each later event left out is refused by the engine where it would have gone.
    states = replay(in_force_new)
    kept_seqs = [x.seq for x in plan.kept]
    new_recorded = [k for k, e in enumerate(in_force_new) if k >= t and not is_derived(e)]
    new_recorded = new_recorded[1:] if replacement is not None else new_recorded
    for d in plan.dropped:
        nxt = next((n for n, q in enumerate(kept_seqs) if q > d.seq), None)
        at = states[new_recorded[nxt] - 1] if nxt is not None else states[-1]
        with pytest.raises(BragError):
            fold([d.event.model_copy(update={"id": None, "seq": None})], at)

    # The step keeps its number: the replacement is the same step of the same deal.
    moves_deal = isinstance(target, Dealt | Shuffled) or isinstance(replacement, Dealt | Shuffled)
    if replacement is not None and not moves_deal:
        fixed = Replay.of(new)  # as corrected: the replacement is at the target's place t
        assert (fixed.labels[t].deal, fixed.labels[t].step) == (deal, step)
    # And the log as recorded replays (corrections shown as steps, numbering kept).
    shown = Replay.of(new, recorded=True)
    assert shown.final.nets == after.nets
    assert sum(1 for lab in shown.labels if lab.correction) == shown.corrections


# --- a finished session ---------------------------------------------------------------------------


def _finished(seed: int = 7) -> list[AnyEvent]:
    rng = random.Random(seed)
    events = random_session(rng, "s", players=3, pots=2)
    assert fold(events).finished
    return events


def test_the_last_action_of_a_finished_session_can_be_withdrawn() -> None:
    events = _finished()
    store = _stored(events)
    old = store.events("s")
    last = in_force(fold(old))[0]
    # Independently: the stream without the last recorded event and what it concluded.
    k = next(n for n, e in enumerate(old) if e.seq == last)
    expected = fold(old[:k])
    assert [e.type for e in old[k + 1 :]][-1] == "session_ended"
    plan = plan_stored(store, "s", last)
    assert plan.withdrawn == (last,) and not plan.kept and not plan.dropped
    store_amendment(store, plan)
    now = fold(store.events("s"))
    assert not now.finished and now.nets == expected.nets and now.pot == expected.pot
    assert plan.impact.finished_before and not plan.impact.finished_after
    assert [c.deal for c in plan.impact.changed] == [fold(old).deals]
    info = store.session_info("s")
    assert info is not None and not info.finished
    assert store.events("s")[-1].type == "voided"


def test_what_cannot_be_corrected_is_refused_in_one_sentence() -> None:
    old = _stored(_finished()).events("s")
    rp = Replay.of(old)
    derived = next(e for e in old if is_derived(e))
    with pytest.raises(AmendRefused, match="conclusion"):
        plan_amendment(old, derived.seq or 0)
    with pytest.raises(AmendRefused, match="start"):
        plan_amendment(old, 1)
    with pytest.raises(AmendRefused, match="no step 999"):
        target_seq(rp, 1, 999)
    with pytest.raises(AmendRefused, match="no deal 99"):
        target_seq(rp, 99, 1)
    last = in_force(fold(old))[0]
    with pytest.raises(AmendRefused, match="already recorded"):
        plan_amendment(old, last, old[last - 1])


# --- atomicity ------------------------------------------------------------------------------------


class Boom(Exception):
    pass


def _middle_target(store: EventStore) -> int:
    chain = in_force(store.state("s"))
    return chain[len(chain) // 2]


def test_a_failure_inside_the_transaction_leaves_the_old_stream(tmp_path: Path) -> None:
    url = str(tmp_path / "a.db")
    _stored(_finished(), url).close()
    store = open_store(url)
    before = [(r.seq, r.id, r.type) for r in store.read("s")]
    plan = plan_stored(store, "s", _middle_target(store))
    assert len(plan.events) > 2

    def boom(info: Any) -> None:
        raise Boom

    with pytest.raises(Boom):
        store_amendment(faulty(store, boom), plan)
    again = open_store(url)
    assert [(r.seq, r.id, r.type) for r in again.read("s")] == before
    assert again.session_info("s").finished  # type: ignore[union-attr]
    store_amendment(again, plan)  # the same plan still applies: nothing was half stored
    assert len(again.read("s")) == len(before) + len(plan.preview)


def _kill_inside(url: str, target: int) -> None:
    store = open_store(url)
    plan = plan_stored(store, "s", target)
    store_amendment(faulty(store, lambda info: os.kill(os.getpid(), signal.SIGKILL)), plan)


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
    store_amendment(again, plan)
    assert fold(again.events("s")).nets == plan.impact.nets_after


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
        store_amendment(store, plan)
    assert len(store.read("s")) == n


# --- brag amend -----------------------------------------------------------------------------------


def test_brag_amend_shows_the_plan_and_stores_only_with_yes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = str(tmp_path / "c.db")
    store = _stored(_finished(), url)
    old = store.events("s")
    store.close()
    rp = Replay.of(old)
    last = in_force(fold(old))[0]
    k = next(n for n, e in enumerate(rp.events) if e.seq == last)
    deal, step = rp.labels[k].deal, rp.labels[k].step
    k_old = next(n for n, e in enumerate(old) if e.seq == last)
    expected = fold(old[:k_old])  # without the last recorded event and its conclusions

    args = ["amend", "s", "--deal", str(deal), "--step", str(step), "--remove", "--db", url]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "Nothing stored" in out and rp.labels[k].text in out
    for p, v in expected.nets.items():
        assert signed(v) in out and p in out
    assert len(open_store(url).read("s")) == len(old)

    assert main([*args, "--yes", "--by", "Org"]) == 0
    out = capsys.readouterr().out
    assert "Corrected:" in out
    stored = open_store(url).events("s")
    assert len(stored) == len(old) + 1 and stored[-1].type == "voided" and stored[-1].by == "Org"
    assert fold(stored).nets == expected.nets

    assert main(["amend", "s", "--deal", "99", "--step", "1", "--remove", "--db", url]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("brag: ") and "no deal 99" in err and "\n" not in err


def test_brag_amend_replaces_a_step(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = str(tmp_path / "r.db")
    store = _stored(_finished(3), url)
    old = store.events("s")
    rp = Replay.of(old)
    # The first bet of deal 1 replaced by the acting player's fold.
    k = next(n for n, e in enumerate(rp.events) if e.type == "bet")
    bettor = rp.events[k].player  # type: ignore[union-attr]
    fold_line = f'{{"type": "folded", "player": "{bettor}"}}'
    deal, step = rp.labels[k].deal, rp.labels[k].step
    args = ["amend", "s", "--deal", str(deal), "--step", str(step), "--as", fold_line]
    assert main([*args, "--db", url, "--yes"]) == 0
    out = capsys.readouterr().out
    assert f"{bettor} folds" in out
    new = open_store(url).events("s")
    fixed = corrected(new)
    t = next(n for n, e in enumerate(corrected(old)) if e.seq == rp.events[k].seq)
    assert fixed[t].type == "folded" and fixed[t].player == bettor  # type: ignore[union-attr]
    view = describe(new, plan_stored(open_store(url), "s", in_force(fold(new))[0]))
    assert view.target.text  # the amended stream can be corrected again


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
    from dashboard import ui_amend

    ui_amend.amend_panel(session)


def test_the_panel_previews_and_stores_the_correction(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from streamlit.testing.v1 import AppTest

    from dashboard.ui_amend import REMOVE

    # Streamlit's script runner makes the script the process's __main__ and leaves it there; a
    # later test whose multiprocessing spawns children would run it again: it is put back after.
    monkeypatch.setitem(sys.modules, "__main__", sys.modules["__main__"])
    url = str(tmp_path / "p.db")
    old = _stored(_finished(), url).events("s")
    monkeypatch.setenv("BRAG_DB", url)
    monkeypatch.setenv("BRAG_ANALYTICS", str(tmp_path / "p.duckdb"))
    rp = Replay.of(old)
    last = in_force(fold(old))[0]
    k = next(n for n, e in enumerate(rp.events) if e.seq == last)
    deal, step = rp.labels[k].deal, rp.labels[k].step
    expected = fold(old[: next(n for n, e in enumerate(old) if e.seq == last)])

    monkeypatch.setenv("BRAG_ORGANISER_SECRET", "open sesame please")
    from dashboard import access

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
    stored = open_store(url).events("s")
    assert len(stored) == len(old) + 1 and fold(stored).nets == expected.nets
