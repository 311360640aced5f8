"""Text from a log shown to people: inert, whatever it holds.

Names, tables and session ids are data, never markup or terminal control. New logs may only hold
printable names and ids (docs/format.md), but a store written by an older version, or changed by
another program, may hold anything: :func:`inert` is what every terminal line and page shows.

One name, one player: :func:`normal` is the one normal form of a player's, table's or session's
name (NFKC, case-folded, spaces collapsed, look-alike letters of another script in a word read as
the word's own). Two spellings with the same normal form are one name: two seats of a session may
not hold them, the statistics count them as one player (or table), and a new session may not take
a stored one's name. :func:`mixed_scripts` says when a name mixes look-alike scripts.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from typing import Any, Final

__all__ = ["inert", "mixed_scripts", "normal", "same_name"]


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


# --- one name, one player (docs/format.md "Choices where RULES.md is silent") --------------------

_IGNORED_SCRIPTS: Final = frozenset({"COMMON", "INHERITED", "UNKNOWN"})
"""Scripts a character may share with any other (digits, punctuation, combining marks)."""


@lru_cache(maxsize=1)
def _tables() -> tuple[Any, Any]:
    """confusable-homoglyphs' ``categories`` and ``confusables`` modules, imported on first use:
    loading them takes longer than a command showing text inert needs in all (they import
    ``urllib.request`` and read their JSON tables)."""
    # Here, not at the top: `brag sessions --json` shows names inert and must not load them.
    import confusable_homoglyphs.categories as categories  # type: ignore[import-untyped]  # no stubs
    import confusable_homoglyphs.confusables as confusables  # type: ignore[import-untyped]  # no stubs

    return categories, confusables


def _script(ch: str) -> str:
    out: str = _tables()[0].alias(ch) if ch.isalpha() else "COMMON"
    return out


def _main_script(word: str) -> str | None:
    """The script most letters of ``word`` are written in (Latin first among equals, then the
    alphabet of the scripts' names); ``None`` for a word of one script or none."""
    counts: dict[str, int] = {}
    for ch in word:
        s = _script(ch)
        if s not in _IGNORED_SCRIPTS:
            counts[s] = counts.get(s, 0) + 1
    if len(counts) < 2:
        return None
    return min(counts, key=lambda s: (-counts[s], s != "LATIN", s))


def _look_alike(ch: str, script: str) -> str | None:
    """The first look-alike of ``ch`` written in ``script`` (Unicode's confusables, UTS #39, as
    the confusable-homoglyphs package ships them), or ``None``."""
    for glyph in _tables()[1].confusables_data.get(ch, ()):
        text: str = glyph["c"]
        if all(_script(g) in (script, "COMMON") for g in text):
            return text
    return None


def _one_script(word: str) -> str:
    if word.isascii():  # Latin letters only (and common signs): nothing to map, no table read
        return word
    main = _main_script(word)
    if main is None:
        return word
    out = []
    for ch in word:
        s = _script(ch)
        alike = None if s in _IGNORED_SCRIPTS or s == main else _look_alike(ch, main)
        out.append(alike if alike is not None else ch)
    return "".join(out)


def _folded(text: str) -> str:
    return " ".join(
        unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold()).split()
    )


@lru_cache(maxsize=65536)
def normal(text: str) -> str:
    """The normal form of a player's, table's or session's name: two names with the same normal
    form are one name (one player, one table, one session). Unicode NFKC, case-folded, runs of
    spaces made one and the ends trimmed; then, in a word that mixes scripts (a Latin name with a
    Cyrillic ``е`` typed in it), each letter of another script than the word's main one that
    looks like a letter of the main script is read as that letter (Unicode's confusables).
    Idempotent: ``normal(normal(x)) == normal(x)``.

    >>> normal("Ann") == normal("ann") == normal("ANN ") == normal("\\u0410nn")
    True
    >>> normal("Top   Table")
    'top table'
    >>> normal("Анна")  # one script: a Cyrillic name stays Cyrillic
    'анна'
    """
    out = _folded(text)
    for _ in range(4):  # a mapped letter may be folded again; at most a few rounds
        again = _folded(" ".join(_one_script(w) for w in out.split(" ")))
        if again == out:
            break
        out = again
    return out


def same_name(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` are one name (the same :func:`normal` form)."""
    return normal(a) == normal(b)


def mixed_scripts(text: str) -> str | None:
    """A sentence when a word of ``text`` mixes letters of two scripts that look alike (a Latin
    name holding a Cyrillic ``а``): such a name is accepted and counted as the name it looks like
    (:func:`normal`), but a person may want to type it again. ``None`` for an ordinary name."""
    for word in text.split():
        if word.isascii():  # one script: Latin
            continue
        main = _main_script(word)
        if main is None:
            continue
        odd = [ch for ch in word if _script(ch) not in (main, *_IGNORED_SCRIPTS)]
        if any(_look_alike(ch, main) is not None for ch in odd):
            names = ", ".join(
                f"{inert(ch)} ({unicodedata.name(ch, f'U+{ord(ch):04X}').title()})"
                for ch in dict.fromkeys(odd)
            )
            return (
                f"{inert(word)} mixes {main.title()} letters with look-alikes of other "
                f"scripts: {names}; it counts as {normal(word)}"
            )
    return None
