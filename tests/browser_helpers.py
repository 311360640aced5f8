"""What the real-browser tests (and ``bench/replay_ui.py``) share: Debian's Chromium for Playwright,
the dashboard served by ``streamlit run`` on a free port for the length of a test module, and the
in-page probe that times a replay step from the key press or click to the redrawn table."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from brag.cmd_app import APP, free_port, port_is_free, streamlit_command

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def chromium() -> str:
    """Chromium's path (``$BRAG_CHROMIUM``, Debian's ``/usr/bin/chromium``, or on the PATH); skips
    the test, saying why, where there is none or Playwright is missing."""
    pytest.importorskip(
        "playwright.sync_api",
        reason="real-browser test skipped: Playwright is not installed (pip install playwright)",
    )
    for candidate in (os.environ.get("BRAG_CHROMIUM"), "/usr/bin/chromium"):
        if candidate and Path(candidate).exists():
            return candidate
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if not found:
        pytest.skip(
            "real-browser test skipped: Chromium is not installed (apt-get install chromium)"
        )
    return found


PORTS_PER_WORKER = 50


def server_port(address: str = "localhost") -> int:
    """A port for a test's own server (1 to 65535), free now at every address ``address`` names.

    With ``$BRAG_TEST_PORT`` set it is the first free one from that base plus 50 per pytest-xdist
    worker (``gw0`` is the base, ``gw1`` 50 above ...): a run given a base of its own never meets
    another run's ports. Without it the OS picks one, so two runs side by side, and the workers of
    one run, never ask for the same fixed port (a second server on a port already served would be
    refused, and the health check would find the first one).
    """
    base = os.environ.get("BRAG_TEST_PORT")
    if base:
        worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw")
        return free_port(int(base) + PORTS_PER_WORKER * int(worker or 0), address)
    for _ in range(20):
        port = _os_port(address)
        if port_is_free(port, address):
            return port
    return _os_port(address)


def _os_port(address: str) -> int:
    """A port the OS finds free on the first of ``address``'s addresses (bound, then let go)."""
    family, kind, proto, _, where = socket.getaddrinfo(address, 0, type=socket.SOCK_STREAM)[0]
    with socket.socket(family, kind, proto) as s:
        s.bind(where)
        return int(s.getsockname()[1])


@contextmanager
def dashboard(
    folder: Path,
    env: dict[str, str],
    port: int | None = None,
    address: str = "localhost",
    script: Path | None = None,
) -> Iterator[str]:
    """The dashboard (or another Streamlit ``script``) served from ``folder`` with ``env`` added to
    this environment (``BRAG_DB`` ...; ``BRAG_ORGANISER_SECRET`` only when given), on the first
    free port from ``port``, or without one on :func:`server_port`'s; yields its URL and stops it
    after. Fails the test, with Streamlit's log, when it does not start."""
    port = server_port(address) if port is None else free_port(port, address)
    command = streamlit_command(port, address)
    if script is not None:
        command[command.index(str(APP))] = str(script)
    full = {k: v for k, v in os.environ.items() if k != "BRAG_ORGANISER_SECRET"}
    full.update(env)
    log_path = folder / f"streamlit-{port}.log"
    log = open(log_path, "w")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(command, env=full, stdout=log, stderr=log, cwd=folder)
    url = f"http://{address}:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                log.flush()
                pytest.fail(f"the dashboard did not start: {log_path.read_text()}")
            time.sleep(0.3)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def started(folder: Path, env: dict[str, str], port: int) -> subprocess.Popen[bytes]:
    """The dashboard started from ``folder`` with ``env`` added (as :func:`dashboard`) on
    ``port`` exactly, for a test that kills it (SIGKILL) and starts it again on the same address:
    the process, once it answers its health check (its log in ``folder``). Fails when it does not
    answer within 60 s."""
    full = {k: v for k, v in os.environ.items() if k != "BRAG_ORGANISER_SECRET"}
    full.update(env)
    log = open(folder / f"streamlit-{port}-{time.monotonic_ns()}.log", "w")  # noqa: SIM115
    proc = subprocess.Popen(streamlit_command(port), env=full, stdout=log, stderr=log, cwd=folder)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://localhost:{port}/_stcore/health", timeout=2):
                return proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise AssertionError("the dashboard did not start")


def season_env(folder: Path, sessions: int = 3) -> dict[str, str]:
    """A store in ``folder`` holding the bundled season's first ``sessions`` sessions, its
    projection refreshed: the environment a dashboard serves them with (``BRAG_DB``,
    ``BRAG_ANALYTICS``)."""
    from brag.cli import main

    root = Path(__file__).resolve().parents[1]
    logs = sorted(str(p) for p in (root / "data" / "season").glob("*.jsonl"))[:sessions]
    db = str(folder / "brag.db")
    assert main(["import", "--db", db, *logs]) == 0
    assert main(["analytics", "refresh", "--db", db]) == 0
    return {"BRAG_DB": db, "BRAG_ANALYTICS": str(folder / "brag.duckdb")}


