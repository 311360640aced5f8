"""The terminal side of "text from a log is data": every ``brag`` command writes through
:func:`console` (or :func:`shown` for a plain ``print``).

A name, table or session id read from a store written before the bounds of docs/format.md (or
changed by another program) may hold ESC, CR, NUL, newlines or bidi overrides. Shown as they are,
they would recolour or clear the terminal, overwrite a line ("game.jsonl: valid." over a refusal)
or split a one-line summary. Here every character that is not printable is written as its escape
(``\\x1b``, ``\\u202e``), and rich's markup is off, so ``[bold]`` in a name stays text.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.text import Text

from events.text import inert

__all__ = ["SafeConsole", "console", "shown"]


def shown(text: object) -> str:
    """``str(text)`` on one line, with every character that is not printable as its escape."""
    return inert(str(text))


class SafeConsole(Console):
    """A rich console without markup, emoji codes or highlighting, that shows every string it
    renders (table cells, titles, lines) inert: any character that is not printable, a newline
    included, is written as its escape, so each string stays on its line (print several lines
    as several strings). A :class:`rich.text.Text` built by hand bypasses this: build it from
    :func:`shown` text."""

    def __init__(self, **options: Any) -> None:
        options.setdefault("markup", False)
        options.setdefault("emoji", False)
        options.setdefault("highlight", False)
        super().__init__(**options)

    def render_str(self, text: str, **options: Any) -> Text:
        return super().render_str(inert(text), **options)


def console(**options: Any) -> SafeConsole:
    """A :class:`SafeConsole` (the options of :class:`rich.console.Console`)."""
    return SafeConsole(**options)
