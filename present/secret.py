"""The organiser secret's one rule, said the same by ``brag dashboard`` (which refuses to start)
and by the Record page (which stays read-only): at least :data:`MIN_CHARS` characters."""

from __future__ import annotations

__all__ = ["MIN_CHARS", "problem"]

MIN_CHARS = 12
"""The shortest organiser secret accepted: a four-digit code falls to a few thousand guesses."""


def problem(secret: str | None) -> str | None:
    """Why ``secret`` cannot be the organiser secret (one sentence), or ``None`` when it can
    (or when none is set: the app is then read-only, which is not an error)."""
    if not secret or len(secret) >= MIN_CHARS:
        return None
    return (
        f"the organiser secret is {len(secret)} characters; give one of at least {MIN_CHARS}, "
        "e.g. a passphrase of four random words ('correct horse battery staple')"
    )
