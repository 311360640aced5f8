"""The dashboard's settings, from the environment that ``brag dashboard`` / ``brag run`` set:

- ``BRAG_DB``: the event store URL (default ``brag.db``, SQLite);
- ``BRAG_ANALYTICS``: the DuckDB projection file (default: beside the store, ``brag.duckdb``);
- ``BRAG_ORGANISER_SECRET`` (or ``organiser_secret`` in Streamlit secrets): unlocks the Record page.
"""

from __future__ import annotations

import os

import streamlit as st

__all__ = ["analytics_path", "db_url", "organiser_secret"]


def db_url() -> str:
    """``$BRAG_DB``, else ``brag.db`` (SQLite)."""
    from log.open import resolve_url

    return resolve_url(None)


def analytics_path() -> str:
    """``$BRAG_ANALYTICS``, else the DuckDB file beside the store (``brag.duckdb``)."""
    from analytics.sources import default_projection

    return os.environ.get("BRAG_ANALYTICS") or default_projection(db_url())


def organiser_secret() -> str | None:
    """The organiser secret, from ``BRAG_ORGANISER_SECRET`` or ``st.secrets["organiser_secret"]``;
    ``None`` when neither is set (the app is then read-only)."""
    env = os.environ.get("BRAG_ORGANISER_SECRET")
    if env:
        return env
    try:
        value = st.secrets.get("organiser_secret")
    except Exception:  # no secrets file at all: Streamlit raises its own error type
        return None
    return str(value) if value else None
