"""A player flags a deal from the Replay page (issue 36 item 4) under Streamlit's ``AppTest``,
on a device nobody unlocked: the flag is kept as a fact of the session's night (read back with
:func:`log.night_facts.facts_of`: session, deal, step, reason as typed, by), a flag without a
reason is refused in one line and stores nothing, and each device's flags after the free ones
wait longer and longer (the throttle's sleeps, recorded by a fake clock)."""

from __future__ import annotations

import sys
from datetime import date
from pathlib import Path

import pytest

pytest.importorskip("streamlit")
from apptest_helpers import page
from dashboard_store_helpers import dashboard_store
from streamlit.testing.v1 import AppTest

from dashboard.access import throttle
from dashboard.replay import flag_panel
from log.night_facts import facts_of
from log.open import open_store

ROOT = Path(__file__).resolve().parents[2]
SEASON = sorted((ROOT / "data" / "season").glob("2026-09-25-*.jsonl"))
DAY = date(2026, 9, 25)


class FakeTime:
    def __init__(self) -> None:
        self.now = 0.0
        self.slept: list[float] = []

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


@pytest.fixture
def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str, FakeTime]:
    monkeypatch.setitem(sys.modules, "__main__", sys.modules["__main__"])
    url = dashboard_store(tmp_path, monkeypatch, SEASON)
    fake = FakeTime()
    monkeypatch.setattr(flag_panel, "FLAGS", throttle.Throttle(fake.clock, fake.sleep))
    with open_store(url) as store:
        session = store.sessions(order="oldest")[0].session
    return url, session, fake


def _flag(at: AppTest, reason: str, by: str = "Bev", step: str = "") -> None:
    at.text_input(key="flag_reason").input(reason)
    at.text_input(key="flag_by").input(by)
    at.text_input(key="flag_step").input(step)
    next(b for b in at.button if b.label == "Flag this deal").click().run()


def test_any_device_flags_a_deal_with_a_reason(served: tuple[str, str, FakeTime]) -> None:
    url, session, _ = served
    at = page("replay", session=session, deal="2")
    assert not at.exception, [e.value for e in at.exception]
    _flag(at, "the pot was <b>wrong</b>", step="3")
    assert not at.exception, [e.value for e in at.exception]
    with open_store(url) as store:
        flags = facts_of(store, DAY).flags
    assert [(f.session, f.deal, f.step, f.reason, f.by, f.status) for f in flags] == [
        (session, 2, "3", "the pot was <b>wrong</b>", "Bev", "open")
    ]
    assert any(f"Flagged (flag {flags[0].position})" in s.value for s in at.success)
    # no reason: one line, nothing stored
    _flag(at, "   ")
    assert any("Not flagged: give a reason" in e.value for e in at.error)
    # a step the deal does not have: one line, nothing stored
    _flag(at, "odd", step="99")
    assert any("has no step '99'" in e.value for e in at.error)
    with open_store(url) as store:
        assert len(facts_of(store, DAY).flags) == 1


def test_a_devices_flags_are_slowed_after_the_free_ones(
    served: tuple[str, str, FakeTime],
) -> None:
    url, session, fake = served
    at = page("replay", session=session, deal="1")
    for n in range(throttle.FREE + 3):
        _flag(at, f"check {n}")
    assert fake.slept == [throttle.BASE * 2**k for k in range(3)]  # 0.5, 1, 2 s
    with open_store(url) as store:
        assert len(facts_of(store, DAY).flags) == throttle.FREE + 3
