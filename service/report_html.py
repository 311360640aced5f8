"""The night's report as HTML (issue 36.6): one fragment (:func:`report_fragment`, what the Night
page's Report view shows) and one self-contained page to publish (:func:`report_page`: no script,
no outside file, its style inline, print CSS included).

Every text from a log (names, tables, session ids) is data, never markup: control characters
shown as escapes (:func:`events.text.inert`), then ``& < > " '`` escaped. Amounts are written as
every page writes them (:func:`events.amounts.amount_text`, stake units: ``9½``); cards as
people read them (:func:`events.cards.faces`). Only what a :class:`service.report.Report` holds
is drawn, so no hidden card and no note (see :mod:`service.report`).
"""

from __future__ import annotations

import html
from fractions import Fraction

from events.amounts import amount_text
from events.cards import faces
from events.text import inert
from service.report import Report

__all__ = ["REPORT_CSS", "report_fragment", "report_page"]

REPORT_CSS = """
.brag-report { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  color: #1a1a1a; max-width: 60rem; line-height: 1.4; }
.brag-report h1 { font-size: 1.6rem; margin: 0 0 .25rem 0; }
.brag-report h2 { font-size: 1.2rem; margin: 1.25rem 0 .4rem 0; }
.brag-report .brag-stamp { font-size: .85rem; color: #555; margin: 0 0 .5rem 0; }
.brag-report .brag-state { display: inline-block; font-size: .8rem; font-weight: 600;
  padding: .05rem .5rem; border-radius: 1rem; background: #fff3cd; color: #6b4e00;
  vertical-align: middle; }
.brag-report .brag-state.final { background: #d8f5dd; color: #17521f; }
.brag-report table { border-collapse: collapse; width: 100%; font-size: .95rem; }
.brag-report th, .brag-report td { text-align: left; padding: .3rem .5rem;
  border-bottom: 1px solid #ddd; overflow-wrap: break-word; }
.brag-report td.num, .brag-report th.num { text-align: right; white-space: nowrap; }
.brag-report a { color: #1c5fb0; }
.brag-report .brag-empty { color: #555; font-style: italic; }
@media (max-width: 40rem) { .brag-report table { font-size: .85rem; }
  .brag-report th, .brag-report td { padding: .25rem .3rem; } }
@media print {
  .brag-report { max-width: none; color: #000; font-size: 11pt; }
  .brag-report a { color: #000; text-decoration: none; }
  .brag-report tr { break-inside: avoid; }
  .brag-report h2 { break-after: avoid; }
}
"""
"""The report's look, on the page, on a phone and on paper."""


def _t(value: object) -> str:
    return html.escape(inert(str(value)), quote=True)


def _units(value: Fraction) -> str:
    return amount_text(value)  # as every page writes an amount: 9½, -2¼, -7/3


def _link(base: str, href: str, text: str) -> str:
    return f'<a href="{_t(base + href)}" target="_self">{_t(text)}</a>'


def _where(session: str, table: str | None) -> str:
    return f"{table} · {session}" if table else session


def _standings(r: Report) -> str:
    rows = "".join(
        f"<tr><td>{_t(s.player)}</td><td class='num'>{_t(_units(s.net))}</td>"
        f"<td class='num'>{s.sessions}</td><td>{_t(', '.join(s.tables))}</td></tr>"
        for s in r.night.standings
    )
    return (
        "<h2>Standings</h2><table aria-label='Standings'><thead><tr><th>Player</th>"
        "<th class='num'>Net</th><th class='num'>Sessions</th><th>Tables</th></tr></thead>"
        f"<tbody>{rows}</tbody></table>"
    )


def _pots(r: Report, base: str) -> str:
    if not r.pots:
        return "<h2>Biggest pots</h2><p class='brag-empty'>No pot won yet.</p>"
    rows = "".join(
        f"<tr><td class='num'>{_t(_units(p.amount))}</td><td>{_t(p.winner)}</td>"
        f"<td>{'showdown' if p.showdown else 'uncontested'}</td>"
        f"<td>{_t(_where(p.session, p.table))}</td>"
        f"<td>{_link(base, p.href, f'deal {p.deal}, step {p.step}')}</td></tr>"
        for p in r.pots
    )
    return (
        "<h2>Biggest pots</h2><table aria-label='Biggest pots'><thead><tr>"
        "<th class='num'>Pot</th><th>Winner</th><th>How</th><th>Session</th><th>Replay</th>"
        f"</tr></thead><tbody>{rows}</tbody></table>"
    )


def _hands(r: Report, base: str) -> str:
    if not r.hands:
        return (
            "<h2>Best hands shown</h2>"
            "<p class='brag-empty'>No hand was shown at a showdown this night.</p>"
        )
    rows = "".join(
        f"<tr><td>{_t(h.hand)}</td><td class='num'>{_t(faces(h.cards))}</td>"
        f"<td>{_t(h.player)}</td><td>{_t(_where(h.session, h.table))}</td>"
        f"<td>{_link(base, h.href, f'deal {h.deal}, step {h.step}')}</td></tr>"
        for h in r.hands
    )
    return (
        "<h2>Best hands shown</h2><table aria-label='Best hands shown'><thead><tr>"
        "<th>Hand</th><th class='num'>Cards</th><th>Player</th><th>Session</th><th>Replay</th>"
        f"</tr></thead><tbody>{rows}</tbody></table>"
    )


def report_fragment(r: Report, *, base: str = "") -> str:
    """The report as one ``<div class="brag-report">`` (no style: :data:`REPORT_CSS`), one line
    (Markdown reads it as one HTML block). ``base`` is put before each replay link
    (``"https://club.example/"``: a published page's links reach the club's dashboard; ``""``:
    relative, as on the dashboard)."""
    n = r.night
    state = f"<span class='brag-state {n.state}'>{n.state.capitalize()}</span>"
    going = [s for s in n.sessions if not s.finished]
    pot = ""
    if going:
        pot = (
            f"<p class='brag-stamp'>{len(going)} of {len(n.sessions)} sessions in progress; "
            f"{_t(_units(n.pot))} on the tables (nets + pot = 0, RULES 1.5)</p>"
        )
    parts = [
        f"<h1>Night of {n.day.isoformat()} {state}</h1>",
        f"<p class='brag-stamp'>{_t(r.stamp)} · {len(n.sessions)} sessions · amounts in "
        "stake units</p>",
        pot,
        _standings(r),
        _pots(r, base),
        _hands(r, base),
        f"<p class='brag-stamp'>{_t(r.stamp)}</p>",
    ]
    return '<div class="brag-report">' + "".join(parts) + "</div>"


def report_page(r: Report, *, base: str = "") -> str:
    """The report as a whole HTML document, self-contained (its style inline, no script, no
    outside file): what ``brag report DATE --out DIR`` writes as ``night-DATE.html``."""
    title = f"Bragbook: night of {r.night.day.isoformat()}"
    return (
        "<!doctype html>\n<html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<meta name='generator' content='Bragbook; {_t(r.stamp)}'>"
        f"<title>{_t(title)}</title><style>body {{ margin: 1rem; }}{REPORT_CSS}</style>"
        f"</head><body>{report_fragment(r, base=base)}</body></html>\n"
    )