@contextmanager
def season_served(folder: Path) -> Iterator[tuple[str, Path]]:
    """The dashboard over :func:`season_env`'s store in ``folder``; yields ``(url, projection
    path)``."""
    chromium()
    with dashboard(folder, season_env(folder)) as url:
        yield url, folder / "brag.duckdb"


@contextmanager
def launched() -> Iterator[Any]:
    """Chromium (:func:`chromium`) launched by Playwright, closed after."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


PROBE = """
() => {
  // From each key press or mouse press to the next frame drawn after the replayer shows another
  // step (its data-index changes): the times in ms, in window.__stepTimes.
  window.__stepTimes = [];
  let t0 = null;
  const start = (ev) => { t0 = ev.timeStamp; };
  window.addEventListener('keydown', start, true);
  window.addEventListener('mousedown', start, true);
  const root = document.querySelector('.rp');
  new MutationObserver(() => {
    if (t0 === null) return;
    const began = t0;
    t0 = null;
    requestAnimationFrame(() => setTimeout(() => {
      window.__stepTimes.push(performance.now() - began);
    }, 0));
  }).observe(root, { attributes: true, attributeFilter: ['data-index'] });
}
"""
"""Installed with ``page.evaluate(PROBE)`` once the replayer is ready."""


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values``, nearest rank."""
    xs = sorted(values)
    k = max(0, min(len(xs) - 1, round(q * (len(xs) - 1))))
    return xs[k]


PAD = """() => {
  // The pad's root (dashboard/record/pad.js), inside its component's shadow root.
  const walk = (root) => {
    const found = root.querySelector('.pad');
    if (found) return found;
    for (const e of root.querySelectorAll('*')) {
      if (e.shadowRoot) { const f = walk(e.shadowRoot); if (f) return f; }
    }
    return null;
  };
  return walk(document);
}"""


def pick_cards(page: Any, cards: list[str], *, touch: bool = True) -> None:
    """Picks ``cards`` (codes, ``"Td"``) in the pad's showdown picker as a thumb does (a click
    without ``touch``): each its rank, then its suit (``dashboard/record/pad_cards.js``)."""
    for card in cards:
        for key in (f"[data-rank='{card[0]}']", f"[data-suit='{card[1]}']"):
            at = page.locator(f".pad {key}")
            at.tap() if touch else at.click()


SETTLED = f"""(spot) => {{
  // The pad's key at ``spot`` takes a tap now: drawn, enabled, unchanged for the pad's settle
  // time, and the pad's last tap far enough behind (dashboard/record/pad.js SETTLE and REPEAT).
  const pad = ({PAD})();
  const b = pad && pad.querySelector(`button[data-spot='${{spot}}']`);
  const held = b && b.classList.contains('held');
  if (!pad || !b || b.disabled || held || pad.classList.contains('busy')) return false;
  const now = performance.now();
  return now - Number(b.dataset.since || now) > 450 &&
    now - Number(pad.dataset.lastTap || -1e9) > 650;
}}"""


def wait_settled(page: Any, spot: str, timeout: float = 20_000) -> None:
    """Waits until the pad's key at ``spot`` would take a tap, as a person looks before tapping."""
    page.wait_for_function(SETTLED, arg=spot, timeout=timeout)


def unlock(page: Any, url: str, secret: str, *, cookie: bool = True) -> None:
    """Unlocks recording on this device as the organiser does (the Record page's form), and with
    ``cookie`` waits until the device's token is in its cookie (a later page load reads it)."""
    from playwright.sync_api import expect

    page.goto(f"{url}/record")
    page.get_by_label("Organiser secret").fill(secret)
    page.get_by_role("button", name="Unlock recording").click()
    expect(page.get_by_text("This device: session")).to_be_visible(timeout=30_000)
    deadline = time.monotonic() + 20
    while cookie and not any(c["name"] == "brag_device" for c in page.context.cookies()):
        assert time.monotonic() < deadline, "no device cookie"
        page.wait_for_timeout(50)


SETTLED_AFTER_TOGGLE = """() => {
  // True once the rerun a toggle started has ended: the app seen running and then not, or not
  // running at all 500 ms after the first check (a rerun too quick to be seen).
  const app = document.querySelector('[data-testid="stApp"]');
  const running = !app || app.dataset.testScriptState === 'running';
  window.__toggledAt = window.__toggledAt || performance.now();
  if (running) window.__sawRun = true;
  const idle = !running && !document.querySelector('[data-testid="stStatusWidget"]');
  if (idle && (window.__sawRun || performance.now() - window.__toggledAt > 500)) {
    delete window.__toggledAt; delete window.__sawRun;
    return true;
  }
  return false;
}"""


