"""The frames of an animation of SVG pictures, drawn by resvg only where each differs from the one
before (for :func:`present.share.gif`).

A picture is given as its *parts*: the top-level elements of one SVG document, in drawing order,
in the picture's units (``w`` by ``h``). The first frame is drawn whole. Each later frame is the
one before with, for every part that differs from the part in its place before, the rectangle
that part covers (before and after, :func:`box`) drawn again: a document of every part that
reaches into that rectangle, its ``viewBox`` the rectangle, aligned on whole pixels, so resvg
puts every pixel where drawing the whole picture would. Drawing the text is most of resvg's time
(some 0.3 ms a ``<text>``) and a step changes two or three seats and the centre of the table, so a
deal's GIF draws about half the texts of its frames drawn whole.

:func:`box` bounds each part from its own markup, generously (a text as wide as 1.25 em a
character; strokes and a margin added): a rectangle too large only costs time, and a part whose
shape it does not know (a tag other than ``g``, ``rect``, ``circle``, ``ellipse``, ``text``) makes
its frame drawn whole.
"""

from __future__ import annotations

import io
import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL import Image

__all__ = ["Box", "box", "children", "document", "frames"]

Box = tuple[float, float, float, float]
"""``(x0, y0, x1, y1)`` in the picture's units."""

SVG_NS = "http://www.w3.org/2000/svg"
EM = 1.25
"""A text's width bound per character, in ems (wider than any letter of the fonts used)."""
MARGIN = 3.0
"""Added round every part's box (anti-aliasing, rounding)."""

_TAG = re.compile(r"<(/?)([A-Za-z][\w:-]*)[^>]*?(/?)>")
_TRANSFORM = re.compile(r"(translate|scale)\(([^)]*)\)")


def children(markup: str) -> list[str]:
    """The top-level elements of ``markup`` (well-formed SVG, ``>`` escaped in attribute
    values, as :mod:`present.table_svg` writes it), each as its markup, in order."""
    out: list[str] = []
    depth, start = 0, 0
    for m in _TAG.finditer(markup):
        closing, alone = m[1] == "/", m[3] == "/"
        if depth == 0 and not closing:
            start = m.start()
        if closing:
            depth -= 1
        elif not alone:
            depth += 1
        if depth == 0:
            out.append(markup[start : m.end()])
    return out


def _num(el: ET.Element, name: str, default: float = 0.0) -> float:
    value = el.get(name)
    return float(value) if value is not None else default


def _local(el: ET.Element) -> Box | None:
    """The box of ``el`` in its own coordinates, ``None`` for a shape not known here."""
    tag = el.tag.rsplit("}", 1)[-1]
    half = _num(el, "stroke-width", 0.0) / 2 if el.get("stroke") not in (None, "none") else 0.0
    if tag == "g":
        boxes = [_box(c) for c in el]
        if any(b is None for b in boxes):
            return None
        known = [b for b in boxes if b is not None]
        if not known:
            return (0.0, 0.0, 0.0, 0.0)
        return (
            min(b[0] for b in known),
            min(b[1] for b in known),
            max(b[2] for b in known),
            max(b[3] for b in known),
        )
    if tag == "rect":
        x, y = _num(el, "x"), _num(el, "y")
        w, h = _num(el, "width", math.inf), _num(el, "height", math.inf)
        return (x - half, y - half, x + w + half, y + h + half)
    if tag == "circle":
        cx, cy, r = _num(el, "cx"), _num(el, "cy"), _num(el, "r") + half
        return (cx - r, cy - r, cx + r, cy + r)
    if tag == "ellipse":
        cx, cy = _num(el, "cx"), _num(el, "cy")
        rx, ry = _num(el, "rx") + half, _num(el, "ry") + half
        return (cx - rx, cy - ry, cx + rx, cy + ry)
    if tag == "text":
        size = _num(el, "font-size", 16.0)
        x, y = _num(el, "x"), _num(el, "y")
        width = len("".join(el.itertext())) * size * EM
        anchor = el.get("text-anchor", "start")
        left = x - width if anchor == "end" else x - width / 2 if anchor == "middle" else x
        return (left, y - 1.2 * size, left + width, y + 0.4 * size)
    return None


