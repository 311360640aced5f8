"""The rich console every ``brag`` command that draws tables or progress writes through
(:func:`brag.console.console` makes it): text from a log shown inert (:mod:`brag.console`)."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.text import Text

from events.text import inert

__all__ = ["SafeConsole"]


class SafeConsole(Console):
    """A rich console without markup, emoji codes or highlighting, that shows every string it
    renders (table cells, titles, lines) inert: any character that is not printable, a newline
    included, is written as its escape, so each string stays on its line (print several lines as
    several strings). A :class:`rich.text.Text` built by hand bypasses this: build it from
    :func:`brag.console.shown` text."""

    def __init__(self, **options: Any) -> None:
        options.setdefault("markup", False)
        options.setdefault("emoji", False)
        options.setdefault("highlight", False)
        super().__init__(**options)

    def render_str(self, text: str, **options: Any) -> Text:
        return super().render_str(inert(text), **options)
