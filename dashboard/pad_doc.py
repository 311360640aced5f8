"""The pad's documents, where the Record page, its routes and ``bench/record.py`` import them:
:mod:`dashboard.viewmodels.pad_doc` (Streamlit-free) is their home."""

from __future__ import annotations

from dashboard.viewmodels.pad_doc import (
    AHEAD_BUDGET,
    PREDICTED,
    PadCard,
    PadCards,
    PadDocument,
    PadKey,
    document,
    state_document,
    status_line,
    timeline_document,
)

__all__ = [
    "AHEAD_BUDGET",
    "PREDICTED",
    "PadCard",
    "PadCards",
    "PadDocument",
    "PadKey",
    "document",
    "state_document",
    "status_line",
    "timeline_document",
]
