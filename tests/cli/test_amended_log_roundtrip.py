"""A log holding an ``amended`` correction (docs/format.md) is exported, verified and imported
like any other (issue 32): ``brag verify`` passes it with the corrected nets, ``brag import``
stores it in another store with the same state, and importing it again changes nothing."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from brag.cli import main
from events.model import Looked
from log.amend import plan_stored, store_amendment
from log.open import open_store
from sim.randplay import random_session


def test_an_amended_log_exports_verifies_and_imports(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    events = random_session(random.Random(3), "s", players=4, cards="shown", pots=8)
    path = tmp_path / "s.jsonl"
    with open_store(str(tmp_path / "a.db")) as store:
        store.append("s", events, 0)
        look = next(x for x in store.timeline("s").steps if isinstance(x.event, Looked))
        store_amendment(store, plan_stored(store, "s", look), repair=True)
        state = store.state("s")
        n = store.last_seq("s")
        path.write_text("".join(f"{line}\n" for line in store.export_lines("s")))
    assert '"type": "amended"' in path.read_text()
    capsys.readouterr()
    assert main(["verify", "--json", str(path)]) == 0
    nets = json.loads(capsys.readouterr().out)["nets"]
    assert nets == {p: str(v) for p, v in state.nets.items()}
    other = str(tmp_path / "b.db")
    assert main(["import", "--db", other, str(path)]) == 0
    with open_store(other) as store:
        assert store.last_seq("s") == n and store.state("s").nets == state.nets
    assert main(["import", "--db", other, str(path)]) == 0
    assert "unchanged" in capsys.readouterr().out
