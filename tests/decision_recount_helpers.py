"""An independent recount of the decisions in force, straight from the events (shared by
tests/analytics/test_decision_facts.py and tests/cli/test_analytics_show_decisions.py): events
layer."""

from __future__ import annotations

from collections import Counter

from events.model import AnyEvent

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


# --- the independent recount ---------------------------------------------------------------------


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
