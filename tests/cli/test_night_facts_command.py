"""``brag night DATE`` writing the night's facts (issue 36 items 1, 4 and 5): check-in, the
night's stake (used by ``--settle`` when no ``--stake`` is given), flags dismissed with their
reason, ``--finalise`` refused while a flag is open or a session is in progress, and a
correction after final (``brag amend``) reported in ``corrected_after_final`` with each net
before and after, as the engine folds the session's log (RULES 1.5)."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from brag.cli import main
from engine.fold import fold
from events.codec import read_file
from events.model import SessionStarted, is_derived
from log.open import open_store

SEASON = sorted((Path(__file__).resolve().parents[2] / "data" / "season").glob("*.jsonl"))
FIRST = [str(p) for p in SEASON if p.name.startswith("2026-09-24-")]
TOP = "2026-09-24-top-1"


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = str(tmp_path / "club.db")
    assert main(["import", "--db", path, *FIRST]) == 0
    return path


def _json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> Any:
    capsys.readouterr()
    assert main([*argv, "--json"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1
    return json.loads(out)


def _night(capsys: pytest.CaptureFixture[str], db: str, *more: str) -> Any:
    return _json(capsys, ["night", "2026-09-24", "--db", db, *more])


def test_check_in_stake_flag_dismiss_and_finalise(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    got = _night(capsys, db, "--check-in", "Sandra", "Bev", "sandra")
    assert [f["subject"] for f in got["stored"]] == ["Sandra", "Bev"]  # a second tap: nothing
    _night(capsys, db, "--set-stake", "1/2", "--limit", "2")
    f = _night(capsys, db, "--flag", f"{TOP}:2:3", "--reason", "cards wrong", "--by", "Bev")
    pos = f["stored"][0]["position"]
    with pytest.raises(SystemExit, match=rf"^brag night: flag {pos} on session '{TOP}' deal 2 "
                       "is open"):  # fmt: skip
        main(["night", "2026-09-24", "--db", db, "--finalise"])
    _night(capsys, db, "--dismiss", str(pos), "--reason", "they were right", "--by", "Ann")
    final = _night(capsys, db, "--finalise", "--by", "Ann")["stored"][0]
    with open_store(db, readonly=True) as s:
        last = s.last_position()
    assert final["kind"] == "final" and final["value"] == {"position": last}
    night = _night(capsys, db)
    assert night["state"] == "final" and night["present"] == ["Sandra", "Bev"]
    assert night["final"] == {"fact": final["position"], "position": last, "by": "Ann"}
    assert night["stake_setting"] == {"money": "0.5", "limit": "2"}
    assert night["flags"] == [
        {"position": pos, "session": TOP, "deal": 2, "step": "3", "reason": "cards wrong",
         "by": "Bev", "status": "dismissed", "resolution": "they were right"}
    ]  # fmt: skip
    assert night["corrected_after_final"] == []
    stored = _night(capsys, db, "--settle")  # at the night's stake
    given = _night(capsys, db, "--settle", "--stake", "0.50")
    assert (stored["stake"], stored["stake_source"]) == ("0.5", "the night's setting")
    assert given["stake_source"] == "--stake" and stored["transfers"] == given["transfers"]
    ones = _night(capsys, db, "--settle", "--stake", "1")["transfers"]
    units = {(t["from"], t["to"]): Fraction(t["amount"]) for t in ones}
    assert {(t["from"], t["to"]): Fraction(t["amount"]) for t in stored["transfers"]} == {
        k: v / 2 for k, v in units.items()
    }
    capsys.readouterr()
    assert main(["night", "2026-09-24", "--db", db]) == 0
    out = capsys.readouterr().out
    assert "Night of 2026-09-24, final" in out and f"finalised by Ann at log position {last}" in out


def test_a_correction_after_final_says_so_with_the_change(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _night(capsys, db, "--finalise", "--by", "Ann")
    events = [e for _, e in read_file(FIRST[0])]
    assert isinstance(events[0], SessionStarted) and events[0].session == TOP
    k = max(i for i, e in enumerate(events) if not is_derived(e))  # the last recorded step
    before, after = fold(events).nets, fold(events[:k]).nets  # the engine's fold, independently
    with open_store(db, readonly=True) as s:
        step = next(x for x in reversed(list(s.timeline(TOP).steps)) if x.row == k + 1)
    deal, label = step.label.deal, step.label.text
    argv = ["amend", TOP, "--db", db, "--deal", str(deal), "--step", label, "--remove", "--yes"]
    assert main(argv) == 0
    night = _night(capsys, db)
    # finalised (its fact kept), provisional now: the withdrawn step put the pot back on the
    # table, so that session is in progress again (RULES 1.4)
    assert night["state"] == "provisional" and night["final"] is not None
    [c] = night["corrected_after_final"]
    assert (c["session"], c["steps"]) == (TOP, [f"deal {deal} step {label} (withdraw)"])
    want = {
        p: (before[p], after.get(p, Fraction(0)))
        for p in before
        if before[p] != after.get(p, Fraction(0))
    }
    assert (
        want
        and {x["player"]: (Fraction(x["before"]), Fraction(x["after"])) for x in c["changes"]}
        == want
    )
    assert all(Fraction(x["change"]) == want[x["player"]][1] - want[x["player"]][0]
               for x in c["changes"])  # fmt: skip
    capsys.readouterr()
    assert main(["night", "2026-09-24", "--db", db]) == 0
    assert f"corrected after final: session {TOP} deal {deal} step {label}" in (
        capsys.readouterr().out.replace("\n", "")
    )


def test_finalise_waits_for_every_session(tmp_path: Path) -> None:
    log = tmp_path / "going.jsonl"
    lines = SEASON[0].read_text(encoding="utf-8").splitlines()[:12]
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    db = str(tmp_path / "going.db")
    assert main(["import", "--db", db, str(log)]) == 0
    with pytest.raises(SystemExit, match=rf"^brag night: session '{TOP}' is in progress "
                       r"\(RULES 1\.4\)"):  # fmt: skip
        main(["night", "2026-09-24", "--db", db, "--finalise"])


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (["--flag", "top"], r"^brag night: --flag 'top': give SESSION:DEAL\[:STEP\]$"),
        (["--flag", f"{TOP}:1"], r"^brag night: --flag needs --reason R"),
        (["--dismiss", "1", "--reason", "x"], r"^brag night: no flag 1 at the night of"),
        (["--set-stake", "0"], r"^brag night: --set-stake '0': give money"),
        (["--limit", "2"], r"^brag night: --limit goes with --set-stake$"),
        (["--finalise", "--reopen"], r"^brag night: one thing at a time: --finalise, --reopen$"),
        (["--reopen"], r"^brag night: the night of 2026-09-24 is not final: nothing to reopen$"),
        (["--set-stake", "3", "--limit", "2"], r"is above the house limit 2$"),
    ],
)  # fmt: skip
def test_refusals_are_one_line_and_store_nothing(db: str, argv: list[str], line: str) -> None:
    with pytest.raises(SystemExit, match=line) as err:
        main(["night", "2026-09-24", "--db", db, *argv])
    assert "\n" not in str(err.value.code)
    with open_store(db, readonly=True) as s:
        assert s.recorder.night_facts("2026-09-24") == []