IDLE = """() => {
  // True while no script run is going on: the page drawn whole, as a person sees it before a tap.
  const app = document.querySelector('[data-testid="stApp"]');
  return !!app && app.dataset.testScriptState !== 'running'
    && !document.querySelector('[data-testid="stStatusWidget"]');
}"""


def wait_idle(page: Any, timeout: float = 60_000) -> None:
    """Waits until the page's script run has ended (:data:`IDLE`): a tap on an expander while
    the first run is still drawing the page can land on the element the run then draws anew,
    closed (CI, the Decisions page's spot pickers on a loaded machine)."""
    page.wait_for_function(IDLE, timeout=timeout)


def open_device_panel(page: Any) -> None:
    """Opens the Record page's "This device" panel and waits, as a person looks before tapping
    inside it, for the rerun its opening starts (the panel tracks its state, so that it folds
    away when a session opens) to end: a tap on "Lock this device" within about 0.2 s of the
    opening was lost twice in some 250 tries (Streamlit's redraw; see the issue 23 note)."""
    page.get_by_text("This device:", exact=False).first.click()
    page.wait_for_function(SETTLED_AFTER_TOGGLE, timeout=30_000)


CARD = re.compile(r'data-card=\\*"([2-9TJQKA][cdhs])')
"""A card face up in a table's picture (``data-card="Qh"``), also inside JSON (escaped quotes)."""


class Wire:
    """Every websocket frame a page receives, decoded as UTF-8 text (protobuf bytes included)."""

    def __init__(self, page: Any) -> None:
        self.frames: list[str] = []
        page.on("websocket", lambda ws: ws.on("framereceived", self._got))

    def _got(self, payload: str | bytes) -> None:
        raw = payload if isinstance(payload, bytes) else payload.encode("utf-8")
        self.frames.append(raw.decode("utf-8", errors="replace"))

    def text(self) -> str:
        """Every frame received so far, one after the other."""
        return "\n".join(self.frames)

    def cards(self, among: set[str]) -> set[str]:
        """The cards of ``among`` in any frame received: face up in a picture, or printed."""
        from present.narrate import pretty_card

        found: set[str] = set()
        for text in self.frames:
            found |= {c for c in CARD.findall(text) if c in among}
            found |= {c for c in among if pretty_card(c) in text}
        return found

    def replayer_frames(self) -> int:
        """How many websocket frames carried a replayer's deal (its pictures)."""
        return sum(1 for t in self.frames if "data-seat=" in t)


def live(page: Any) -> Any:
    """The page's live Streamlit elements: while a rerun moves a widget, Streamlit keeps the old
    one on the page, marked ``data-stale``, beside the new one until the run ends, and a locator
    of the whole page then finds two (a strict-mode error: CI, "First dealer (RULES 3.1)")."""
    return page.locator('[data-testid=stElementContainer]:not([data-stale="true"])')


def pick_option(page: Any, combobox: str, option: str) -> None:
    """Picks ``option`` in the Streamlit selectbox named ``combobox``, as a person does, and
    waits until it shows it (the list may not open on the first try while the page reruns).

    While a rerun moves the box (a line above it went), Streamlit keeps the old box on the page,
    marked ``data-stale``, beside the new one until the run ends: only the live one is addressed
    (CI: two "First dealer" boxes for one moment, a strict-mode error)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import expect

    box = live(page).get_by_role("combobox", name=combobox)
    for attempt in range(4):
        try:
            (box.click if attempt % 2 else box.focus)()
            page.keyboard.press("ArrowDown")
            page.get_by_role("option", name=option, exact=True).click(timeout=3_000)
            break
        except PlaywrightTimeout:
            page.keyboard.press("Escape")
    expect(box).to_have_value(option)


def wait_drawn(page: Any) -> None:
    """Waits until the Replay page's replayer has drawn its deal (``.rp[data-ready]``)."""
    page.wait_for_selector(".rp[data-ready]", timeout=30_000)


@contextmanager
def served_store(
    folder: Path, secret: str | None, fill: Callable[[Any], object] = lambda store: None
) -> Iterator[tuple[str, str]]:
    """A SQLite store ``folder/brag.db`` filled by ``fill(store)`` (an open
    :class:`log.service.EventStore`), served by the dashboard with the organiser ``secret`` (none:
    recording stays locked) and the projection beside it; yields ``(url, store path)``, the
    server stopped after."""
    from log.open import open_store

    db = str(folder / "brag.db")
    with open_store(db) as store:
        fill(store)
    env = {"BRAG_DB": db, "BRAG_ANALYTICS": str(folder / "brag.duckdb")}
    if secret is not None:
        env["BRAG_ORGANISER_SECRET"] = secret
    with dashboard(folder, env) as url:
        yield url, db
