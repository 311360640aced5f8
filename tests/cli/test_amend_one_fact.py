"""A correction is one fact (issue 32, items 2 and 3): ``brag amend`` removing an early step of an
8-deal session stores one ``amended`` event (and at most the conclusions the corrected end draws),
every later event keeps its id and seq, ``brag replay`` of every later deal is byte-identical, and
the nets are those of the log without that step; on SQLite and PostgreSQL. A correction that makes
a shuffle due (RULES 3.2) proposes the shuffle, keeps the later deals, and is stored only when the
organiser chooses the repair (``tests/present/test_amend_makes_a_shuffle_due.py``)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from store_helpers import pg_store, pg_url, require_pg

from brag.cli import main
from engine.fold import record
from engine.state import initial_state
from events.model import AnyEvent, Folded, Looked, is_derived
from log.open import open_store
from sim.randplay import random_session
from timeline import Step, Timeline

BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


@pytest.fixture(params=BACKENDS)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield str(tmp_path / "brag.db")
        return
    require_pg()
    with pg_store() as s:
        yield f"{pg_url()}?options=-csearch_path%3D{s.schema}"


def _look_then_fold(t: Timeline, deal: int) -> Step | None:
    """A look in ``deal`` by a player whose next action is to fold (so nothing after it changes:
    a blind player pays half, RULES 5.3)."""
    steps = list(t.steps)
    for k, s in enumerate(steps):
        if isinstance(s.event, Looked) and s.label.deal == deal:
            who = s.event.player
            mine = [x for x in steps[k + 1 :] if getattr(x.event, "player", None) == who]
            if mine and isinstance(mine[0].event, Folded) and mine[0].label.deal == deal:
                return s
    return None


def _eight_deals() -> tuple[list[AnyEvent], Step]:
    """A finished session of at least 8 deals (4 players, shown cards) with such a look in deal
    1."""
    for seed in range(200):
        events = random_session(random.Random(seed), "night", players=4, cards="shown", pots=8)
        t = Timeline.of(events)
        look = _look_then_fold(t, 1)
        if look is not None and t.state.deals >= 8:
            return events, look
    raise AssertionError("no seed gives such a session")


def _replay(url: str, deal: int, capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["replay", "night", "--deal", str(deal), "--db", url]) == 0
    return capsys.readouterr().out


def test_brag_amend_removing_an_early_step_stores_one_fact(
    url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    events, look = _eight_deals()
    with open_store(url) as store:
        store.append("night", events, 0)
        before = store.read("night")
        deals = store.state("night").deals
    shown = {d: _replay(url, d, capsys) for d in range(2, deals + 1)}
    argv = ["amend", "night", "--deal", "1", "--step", look.label.text, "--remove", "--yes"]
    assert main([*argv, "--db", url]) == 0
    out = capsys.readouterr().out
    assert "Stored 1 event (" in out  # one fact, said in the singular
    with open_store(url) as store:
        after = store.read("night")
        state = store.state("night")
    assert 1 <= len(after) - len(before) <= 3
    assert [(r.seq, r.id, r.type) for r in after[: len(before)]] == [
        (r.seq, r.id, r.type) for r in before
    ]
    assert after[len(before)].type == "amended"
    for d, text in shown.items():
        assert _replay(url, d, capsys) == text, f"deal {d} changed"
    # The nets are those of the log without that step, written out plainly.
    plain = initial_state()
    for e in events:
        if not is_derived(e) and e is not look.event:
            plain, _ = record(plain, e)
    assert state.nets == plain.nets
    assert state.finished and plain.finished
    # The withdrawn step keeps its number, and deal 1 no longer has it in force.
    one = _replay(url, 1, capsys)
    assert f"step {look.label.text}" in one and "is withdrawn" in one
