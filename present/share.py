"""A hand to share: the picture of one step of a deal, or the deal stepped up to it, as one view
saw it (issue 21, item 3), for ``brag share`` and the Replay page's "Download picture".

The steps are chosen by :func:`steps`: the deal's steps from its first up to the step asked
(numbered as every replay numbers them, :func:`present.narrate.numbered`), each drawn by
:meth:`present.sight.DealSight.view` as far as the device may see it (the one rule,
:func:`present.sight.sight_for`: a deal dealt since the last shuffle of an unfinished session as
a :data:`~present.replay.SPECTATOR` saw it, a hand still in play face down, view-as
only what that player knew at that step, RULES 3.5, 5.1). The picture is made from that view and
nothing else (:func:`picture`: the table of :func:`present.table_svg.render` under a caption of
the session, the deal, the step and its sentence), so a card the view may not see at that step
never reaches the renderer. A player's private note of their own cards is never drawn here: a
picture is made to be sent to others.

The raster is a kept library's: resvg (``resvg-py``) draws the SVG (:func:`png`; for a GIF,
each distinct piece of its pictures once, which Pillow lays into the frames,
:mod:`present.animation`), Pillow makes the GIF (:func:`gif`); both are
imported only when a raster is asked for. resvg draws text with the machine's fonts (on Debian,
Liberation Sans, which Chromium's package brings, or DejaVu Sans).
"""

from __future__ import annotations

import io
import re
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import resvg_py

from events.errors import PlainError
from events.text import inert
from present import animation, table_svg
from present.narrate import StepLabel
from present.replay import Replay
from present.sight import DealSight, sight_for
from present.table import EVERYONE, TableView

if TYPE_CHECKING:
    from PIL import Image

__all__ = [
    "FORMATS",
    "GIF_WIDTH",
    "PNG_WIDTH",
    "ShareRefused",
    "Shot",
    "gif",
    "parts",
    "picture",
    "png",
    "share",
    "sight_of",
    "steps",
]

FORMATS = ("svg", "png", "gif")
"""The formats a picture is written in, by the file name's ending."""

PNG_WIDTH = 1200
"""A PNG's width in pixels: 1.5 times the picture's 800 units, sharp on a phone's screen."""

GIF_WIDTH = 480
"""A GIF's width in pixels (a chat shows it smaller anyway): small to send, and quicker to make,
though resvg's time goes mostly to the text, whatever the size (``bench/share.py``)."""

FRAME_MS = 1200
"""How long a GIF shows each step (ms); the last step stays :data:`LAST_MS`."""
LAST_MS = 3000

RENDERERS = 1
"""Sheets of a GIF's pieces drawn at a time, in threads: one, as resvg-py 0.5 holds the
interpreter while it draws (measured: a 20-step GIF's frames took 186 ms of CPU and of wall
clock on one sheet, 189 ms on two sheets in two threads; a process pool forked for each GIF
was no quicker on these two shared cores)."""

GIF_COLOURS = 96
"""The colours of a GIF's one palette, shared by every frame (the table's few colours and
their anti-aliased edges)."""

CAPTION_H = 105
"""The caption's height above the table (SVG units): the picture is 645 units high, a whole
number of pixels at :data:`GIF_WIDTH` (387). Its rows are far enough apart that the session's
row, the same in every frame of a GIF, is never drawn again (:mod:`present.animation`)."""
LINE_CHARS = 74
"""The sentence's line length in the caption (characters; two lines at most)."""


class ShareRefused(PlainError, ValueError):
    """A picture that cannot be made as asked (no such deal, step or player; a format that is not
    :data:`FORMATS`): one sentence."""

    rule_name = "SHARE"


@dataclass(frozen=True, slots=True)
class Shot:
    """One step to draw: its ``label`` (number and sentence) and the table as the view may see
    it (``view``); ``last`` is the step number of the deal's last step so far."""

    label: StepLabel
    view: TableView
    last: int


def steps(sight: DealSight, step: int | None = None, *, whole: bool = True) -> list[Shot]:
    """The steps of ``sight``'s deal from its first up to ``step`` (a step number as ``brag
    replay`` prints it; ``None``: the deal's last step), each drawn as that device may see it
    (``sight``: :func:`present.sight.sight_for`, the one rule; the replay the page shows, as
    corrected or as recorded); without ``whole``, only that last step.

    Raises :class:`ShareRefused` for a step the deal does not have (a deal the session has not
    dealt, or a viewer who is not seated: :func:`sight_of`)."""
    rp, deal = sight.replay, sight.deal
    numbers = [rp.labels[k].step for k in sight.indices]
    if step is None:
        end = sight.indices.stop
    elif step in numbers:  # the step in force with that number, as the page's link lands on it
        end = rp.position(deal, step).index + 1
    else:
        raise ShareRefused(
            f"deal {deal} of session {rp.session} has steps {min(numbers)} to "
            f"{max(numbers)}; there is no step {step}"
        )
    last = max(numbers)
    return [
        Shot(sight.label(k), sight.view(k), last)
        for k in range(sight.indices.start if whole else end - 1, end)
    ]


