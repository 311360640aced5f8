"""brag amend: shows the plan and stores only with --yes, replaces a step, refuses an illegal
replacement in one line. The log's side of corrections is in tests/log/test_corrections.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from corrections_helpers import finished as _finished
from corrections_helpers import last_step as _last_step
from corrections_helpers import stored as _stored

from brag.cli import main
from engine.fold import fold
from log.amend import plan_stored
from log.open import open_store
from present.amend import describe
from present.numbers import signed
from present.steps import step_text


def test_brag_amend_shows_the_plan_and_stores_only_with_yes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = str(tmp_path / "c.db")
    store = _stored(_finished(), url)
    old = store.events("s")
    store.close()
    last = _last_step(open_store(url))
    deal, step = last.label.deal, last.label.text
    expected = fold(old[: last.row - 1])  # without the last recorded event and its conclusions

    args = ["amend", "s", "--deal", str(deal), "--step", step, "--remove", "--db", url]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "Nothing stored" in out and step_text(last) in out
    for p, v in expected.nets.items():
        assert signed(v) in out and p in out
    assert len(open_store(url).read("s")) == len(old)

    assert main([*args, "--yes", "--by", "Org"]) == 0
    out = capsys.readouterr().out
    assert "Corrected:" in out
    stored = open_store(url).events("s")
    assert len(stored) == len(old) + 1 and stored[-1].type == "amended" and stored[-1].by == "Org"
    assert open_store(url).state("s").nets == expected.nets

    assert main(["amend", "s", "--deal", "99", "--step", "1", "--remove", "--db", url]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("brag: ") and "no deal 99" in err and "\n" not in err


def test_brag_amend_replaces_a_step(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = str(tmp_path / "r.db")
    store = _stored(_finished(3), url)
    t = store.timeline("s")
    # The first bet of deal 1 replaced by the acting player's fold.
    bet = next(x for x in t.steps if x.event.type == "bet")
    bettor = bet.event.player  # type: ignore[union-attr]
    fold_line = f'{{"type": "folded", "player": "{bettor}"}}'
    deal, step = bet.label.deal, bet.label.text
    args = ["amend", "s", "--deal", str(deal), "--step", step, "--as", fold_line]
    assert main([*args, "--db", url, "--yes", "--repair"]) == 0
    out = capsys.readouterr().out
    assert f"{bettor} folds" in out
    fixed = open_store(url).timeline("s")
    now = fixed.find(deal, step)
    assert now is not None and now.event.type == "folded"
    assert now.event.player == bettor  # type: ignore[union-attr]
    again = plan_stored(open_store(url), "s", _last_step(open_store(url)))
    assert describe(again).target.text  # the amended stream can be corrected again


def test_brag_amend_refuses_an_illegal_replacement(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = str(tmp_path / "i.db")
    _stored(_finished(), url).close()
    line = '{"type": "bet", "player": "Nobody", "level": 1}'
    assert main(["amend", "s", "--deal", "1", "--step", "2", "--as", line, "--db", url]) == 1
    err = capsys.readouterr().err.strip()
    assert "RULES 1.3" in err and "\n" not in err
