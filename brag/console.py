"""The terminal side of "text from a log is data": every ``brag`` command writes through
:func:`console` (or :func:`shown` for a plain ``print``).

A name, table or session id read from a store written before the bounds of docs/format.md (or
changed by another program) may hold ESC, CR, NUL, newlines or bidi overrides. Shown as they are,
they would recolour or clear the terminal, overwrite a line ("game.jsonl: valid." over a refusal)
or split a one-line summary. Here every character that is not printable is written as its escape
(``\\x1b``, ``\\u202e``), and rich's markup is off, so ``[bold]`` in a name stays text.

rich is imported when a console is first made (:mod:`brag.safe_console`), not with this module:
:func:`shown` is all that a command printing plain lines (``brag sessions --json``) needs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from events.text import inert

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["console", "shown"]


def shown(text: object) -> str:
    """``str(text)`` on one line, with every character that is not printable as its escape."""
    return inert(str(text))


def console(**options: Any) -> Console:
    """A :class:`~brag.safe_console.SafeConsole` (the options of :class:`rich.console.Console`)."""
    from brag.safe_console import SafeConsole  # rich: `brag sessions --json` must not load it

    return SafeConsole(**options)