def _box(el: ET.Element) -> Box | None:
    """The box of ``el`` in its parent's coordinates (its ``transform`` applied)."""
    inner = _local(el)
    if inner is None:
        return None
    steps = _TRANSFORM.findall(el.get("transform", ""))
    if el.get("transform") and not steps:
        return None
    x0, y0, x1, y1 = inner
    for kind, args in reversed(steps):  # the last transform applies first
        nums = [float(a) for a in re.split(r"[\s,]+", args.strip()) if a]
        if kind == "scale":
            sx = nums[0]
            sy = nums[1] if len(nums) > 1 else sx
            x0, x1, y0, y1 = x0 * sx, x1 * sx, y0 * sy, y1 * sy
        else:
            tx = nums[0]
            ty = nums[1] if len(nums) > 1 else 0.0
            x0, x1, y0, y1 = x0 + tx, x1 + tx, y0 + ty, y1 + ty
    return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


@lru_cache(maxsize=4096)
def box(part: str) -> Box | None:
    """The box a part covers in the picture's units, with :data:`MARGIN` round it; ``None`` when
    it cannot be told (then the whole picture is drawn)."""
    try:
        el = ET.fromstring(f'<g xmlns="{SVG_NS}">{part}</g>')[0]
    except (ET.ParseError, IndexError):
        return None
    b = _box(el)
    if b is None:
        return None
    return (b[0] - MARGIN, b[1] - MARGIN, b[2] + MARGIN, b[3] + MARGIN)


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


def frames(
    pictures: Sequence[Sequence[str]],
    w: int,
    h: int,
    width: int,
    *,
    font: str,
    render: Callable[[str, int], bytes],
    threads: int = 2,
) -> list[Image.Image]:
    """The frames (RGB images ``width`` pixels wide) of ``pictures`` (each its parts, in units of
    a ``w`` by ``h`` picture), each drawn by ``render(svg, width_px) -> PNG`` where it differs
    from the frame before (the module's note), ``threads`` drawings at a time. (One document of
    nested ``<svg>`` viewports for all the rectangles was tried: resvg clips each viewport with
    a mask of the whole document, and it took twice as long.)"""
    from PIL import Image

    k = width / w
    wpx, hpx = width, math.ceil(h * k)
    jobs: list[tuple[int, tuple[int, int, int, int], str]] = []  # frame, pixels, document
    for n, parts in enumerate(pictures):
        dirty = None if n == 0 else _dirty(pictures[n - 1], parts)
        rects = (
            [(0, 0, wpx, hpx)]
            if dirty is None
            else _merged([_pixels(b, k, wpx, hpx) for b in dirty])
        )
        for r in rects:
            view = (r[0] / k, r[1] / k, (r[2] - r[0]) / k, (r[3] - r[1]) / k)
            reach = (view[0], view[1], view[0] + view[2], view[1] + view[3])
            inside = [
                p
                for p in parts
                if (b := box(p)) is None
                or (b[0] < reach[2] and reach[0] < b[2] and b[1] < reach[3] and reach[1] < b[3])
            ]
            size = (r[2] - r[0], r[3] - r[1])
            jobs.append((n, r, document(w, h, inside, font=font, view=view, size=size)))

    def draw(job: tuple[int, tuple[int, int, int, int], str]) -> Image.Image:
        _, r, svg = job
        im = Image.open(io.BytesIO(render(svg, r[2] - r[0]))).convert("RGBA")
        im = im.crop((0, 0, r[2] - r[0], r[3] - r[1]))
        out = Image.new("RGB", im.size, "#ffffff")  # on white, as the picture's own ground
        out.paste(im, mask=im.getchannel("A"))
        return out

    with ThreadPoolExecutor(max_workers=max(1, min(threads, len(jobs)))) as pool:
        drawn = list(pool.map(draw, jobs))
    out: list[Image.Image] = []
    for (n, r, _), im in zip(jobs, drawn, strict=True):
        while len(out) <= n:
            out.append(out[-1].copy() if out else Image.new("RGB", (wpx, hpx), "#ffffff"))
        out[n].paste(im, (r[0], r[1]))
    while len(out) < len(pictures):  # a frame no part of which changed
        out.append(out[-1].copy())
    return out
