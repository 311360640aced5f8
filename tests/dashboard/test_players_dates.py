"""The Players page by dates and season (issue 36 item 8): ``?from=``/``?to=`` narrow every
figure to the sessions started in them (the nets, the net over time, the season's standings),
each compared with the engine's fold of those logs; the season picker sets the dates; without
them every session counts (the rule card's example, recorded without times, too)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import date
from fractions import Fraction
from pathlib import Path

import pyarrow as pa
import pytest
from apptest_helpers import page
from dashboard_store_helpers import dashboard_store
from shared_paths import ROOT

from engine.fold import fold
from events.amounts import amount_text, signed_text
from events.codec import read_file

SEASON = sorted((ROOT / "data" / "season").glob("*.jsonl"))
NIGHTS = [p for p in SEASON if p.name.startswith(("2026-09-24", "2026-09-25"))]
EXAMPLE = ROOT / "data" / "examples" / "card_example.jsonl"


@pytest.fixture
def club(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Two nights of the bundled season and the rule card's example (no times), the dashboard
    pointed at them."""
    yield dashboard_store(tmp_path, monkeypatch, [*NIGHTS, EXAMPLE])


def _nets(day: date) -> tuple[dict[str, Fraction], dict[str, int]]:
    """Each player's net over the logs started on ``day`` and their sessions, from the fold."""
    nets: dict[str, Fraction] = {}
    sessions: dict[str, int] = {}
    for path in NIGHTS:
        events = [e for _, e in read_file(str(path))]
        assert events[0].at is not None
        if events[0].at.date() != day:
            continue
        for p, v in fold(events).nets.items():
            nets[p] = nets.get(p, Fraction(0)) + v
            sessions[p] = sessions.get(p, 0) + 1
    return nets, sessions


def test_from_and_to_narrow_the_figures_and_the_charts(club: str) -> None:
    nets, sessions = _nets(date(2026, 9, 25))
    at = page("players", **{"from": "2026-09-25", "to": "2026-09-25"})
    assert not at.exception, [e.value for e in at.exception]
    assert [d.value for d in at.date_input] == [date(2026, 9, 25)] * 2
    assert at.selectbox(key="pick_season").value == "The dates chosen"
    table = at.dataframe[0].value.set_index("player")
    assert set(table.index) == set(nets)  # not the 24th's Gary or Keith, not the example's A
    assert {p: int(table.loc[p, "Sessions"]) for p in nets} == sessions
    assert at.subheader[0].value == "Every player, 2026-09-25 to 2026-09-25"
    # net over time: one point a session in the dates, the last the player's net over them
    chart = at.get("vega_lite_chart")[0].proto
    points = pa.ipc.open_stream(chart.datasets[0].data.data).read_all().to_pylist()
    first = at.selectbox(key="pick_player").value
    mine = [r["net"] for r in points if r["player"] == first]
    assert len(mine) == sessions[first] and mine[-1] == float(nets[first])
    # the season: the night's standings, total beside points
    season = at.dataframe[-1].value
    config = json.loads(at.dataframe[-1].proto.columns)  # on a phone the name stays in sight
    assert {k for k, c in config.items() if c.get("pinned")} == {"place", "player"}
    assert list(season.columns) == ["place", "player", "points", "total", "net", "nights"]
    assert dict(zip(season["player"], season["net"], strict=True)) == {
        p: signed_text(v) for p, v in nets.items()
    }
    totals = {p: amount_text(v) for p, v in nets.items()}
    assert {
        p: t.split(" (")[0] for p, t in zip(season["player"], season["total"], strict=True)
    } == (totals)
    assert set(season["nights"]) == {"1"}
    assert any("Made from the log at position" in c.value for c in at.caption)


def test_the_season_picker_sets_the_dates_and_every_date_clears_them(club: str) -> None:
    at = page("players")
    assert not at.exception
    pick = at.selectbox(key="pick_season")
    assert pick.value == "Every date"
    assert pick.options == ["Every date", "This season (Autumn 2026)"]
    every = set(at.dataframe[0].value["player"])
    assert {"A", "Gary", "Dave"} <= every  # the example (no times) counts without a filter
    titles = [h.value for h in at.subheader]
    assert "The season: Autumn 2026, this season" in titles  # every date: this season's nights
    pick.set_value("Autumn 2026").run()
    assert (at.query_params["from"], at.query_params["to"]) == ("2026-09-01", "2026-12-31")
    at.run()
    assert not at.exception
    both = set(at.dataframe[0].value["player"])
    nets24, _ = _nets(date(2026, 9, 24))
    nets25, _ = _nets(date(2026, 9, 25))
    assert both == set(nets24) | set(nets25)  # the example has no date: out of a season
    at.selectbox(key="pick_season").set_value("Every date").run()
    assert "from" not in at.query_params and "to" not in at.query_params


def test_dates_without_a_session_say_so(club: str) -> None:
    at = page("players", **{"from": "2026-10-01", "to": "2026-10-31"})
    assert not at.exception
    assert "No deal ended in these dates" in at.info[0].value
    assert any("no session started from 2026-10-01" in i.value for i in at.info)


def test_a_correction_republishes_the_season_on_the_page(club: str) -> None:
    """A step withdrawn (service.amend) in one session of the night: the next run of the page
    shows the season made from the later log position, with the corrected session's nets."""
    from datetime import UTC, datetime

    from log.open import open_store
    from service.amend import CorrectStep, PlanCorrection, correct_step, plan_correction

    argv = {"from": "2026-09-24", "to": "2026-09-24"}
    at = page("players", **argv)
    assert not at.exception
    before = at.dataframe[-1].value
    session = "2026-09-24-top-2"
    with open_store(club) as store:
        timeline = store.timeline(session)
        last = next(s for s in reversed(list(timeline.steps)) if not s.derived)
        now = datetime(2026, 9, 25, 9, tzinfo=UTC)
        planned = plan_correction(store, PlanCorrection(timeline, last, None, "organiser", now))
        assert planned.plan is not None, planned.refused
        assert correct_step(store, CorrectStep(planned.plan)).outcome == "stored"
        position = store.last_position()
        nets: dict[str, Fraction] = {}
        for info in store.sessions():
            if info.started is not None and info.started.date() == date(2026, 9, 24):
                for p, v in store.state(info.session).nets.items():
                    nets[p] = nets.get(p, Fraction(0)) + v
    at.run()
    assert not at.exception
    after = at.dataframe[-1].value
    assert not after.equals(before)
    assert dict(zip(after["player"], after["net"], strict=True)) == {
        p: signed_text(v) for p, v in nets.items()
    }
    assert any(f"Made from the log at position {position}." in c.value for c in at.caption)


def test_the_link_picks_the_formulas_side_by_side(club: str) -> None:
    nets, _ = _nets(date(2026, 9, 25))
    argv = {"from": "2026-09-25", "to": "2026-09-25"}
    at = page("players", **argv, formulas="best 1 of 1,points:3-2-1")
    assert not at.exception
    season = at.dataframe[-1].value
    assert list(season.columns) == ["place", "player", "best:1:1", "points:3-2-1", "net", "nights"]
    assert dict(zip(season["player"], season["best:1:1"], strict=True)) == {
        p: amount_text(v)
        for p, v in nets.items()  # one night: its net is the best one
    }
    bad = page("players", **argv, formulas="median")
    assert not bad.exception
    assert list(bad.dataframe[-1].value.columns)[2:4] == ["points", "total"]
    assert any("formula 'median' is not one of" in c.value for c in bad.caption)
