"""The frames of an animation of SVG pictures (for :func:`present.share.gif`): each distinct
piece drawn once by resvg, the frames laid from those pieces by Pillow.

A picture is given as its *parts*: the top-level elements of one SVG document, in drawing order,
in the picture's units (``w`` by ``h``). Each part is cut into *leaves* (:func:`leaves`): every
element that is not a plain ``<g>``, kept inside the opening tags of the groups round it (their
``data-*`` attributes taken off, as they draw nothing), so a leaf draws alone what it draws in
the picture. Most leaves repeat from step to step (the names, the seats' ground, the felt, the
cards' backs), and resvg's time goes to text (some 0.5 ms a ``<text>`` and 0.05 ms a glyph) and
to pixels (some 36 ns a pixel, its PNG): so every distinct leaf of an animation is drawn once,
on its own pixels (its :func:`box`, on whole pixels), as a tile, the tiles packed on one large
sheet (or a few) drawn at once (one resvg call a sheet; each leaf moved onto its place on the
sheet by a whole number of pixels, so resvg puts every pixel where drawing the whole picture
would).

The first frame is laid whole; each later frame is the one before with, where a leaf differs from
the leaf in its place before (or, when the leaves do not pair up, a part), the rectangle it
covers laid again: white, then every leaf reaching into it in drawing order, each pasted through
its own alpha (source-over on an opaque ground, as resvg draws). A frame equals its picture drawn
whole up to rounding and anti-aliasing at a tile's edge (``tests/test_share.py``). A process
keeps the tiles it drew (:data:`KEPT_PIXELS`), so a second GIF of the same table draws only what
is new.

:func:`box` (:mod:`present.boxes`) bounds each part from its own markup, generously: a
rectangle too large only costs time, and a leaf whose shape it does not know is drawn over the
whole picture.
"""

from __future__ import annotations

import io
import math
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL import Image

from present.boxes import (
    MARGIN,
    SVG_NS,
    Box,
    box,
    children,
    leaves,
    text_width,
)

__all__ = [
    "MARGIN",
    "Box",
    "box",
    "children",
    "document",
    "forget",
    "frames",
    "leaves",
    "text_width",
]


def document(
    w: float,
    h: float,
    parts: Sequence[str],
    *,
    font: str,
    view: tuple[float, float, float, float] | None = None,
    size: tuple[int, int] | None = None,
) -> str:
    """An SVG document of ``parts`` (a picture ``w`` by ``h`` units in ``font``), or of its
    rectangle ``view`` (x, y, width, height in units) drawn ``size`` pixels."""
    vx, vy, vw, vh = view if view is not None else (0.0, 0.0, w, h)
    pw, ph = size if size is not None else (w, h)
    return (
        f'<svg xmlns="{SVG_NS}" viewBox="{vx:.4f} {vy:.4f} {vw:.4f} {vh:.4f}" '
        f'width="{pw}" height="{ph}" font-family="{font}">' + "".join(parts) + "</svg>"
    )


def _dirty(before: Sequence[str], after: Sequence[str]) -> list[Box] | None:
    """The boxes to draw again going from ``before`` to ``after``; ``None``: all of it."""
    if len(before) != len(after):
        return None
    out: list[Box] = []
    for a, b in zip(before, after, strict=True):
        if a == b:
            continue
        ba, bb = box(a), box(b)
        if ba is None or bb is None:
            return None
        out.append((min(ba[0], bb[0]), min(ba[1], bb[1]), max(ba[2], bb[2]), max(ba[3], bb[3])))
    return out


def _pixels(b: Box, k: float, wpx: int, hpx: int) -> tuple[int, int, int, int]:
    return (
        max(0, math.floor(b[0] * k)),
        max(0, math.floor(b[1] * k)),
        min(wpx, math.ceil(b[2] * k)),
        min(hpx, math.ceil(b[3] * k)),
    )


