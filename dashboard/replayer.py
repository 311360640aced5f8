"""The replayer component: one deal's frames stepped in the browser (Streamlit components v2).

The HTML, CSS and JavaScript are inline (``replayer.js`` and ``replayer.css`` beside this file,
shipped in the package; no build step, nothing fetched). The data comes from
:func:`dashboard.frames.deal_frames`. The component tells the server only where to go next when
new frames are needed (another deal, viewer or log): its ``nav`` state.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import streamlit as st

__all__ = ["replayer"]

_HERE = Path(__file__).resolve().parent

_COMPONENT = st.components.v2.component(
    "bragbook_replayer",
    html='<div class="rp-wrap"><div class="rp" data-testid="replayer"></div></div>',
    css=(_HERE / "replayer.css").read_text(encoding="utf-8"),
    js=(_HERE / "replayer.js").read_text(encoding="utf-8"),
    isolate_styles=False,
)


def replayer(data: dict[str, Any], on_nav: Callable[[], None], key: str = "replayer") -> Any:
    """Mounts the replayer with ``data``; ``on_nav`` runs when the browser asks for other frames
    (read them from ``st.session_state[key]["nav"]``)."""
    return _COMPONENT(key=key, data=data, on_nav_change=on_nav, height="content")
