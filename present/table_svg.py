"""The picture of the table: an SVG of the seats round an oval table (pure, no Streamlit).

:func:`render` draws a :class:`~present.replay.TableView`: each seat with its name, status and what
it has paid in this deal, its cards face up where the viewer knows them and face down otherwise, the
dealer button, whose turn it is, and in the middle the pot, the level and the turn. Seats go
clockwise as listed, the first at the bottom. The SVG scales to its container, so it reads on a
phone, a tablet or a wall screen.
"""

from __future__ import annotations

import math

from present.boxes import text_width
from present.numbers import amount
from present.table import FROM_NOTE, SPECTATOR, HandView, SeatView, TableView

__all__ = ["event_list", "render"]

W, H = 800, 540
CX, CY = W / 2, H / 2
RX, RY = 240, 138  # the table's felt
SX, SY = 300, 200  # where the seats' centres sit
BOX_W, BOX_H = 196, 122
CARD_W, CARD_H = 36, 50

FELT = "#1f6f43"
RIM = "#6b4423"
INK = "#1b1b1b"
RED = "#c0262d"
MUTED = "#8a8a8a"
TURN = "#f2b705"
TURN_TEXT = "#9a6a00"
WIN = "#e0a800"
FONT = "system-ui, sans-serif"


_ENTITIES = {c: f"&#{ord(c)};" for c in "&<>\"'*_`[]\\~$"}


def _esc(text: str) -> str:
    """Text safe both as XML and inside Streamlit markdown (no emphasis, links or LaTeX)."""
    return "".join(_ENTITIES.get(c, c) for c in text)


def _t(x: float, y: float, text: str, size: int = 14, **attrs: str) -> str:
    extra = "".join(f' {k.replace("_", "-")}="{_esc(v)}"' for k, v in attrs.items())
    return f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}"{extra}>{_esc(text)}</text>'


def _card(
    x: float, y: float, text: str | None, *, dim: bool, known: bool, w: float = CARD_W
) -> str:
    h = w * CARD_H / CARD_W
    op = ' opacity="0.55"' if dim else ""
    if text is None:
        # face down: the back; a "?" where not even the log knows the card
        mark = (
            ""
            if known
            else _t(
                x + w / 2,
                y + h / 2 + 5,
                "?",
                14,
                fill="#ffffff",
                text_anchor="middle",
                opacity="0.8",
            )
        )
        return (
            f'<g data-card="down"><rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" '
            f'rx="4" fill="#2a4d8f" stroke="#ffffff" stroke-width="1.5"{op}/>'
            f'<rect x="{x + 4:.1f}" y="{y + 4:.1f}" width="{w - 8:.1f}" height="{h - 8:.1f}" '
            f'rx="2" fill="none" stroke="#9fb6e0" stroke-width="1"/>{mark}</g>'
        )
    rank = "10" if text[0] == "T" else text[0]
    suit = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}[text[1]]
    colour = RED if text[1] in "dh" else INK
    return (
        f'<g data-card="{_esc(text)}"{op}><rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" '
        f'height="{h:.1f}" rx="4" fill="#ffffff" stroke="#444" stroke-width="1"/>'
        + _t(
            x + w / 2,
            y + h * 0.45,
            rank,
            int(w * 0.5),
            fill=colour,
            text_anchor="middle",
            font_weight="700",
        )
        + _t(x + w / 2, y + h * 0.86, suit, int(w * 0.5), fill=colour, text_anchor="middle")
        + "</g>"
    )


