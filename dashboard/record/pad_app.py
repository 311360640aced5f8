"""The pad as an installable web app (issue 35, item 3): a page of its own, served by these
routes beside the Streamlit app (:mod:`dashboard.common.server`), that opens from the device when
the network or the server is gone, a reload included.

The Record page's pad lives inside a Streamlit page, which cannot load without the server (its
websocket): a reload offline showed the browser's "No internet" page. The pad's page here is a
small HTML shell that mounts the same ``pad.js`` (its default export, the function the Record
page's component calls) on the pad's document, taken from ``GET /api/pad`` or, before it
answers or when it cannot, from the copy ``pad.js`` keeps on the device (``keptDocument``): the
taps, their queue, its order and its sending stay ``pad.js``'s alone, and the server judges
every tap (``POST /api/tap``, :mod:`dashboard.record.routes`).

- ``GET /pad?session=S``: the shell (``pad_app.js``, ``pad_app.css``; no session: the one this
  device last drew, else the ``brag_recording`` cookie). It holds nothing of any session: the
  document comes from ``/api/pad``, which answers only an unlocked organiser's device (403
  otherwise, and the page then says the device is locked and forgets its kept copy).
- ``GET /pad.js``, ``/pad.css``, ``/pad-app.js``, ``/pad-app.css``: the pad's script and style
  as the Record page's component has them (``pad.js`` with ``pad_kept.js``, one module:
  :mod:`dashboard.record.pad_assets`), and the shell's own.
- ``GET /pad.webmanifest``: the web app manifest (``start_url`` and ``scope`` the pad's page,
  ``display: standalone``, the icons below), so a phone installs the pad ("Add to Home screen").
- ``GET /pad-icon.svg``, ``/pad-icon-192.png``, ``/pad-icon-512.png``: the icon, drawn here (the
  PNGs by Pillow when first asked), no external asset.
- ``GET /pad-sw.js``: the service worker (scope ``/pad``): it keeps the files above in a cache
  named by their version (:data:`VERSION`, a hash of their bytes) and answers them network
  first, falling back to the cache when the network fails or is slower than its wait; it never
  answers or keeps anything else (``/api/...`` always goes to the server).

A service worker runs only in a secure context: ``https://``, or ``http://localhost`` and
``127.0.0.1``. On a club's plain ``http://192.168.x.x`` the page works as the Record page does
(its queue survives a reload once the page loads again), and says that the app needs HTTPS to
open offline (README, "Recording at the club").

Every response is text or an image these routes made; the shell's text reaches the page by
``textContent`` only (the ``Content-Security-Policy`` allows this origin's scripts and styles, no
inline ones).
"""

from __future__ import annotations

import functools
import hashlib
import html
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from dashboard.record.pad_assets import POLL_MS, REPEAT_MS, SETTLE_MS, pad_css, pad_js

__all__ = ["PAGE", "SCOPE", "SHELL", "VERSION", "manifest", "routes", "shell_html", "worker_js"]

_HERE = Path(__file__).resolve().parent

PAGE = "/pad"
"""The pad's page."""

SCOPE = "/pad"
"""The service worker's scope: every path that starts with it (the page and its files)."""

JS = "text/javascript; charset=utf-8"
CSS = "text/css; charset=utf-8"

_FILES: dict[str, tuple[str, str]] = {
    "/pad-app.js": ("pad_app.js", JS),
    "/pad-app.css": ("pad_app.css", CSS),
}
"""The shell's own files, served as they are: path -> (file beside this module, media type)."""

_PAD: dict[str, tuple[Callable[[], str], str]] = {
    "/pad.js": (pad_js, JS),
    "/pad.css": (pad_css, CSS),
}
"""The pad's files, as the Record page's component has them (:mod:`dashboard.record.pad_assets`)."""

SHELL = (
    PAGE,
    *_PAD,
    *_FILES,
    "/pad.webmanifest",
    "/pad-icon.svg",
    "/pad-icon-192.png",
    "/pad-icon-512.png",
)
"""Every path the service worker keeps and answers (network first): the page and its files."""

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; manifest-src 'self'; worker-src 'self'; base-uri 'none'; "
    "form-action 'none'; frame-ancestors 'none'; object-src 'none'"
)
"""The shell's Content-Security-Policy: this origin's files only, nothing inline."""

