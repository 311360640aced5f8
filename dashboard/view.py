"""The dashboard's links: the old home of :mod:`dashboard.viewmodels.links` (a replay position's
link, the rows a thumb opens), whose names it re-exports so that ``from dashboard.view import
link`` keeps working."""

from __future__ import annotations

from dashboard.viewmodels.links import (
    ROWS_CSS,
    LinkRow,
    deal_links,
    link,
    rows_html,
    session_links,
)

__all__ = ["ROWS_CSS", "LinkRow", "deal_links", "link", "rows_html", "session_links"]
