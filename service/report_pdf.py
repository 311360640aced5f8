"""The night's report as a PDF (issue 36.6), drawn with fpdf2 from a :class:`service.report.Report`:
the same three tables as the HTML (:mod:`service.report_html`), and on every page's foot the
stamp (``made from log position N, rules R``) and the page number.

Text is drawn in DejaVu Sans when the system has it (every name and the suits' symbols), else in
the PDF's own Helvetica with what Latin-1 cannot write shown as ``?`` and the cards written
``Qh 9c Qs``. A replay step is a link when ``base`` (the dashboard's address) is given.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

from events.amounts import amount_text
from events.cards import faces
from events.text import inert
from service.night import Standing
from service.report import Report

__all__ = ["report_pdf"]

_FONTS = (
    Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
    Path("/usr/share/fonts/TTF/DejaVuSans.ttf"),
)


def _units(value: Fraction) -> str:
    return amount_text(value)  # as every page writes an amount: 9½, -2¼, -7/3


def _tables(s: Standing) -> str:
    return ", ".join(s.tables)


class _Doc:
    """One PDF being drawn: the font chosen once, text made writable in it."""

    def __init__(self, stamp: str) -> None:
        from fpdf import FPDF

        stamp_text = stamp

        class _Pdf(FPDF):
            def footer(self) -> None:
                self.set_y(-12)
                self.set_font(size=8)
                self.cell(0, 6, f"{doc.text(stamp_text)} · page {self.page_no()}", align="C")

        doc = self
        self.pdf: Any = _Pdf(format="A4")
        font = next((p for p in _FONTS if p.is_file()), None)
        self.unicode = font is not None
        if font is not None:
            self.pdf.add_font("DejaVu", "", str(font))
            self.pdf.add_font("DejaVu", "B", str(font))
            self.pdf.set_font("DejaVu", size=10)
        else:
            self.pdf.set_font("Helvetica", size=10)
        self.pdf.set_auto_page_break(auto=True, margin=16)
        self.pdf.add_page()

    def text(self, value: object) -> str:
        out = inert(str(value))
        if not self.unicode:
            out = out.encode("latin-1", "replace").decode("latin-1")
        return out

    def cards(self, cards: tuple[str, ...]) -> str:
        return faces(cards) if self.unicode else " ".join(cards)

    def heading(self, text: str, size: int) -> None:
        self.pdf.set_font(size=size, style="B")
        self.pdf.multi_cell(0, size * 0.5, self.text(text), new_x="LMARGIN", new_y="NEXT")
        self.pdf.set_font(size=10, style="")
        self.pdf.ln(1)

    def line(self, text: str) -> None:
        self.pdf.multi_cell(0, 5, self.text(text), new_x="LMARGIN", new_y="NEXT")

    def table(self, head: list[str], rows: list[list[tuple[str, str | None]]]) -> None:
        with self.pdf.table(text_align="LEFT", line_height=5.5, first_row_as_headings=True) as t:
            h = t.row()
            for cell in head:
                h.cell(self.text(cell))
            for r in rows:
                row = t.row()
                for text, link in r:
                    row.cell(self.text(text), link=link) if link else row.cell(self.text(text))
        self.pdf.ln(2)


def report_pdf(r: Report, *, base: str = "") -> bytes:
    """The report as PDF bytes (A4). ``base`` (an absolute address of the dashboard) makes each
    replay step a link; without it the step is named only (a PDF has no page to be relative to).
    Raises ``ModuleNotFoundError`` when fpdf2 is not installed (``pip install fpdf2``)."""
    n = r.night
    doc = _Doc(r.stamp)
    doc.heading(f"Night of {n.day.isoformat()} ({n.state})", 16)
    doc.line(f"{r.stamp} · {len(n.sessions)} sessions · amounts in stake units")
    going = [s for s in n.sessions if not s.finished]
    if going:
        doc.line(
            f"{len(going)} of {len(n.sessions)} sessions in progress; {_units(n.pot)} on the "
            "tables (nets + pot = 0, RULES 1.5)"
        )
    doc.heading("Standings", 12)
    doc.table(
        ["Player", "Net", "Sessions", "Tables"],
        [
            [(s.player, None), (_units(s.net), None), (str(s.sessions), None), (_tables(s), None)]
            for s in n.standings
        ],
    )
    doc.heading("Biggest pots", 12)
    if not r.pots:
        doc.line("No pot won yet.")
    else:
        doc.table(
            ["Pot", "Winner", "How", "Session", "Replay"],
            [
                [
                    (_units(p.amount), None),
                    (p.winner, None),
                    ("showdown" if p.showdown else "uncontested", None),
                    (f"{p.table} · {p.session}" if p.table else p.session, None),
                    (f"deal {p.deal}, step {p.step}", base + p.href if base else None),
                ]
                for p in r.pots
            ],
        )
    doc.heading("Best hands shown", 12)
    if not r.hands:
        doc.line("No hand was shown at a showdown this night.")
    else:
        doc.table(
            ["Hand", "Cards", "Player", "Session", "Replay"],
            [
                [
                    (h.hand, None),
                    (doc.cards(h.cards), None),
                    (h.player, None),
                    (f"{h.table} · {h.session}" if h.table else h.session, None),
                    (f"deal {h.deal}, step {h.step}", base + h.href if base else None),
                ]
                for h in r.hands
            ],
        )
    return bytes(doc.pdf.output())
