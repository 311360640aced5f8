"""The session catalogue met through the CLI: an old store without the catalogue is read as it is by
brag sessions, then migrated by a writer. The catalogue itself is tested in
tests/log/test_catalogue.py."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest
from catalogue_helpers import SEASON, check
from store_helpers import play_deal, start

from brag.cli import main
from engine.legal import can_void
from events.model import Voided
from log.open import open_store
from store.schema import CATALOGUE, META, STORE_VERSION


def test_an_old_store_without_the_catalogue_is_read_then_migrated(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "old.db"
    with open_store(str(db)) as s:
        for path in SEASON[:4]:
            s.import_log(path)
        s.append("void", [start("void", random.Random(1), pots=2)], 0)
        state = s.state("void")
        state, deal = play_deal(state, random.Random(2))
        rows = s.append("void", deal, 1)
        s.append("void", [Voided(seq=can_void(s.state("void")) or 0)], rows[-1].seq)
        want = s.sessions()
    # As version 2 left it: no catalogue.
    c = sqlite3.connect(db, isolation_level=None)
    c.execute(f"DROP TABLE {CATALOGUE}")
    c.execute(f"UPDATE {META} SET value = '2' WHERE key = 'version'")
    c.close()
    capsys.readouterr()
    assert main(["sessions", "--db", str(db), "--json"]) == 0  # a reader: read as it is
    before = capsys.readouterr().out
    with open_store(str(db), readonly=True) as ro:
        assert ro.version == 2  # type: ignore[attr-defined]
        assert ro.sessions() == want
    with sqlite3.connect(db) as c:
        assert not c.execute("SELECT 1 FROM sqlite_master WHERE name = ?", (CATALOGUE,)).fetchall()
    with open_store(str(db)) as s:  # a writer migrates
        assert s.version == STORE_VERSION  # type: ignore[attr-defined]
        assert check(s) == want
    with sqlite3.connect(db) as c:
        assert dict(c.execute(f"SELECT key, value FROM {META}"))["version"] == str(STORE_VERSION)
        assert c.execute(f"SELECT count(*) FROM {CATALOGUE}").fetchone() == (5,)
    assert main(["sessions", "--db", str(db), "--json"]) == 0
    assert capsys.readouterr().out == before
    with open_store(str(db)) as s:  # a rebuild from the events gives the same rows
        assert s.rebuild_catalogue() == 5  # type: ignore[attr-defined]
        assert s.sessions() == want
