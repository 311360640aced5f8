"""``brag replay --deal N`` after a correction that undoes how the deal ended (walk of issue
36): its closing line is the outcome in force (RULES 1.4), never the pot_won a correction
withdrew."""

from __future__ import annotations

from pathlib import Path

import pytest

from brag.cli import main
from log.amend import plan_stored, store_amendment
from log.open import open_store

SEASON = Path(__file__).resolve().parents[2] / "data" / "season"
TOP = "2026-09-24-top-1"


def test_the_closing_line_follows_the_correction(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "club.db")
    with open_store(db) as store:
        store.import_log(str(SEASON / f"{TOP}.jsonl"))
        t = store.timeline(TOP)
        last = next(x for x in reversed(list(t.steps)) if not x.derived)
        deal = last.label.deal
        assert any(o.deal == deal for o in t.state.outcomes)  # the deal ended before
        store_amendment(store, plan_stored(store, TOP, last))  # its last action withdrawn
        after = store.timeline(TOP).state
    assert not any(o.deal == deal for o in after.outcomes)  # independently: it has not ended now
    capsys.readouterr()
    assert main(["replay", TOP, "--db", db, "--deal", str(deal)]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert out.endswith(f"deal {deal} is in progress: pot on the table {after.pot}")


def test_a_deal_made_carried_by_a_correction_says_carried(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A walk's session (``logs/carried_by_a_correction.jsonl``): deal 1 was won uncontested by
    Shirley; the organiser replaced her blind bet of level 1 with one of level 2 and repaired
    the steps after it, so Maureen folds to a blind player and the pot is carried (RULES 6.1),
    though the pot_won recorded stays in the log as recorded."""
    db = str(tmp_path / "club.db")
    log = Path(__file__).parent / "logs" / "carried_by_a_correction.jsonl"
    assert main(["import", "--db", db, str(log)]) == 0
    with open_store(db) as store:
        [o] = [o for o in store.timeline("fri-1").state.outcomes if o.deal == 1]
    assert (o.result, o.winner) == ("carried", None)  # independently: the engine's say
    capsys.readouterr()
    assert main(["replay", "fri-1", "--db", db, "--deal", "1"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert out[-1] == f"deal 1: the pot of {o.amount} is carried (as corrected)"
