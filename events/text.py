"""Text from a log shown to people: inert, whatever it holds.

Names, tables and session ids are data, never markup or terminal control. New logs may only hold
printable names and ids (docs/format.md), but a store written by an older version, or changed by
another program, may hold anything: :func:`inert` is what every terminal line and page shows.
"""

from __future__ import annotations

__all__ = ["inert"]


def _escape(ch: str) -> str:
    out: str = ch.encode("unicode_escape", "backslashreplace").decode("ascii")
    return out


def inert(text: str) -> str:
    """``text`` with every character that is not printable replaced by its Python escape: C0 and
    C1 controls (NUL, ESC, CR, newlines, DEL), bidi overrides and other format characters
    (U+202E shows as ``\\u202e``), line and paragraph separators, lone surrogates, private-use and
    unassigned code points, and spaces other than the ASCII space. A terminal or a page shows
    what is stored, on one line, and never obeys it. Printable text comes back unchanged (the same
    object)."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else _escape(ch) for ch in text)