NO_CACHE = {"Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff"}
"""The HTTP cache asks again every time (the service worker keeps the offline copy)."""

ICON_SVG = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">
<rect width="512" height="512" rx="96" fill="#1b5e20"/>
<g stroke="#0d3311" stroke-width="6">
<rect x="86" y="150" width="170" height="240" rx="20" fill="#fff" transform="rotate(-14 171 270)"/>
<rect x="171" y="126" width="170" height="240" rx="20" fill="#fff"/>
<rect x="256" y="150" width="170" height="240" rx="20" fill="#fff" transform="rotate(14 341 270)"/>
</g>
<circle cx="256" cy="246" r="34" fill="#c62828"/>
</svg>
"""
"""The pad's icon: three cards fanned on the felt (drawn here, no external asset)."""


def _read(name: str) -> bytes:
    return (_HERE / name).read_bytes()


def shell_html() -> str:
    """The pad's page: the shell, the same for every device and session (nothing of a session
    in it), with the pad's times (:mod:`dashboard.record.pad_assets`) on its body."""
    times = {"settle-ms": SETTLE_MS, "repeat-ms": REPEAT_MS, "poll-ms": POLL_MS}
    attrs = " ".join(f'data-{k}="{html.escape(str(v))}"' for k, v in times.items())
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<meta name="theme-color" content="#1b5e20">
<title>Bragbook pad</title>
<link rel="manifest" href="/pad.webmanifest">
<link rel="icon" href="/pad-icon.svg" type="image/svg+xml">
<link rel="apple-touch-icon" href="/pad-icon-192.png">
<link rel="stylesheet" href="/pad.css">
<link rel="stylesheet" href="/pad-app.css">
<script type="module" src="/pad-app.js"></script>
</head>
<body {attrs}>
<header class="bar">
<a class="back" data-testid="pad-back" href="/record">&#8592; Record page</a>
<span class="title" data-testid="pad-title">Bragbook pad</span>
</header>
<main>
<p class="message" data-testid="pad-message" role="status">Opening the pad&#8230;</p>
<div class="host" data-testid="pad-host"></div>
<p class="secure" data-testid="pad-secure" hidden></p>
</main>
</body>
</html>
"""


def manifest() -> dict[str, Any]:
    """The web app manifest: the pad's page as a standalone app (``id``, ``start_url`` and
    ``scope`` the page's path), its icons (an SVG and two PNGs, 192 and 512 px, ``any`` and
    ``maskable``)."""
    return {
        "id": PAGE,
        "name": "Bragbook pad",
        "short_name": "Brag pad",
        "description": "Record a Three-Card Brag session at the table, online or not.",
        "start_url": PAGE,
        "scope": SCOPE,
        "display": "standalone",
        "orientation": "portrait",
        "background_color": "#ffffff",
        "theme_color": "#1b5e20",
        "icons": [
            {"src": "/pad-icon.svg", "sizes": "any", "type": "image/svg+xml"},
            {"src": "/pad-icon-192.png", "sizes": "192x192", "type": "image/png"},
            {
                "src": "/pad-icon-512.png",
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "any maskable",
            },
        ],
    }


@functools.cache
def icon_png(size: int) -> bytes:
    """The icon as a ``size`` x ``size`` PNG, drawn by Pillow as :data:`ICON_SVG` draws it
    (three cards fanned on the felt); made once per size."""
    from PIL import Image, ImageDraw

    scale = 4  # drawn large and scaled down: smooth edges
    big = 512 * scale
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((0, 0, big - 1, big - 1), radius=96 * scale, fill="#1b5e20")
    for dx, angle in ((-85, 14), (0, 0), (85, -14)):
        card = Image.new("RGBA", (180 * scale, 250 * scale), (0, 0, 0, 0))
        ImageDraw.Draw(card).rounded_rectangle(
            (0, 0, 180 * scale - 1, 250 * scale - 1),
            radius=20 * scale,
            fill="#ffffff",
            outline="#0d3311",
            width=6 * scale,
        )
        card = card.rotate(angle, expand=True, resample=Image.Resampling.BICUBIC)
        x = (256 + dx) * scale - card.width // 2
        y = (258 if dx else 246) * scale - card.height // 2
        image.alpha_composite(card, (x, y))
    r = 34 * scale
    c = (256 * scale, 246 * scale)
    draw = ImageDraw.Draw(image)
    draw.ellipse((c[0] - r, c[1] - r, c[0] + r, c[1] + r), fill="#c62828")
    out = io.BytesIO()
    image.resize((size, size), Image.Resampling.LANCZOS).save(out, "PNG", optimize=True)
    return out.getvalue()


@functools.cache
def _version() -> str:
    digest = hashlib.sha256(shell_html().encode())
    digest.update(pad_js().encode())
    digest.update(pad_css().encode())
    for name, _ in _FILES.values():
        digest.update(_read(name))
    digest.update(_read("pad_sw.js"))
    digest.update(json.dumps(manifest(), sort_keys=True).encode())
    digest.update(ICON_SVG.encode())
    return digest.hexdigest()[:16]


VERSION = _version()
"""The version of the app's files (a hash of their bytes when the server started): the service
worker's cache is named by it, so a changed file makes a new worker, which drops the old cache."""


