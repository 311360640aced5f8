"""The Players page's panel "Skill apart from luck" (issue 37, dashboard/stats/skill_panel.py):
the two players' figures give or take, stacked (name and main figure first, for a phone), the
verdict on telling them apart, the ratings and the rating on entering each session, the meter;
all as analytics computes them, in plain words (the technical names only in help tooltips)."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
from apptest_helpers import page

from analytics.skill_rows import skill_pair, skill_summary
from analytics.skill_text import (
    RATINGS_HOW,
    figure_lines,
    meter_how,
    meter_sentence,
    rating_rows,
    step_rows,
)
from dashboard.common.escape import md
from log.open import open_store
from sim import simulate_session

NAMES = ["Ann", "Bob", "Cat"]


@pytest.fixture
def club(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    url = str(tmp_path / "brag.db")
    with open_store(url) as store:
        for k in range(4):
            store.append(f"all-{k}", simulate_session(seed=70 + k, players=NAMES,
                                                      session=f"all-{k}"), 0)  # fmt: skip
    monkeypatch.setenv("BRAG_DB", url)
    monkeypatch.setenv("BRAG_ANALYTICS", str(tmp_path / "brag.duckdb"))
    monkeypatch.delenv("BRAG_ORGANISER_SECRET", raising=False)
    return tmp_path / "brag.duckdb"


def _frames(at: object) -> list[list[dict[str, str]]]:
    return [f.value.astype(str).to_dict("records") for f in at.dataframe]  # type: ignore[attr-defined]


def test_the_panel_shows_intervals_the_verdict_ratings_and_the_meter(club: Path) -> None:
    at = page("players", player="Ann", vs="Bob")
    assert not at.exception
    assert "Skill apart from luck" in [h.value for h in at.subheader]
    con = duckdb.connect(str(club), read_only=True)
    summary = skill_summary(con)
    pair = skill_pair(con, "Ann", "Bob")
    con.close()
    frames = _frames(at)
    figs = [f for p in ("Ann", "Bob") for f in summary.figures if f.player == p]
    shown = [m.value for m in at.markdown]
    for f in figs:  # stacked: the name and the main figure first, the rest below
        main, detail = figure_lines(f)
        assert any(m.startswith(f"**{f.player}**: {md(main)}") and md(detail) in m for m in shown)
    rated = [r for p in ("Ann", "Bob") for r in summary.ratings if r.player == p]
    assert rating_rows(rated) in frames
    # the rating on entering each session: a table whose cells wrap (a phone sees "change")
    tables = [[r.to_dict() for _, r in t.value.iterrows()] for t in at.table]
    plain = [{k: md(v) for k, v in r.items()} for r in step_rows(pair.steps[0])]
    assert plain in tables
    assert all("\\x" not in v for r in plain for v in r.values())  # shown as read: "+4.1 ± 47.1"
    assert len(pair.steps[0]) == 4  # Ann entered each of the four sessions
    assert pair.comparison is not None
    said = " ".join(shown)
    assert f"**Who is ahead:** {md(pair.comparison.sentence())}" in shown
    assert "too close to call yet" in said or "is ahead" in said
    assert any(
        meter_sentence(summary.meter) == c.value and c.help == meter_how(summary.meter)
        for c in at.caption
    )
    assert any(c.help == RATINGS_HOW for c in at.caption)
    for word in ("sigma", "Plackett", "split-half", "clustered"):  # only in the tooltips
        assert all(word not in c.value for c in [*at.caption, *at.markdown])
    assert len(rating_rows(rated)[0]) == 3 and len(step_rows(pair.steps[0])[0]) == 4  # narrow


def test_above_its_size_the_panel_waits_for_the_reader(
    club: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A league's page answers first without the panel; the reader turns it on."""
    from dashboard.stats import skill_panel

    monkeypatch.setattr(skill_panel, "AT_ONCE", 5)  # the club has 12 player-sessions
    at = page("players", player="Ann")
    assert not at.exception
    assert "Skill apart from luck" not in [h.value for h in at.subheader]
    (toggle,) = [t for t in at.toggle if t.label.startswith("Skill apart from luck")]
    assert toggle.value is False
    at = toggle.set_value(True).run()
    assert "Skill apart from luck" in [h.value for h in at.subheader]