def _hands(
    x: float, y: float, hands: tuple[HandView, ...], dim: bool, card_w: float = CARD_W
) -> str:
    """The hands of a seat, centred on ``x`` with their top at ``y``, a card ``card_w`` wide
    (two hands: three quarters of it)."""
    if not hands:
        return ""
    out = []
    if len(hands) == 1:
        w, gap = float(card_w), 6.0
        x0 = x - (3 * w + 2 * gap) / 2
        for k, c in enumerate(hands[0].cards):
            out.append(_card(x0 + k * (w + gap), y, c, dim=dim, known=hands[0].known, w=w))
        return "".join(out)
    w, gap, between = 0.75 * card_w, 3.0, 14.0
    x0 = x - (6 * w + 4 * gap + between) / 2
    for j, hv in enumerate(hands):
        base = x0 + j * (3 * w + 2 * gap + between)
        for k, c in enumerate(hv.cards):
            out.append(_card(base + k * (w + gap), y + 10, c, dim=dim, known=hv.known, w=w))
        out.append(
            _t(base + (3 * w + 2 * gap) / 2, y + 7, hv.origin, 11, fill=MUTED, text_anchor="middle")
        )
    return "".join(out)


def _short(name: str, n: int) -> str:
    return name if len(name) <= n else name[: n - 1] + "…"


NAME_SIZES = (19, 17, 15)
"""A seat's name is drawn in the first of these sizes in which it fits beside "paid N"; in the
last, shortened with "…" until it fits."""


def _name_fit(name: str, room: float) -> tuple[str, int]:
    """``name`` and its size so that it takes at most ``room`` units (its width bounded by
    :func:`present.animation.text_width`, the widest font here with a margin): the first of
    :data:`NAME_SIZES` it fits, else shortened with "…" in the smallest (issue 21: a long name
    drawn over "paid N" on a phone). A shortened name's text keeps the full one (``data-name``,
    ``aria-label``) and its room (``data-room``): the page fits it again in the font it is drawn
    in (``fitNames`` in ``dashboard/replay/replayer_helpers.js``; issue 35: "Marga…" with room
    to spare on a desktop), the bound staying for the pictures drawn here."""
    for size in NAME_SIZES:
        if text_width(name, size) <= room:
            return name, size
    size = NAME_SIZES[-1]
    cut = len(name)
    while cut > 1 and text_width(name[:cut] + "…", size) > room:
        cut -= 1
    return name[:cut] + "…", size


def _name_text(s: SeatView, paid: str, x: float, y: float) -> str:
    """The seat's name at (``x``, ``y``), fitted beside ``paid`` (:func:`_name_fit`); shortened,
    it keeps the full name and its room for the page to fit it again."""
    room = BOX_W - 24 - text_width(paid, 16) - 6
    name, size = _name_fit(s.name, room)
    cut = {} if name == s.name else {"data_name": s.name, "data_room": str(int(room)),
                                     "aria_label": s.name}  # fmt: skip
    return _t(x, y, name, size, font_weight="700", fill=MUTED if s.folded else INK, **cut)


def _seat(
    s: SeatView,
    n: int,
    at: tuple[float, float] | None = None,
    box_h: float = BOX_H,
    card_w: float = CARD_W,
) -> str:
    """One seat, drawn round (0, 0) and moved to its place (round the table, or ``at`` in the
    compact grid, where a dense grid passes a lower box, ``box_h``, and smaller cards,
    ``card_w``); smaller round the table when many sit at it."""
    angle = math.pi / 2 + 2 * math.pi * s.seat / n
    x, y = CX + SX * math.cos(angle), CY + SY * math.sin(angle)
    k = 1.0 if n <= 6 else 0.78
    if at is not None:
        (x, y), k = at, 1.0
    bx, by = -BOX_W / 2, -box_h / 2
    stroke, width = (WIN, 5) if s.winner else (TURN, 5) if s.turn else ("#555", 1.5)
    fill = "#eeeeee" if s.folded else "#ffffff"
    paid = f"paid {amount(s.paid)}"
    parts = [
        f'<g data-seat="{_esc(s.name)}" data-status="{_esc(s.status)}"'
        f' data-paid="{_esc(amount(s.paid))}"'
        f' transform="translate({x:.1f},{y:.1f}) scale({k})">',
        f'<rect x="{bx:.1f}" y="{by:.1f}" width="{BOX_W}" height="{box_h}" rx="12" fill="{fill}" '
        f'stroke="{stroke}" stroke-width="{width}"/>',
        _name_text(s, paid, bx + 12, by + 24),
        _t(
            bx + BOX_W - 12,
            by + 24,
            paid,
            16,
            text_anchor="end",
            fill=INK,
            font_weight="600",
        ),
        _t(
            bx + 12,
            by + 45,
            _status(s),
            14,
            fill=MUTED if s.folded else (TURN_TEXT if s.turn else "#2b5f9e"),
            font_weight="600" if s.turn or s.winner else "400",
        ),
        _hands(0, by + 56 - (BOX_H - box_h) / 6, s.hands, s.folded, card_w),
    ]
    if s.dealer:
        parts.append(_dealer(s, x, y, box_h, compact=at is not None))
    parts.append("</g>")
    return "".join(parts)


