"""The terminal side of "text from a log is data": every ``brag`` command writes through
:func:`console` (or :func:`shown` for a plain ``print``).

A name, table or session id read from a store written before the bounds of docs/format.md (or
changed by another program) may hold ESC, CR, NUL, newlines or bidi overrides. Shown as they are,
they would recolour or clear the terminal, overwrite a line ("game.jsonl: valid." over a refusal)
or split a one-line summary. Here every character that is not printable is written as its escape
(``\\x1b``, ``\\u202e``), and rich's markup is off, so ``[bold]`` in a name stays text.

rich is imported when a console is first made, not with this module: :func:`shown` is all that a
command printing plain lines (``brag sessions --json``) needs.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from events.text import inert

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["console", "shown"]  # and SafeConsole, made on first use (``__getattr__``)


def shown(text: object) -> str:
    """``str(text)`` on one line, with every character that is not printable as its escape."""
    return inert(str(text))


@cache
def _safe_console() -> type[Console]:
    from rich.console import Console
    from rich.text import Text

    class SafeConsole(Console):
        """A rich console without markup, emoji codes or highlighting, that shows every string
        it renders (table cells, titles, lines) inert: any character that is not printable, a
        newline included, is written as its escape, so each string stays on its line (print
        several lines as several strings). A :class:`rich.text.Text` built by hand bypasses
        this: build it from :func:`shown` text."""

        def __init__(self, **options: Any) -> None:
            options.setdefault("markup", False)
            options.setdefault("emoji", False)
            options.setdefault("highlight", False)
            super().__init__(**options)

        def render_str(self, text: str, **options: Any) -> Text:
            return super().render_str(inert(text), **options)

    SafeConsole.__module__ = __name__
    return SafeConsole


def console(**options: Any) -> Console:
    """A :data:`SafeConsole` (the options of :class:`rich.console.Console`)."""
    return _safe_console()(**options)


def __getattr__(name: str) -> Any:
    # ``SafeConsole``: the class, made (and rich imported) on first use.
    if name == "SafeConsole":
        return _safe_console()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
