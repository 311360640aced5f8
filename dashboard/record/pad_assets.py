"""What the pad runs on, shared by the Record page's component (:mod:`dashboard.record.pad`) and
the pad's own page (:mod:`dashboard.record.pad_app`), so that both run the same pad: its times in
milliseconds and its script (``pad_cards.js``, ``pad.js`` and ``pad_kept.js``, one module). No
Streamlit."""

from __future__ import annotations

import functools
from pathlib import Path

__all__ = ["POLL_MS", "REPEAT_MS", "SCRIPTS", "SETTLE_MS", "pad_css", "pad_js"]

SETTLE_MS = 400
"""A key takes a tap only once it has been on the screen, unchanged, this many milliseconds."""

REPEAT_MS = 600
"""The pad takes no second tap within this many milliseconds of the last: a double tap records
one event, whatever was drawn in between."""

POLL_MS = 500
"""How often the pad asks the server for the session's last seq (``GET /api/pad``): the
connection is shown within a second, and another device's taps within a second too."""

_HERE = Path(__file__).resolve().parent

SCRIPTS = ("pad_cards.js", "pad.js", "pad_kept.js")
"""The files of the pad's one module, in order (beside this module): the showdown's card picker
first (``pad.js`` calls its functions), the copy kept on the device last."""


@functools.cache
def pad_js() -> str:
    """The pad's module: :data:`SCRIPTS` one after the other (its default export mounts the pad;
    ``keptDocument``, ``lastSession`` and ``forget`` are the page's)."""
    return "\n".join((_HERE / name).read_text(encoding="utf-8") for name in SCRIPTS)


@functools.cache
def pad_css() -> str:
    """The pad's style (``pad.css``)."""
    return (_HERE / "pad.css").read_text(encoding="utf-8")
