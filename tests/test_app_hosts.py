"""brag app and brag dashboard serve the hosts they print (brag.cmd_app: allowed_hosts,
streamlit_command), as the dashboard's Host check (dashboard.common.server.AllowedHosts) lets them
through: brag and the dashboard both, a whole-system test. The gate itself is tested in
tests/dashboard/test_gate.py."""

from __future__ import annotations

import asyncio
from typing import Any


def served(host: str | None, allowed: list[str], kind: str = "http") -> bool:
    """Whether the dashboard's Host check (:class:`dashboard.common.server.AllowedHosts` on
    ``allowed``) lets a request (``kind``: ``"http"`` or ``"websocket"``) with the ``Host`` header
    ``host`` (``None``: none) through; a refusal must be its 400."""
    from dashboard.common.server import AllowedHosts

    sent: list[dict[str, Any]] = []
    reached: list[bool] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        reached.append(True)

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def receive() -> dict[str, Any]:
        return {"type": "http.disconnect"}

    headers = [] if host is None else [(b"host", host.encode("latin-1"))]
    scope = {"type": kind, "path": "/", "method": "GET", "headers": headers, "query_string": b""}
    asyncio.run(AllowedHosts(app, allowed)(scope, receive, send))
    if reached:
        return True
    prefix = "websocket." if kind == "websocket" else ""
    assert sent[0]["type"] == f"{prefix}http.response.start" and sent[0]["status"] == 400
    return False


def test_the_hosts_served_are_the_printed_ones() -> None:
    from brag.cmd_app import allowed_hosts, streamlit_command

    assert allowed_hosts() == ["localhost", "127.0.0.1", "::1"]
    assert allowed_hosts("0.0.0.0", "192.168.1.20")[-1] == "192.168.1.20"
    assert allowed_hosts("10.1.2.3") == ["localhost", "127.0.0.1", "::1", "10.1.2.3"]
    command = streamlit_command(8501)
    assert command.count("--server.allowedHosts") == 3
    hosts = allowed_hosts("0.0.0.0", "192.168.1.20")
    for good in ("localhost:8501", "127.0.0.1:8501", "[::1]:8501", "192.168.1.20:8501"):
        assert served(good, hosts), good
        assert served(good, hosts, "websocket"), good
    for good in ("LOCALHOST", "localhost.:8501", "[::1]"):  # case, a qualified name's dot
        assert served(good, hosts), good
    for bad in ("evil.example", "evil.example:8501", "localhost.evil.example", "", None):
        assert not served(bad, hosts), bad
        assert not served(bad, hosts, "websocket"), bad
    for bad in ("user@localhost", "localhost/x", "localhost:x", "[::2]:8501", "www.localhost"):
        assert not served(bad, hosts), bad
    assert served("evil.example", [])  # Streamlit's default: no list, every host
    assert served("evil.example", ["*"]) and served("a.club.example", ["*.club.example."])
    assert not served("club.example", ["*.club.example", "www.club.example", "a*b"])  # no www.
