"""The projection of a session corrected by ``amended`` events (issue 32): its deals and decisions
are those of the same session recorded plainly without the mistake (the steps in force written out
from the start), whether the correction and its repairs come in one refresh or split across
batches; the decisions keep their steps' numbers (the timeline's, which never move)."""

from __future__ import annotations

import random
from typing import Any

import duckdb
import pytest

import analytics.projector
import analytics.tables
from events.model import AnyEvent, Looked, PotWon, SessionStarted, Shown, is_derived
from log.amend import plan_stored, store_amendment
from log.open import open_store
from log.service import EventStore
from sim.randplay import random_session
from timeline import Step, Timeline


def _deals(con: duckdb.DuckDBPyConnection, session: str) -> list[tuple[Any, ...]]:
    return con.execute(
        "SELECT deal, dealer, result, winner, pot_t, showdown FROM deals WHERE session = ? "
        "ORDER BY deal",
        [session],
    ).fetchall()


def _decisions(con: duckdb.DuckDBPyConnection, session: str) -> list[tuple[Any, ...]]:
    return con.execute(
        "SELECT deal, player, action, step FROM decisions WHERE session = ? ORDER BY deal, seq",
        [session],
    ).fetchall()


def _plain(t: Timeline, session: str) -> list[AnyEvent]:
    """The steps in force as a plain log of another session id (no correction in it)."""
    out: list[AnyEvent] = []
    for s in t.steps:
        if is_derived(s.event):
            continue
        e = s.event.model_copy(update={"id": None, "seq": None})
        if isinstance(e, SessionStarted):
            e = e.model_copy(update={"session": session})
        out.append(e)
    return out


def _corrected(kind: str) -> tuple[EventStore, Timeline]:
    """A stored session (4 players, shown cards, 8 pots) corrected once: ``"look"`` withdraws a
    look in deal 2; ``"prial"`` turns a showdown before the last deal into a prial win, with the
    shuffle (RULES 3.2) and the other repairs the plan proposes."""
    for seed in range(300):
        events = random_session(random.Random(seed), "s", players=4, cards="shown", pots=8)
        store = open_store("memory://")
        store.append("s", events, 0)
        t = store.timeline("s")
        target, new = _target(t, kind)
        if target is not None:
            plan = plan_stored(store, "s", target, new)
            store_amendment(store, plan, repair=True)
            return store, store.timeline("s")
        store.close()
    raise AssertionError("no seed gives such a session")


def _target(t: Timeline, kind: str) -> tuple[Step | None, AnyEvent | None]:
    steps = list(t.steps)
    if kind == "look":
        look = next((s for s in steps if isinstance(s.event, Looked) and s.label.deal == 2), None)
        return look, None
    seen = {c[0] for s in steps if isinstance(s.event, Shown) for c in s.event.cards}
    free = [r for r in "3AKQJT98765432" if r not in seen]
    for k, s in enumerate(steps):
        e = s.event
        if free and isinstance(e, PotWon) and e.showdown and e.hand != "prial" and e.deal < 6:
            mine = [
                x for x in steps[:k] if isinstance(x.event, Shown) and x.event.player == e.player
                and x.label.deal == e.deal and len(x.event.cards) == 3
            ]  # fmt: skip
            if mine:
                r = free[0]
                return mine[-1], Shown(player=e.player, cards=(f"{r}c", f"{r}d", f"{r}h"))
    return None, None


@pytest.mark.parametrize("kind", ["look", "prial"])
@pytest.mark.parametrize("batch", [2, 10_000])
def test_a_corrected_session_projects_as_its_plain_log(kind: str, batch: int) -> None:
    store, t = _corrected(kind)
    assert any(r.event.type == "amended" for r in t.log)
    con = analytics.tables.connect()
    analytics.projector.refresh(store, con, batch_size=batch)
    plain = open_store("memory://")
    plain.append("p", _plain(t, "p"), 0)
    other = analytics.tables.connect()
    analytics.projector.refresh(plain, other, batch_size=10_000)
    assert _deals(con, "s") == _deals(other, "p")
    got, want = _decisions(con, "s"), _decisions(other, "p")
    assert [r[:3] for r in got] == [r[:3] for r in want]
    # The steps are the timeline's numbers: each lands on its own step in force.
    labels = {(s.label.deal, s.label.step) for s in t.steps if not s.derived}
    assert all((d, step) in labels for d, _, _, step in got)
    if kind == "look":
        assert got != want  # the look withdrawn keeps its number: later steps are not moved up