def _merged(rects: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """``rects`` with every two that overlap made one (the box round both), until none do."""
    out = [r for r in rects if r[2] > r[0] and r[3] > r[1]]
    merged = True
    while merged:
        merged = False
        for i in range(len(out)):
            for j in range(i + 1, len(out)):
                a, b = out[i], out[j]
                if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                    out[i] = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
                    del out[j]
                    merged = True
                    break
            if merged:
                break
    return out


_GROUND = re.compile(r'<rect width="([\d.]+)" height="([\d.]+)" fill="#ffffff"/>')


def _ground(leaf: str, w: float, h: float) -> bool:
    """Whether ``leaf`` is a white rectangle over the whole ``w`` by ``h`` picture: the ground
    every frame is laid on, so nothing to draw."""
    m = _GROUND.fullmatch(leaf)
    return m is not None and float(m[1]) >= w and float(m[2]) >= h


def _tile(leaf: str, k: float, wpx: int, hpx: int) -> tuple[int, int, int, int]:
    """The pixels a leaf covers (its :func:`box`, on whole pixels), the whole frame when its box
    cannot be told."""
    b = box(leaf)
    return (0, 0, wpx, hpx) if b is None else _pixels(b, k, wpx, hpx)


KEPT_PIXELS = 4_000_000
"""The pixels of drawn tiles a process keeps between two animations, the least recently used
let go first (about 16 MB): a second GIF of the same table draws only the leaves the first did
not (its names, its seats' ground, the felt)."""


class _Kept:
    """Drawn tiles by their key, at most :data:`KEPT_PIXELS` pixels in all, safe across
    threads."""

    def __init__(self, pixels: int) -> None:
        self.pixels = pixels
        self.held = 0
        self.tiles: OrderedDict[Hashable, Image.Image] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: Hashable) -> Image.Image | None:
        with self.lock:
            tile = self.tiles.get(key)
            if tile is not None:
                self.tiles.move_to_end(key)
            return tile

    def put(self, key: Hashable, tile: Image.Image) -> None:
        with self.lock:
            if key in self.tiles:
                return
            self.tiles[key] = tile
            self.held += tile.width * tile.height
            while self.held > self.pixels and self.tiles:
                _, old = self.tiles.popitem(last=False)
                self.held -= old.width * old.height

    def clear(self) -> None:
        with self.lock:
            self.tiles.clear()
            self.held = 0


_KEPT = _Kept(KEPT_PIXELS)


def forget() -> None:
    """Let go of every tile kept between animations (:data:`KEPT_PIXELS`) and of the leaves and
    boxes known: the next is drawn from nothing, as a new process draws it (``bench/share.py``'s
    first figure)."""
    _KEPT.clear()
    leaves.cache_clear()
    box.cache_clear()


GAP = 2
"""Pixels left empty between two tiles on a sheet."""

_Rect = tuple[int, int, int, int]
_Sheet = tuple[int, int, list[tuple[str, _Rect, int, int]]]
"""A sheet's width and height in pixels and its tiles: each leaf, the pixels it covers in the
frame, and where its tile is on the sheet (left, top)."""


def _sheets(tiles: list[tuple[str, _Rect]], width: int, n: int) -> list[_Sheet]:
    """``tiles`` (each a leaf and its pixels) shared among at most ``n`` sheets of about equal
    area, each packed in rows (tallest first, each into the first row it fits) at most
    ``width`` pixels wide (or its widest
    tile's width), :data:`GAP` pixels apart."""
    order = sorted(tiles, key=lambda t: (t[1][3] - t[1][1], t[1][2] - t[1][0]), reverse=True)
    shares: list[list[tuple[str, _Rect]]] = [[] for _ in range(min(max(1, n), len(order)))]
    areas = [0] * len(shares)
    for t in order:  # the largest first, each to the sheet with the least area yet
        i = areas.index(min(areas))
        shares[i].append(t)
        areas[i] += (t[1][2] - t[1][0]) * (t[1][3] - t[1][1])
    out: list[_Sheet] = []
    for share in shares:
        sw = max([width] + [r[2] - r[0] for _, r in share])
        rows: list[list[int]] = []  # each row's top, height and width filled
        slots: list[tuple[str, _Rect, int, int]] = []
        for leaf, r in share:  # into the first row it fits (tallest first: first fit)
            tw, th = r[2] - r[0], r[3] - r[1]
            row = next((row for row in rows if row[2] + tw <= sw and th <= row[1]), None)
            if row is None:
                row = [rows[-1][0] + rows[-1][1] + GAP if rows else 0, th, 0]
                rows.append(row)
            slots.append((leaf, r, row[2], row[0]))
            row[2] += tw + GAP
        out.append((sw, rows[-1][0] + rows[-1][1], slots))
    return out