def _status(s: SeatView) -> str:
    """The seat's status line: ``"you · seen · paid to see"``, ``"to act · blind"``,
    ``"wins the pot"``."""
    if s.winner:
        return "wins the pot"
    status = ("you · " if s.viewer else "") + s.status + (f" · {s.role}" if s.role else "")
    return "to act · " + status if s.turn else status


def _dealer(s: SeatView, x: float, y: float, box_h: float, *, compact: bool) -> str:
    """The dealer button on the seat's corner nearest the table's centre (the seat at ``x``,
    ``y``); in the ``compact`` grid, inside the box's lower right corner."""
    bx, by = -BOX_W / 2, -box_h / 2
    dx = bx + BOX_W - 2 if x <= CX + 1 else bx + 2
    dy = by + 2 if y >= CY - 1 else by + box_h - 2
    r, size = 15, 16
    if compact:
        dx, dy, r, size = bx + BOX_W - 15, by + box_h - 15, 11, 13
    return (
        f'<g data-dealer="{_esc(s.name)}"><circle cx="{dx:.1f}" cy="{dy:.1f}" r="{r}" '
        f'fill="#ffffff" stroke="{INK}" stroke-width="2"/>'
        + _t(dx, dy + size * 0.37, "D", size, text_anchor="middle", font_weight="700")
        + "</g>"
    )


COMPACT_W = 400
"""The compact picture's width: at a phone's 360 px or so, 1 unit is about 0.9 px, so the seats'
smallest text (14 units) stays above 11 px."""


DENSE = 5
"""From this many seats the compact grid is dense: lower boxes (:data:`DENSE_H`) and smaller
cards (:data:`DENSE_CARD_W`), the text as large, so that 7 seats and the replay's controls fit
a phone's first screen."""
DENSE_H, DENSE_CARD_W = 94, 26.0


def _compact(view: TableView) -> str:
    """The seats in a grid of two columns, no felt: for a phone, where the table's pot, level and
    turn are a line of text beside the picture; dense from :data:`DENSE` seats."""
    rows = (len(view.seats) + 1) // 2
    gap = 4
    box_h, card_w = (DENSE_H, DENSE_CARD_W) if len(view.seats) >= DENSE else (BOX_H, CARD_W)
    h = rows * (box_h + gap) + gap
    cells = []
    for j, s in enumerate(view.seats):
        col, row = j % 2, j // 2
        cx = gap + BOX_W / 2 + col * (BOX_W + gap)
        cy = gap + box_h / 2 + row * (box_h + gap)
        cells.append(_seat(s, len(view.seats), (cx, cy), box_h, card_w))
    return (
        '<div class="brag-table brag-compact">'
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {COMPACT_W} {h}" width="100%" '
        f'role="img" aria-label="The table: pot {_esc(view.pot_text)}" '
        f'data-pot="{_esc(view.pot_text)}" font-family="{FONT}" style="display:block">'
        + "".join(cells)
        + "</svg></div>"
    )


