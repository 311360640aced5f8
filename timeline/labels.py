"""Step numbers that never move (issue 32, item 3): a step's :class:`Label` is given when its
event first enters a session's timeline and is never changed.

A label is ``(deal, step, sub)``, printed ``"7"`` or ``"7a"``: ``step`` counts the steps in force
of ``deal`` when the event entered (the next number after the last step in force of that deal, as
``brag replay`` always numbered), ``sub`` the letters of an event a correction inserted after step
``step`` (``1`` is ``"a"``, ``26`` ``"z"``, ``27`` ``"aa"``). Deal 0 is what comes before the first
deal.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

__all__ = ["Label", "letters", "parse_step"]


def letters(sub: int) -> str:
    """The letters of an inserted step's ``sub``: ``0`` none, ``1`` ``"a"``, ``26`` ``"z"``,
    ``27`` ``"aa"`` (as spreadsheet columns).

    >>> [letters(n) for n in (0, 1, 2, 26, 27, 28)]
    ['', 'a', 'b', 'z', 'aa', 'ab']
    """
    out = ""
    while sub > 0:
        sub, r = divmod(sub - 1, 26)
        out = chr(ord("a") + r) + out
    return out


def _sub_of(text: str) -> int:
    n = 0
    for ch in text:
        n = n * 26 + (ord(ch) - ord("a") + 1)
    return n


_STEP = re.compile(r"\s*(\d+)\s*([a-z]*)\s*", re.IGNORECASE)


def parse_step(value: Any) -> tuple[int, int] | None:
    """A step as a link or a command carries it (``7``, ``"7"``, ``"7a"``, the last of a list):
    ``(step, sub)``, or ``None`` for junk.

    >>> parse_step("7a"), parse_step(12), parse_step(["3", "4b"]), parse_step("x")
    ((7, 1), (12, 0), (4, 2), None)
    """
    if isinstance(value, list | tuple):
        value = value[-1] if value else None
    if value is None or isinstance(value, bool):
        return None
    m = _STEP.fullmatch(str(value))
    if m is None or len(m.group(2)) > 3:
        return None
    return int(m.group(1)), _sub_of(m.group(2).lower())


@dataclass(frozen=True, slots=True, order=True)
class Label:
    """A step's number for good: ``step`` of ``deal``, ``sub`` the letters of an inserted step."""

    deal: int
    step: int
    sub: int = 0

    @property
    def text(self) -> str:
        """``"7"``, ``"7a"``."""
        return f"{self.step}{letters(self.sub)}"

    def __str__(self) -> str:
        return self.text

    def next_after(self, deal: int) -> Label:
        """The label of an event entering at the end after this step in force, in ``deal``: the
        next number in the same deal, else step 1 of the new deal."""
        return Label(deal, self.step + 1 if deal == self.deal else 1)