def worker_js() -> str:
    """The service worker (``pad_sw.js``) with its version and the paths it keeps."""
    text = _read("pad_sw.js").decode("utf-8")
    return text.replace("__VERSION__", VERSION).replace("__SHELL__", json.dumps(list(SHELL)))


async def page(request: Request) -> Response:
    """``GET /pad``: the shell (:func:`shell_html`)."""
    headers = {**NO_CACHE, "Content-Security-Policy": CSP, "Referrer-Policy": "same-origin"}
    return Response(shell_html(), media_type="text/html; charset=utf-8", headers=headers)


async def file(request: Request) -> Response:
    """``GET /pad.js``, ``/pad.css`` (:data:`_PAD`) and the shell's files (:data:`_FILES`)."""
    path = request.url.path
    if path in _PAD:
        made, kind = _PAD[path]
        return Response(made(), media_type=kind, headers=NO_CACHE)
    name, kind = _FILES[path]
    return Response(_read(name), media_type=kind, headers=NO_CACHE)


async def worker(request: Request) -> Response:
    """``GET /pad-sw.js``: the service worker (:func:`worker_js`), never kept by the HTTP cache
    (a new version is found at the next visit)."""
    return Response(worker_js(), media_type="text/javascript; charset=utf-8", headers=NO_CACHE)


async def app_manifest(request: Request) -> Response:
    """``GET /pad.webmanifest``: :func:`manifest`."""
    return Response(
        json.dumps(manifest(), indent=1), media_type="application/manifest+json", headers=NO_CACHE
    )


async def icon(request: Request) -> Response:
    """``GET /pad-icon.svg``, ``/pad-icon-192.png``, ``/pad-icon-512.png``."""
    path = request.url.path
    if path.endswith(".svg"):
        return Response(ICON_SVG, media_type="image/svg+xml", headers=NO_CACHE)
    size = 192 if path.endswith("-192.png") else 512
    return Response(icon_png(size), media_type="image/png", headers=NO_CACHE)


def routes() -> list[Any]:
    """The routes :mod:`dashboard.common.server` mounts (GET only)."""
    return [
        Route(PAGE, page, methods=["GET"]),
        *(Route(path, file, methods=["GET"]) for path in (*_PAD, *_FILES)),
        Route("/pad-sw.js", worker, methods=["GET"]),
        Route("/pad.webmanifest", app_manifest, methods=["GET"]),
        *(
            Route(p, icon, methods=["GET"])
            for p in ("/pad-icon.svg", "/pad-icon-192.png", "/pad-icon-512.png")
        ),
    ]
