"""A stream stamped as a store holds it (shared by tests/timeline/test_timeline.py and
tests/timeline/test_timeline_properties.py): events layer."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from events.model import AnyEvent


def stamped(events: Sequence[AnyEvent]) -> list[AnyEvent]:
    """The stream as a store holds it: each event with an id and (but a voided) its seq."""
    out: list[AnyEvent] = []
    for k, e in enumerate(events, start=1):
        update: dict[str, Any] = {"id": uuid.UUID(int=k)}
        if e.type != "voided":
            update["seq"] = k
        out.append(e.model_copy(update=update))
    return out
