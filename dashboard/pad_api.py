"""Bragbook's HTTP routes beside the Streamlit app (:mod:`dashboard.server`)."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route


def ping(request: Request) -> JSONResponse:
    """``GET /api/ping``: the server answers (the pad's connection check)."""
    return JSONResponse({"ok": True})


def routes() -> list[Any]:
    """The routes :mod:`dashboard.server` mounts."""
    return [Route("/api/ping", ping, methods=["GET"])]
