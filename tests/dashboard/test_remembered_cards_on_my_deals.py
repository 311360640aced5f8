"""Issue 21.4 on the My sessions page: a player's remembered cards show in the rows of their own
deals only (dashboard.stats.own). The export and the statistics are in
tests/cli/test_remembered_cards_kept_apart.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from remembered_cards_helpers import SESSION, SUE, mine_log
from remembered_cards_helpers import recorded as _recorded

from dashboard.stats import own as own_
from log.annotations import private_cards, set_private_cards
from log.open import open_store
from present.replay import Replay


@pytest.fixture()
def db(tmp_path: Path) -> str:
    log = mine_log(tmp_path)
    path = str(tmp_path / "brag.db")
    with open_store(path) as store:  # what brag import does
        store.import_log(str(log))
    return path


def test_the_rows_of_my_deals_show_the_note_to_its_player_only(db: str) -> None:
    with open_store(db) as store:
        set_private_cards(store, _recorded(store), 2, "Sue", SUE)
        rp = Replay.of(store.events(SESSION))
        sue = {d: p.cards for d, p in private_cards(store, _recorded(store), "Sue").items()}
        dave = {d: p.cards for d, p in private_cards(store, _recorded(store), "Dave").items()}
    rows = own_.deal_rows(rp, "Sue", sue)
    assert [r.title for r in rows] == [f"▶ Deal {d}" for d in range(1, len(rp.slices))]
    assert rows[1].details[-1] == "your cards K♠ K♥ 2♣ (from your note)"
    assert rows[1].href == f"replay?session={SESSION}&deal=2&step=1&view=Sue"
    assert all("K♠ K♥ 2♣" not in " ".join(r.details) for r in own_.deal_rows(rp, "Dave", dave))
