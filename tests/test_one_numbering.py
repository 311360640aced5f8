"""One numbering, across the whole system: a step is the same number in brag replay and in the
frames the Replay page sends (its events list, its links) and in correction notes, for a session
with a correction. The numbering itself is tested in tests/present/test_step_numbering.py, the
frames in tests/dashboard/test_step_numbering_frames.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from store_helpers import store_a_correction

from brag.cli import main
from dashboard.replay.frames import deal_frames
from log.open import open_store
from present.replay import Replay
from present.sight import sight_for


@pytest.fixture
def corrected_db(tmp_path: Path) -> str:
    """Session "fix", with a correction (``store_helpers.store_a_correction``)."""
    db = str(tmp_path / "club.db")
    with open_store(db) as store:
        store_a_correction(store)
    return db


def cli_steps(capsys: pytest.CaptureFixture[str], *argv: str) -> list[tuple[str, str]]:
    """(step, event) of each row of ``brag replay``'s table."""
    assert main(list(argv)) == 0
    out = capsys.readouterr().out
    rows = [line.split("│") for line in out.splitlines() if line.startswith("│")]
    return [(r[1].strip(), r[2].strip()) for r in rows]


def test_brag_replay_and_the_page_number_steps_alike(
    corrected_db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "250")
    with open_store(corrected_db) as store:
        events = [r.event for r in store.read("fix")]
    terminal = cli_steps(capsys, "--db", corrected_db, "replay", "fix", "--deal", "1")
    as_recorded = deal_frames(sight_for(Replay.of(events, recorded=True), 1))
    page = [(f["label"], f["text"]) for f in as_recorded["frames"]]
    assert terminal == page
    assert [label for label, _ in terminal] == ["1", "2", "3", "↺3", "3", "4", "5"]
    assert terminal[3][1] == (
        "Correction: step 3 (A bets level 5: pays 5) is withdrawn; the table goes back to step 2"
    )
    # as corrected, the steps in force keep their numbers (showing corrections keeps the step)
    as_corrected = deal_frames(sight_for(Replay.of(events), 1))["frames"]
    in_force = [(f["label"], f["text"]) for f in as_recorded["frames"] if not f["kind"]]
    assert [(f["label"], f["text"]) for f in as_corrected] == in_force
    assert [f["step"] for f in as_corrected] == [1, 2, 3, 4, 5]
    # a link's step lands on the same event either way
    for rp in (Replay.of(events), Replay.of(events, recorded=True)):
        pos = rp.position(1, 3)
        assert rp.label(pos).text == "A bets level 2: pays 2"
