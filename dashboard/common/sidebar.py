"""The sidebar on a phone: closed once a page is picked in it.

Streamlit 1.67 lays its sidebar over the page on a narrow screen and leaves it open after a tap
on one of its pages, so the page just opened stays covered until the sidebar is closed by hand
(issue 21). :func:`close_on_pick` has the browser close it after such a tap, where it lies over
the page (narrower than :data:`OVERLAY_PX`); on a wider screen it stays as the user left it.
"""

from __future__ import annotations

import streamlit as st

from dashboard.common import state_keys as keys

__all__ = ["OVERLAY_PX", "close_on_pick"]

OVERLAY_PX = 768
"""Below this width (CSS px) Streamlit's sidebar lies over the page instead of beside it."""

_JS = """
export default function (component) {
  if (window.__bragSidebarClose) return;  // one listener per page, whatever the reruns
  window.__bragSidebarClose = true;
  const overlay = component.data.overlay_px;
  document.addEventListener('click', (ev) => {
    const picked = ev.target && ev.target.closest &&
      ev.target.closest('[data-testid="stSidebarNav"] a');
    if (!picked || window.innerWidth >= overlay) return;
    const bar = document.querySelector('[data-testid="stSidebar"]');
    if (!bar || bar.getAttribute('data-collapsed') === 'true') return;
    const close = document.querySelector('[data-testid="stSidebarCollapseButton"] button');
    if (close) window.setTimeout(() => close.click(), 0);
  }, true);
}
"""

_component = st.components.v2.component("bragbook.sidebar_close", js=_JS)


def close_on_pick() -> None:
    """Has the browser close the sidebar after a page is picked in it, on a screen where the
    sidebar covers the page (a phone). Draws nothing: mounted in the sidebar, below its pages."""
    with st.sidebar:
        _component(key=keys.SIDEBAR_CLOSE, data={"overlay_px": OVERLAY_PX})
