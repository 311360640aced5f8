"""brag analytics show decisions prints the decision facts, for every player or one. The facts
themselves are tested in tests/analytics/test_decision_facts.py."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from shared_paths import VALID_SCENARIOS, needs_shared

from engine.fold import complete
from events.codec import read_file
from events.model import (
    AnyEvent,
)

WORDS = {
    "looked": "look",
    "bet": "bet",
    "saw": "see",
    "folded": "fold",
    "conceded": "concede",
    "retained": "retain",
    "kept": "keep",
    "thrown": "throw",
}
"""FORMAT.md event type -> decisions.action, written out again here (not imported)."""


DERIVED = {"pot_won", "pot_carried", "session_ended"}


def in_force(stream: list[AnyEvent]) -> list[tuple[int, AnyEvent]]:
    """``(seq, event)`` of the events still in force: a ``voided`` takes away the derived events
    at the end, then the latest recorded event (FORMAT.md), and is not in force itself."""
    kept: list[tuple[int, AnyEvent]] = []
    for seq, e in enumerate(stream, start=1):
        if e.type == "voided":
            while kept[-1][1].type in DERIVED:
                kept.pop()
            kept.pop()
        else:
            kept.append((seq, e))
    return kept


def recount(stream: list[AnyEvent]) -> Counter[tuple[str, str]]:
    """``(player, action)`` -> decisions in force in the deals that have ended: a deal ends at
    its ``pot_won``, or, carried (``pot_carried``), once the survivor retains or the next deal is
    dealt (RULES 6.1-6.2)."""
    deal = 0
    carried: set[int] = set()
    ended: set[int] = set()
    made: list[tuple[int, str, str]] = []
    for _, e in in_force(stream):
        kind = e.type
        if kind == "dealt":
            ended |= carried
            deal += 1
        elif kind == "pot_won":
            ended.add(deal)
        elif kind == "pot_carried":
            carried.add(deal)
        if kind in WORDS:
            made.append((deal, e.player, WORDS[kind]))  # type: ignore[union-attr]
            if kind == "retained":
                ended.add(deal)
    return Counter((p, a) for d, p, a in made if d in ended)


@needs_shared
def test_brag_analytics_show_decisions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``brag analytics show decisions --format json`` on a store: per player and action, the
    recount's numbers; ``--player`` narrows it to one player."""
    from brag.cli import main

    logs = [p for p in VALID_SCENARIOS if Path(p).stem in ("card_example", "seed002_blind_example")]
    assert len(logs) == 2
    db = str(tmp_path / "club.db")
    assert main(["import", "--db", db, *logs]) == 0
    capsys.readouterr()
    expect: Counter[tuple[str, str]] = Counter()
    for path in logs:
        expect += recount([s.event for s in complete(read_file(path))])
    assert main(["analytics", "show", "decisions", "--db", db, "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert Counter({(r["player"], r["action"]): r["decisions"] for r in rows}) == expect
    assert main(["analytics", "show", "decisions", "--db", db, "--player", "A",
                 "--format", "json"]) == 0  # fmt: skip
    mine = json.loads(capsys.readouterr().out)
    assert {r["player"] for r in mine} == {"A"}
    assert sum(r["decisions"] for r in mine) == sum(n for (p, _), n in expect.items() if p == "A")