def frames(
    pictures: Sequence[Sequence[str]],
    w: int,
    h: int,
    width: int,
    *,
    font: str,
    render: Callable[[str, int], bytes],
    threads: int = 1,
    changed: list[list[tuple[int, int, int, int]]] | None = None,
) -> list[Image.Image]:
    """The frames (RGB images ``width`` pixels wide, on white) of ``pictures`` (each its parts,
    in units of a ``w`` by ``h`` picture): every distinct leaf of their parts (:func:`leaves`)
    not kept from before drawn once as a tile, on at most ``threads`` sheets each drawn by
    ``render(svg, width_px) -> PNG`` (in as many threads), and each frame laid from
    its leaves' tiles in drawing order where it differs from the frame before (the module's
    note); ``changed``, when given, gets each frame's rectangles laid again (pixels: left, top,
    right, bottom; apart; the whole frame for the first), nothing outside them changed. Raises
    what ``render`` raises for an SVG it refuses. (Nested ``<svg>`` viewports for
    the sheet's places were tried: resvg clips each with a mask of the whole document, and it
    took twice as long.)"""
    # Pillow here: the dashboard's server imports this module and serves before it loads
    from PIL import Image

    k = width / w
    wpx, hpx = width, math.ceil(h * k)
    split = [[leaf for part in parts for leaf in leaves(part)] for parts in pictures]
    distinct = dict.fromkeys(leaf for pic in split for leaf in pic)
    where = {
        leaf: r
        for leaf in distinct
        if (r := _tile(leaf, k, wpx, hpx))[2] > r[0] and r[3] > r[1] and not _ground(leaf, w, h)
    }

    def key(leaf: str) -> Hashable:
        return (render, font, w, h, width, leaf)

    def draw(sheet: _Sheet) -> dict[str, Image.Image]:
        sw, sh, slots = sheet
        placed = [
            f'<g transform="translate({(x - r[0]) / k:.6f},{(y - r[1]) / k:.6f})">{leaf}</g>'
            for leaf, r, x, y in slots
        ]
        svg = document(w, h, placed, font=font, view=(0.0, 0.0, sw / k, sh / k), size=(sw, sh))
        im = Image.open(io.BytesIO(render(svg, sw))).convert("RGBA")
        return {leaf: im.crop((x, y, x + r[2] - r[0], y + r[3] - r[1])) for leaf, r, x, y in slots}

    tiles = _drawn(where, key, draw, wpx, threads)
    out: list[Image.Image] = []
    for n, pic in enumerate(split):
        rects = _rects(split, pictures, n, k, (wpx, hpx))
        frame = out[-1].copy() if out else Image.new("RGB", (wpx, hpx), "#ffffff")
        for r in rects:
            frame.paste(_lay(pic, r, where, tiles), (r[0], r[1]))
        out.append(frame)
        if changed is not None:
            changed.append(rects)
    return out


def _drawn(
    where: dict[str, _Rect],
    key: Callable[[str], Hashable],
    draw: Callable[[_Sheet], dict[str, Image.Image]],
    wpx: int,
    threads: int,
) -> dict[str, Image.Image]:
    """The tile of every leaf of ``where`` (its pixels' rectangle): kept from before, else
    drawn by ``draw`` on at most ``threads`` sheets (in as many threads) and kept."""
    tiles = {leaf: t for leaf in where if (t := _KEPT.get(key(leaf))) is not None}
    groups = _sheets([(leaf, r) for leaf, r in where.items() if leaf not in tiles], wpx, threads)
    if len(groups) > 1:
        with ThreadPoolExecutor(max_workers=len(groups)) as pool:
            sheets = list(pool.map(draw, groups))
    else:
        sheets = [draw(g) for g in groups]
    for drawn in sheets:
        for leaf, tile in drawn.items():
            tiles[leaf] = tile
            _KEPT.put(key(leaf), tile)
    return tiles


def _rects(
    split: Sequence[Sequence[str]],
    pictures: Sequence[Sequence[str]],
    n: int,
    k: float,
    size: tuple[int, int],
) -> list[_Rect]:
    """The rectangles (pixels) of frame ``n`` to lay again: where its leaves (``split``), else
    its parts (``pictures``), differ from the frame before; the whole frame (``size``) for the
    first or where that is not known."""
    wpx, hpx = size
    dirty = None if n == 0 else _dirty(split[n - 1], split[n])
    if dirty is None and n:
        dirty = _dirty(pictures[n - 1], pictures[n])
    return (
        [(0, 0, wpx, hpx)] if dirty is None else _merged([_pixels(b, k, wpx, hpx) for b in dirty])
    )


def _lay(
    pic: Sequence[str], r: _Rect, where: dict[str, _Rect], tiles: dict[str, Image.Image]
) -> Image.Image:
    """Rectangle ``r`` of picture ``pic`` (its leaves in drawing order) laid from their tiles
    (each at its place, ``where``) on the picture's white ground, opaque, so a tile pasted
    through its own alpha is resvg's source-over."""
    # Pillow here: the dashboard's server imports this module and serves before it loads
    from PIL import Image

    out = Image.new("RGB", (r[2] - r[0], r[3] - r[1]), "#ffffff")
    for leaf in pic:
        t = where.get(leaf)
        if t is None:
            continue
        x0, y0, x1, y1 = max(t[0], r[0]), max(t[1], r[1]), min(t[2], r[2]), min(t[3], r[3])
        if x1 <= x0 or y1 <= y0:
            continue
        tile = tiles[leaf]
        if (x0, y0, x1, y1) != t:
            tile = tile.crop((x0 - t[0], y0 - t[1], x1 - t[0], y1 - t[1]))
        out.paste(tile, (x0 - r[0], y0 - r[1]), tile)
    return out
