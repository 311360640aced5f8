"""A page served on another port of the same host cannot write with the organiser's cookie
(issue 33, class 6), in Debian's Chromium driven by Playwright.

The organiser unlocks the dashboard's Record page (its ``brag_device`` cookie is
``SameSite=Strict``, and another port of the same host is the same *site*: the cookie goes with
that page's requests).
The same browser then opens a page served on another port, which posts a Deal to ``/api/tap`` the
three ways a page can: a ``text/plain`` ``fetch`` in ``no-cors`` mode (no preflight), a form of
``enctype="text/plain"``, and an ``application/json`` ``fetch`` (the browser asks first). None is
stored: the first two are not JSON (415) and come from another origin (403), the third is never
sent, nothing answering the browser's question.

It skips, saying why, where Chromium or Playwright is missing.
"""

from __future__ import annotations

import json
import threading
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from browser_helpers import CHROMIUM_ARGS, chromium, served_store, unlock

from dashboard.record import recorder
from log.open import open_store

pytestmark = pytest.mark.browser

SECRET = "a long enough organiser secret"
SESSION = "crossed"
SEATS = ("Ann", "Bob", "Cal")

PAGE = """<!doctype html><html><body><form id="f" method="POST" enctype="text/plain"
action="{url}/api/tap" target="sink"><input name='{{"x":"' value='"}}'></form>
<iframe name="sink"></iframe><script>
window.attempts = (async () => {{
  const body = {body};
  const out = [];
  try {{
    await fetch("{url}/api/tap", {{ method: "POST", mode: "no-cors", credentials: "include",
      headers: {{ "Content-Type": "text/plain" }}, body: JSON.stringify(body) }});
    out.push("text/plain sent");
  }} catch (e) {{ out.push("text/plain failed"); }}
  try {{
    await fetch("{url}/api/tap", {{ method: "POST", credentials: "include",
      headers: {{ "Content-Type": "application/json" }}, body: JSON.stringify(body) }});
    out.push("json answered");
  }} catch (e) {{ out.push("json blocked"); }}
  document.getElementById("f").submit();
  return out;
}})();
</script></body></html>"""


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """The dashboard over a SQLite store holding a session started and shuffled, to be dealt;
    ``(url, db)``."""
    chromium()
    tmp = tmp_path_factory.mktemp("cross")
    events = recorder.start_events(SESSION, SEATS, "shown", dealer=SEATS[-1])

    def fill(store: Any) -> None:
        store.append(SESSION, recorder.stamped(events), 0)
        shuffle = recorder.tapped_event(store.state(SESSION), "shuffle")
        store.append(SESSION, recorder.stamped([shuffle]), len(events))

    with served_store(tmp, SECRET, fill) as served:
        yield served


def _attacker(html: str) -> ThreadingHTTPServer:
    """A server of ``html`` on another port of this host (``localhost``), in a thread."""

    class Page(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            data = html.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("localhost", 0), Page)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


def test_a_page_of_another_port_cannot_post_a_deal(served: tuple[str, str]) -> None:
    from playwright.sync_api import sync_playwright

    url, db = served
    with open_store(db, readonly=True) as store:
        before = [e.id for e in store.events(SESSION)]
    tap = {
        "session": SESSION,
        "seq": len(before),
        "spot": "deal",
        "id": str(uuid.uuid4()),
        "at": datetime.now(UTC).replace(microsecond=0).isoformat(),
        "by": "Mallory",
        "cards": [],
    }
    httpd = _attacker(PAGE.format(url=url, body=json.dumps(tap)))
    statuses: list[tuple[str, int]] = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
            try:
                context = browser.new_context()
                page = context.new_page()
                unlock(page, url, SECRET)  # the organiser's cookie, in this browser
                assert any(c["name"] == "brag_device" for c in context.cookies())
                evil = context.new_page()
                evil.on(
                    "response",
                    lambda r: (
                        statuses.append((r.request.method, r.status))
                        if r.url.endswith("/api/tap")
                        else None
                    ),
                )
                evil.goto(f"http://localhost:{httpd.server_address[1]}/")
                attempts = evil.evaluate("window.attempts")
                evil.wait_for_timeout(1500)  # the form's answer, in its frame
            finally:
                browser.close()
    finally:
        httpd.shutdown()
    assert attempts == ["text/plain sent", "json blocked"], attempts
    assert statuses and all(s in (403, 415) for m, s in statuses if m == "POST"), statuses
    with open_store(db, readonly=True) as store:
        assert [e.id for e in store.events(SESSION)] == before  # nothing stored
