"""Numbers that never move in the replays (issue 32, item 3): an inserted step is ``7a`` in the
Replay and ``brag replay``; a link's ``step=7a`` lands on it and ``step=8`` still on step 8; a
withdrawn step keeps its number in the log as recorded; ``brag replay --deal N`` shows deal N's
steps only, before and after a correction elsewhere."""

from __future__ import annotations

import random
import uuid
from pathlib import Path

import pytest

from brag.cli import main
from events.model import Amended, Looked
from log.open import open_store
from present.replay import Replay, step_table
from sim.randplay import random_session
from timeline import Step, Timeline, Unfit


def _fits(t: Timeline, look: Step) -> bool:
    """Whether withdrawing ``look`` leaves every later step fitting (no repair needed)."""
    try:
        t.extend_all([Amended(action="withdraw", target=look.id, target_seq=look.row)])
    except Unfit:
        return False
    return True


def test_an_inserted_step_is_found_by_its_letter(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = str(tmp_path / "s.db")
    events = random_session(random.Random(7), "s", players=4, cards="shown", pots=8)
    with open_store(url) as store:
        store.append("s", events, 0)
        t = store.timeline("s")
        looks = [
            (k, s) for k, s in enumerate(t.steps)
            if isinstance(s.event, Looked) and s.label.deal == 2
        ]  # fmt: skip
        # the first look whose withdrawal the rules allow (a player who later folds, say)
        k, look = next((k, s) for k, s in looks if _fits(t, s))
        assert look.id is not None
        capsys.readouterr()
        assert main(["replay", "s", "--deal", "5", "--db", url]) == 0
        five = capsys.readouterr().out
        fix = Amended(action="withdraw", target=look.id, target_seq=look.row)
        store.append("s", [fix], t.last_seq)
        nxt = store.timeline("s").steps[k]  # the step after the look, now where it was
        assert nxt.id is not None
        again = Looked(player=look.event.player, id=uuid.uuid4())  # type: ignore[union-attr]
        ins = Amended(action="insert", target=nxt.id, target_seq=nxt.row, event=again)
        store.append("s", [ins], store.last_seq("s"))
        t = store.timeline("s")
    prev = t.steps[k - 1].label
    rp = Replay.from_timeline(t)
    pos = rp.position(2, f"{prev.step}a")
    assert rp.events[pos.index].id == again.id
    assert rp.labels[pos.index].label == f"{prev.step}a"
    pos = rp.position(2, nxt.label.step)
    assert rp.events[pos.index].id == nxt.id
    # As recorded: the look withdrawn keeps its number, marked withdrawn; the corrections say
    # which step they correct.
    shown = Replay.from_timeline(t, recorded=True)
    gone = next(lab for e, lab in zip(shown.events, shown.labels, strict=True) if e.id == look.id)
    assert gone.withdrawn and (gone.deal, gone.step) == (look.label.deal, look.label.step)
    fixes = [lab for lab in shown.labels if lab.correction]
    assert [f.label for f in fixes] == [f"↺{look.label.text}", f"↺{prev.step}a"]
    assert "is withdrawn" in fixes[0].text and "is inserted" in fixes[1].text
    # brag replay --deal 5: the same lines after corrections in deal 2; --deal 2 has its own only.
    assert main(["replay", "s", "--deal", "5", "--db", url]) == 0
    assert capsys.readouterr().out == five
    table = step_table(shown, 2)
    assert {r.deal for r in table.rows} == {2}
    assert f"↺{prev.step}a" in [r.step for r in table.rows]  # the insertion, as recorded
    assert f"{prev.step}a" in [r.step for r in step_table(rp, 2).rows]  # the step, in force
