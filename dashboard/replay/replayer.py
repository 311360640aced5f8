"""The replayer component: one deal's frames stepped in the browser (Streamlit components v2).

The HTML, CSS and JavaScript are inline (``replayer.css``, and ``replayer_helpers.js`` then
``replayer.js`` joined into one module, beside this file, shipped in the package; no build step,
nothing fetched). The data comes from :func:`dashboard.replay.frames.deal_frames`, typed there
(:class:`~dashboard.replay.frames.ReplayerData`: the keys the JavaScript reads). The
component tells the server only where to go next when new frames are needed (another deal,
viewer or log): its ``nav`` state; and when its viewer turns "Following live" on or off: its
``follow`` state.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import streamlit as st

from dashboard.common import state_keys as keys
from dashboard.replay.frames import ReplayerData

__all__ = ["replayer"]

_HERE = Path(__file__).resolve().parent

_JS = ("replayer_helpers.js", "replayer.js")
"""The replayer's JavaScript, joined in this order into one module (the helpers first)."""

_COMPONENT = st.components.v2.component(
    "bragbook_replayer",
    html='<div class="rp-wrap"><div class="rp" data-testid="replayer"></div></div>',
    css=(_HERE / "replayer.css").read_text(encoding="utf-8"),
    js="\n".join((_HERE / name).read_text(encoding="utf-8") for name in _JS),
    isolate_styles=False,
)


def replayer(
    data: ReplayerData,
    on_nav: Callable[[], None],
    on_follow: Callable[[], None] = lambda: None,
    key: str = keys.REPLAYER,
) -> Any:
    """Mounts the replayer with ``data``; ``on_nav`` runs when the browser asks for other frames
    (read them from ``st.session_state[key]["nav"]``), ``on_follow`` when its viewer turns
    "Following live" on or off (``st.session_state[key]["follow"]``: ``on``, and the ``deal``
    and ``step`` it stands on)."""
    return _COMPONENT(
        key=key, data=data, on_nav_change=on_nav, on_follow_change=on_follow, height="content"
    )
