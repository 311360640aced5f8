"""brag stats shows the figures of issue 37 below its table in plain words (each figure give or
take, the share of luck known, neighbours "too close to call yet", ratings give or take, how much
of the spread is skill), and brag decisions says plainly that an unfinished deal's decisions wait
for its end.
"""

from __future__ import annotations

import random

import duckdb
import pytest

from analytics.skill_rows import skill_summary
from brag.cli import main
from engine.fold import fold
from events.model import Dealt, PotWon
from log.open import open_store
from sim import simulate_session
from sim.randplay import random_session


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> str:
    """Six finished sessions of the same four players, every card recorded."""
    db = str(tmp_path_factory.mktemp("skill") / "brag.db")
    s = open_store(db)
    for k in range(6):
        s.append(f"all-{k}", simulate_session(seed=40 + k, players=["Ann", "Bob", "Cat", "Dan"],
                                              session=f"all-{k}"), 0)  # fmt: skip
    s.close()
    assert main(["analytics", "refresh", "--db", db]) == 0
    return db


def test_brag_stats_prints_intervals_neighbours_ratings_and_the_meter(
    store: str, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main(["stats", "--db", store, "--no-refresh"]) == 0
    out = capsys.readouterr().out
    con = duckdb.connect(store.replace(".db", ".duckdb"), read_only=True)
    summary = skill_summary(con)
    con.close()
    flat = " ".join(out.split())  # the console wraps long lines
    assert "Skill apart from luck" in out and '"Give or take" (±) is how sure' in flat
    for word in ("sigma", "Plackett", "split-half", "clustered", "mu "):  # no statistician's word
        assert word not in out
    for f in summary.figures:  # each figure printed give or take, as computed
        assert f.raw.low is not None and f.raw.high is not None
        assert f"{f.raw.value:+.2f} ± {(f.raw.high - f.raw.low) / 2:.2f}" in out
        assert f"100% of {f.deals:,} deals" in out
    assert len(summary.neighbours) == 3  # four players: three neighbours
    assert "Who is ahead (each player against the next, at the same table):" in flat
    for c in summary.neighbours:
        assert c.met and c.sentence() in flat
        assert ("too close to call yet" in c.sentence()) != c.distinguishable
    assert summary.rated_sessions == 6
    for r in summary.ratings:
        assert f"{r.mu:+.1f} ± {2 * r.sigma:.1f}" in out
    assert "Skill or luck in this club" in flat


def test_brag_stats_player_lists_the_rating_on_entering_each_session(
    store: str, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main(["stats", "--db", store, "--no-refresh", "--player", "ann"]) == 0  # any case
    out = capsys.readouterr().out
    assert "Ann: rating on entering each session" in out
    assert "+0.0 ± 50.0" in out  # the first session: entered as a newcomer
    rows = [ln for ln in out.splitlines() if ln.startswith("│ all-")]
    assert len(rows) == 6  # a row for each of the six sessions, with its net with luck out


def test_brag_decisions_says_an_unfinished_deals_decisions_wait(
    tmp_path: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    """A session stopped in the middle of a deal: the line names the one deal in play, and the
    projection holds no decision of that deal."""
    events = random_session(random.Random(3), "s", players=3, pots=3)
    last_deal = max(k for k, e in enumerate(events) if isinstance(e, Dealt))
    resolved = next(k for k in range(last_deal, len(events)) if isinstance(events[k], PotWon))
    cut = events[: last_deal + (resolved - last_deal) // 2 + 1]
    assert not fold(cut).finished
    db = str(tmp_path / "brag.db")  # type: ignore[operator]  # tmp_path is a Path
    s = open_store(db)
    s.append("s", cut, 0)
    s.close()
    capsys.readouterr()
    assert main(["decisions", "--db", db, "--min-deals", "0"]) == 0
    out = capsys.readouterr().out
    assert (
        "Decisions of a deal still in play are counted once the deal ends (a decision is stored "
        "with the net it led to): 1 deal in play now." in out
    )
    con = duckdb.connect(db.replace(".db", ".duckdb"), read_only=True)
    (dealt,) = con.execute("SELECT deals FROM sessions WHERE session = 's'").fetchone()
    (rows,) = con.execute("SELECT count(*) FROM decisions WHERE deal = ?", [dealt]).fetchone()
    con.close()
    assert rows == 0