def sight_of(
    rp: Replay, deal: int, viewer: str | None = None, *, organiser: bool = False
) -> DealSight:
    """Deal ``deal`` of ``rp`` as ``viewer`` (``None`` or :data:`~present.replay.EVERYONE`:
    every card the log knows; a player's name: what that player knew then) may be drawn on a
    device that is the organiser's unlocked one or not (:func:`present.sight.sight_for`).
    Raises :class:`ShareRefused` for a deal the session has not dealt (deal 0 is what comes
    before the first, as the page shows it) or a viewer who is not seated."""
    if deal not in {s.deal for s in rp.slices}:
        last = rp.slices[-1].deal if rp.slices else 0
        has = f"deals 1 to {last}" if last else "no deal yet"
        raise ShareRefused(f"session {rp.session} has {has}; there is no deal {deal}")
    if viewer not in (None, "", EVERYONE) and viewer not in rp.seats:
        raise ShareRefused(
            f"{viewer!r} is not a player of session {rp.session} ({', '.join(rp.seats)})"
        )
    return sight_for(rp, deal, viewer, organiser=organiser)


_VIEW_BOX = re.compile(r'viewBox="0 0 (\d+) (\d+)"')


def _table(view: TableView) -> tuple[int, int, str]:
    """The wide table picture's width, height and inner markup (its root ``<svg>`` taken off:
    every text in it is escaped by :mod:`present.table_svg`, ``>`` included)."""
    html = table_svg.render(view)
    svg = html[html.index("<svg") : html.rindex("</svg>")]
    size = _VIEW_BOX.search(svg)
    if size is None:  # pragma: no cover - the picture always has its viewBox
        raise ValueError("the table picture has no viewBox")
    return int(size[1]), int(size[2]), svg[svg.index(">") + 1 :]


def parts(shot: Shot) -> tuple[int, int, list[str]]:
    """One step's picture as its width, height (SVG units) and parts, the top-level elements in
    drawing order (:func:`picture` is their document): white, the caption (the session and its
    table, the deal and ``Step K of N``, the step's sentence, as text), then each element of the
    table as ``shot.view`` sees it (:func:`present.table_svg.render`), under the caption. Every
    text from the log is escaped (XML and Markdown alike) and any character that is not
    printable, which XML may not hold (a name an older store let through), is shown as its
    escape (:func:`events.text.inert`; the markup itself is printable)."""
    w, h, inner = _table(shot.view)
    v = shot.view
    head = f"{v.session}" + (f" at {v.table}" if v.table else "")
    where = f"Deal {shot.label.deal} · Step {shot.label.label} of {shot.last}"
    lines = textwrap.wrap(shot.label.text, LINE_CHARS) or [""]
    if len(lines) > 2:
        lines = [lines[0], textwrap.shorten(" ".join(lines[1:]), LINE_CHARS, placeholder=" …")]
    out = [
        f'<rect width="{w}" height="{h + CAPTION_H}" fill="#ffffff"/>',
        table_svg._t(16, 18, _clip(head, 90), 14, fill=table_svg.MUTED),
        table_svg._t(16, 56, where, 20, font_weight="700", fill=table_svg.INK),
        *(
            table_svg._t(16, 80 + 20 * n, line, 16, fill=table_svg.INK)
            for n, line in enumerate(lines)
        ),
        *(
            f'<g transform="translate(0,{CAPTION_H})">{part}</g>'
            for part in animation.children(inner)
        ),
    ]
    return w, h + CAPTION_H, [inert(part) for part in out]


def picture(shot: Shot) -> str:
    """One step as a standalone SVG document (a string) of its :func:`parts`, on white."""
    w, h, out = parts(shot)
    return animation.document(w, h, out, font=table_svg.FONT)


