"""One GET through an ASGI app, no server and no browser (shared by
tests/dashboard/test_pictures_apart.py and tests/hostile/test_secrets_stay_secret.py). Imports
none of our packages."""

from __future__ import annotations

from typing import Any


async def asgi_get(
    app: Any, path: str, client: str, headers: list[tuple[bytes, bytes]]
) -> tuple[int, dict[str, str], bytes]:
    """One GET of ``path`` (with its query) through the ASGI ``app`` from the address ``client``
    with the request ``headers``: status, response headers (lower-case names), body."""
    target, _, query = path.partition("?")
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": target,
        "raw_path": target.encode(),
        "query_string": query.encode(),
        "headers": headers,
        "client": (client, 40000),
        "server": ("127.0.0.1", 8501),
    }
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await app(scope, receive, send)
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    head = {k.decode().lower(): v.decode() for k, v in start["headers"]}
    return start["status"], head, body
