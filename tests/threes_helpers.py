"""A heads-up deal with every card recorded, A (first to act) holding a prial of threes against
B's K-9-4, both looked (shared by tests/solver/test_solver_review.py and
tests/solver/test_review_remembered.py)."""

from __future__ import annotations

import json
from typing import Any

from events.codec import read_events
from events.model import AnyEvent


def threes_deal(session: str, *rest: dict[str, Any]) -> list[AnyEvent]:
    """The deal's events up to both looks (RULES 5.1), then ``rest`` (event dicts)."""
    pack = [f"{r}{s}" for r in "2456789TJQKA" for s in "cdhs"]
    for c in ("Kd", "9s", "4c"):
        pack.remove(c)
    order = ["3c", "Kd", "3d", "9s", "3h", "4c", "3s", *pack]
    lines = [
        {"type": "session_started", "session": session, "seats": ["A", "B"], "cards": "all"},
        {"type": "dealer_chosen", "player": "B"},
        {"type": "shuffled", "order": order},
        {"type": "dealt", "hands": {"A": ["3c", "3d", "3h"], "B": ["Kd", "9s", "4c"]}},
        {"type": "looked", "player": "A"},
        {"type": "looked", "player": "B"},
        *rest,
    ]
    return [e for _, e in read_events(json.dumps(x) for x in lines)]
