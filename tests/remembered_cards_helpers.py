"""Sue's remembered cards on a simulated session (shared by
tests/cli/test_remembered_cards_kept_apart.py and
tests/dashboard/test_remembered_cards_on_my_deals.py): present layer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from events.codec import write_events
from present.replay import Replay
from sim import simulate_session

SESSION = "sim-mine"
SUE = ("Ks", "Kh", "2c")


def recorded(store: Any) -> Replay:
    """The session as recorded, as ``brag notes`` and the notes' route read it (issue 32)."""
    return Replay.of(store.events(SESSION), recorded=True)


def mine_log(tmp_path: Path) -> Path:
    """The simulated session ``SESSION`` (two players, the cards shown) written as a log."""
    log = tmp_path / "mine.jsonl"
    with open(log, "w", encoding="utf-8") as fp:
        write_events(simulate_session(seed="mine", players=2, cards="shown"), fp)
    return log
