"""The link's query parameters (``st.query_params``): where a page is, so that it has a link.

Read with :func:`param` (``None`` for a parameter absent or empty), written with
:func:`set_params`. :mod:`dashboard.common.ui` re-exports both (the pages call ``ui.param``).
"""

from __future__ import annotations

from typing import Any

import streamlit as st

__all__ = ["param", "set_params"]


def param(name: str) -> str | None:
    """The link's parameter ``name``; ``None`` when absent or empty."""
    value = st.query_params.get(name)
    return value if value else None


def set_params(**values: Any) -> None:
    """Writes the link: ``None`` removes a parameter."""
    for k, v in values.items():
        if v is None or v == "":
            st.query_params.pop(k, None)
        else:
            st.query_params[k] = str(v)
