"""The dashboard's server: Streamlit's ASGI :class:`streamlit.App` serving ``dashboard/app.py``
with Bragbook's own HTTP routes beside it (``/api/...``, :mod:`dashboard.pad_api`).

``brag dashboard`` runs ``streamlit run dashboard/server.py``; Streamlit finds the ``app`` below
and serves it with uvicorn in this one process, so the pages and the routes share the store
handle (:func:`dashboard.cache.store`). The routes are what must not depend on a page's rerun:
the Record page's pad records each tap by one idempotent request and gets its answer back in
the same request, whatever the page is doing meanwhile.
"""

from __future__ import annotations

import sys
from pathlib import Path

import streamlit as st

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # `streamlit run dashboard/server.py` from a checkout
    sys.path.insert(0, str(ROOT))

from dashboard import pad_api  # noqa: E402 - after the path is set

APP = Path(__file__).resolve().parent / "app.py"

app = st.App(APP, routes=pad_api.routes())
