"""Where the parts of an SVG picture are drawn (for :mod:`present.animation`): a picture's parts
(:func:`children`), each cut into *leaves* (:func:`leaves`), and the box each covers
(:func:`box`) in the picture's units.

:func:`box` bounds each part from its own markup, generously (a text as wide as it measures in
the widest font here, with a margin, :func:`text_width`; strokes and a margin added): a rectangle
too large only costs time, and a leaf whose shape it does not know (a tag other than ``g``,
``rect``, ``circle``, ``ellipse``, ``text``) is drawn over the whole picture.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL import ImageFont

__all__ = [
    "EM",
    "MARGIN",
    "SLACK",
    "SVG_NS",
    "WIDEST_FONT",
    "Box",
    "box",
    "children",
    "leaves",
    "text_width",
]

Box = tuple[float, float, float, float]
"""``(x0, y0, x1, y1)`` in the picture's units."""

SVG_NS = "http://www.w3.org/2000/svg"
EM = 1.25
"""A text's width bound per character, in ems (wider than any letter of the fonts used), where
it cannot be measured (:func:`text_width`)."""
MARGIN = 3.0
"""Added round every part's box (anti-aliasing, rounding)."""

_TAG = re.compile(r"<(/?)([A-Za-z][\w:-]*)[^>]*?(/?)>")
_TRANSFORM = re.compile(r"(translate|scale)\(([^)]*)\)")


def children(markup: str) -> list[str]:
    """The top-level elements of ``markup`` (well-formed SVG, ``>`` escaped in attribute
    values, as :mod:`present.table_svg` writes it), each as its markup, in order."""
    return _cut(markup, split=False)


_EFFECT = re.compile(r"\s(?:opacity|filter|mask|clip-path|style)\s*=")
"""A group attribute that acts on the group drawn as a whole: such a group is one leaf."""


_DATA = re.compile(r'\sdata-[\w-]*="[^"]*"')
"""A ``data-*`` attribute (it draws nothing; taken off the groups round a leaf, so a leaf
that draws the same is the same leaf from step to step)."""


@lru_cache(maxsize=4096)
def leaves(part: str) -> tuple[str, ...]:
    """The leaves of a part (markup as :func:`children` takes it), in drawing order: every
    element that is not a plain ``<g>``, whole, inside the opening tags of the groups round it
    (so it keeps their ``transform`` and the attributes it inherits). A ``<g>`` with an
    attribute that acts on the group as a whole (``opacity``, ``filter``, ``mask``,
    ``clip-path``, ``style``) is a leaf itself: its children are not drawn apart. (Kept for the
    next frame, whose parts are mostly the same.)"""
    return tuple(_cut(part, split=True))


def _cut(markup: str, *, split: bool) -> list[str]:
    """The elements of ``markup`` at its top level, or with ``split`` its leaves."""
    out: list[str] = []
    groups: list[str] = []  # the opening tags of the plain groups open round the next leaf
    depth, start = 0, 0  # depth inside the element being read
    for m in _TAG.finditer(markup):
        closing, alone = m[1] == "/", m[3] == "/"
        if depth == 0:
            if closing and groups:
                groups.pop()
                continue
            if split and m[2] == "g" and not alone and not _EFFECT.search(m[0]):
                groups.append(_DATA.sub("", m[0]))
                continue
            start = m.start()
        if closing:
            depth -= 1
        elif not alone:
            depth += 1
        if depth == 0:
            out.append("".join(groups) + markup[start : m.end()] + "</g>" * len(groups))
    return out


def _num(el: ET.Element, name: str, default: float = 0.0) -> float:
    value = el.get(name)
    return float(value) if value is not None else default


def _local(el: ET.Element) -> Box | None:
    """The box of ``el`` in its own coordinates, ``None`` for a shape not known here."""
    tag = el.tag.rsplit("}", 1)[-1]
    half = _num(el, "stroke-width", 0.0) / 2 if el.get("stroke") not in (None, "none") else 0.0
    match tag:
        case "g":
            return _group(el)
        case "rect":
            x, y = _num(el, "x"), _num(el, "y")
            w, h = _num(el, "width", math.inf), _num(el, "height", math.inf)
            return (x - half, y - half, x + w + half, y + h + half)
        case "circle":
            cx, cy, r = _num(el, "cx"), _num(el, "cy"), _num(el, "r") + half
            return (cx - r, cy - r, cx + r, cy + r)
        case "ellipse":
            cx, cy = _num(el, "cx"), _num(el, "cy")
            rx, ry = _num(el, "rx") + half, _num(el, "ry") + half
            return (cx - rx, cy - ry, cx + rx, cy + ry)
        case "text":
            return _text(el)
    return None


def _group(el: ET.Element) -> Box | None:
    """The box of a ``<g>``: round its children's, ``None`` if one is not known."""
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


def _text(el: ET.Element) -> Box:
    """The box of a ``<text>``, its width bounded by :func:`text_width`."""
    size = _num(el, "font-size", 16.0)
    x, y = _num(el, "x"), _num(el, "y")
    width = text_width("".join(el.itertext()), size)
    anchor = el.get("text-anchor", "start")
    left = x - width if anchor == "end" else x - width / 2 if anchor == "middle" else x
    return (left, y - 1.2 * size, left + width, y + 0.4 * size)


WIDEST_FONT = "DejaVuSans-Bold.ttf"
"""The widest of the fonts resvg may draw a text with on this machine (Debian's DejaVu Sans Bold,
wider letter by letter than DejaVu Sans and Liberation Sans, regular or bold): a text's width
in it, with :data:`SLACK`, bounds its width as drawn."""
SLACK = 1.1
"""The measured width's margin (a text drawn in the widest font, kerning aside, is no wider)."""


@lru_cache(maxsize=1)
def _widest() -> ImageFont.FreeTypeFont | None:
    # Pillow here: the dashboard's server imports this module and serves before it loads (its
    # warm-up thread reads this font)
    from PIL import ImageFont

    try:
        return ImageFont.truetype(WIDEST_FONT, 100)
    except OSError:  # not on this machine: every text as wide as EM a character
        return None


def text_width(text: str, size: float) -> float:
    """A bound on ``text``'s width drawn ``size`` units high: measured in :data:`WIDEST_FONT`
    (FreeType, by Pillow) for Latin-1 text and the ellipsis, which that font holds; else
    :data:`EM` a character."""
    font = _widest()
    if font is None or any(ord(c) > 0xFF and c != "…" for c in text):
        return len(text) * size * EM
    return font.getlength(text) / 100 * size * SLACK + 0.25 * size


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
