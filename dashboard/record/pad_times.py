"""The pad's times in milliseconds (``pad.js``), shared by the Record page's component
(:mod:`dashboard.record.pad`) and the pad's own page (:mod:`dashboard.record.pad_app`); no
Streamlit."""

from __future__ import annotations

__all__ = ["POLL_MS", "REPEAT_MS", "SETTLE_MS"]

SETTLE_MS = 400
"""A key takes a tap only once it has been on the screen, unchanged, this many milliseconds."""

REPEAT_MS = 600
"""The pad takes no second tap within this many milliseconds of the last: a double tap records
one event, whatever was drawn in between."""

POLL_MS = 500
"""How often the pad asks the server for the session's last seq (``GET /api/pad``): the
connection is shown within a second, and another device's taps within a second too."""
