"""Upcasting: old event versions are read forever (FORMAT.md "must stay readable").

An upcaster is a pure function on the raw JSON object of one event type, taking version ``n`` to
``n + 1``; the chain runs before validation, so stored rows and files are never rewritten
(model: eventsourcing's ``Mapper.to_domain_event``). Today every event type is at version 1 and the
chain is empty; a new version registers ``(type, n) -> function`` in :data:`UPCASTERS` and raises
its entry in :data:`CURRENT_VERSIONS`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from events.errors import FormatError

Raw = dict[str, Any]
Upcaster = Callable[[Raw], Raw]


@dataclass(frozen=True)
class Upcasting:
    """Current version per event type and the upcasters ``(type, from_version) -> fn``."""

    current: Mapping[str, int] = field(default_factory=dict)
    steps: Mapping[tuple[str, int], Upcaster] = field(default_factory=dict)

    def version_of(self, type_: str) -> int:
        return self.current.get(type_, 1)

    def upcast(self, raw: Raw) -> Raw:
        """Runs the chain until ``raw["v"]`` is current; raises :class:`FormatError` for a version
        newer than this reader knows or one with no upcaster."""
        type_ = raw.get("type")
        if not isinstance(type_, str):
            return raw
        target = self.version_of(type_)
        v = raw.get("v", 1)
        if not isinstance(v, int) or isinstance(v, bool) or v < 1:
            raise FormatError(f"{v!r} is not a schema version", event=type_, field="v")
        if v > target:
            raise FormatError(
                f"version {v} is newer than this reader knows ({target}); upgrade Bragbook",
                event=type_,
                field="v",
            )
        while v < target:
            step = self.steps.get((type_, v))
            if step is None:
                raise FormatError(f"no upcaster from version {v}", event=type_, field="v")
            raw = step(dict(raw))
            v_new = raw.get("v", v)
            if v_new != v + 1:
                raise AssertionError(f"upcaster {type_} v{v} must produce v{v + 1}, gave {v_new}")
            v = v_new
        return raw

    @property
    def trivial(self) -> bool:
        """True when no type has a version above 1 (the codec then takes its fast path)."""
        return not any(v > 1 for v in self.current.values())


UPCASTERS: Final[dict[tuple[str, int], Upcaster]] = {}
CURRENT_VERSIONS: Final[dict[str, int]] = {}
DEFAULT_UPCASTING: Final = Upcasting(CURRENT_VERSIONS, UPCASTERS)