def _clip(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def png(svg: str, width: int = PNG_WIDTH) -> bytes:
    """The PNG (bytes) of an SVG document, ``width`` pixels wide (the height in proportion),
    drawn by resvg with the machine's fonts. Raises ``ValueError`` for an SVG resvg refuses."""
    return bytes(resvg_py.svg_to_bytes(svg_string=svg, width=width))


def gif(shots: Sequence[Shot], width: int = GIF_WIDTH) -> bytes:
    """An animated GIF (bytes) of the steps' pictures (:func:`parts`), one frame each in order,
    ``width`` pixels wide, each shown :data:`FRAME_MS` ms (the last :data:`LAST_MS`), looping;
    each distinct piece of the pictures drawn by resvg once and the frames laid from them
    (:func:`present.animation.frames`, :data:`RENDERERS` drawings at a time), one palette of
    :data:`GIF_COLOURS` colours for every frame, each later frame only its changed pixels
    (Pillow). Raises ``ValueError`` for no steps."""
    if not shots:
        raise ValueError("a GIF needs at least one frame")
    drawn = [parts(s) for s in shots]
    w, h = drawn[0][0], drawn[0][1]
    changed: list[list[tuple[int, int, int, int]]] = []
    frames = animation.frames(
        [p for _, _, p in drawn],
        w,
        h,
        width,
        font=table_svg.FONT,
        render=png,
        threads=RENDERERS,
        changed=changed,
    )
    sent = _deltas(frames, changed, _palette(frames))
    out = io.BytesIO()
    sent[0].save(
        out,
        format="GIF",
        save_all=True,
        append_images=sent[1:],
        duration=[FRAME_MS] * (len(sent) - 1) + [LAST_MS],
        loop=0,
        optimize=False,
        transparency=GIF_COLOURS,
    )
    return out.getvalue()


def _palette(frames: Sequence[Image.Image]) -> Image.Image:
    """One palette for all the frames: from the first and the last frame side by side (the last
    has the most cards face up and the winner's colour), every other row of them (a quarter less
    time; each frame's mean error 0.60 of 255 a channel, against 0.58 from every row)."""
    # Pillow here: the dashboard's server imports this module and serves before it loads
    from PIL import Image

    both = Image.new("RGB", (frames[0].width * 2, frames[0].height), "#ffffff")
    both.paste(frames[0], (0, 0))
    both.paste(frames[-1], (frames[0].width, 0))
    rows = both.resize((both.width, both.height // 2), Image.Resampling.NEAREST)
    return rows.quantize(GIF_COLOURS, method=Image.Quantize.MEDIANCUT)


def _deltas(
    frames: Sequence[Image.Image],
    changed: Sequence[Sequence[tuple[int, int, int, int]]],
    palette: Image.Image,
) -> list[Image.Image]:
    """The GIF's frames in ``palette``: the first whole, each later one only the pixels that
    change, the rest the one colour the palette does not use (:data:`GIF_COLOURS`), written as
    transparent (what Pillow's optimize does, without its palette made anew for each frame and
    the frames compared in RGBA: half the time); only the rectangles laid again (``changed``)
    are mapped to the palette (no dithering: a pixel's colour is its own)."""
    # Pillow here: the dashboard's server imports this module and serves before it loads
    from PIL import Image, ImageChops

    unused = GIF_COLOURS
    shown = frames[0].quantize(palette=palette, dither=Image.Dither.NONE)
    blank = shown.copy()
    blank.paste(unused, (0, 0, *shown.size))
    sent = [shown]
    for frame, rects in zip(frames[1:], changed[1:], strict=True):
        delta, shown = blank.copy(), shown.copy()
        for r in rects:
            now = frame.crop(r).quantize(palette=palette, dither=Image.Dither.NONE)
            same = ImageChops.subtract_modulo(now, shown.crop(r)).point([255] + [0] * 255, "1")
            shown.paste(now, r[:2])
            now.paste(unused, mask=same)
            delta.paste(now, r[:2])
        sent.append(delta)
    return sent


def share(sight: DealSight, step: int | None, fmt: str) -> bytes:
    """The picture of ``sight``'s deal at ``step`` as that device may see it (:func:`steps`)
    in ``fmt``: ``svg`` (UTF-8) and ``png`` draw that step, ``gif`` the deal's steps from the
    first up to it, one frame a step. Raises :class:`ShareRefused` as :func:`steps` does, and
    for a format not in :data:`FORMATS`."""
    if fmt not in FORMATS:
        raise ShareRefused(f"a picture is .svg, .png or .gif, not {fmt!r}")
    shots = steps(sight, step, whole=fmt == "gif")
    if fmt == "gif":
        return gif(shots)
    svg = picture(shots[-1])
    return svg.encode("utf-8") if fmt == "svg" else png(svg)
