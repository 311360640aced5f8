"""Text from a log or a user made safe for Streamlit's Markdown (:func:`md`).

Its own module, below both :mod:`dashboard.common.ui` and :mod:`dashboard.common.cache`, so that
neither imports
the other for it (an import cycle).
"""

from __future__ import annotations

import re

from events.text import inert

__all__ = ["md", "unreferenced"]

_MD_ALWAYS = re.compile(r"([\\`*_\[\]<>!#|~$&{}@])")
_MD_COLON = re.compile(r":(?=\S)")  # :red[...], :material/...:, :smile:, https://
# GFM turns bare URLs and e-mail addresses into links after escapes are read: a word joiner
# (U+2060, invisible) after "://", "www" and "@" keeps them text.
_MD_AUTOLINK = re.compile(r"(?i)(?<=:)(?=//)|(?<=\bwww)(?=\.)|(?<=@)")
_MD_START = re.compile(r"^(\s*)(?:([-+=])|(\d+)([.)]))")  # a list or a heading line


def md(text: object) -> str:
    """Text from a log or a user (a name, a table, a session id, an error naming them) as
    Markdown that shows exactly that text. Backslash escapes (CommonMark) take away what could
    make markup: brackets, ``!``, ``<``, emphasis, code, ``$`` (LaTeX), ``#``, ``|``, ``~``,
    ``&`` (entities), ``@``, a colon before a non-space (Streamlit's ``:red[…]``,
    ``:material/…:``), and a list or heading start; an invisible word joiner (U+2060) after
    ``://``, ``www`` and ``@`` stops GFM's bare-URL and e-mail links. So ``[Log in](https://…)``,
    ``![t](https://…)`` and ``https://…`` stay text, never a link or an image. Characters that
    are not printable (newlines, ESC, bidi overrides) show as escapes
    (:func:`events.text.inert`), so a name never starts a new block. Plain sentences come back
    as they were ("Ann bets level 2: pays 1, blind").

    Use it for every piece of user-supplied text passed to ``st.markdown``, ``st.caption``,
    ``st.subheader``, the messages (``st.error`` ...) and widget labels (buttons, expanders,
    tabs), which Streamlit renders as Markdown."""
    out = _MD_ALWAYS.sub(r"\\\1", inert(str(text)))
    out = _MD_COLON.sub(r"\\:", out)
    out = _MD_AUTOLINK.sub("\u2060", out)
    return _MD_START.sub(_escape_start, out, count=1)


def _escape_start(m: re.Match[str]) -> str:
    if m.group(2):
        return m.group(1) + "\\" + m.group(2)
    return m.group(1) + m.group(3) + "\\" + m.group(4)


_DOC_ALONE = re.compile(r"\s*\(docs/[\w/.-]+\.md(?:, docs/[\w/.-]+\.md)*\)")
_DOC_AFTER = re.compile(r",\s*docs/[\w/.-]+\.md(?=\))")


def unreferenced(text: str) -> str:
    """Our own sentence without its pointers into the repository's docs (``(docs/luck.md)``,
    ``…, docs/luck.md)``): a player on a phone has no checkout to open them (``brag`` keeps them
    for the analyst at a terminal).

    >>> unreferenced("ends (hidden until then, docs/luck.md). Not known (docs/luck.md).")
    'ends (hidden until then). Not known.'
    >>> unreferenced("at ante 1 (docs/luck.md, docs/skill.md).")
    'at ante 1.'
    """
    return _DOC_AFTER.sub("", _DOC_ALONE.sub("", text))
