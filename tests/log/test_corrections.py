"""Correcting any recorded step (issue 19, item 4; issue 32: one ``amended`` event): ``log.amend``.
The preview (``tests/present/test_corrections_previewed.py``), ``brag amend``
(``tests/cli/test_amend_command.py``) and the Record page's "Correct a step" panel
(``tests/dashboard/test_correction_panel.py``) are tested in their layers' folders.

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
- (tests/cli) ``brag amend`` shows the plan, stores only with ``--yes`` (and repairs only with
  ``--repair``), errors in one line.
"""

from __future__ import annotations

import os
import random
import signal
from pathlib import Path
from typing import Any

import pytest
from corrections_helpers import finished as _finished
from corrections_helpers import last_step as _last_step
from corrections_helpers import stored as _stored
from store_helpers import PROCESSES, faulty

from engine.fold import fold
from engine.legal import legal_actions
from events.errors import ConcurrencyConflict
from events.model import AnyEvent, content, is_derived
from log.amend import plan_stored, store_amendment
from log.open import open_store
from log.service import EventStore
from sim.randplay import random_session


def _recorded_content(events: list[AnyEvent]) -> list[tuple[str, Any]]:
    return [(e.type, content(e)) for e in events if not is_derived(e)]


# --- a finished session ---------------------------------------------------------------------------


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