def render(view: TableView, *, compact: bool = False) -> str:
    """The SVG (a string) of the table after one step; ``compact``: the seats in a grid for a
    phone's width (:data:`COMPACT_W`), without the felt."""
    if compact:
        return _compact(view)
    n = max(len(view.seats), 1)
    return (
        '<div class="brag-table">'
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="100%" '
        f'role="img" aria-label="The table: pot {_esc(view.pot_text)}" '
        f'data-pot="{_esc(view.pot_text)}" font-family="{FONT}" '
        f'style="max-width:{W}px;display:block;margin:auto">'
        f'<ellipse cx="{CX}" cy="{CY}" rx="{RX + 16}" ry="{RY + 16}" fill="{RIM}"/>'
        f'<ellipse cx="{CX}" cy="{CY}" rx="{RX}" ry="{RY}" fill="{FELT}"/>'
        + "".join(_centre(view))
        + "".join(_seat(s, n) for s in view.seats)
        + _t(W - 8, H - 6, _seen_by(view), 13, text_anchor="end", fill=MUTED)
        + "</svg></div>"
    )


def _centre(view: TableView) -> list[str]:
    """What the felt says: the deal, the pot, :attr:`TableView.centre`'s two lines and the pots
    resolved."""
    return [
        _t(
            CX,
            CY - 44,
            f"Deal {view.deal}" if view.deal else "Before the first deal",
            17,
            text_anchor="middle",
            fill="#d8f0df",
        ),
        f'<g data-pot="{_esc(view.pot_text)}">'
        + _t(
            CX,
            CY,
            f"Pot {view.pot_text}",
            38,
            text_anchor="middle",
            fill="#ffffff",
            font_weight="700",
        )
        + "</g>",
        _t(CX, CY + 32, _short(view.centre[0], 44), 19, text_anchor="middle", fill="#d8f0df"),
        _t(
            CX,
            CY + 58,
            view.centre[1],
            18,
            text_anchor="middle",
            fill=TURN if view.turn else "#d8f0df",
        ),
        _t(
            CX,
            CY + 82,
            f"pots resolved {view.resolved} of {view.pots}"
            + (f" · carried {view.carried}" if view.carried else ""),
            14,
            text_anchor="middle",
            fill="#b9dcc5",
        ),
    ]


def _seen_by(view: TableView) -> str:
    """The corner line saying whose view this is (and the viewer's cards drawn from a note)."""
    viewer = (
        "only the cards shown"
        if view.viewer == SPECTATOR
        else f"seen by {view.viewer}"
        if view.viewer
        else "everything the log knows"
    )
    if any(h.noted for s in view.seats for h in s.hands):  # the viewer's own, remembered
        viewer += f" · {view.viewer}'s cards {FROM_NOTE}"
    return viewer


def event_list(rows: list[dict[str, object]]) -> str:
    """The events of a deal as an HTML table: step (a link to it), the sentence, the pot after it;
    the current step highlighted. ``rows`` as :func:`present.rows.event_rows` gives them, each
    with its ``link``."""
    out = [
        '<table class="brag-events" style="width:100%;border-collapse:collapse;font-size:0.95rem">'
        '<thead><tr><th style="text-align:right;padding:4px 8px">Step</th>'
        '<th style="text-align:left;padding:4px 8px">Event</th>'
        '<th style="text-align:right;padding:4px 8px">Pot</th></tr></thead><tbody>'
    ]
    for r in rows:
        current = bool(r.get("current"))
        style = "background:#fff2a8;font-weight:600" if current else ""
        mark = ' data-current="true"' if current else ""
        out.append(
            f'<tr style="{style}"{mark}>'
            f'<td style="text-align:right;padding:4px 8px;vertical-align:top">'
            f'<a href="{_esc(str(r["link"]))}" target="_self">{r["step"]}</a></td>'
            f'<td style="padding:4px 8px">{_esc(str(r["event"]))}</td>'
            f'<td style="text-align:right;padding:4px 8px;vertical-align:top">'
            f"{_esc(str(r['pot']))}</td></tr>"
        )
    out.append("</tbody></table>")
    return "".join(out)
