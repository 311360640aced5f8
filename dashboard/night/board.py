"""The Night page's live board as HTML (a view model: no Streamlit): the standings across the
night's tables (issue 36.3), each table's session with its link to follow it live, the pot on the
tables, "Provisional" while the night is, and who pays whom once money in equals money out
(issue 36.5, :func:`service.night.settle`: in the club's money once the director set the night's
stake, :func:`money_text` as ``brag night --settle`` prints it), else one line saying why not;
a final night's sessions corrected since, one line each.

Every text from a log (names, tables, session ids, a refusal naming them) is data: control
characters shown as escapes, then HTML-escaped (:func:`_t`). Amounts as the commands write them
(:func:`events.amounts.amount_text`, stake units). Each function returns one line of HTML
(Markdown reads it as one raw block)."""

from __future__ import annotations

import html
from fractions import Fraction

from dashboard.common.links import link
from events.amounts import amount_text, money_text
from events.text import inert
from service.night import Night, NightRefused, SessionNets, Transfer, settle

__all__ = [
    "BOARD_CSS",
    "TV_CSS",
    "board_html",
    "corrections_html",
    "money_text",
    "parse_money",
    "settlement_html",
    "settlement_of",
]

BOARD_CSS = """<style>
.brag-board { --fg: inherit; font-size: 1rem; line-height: 1.35; }
.brag-board .nb-head { display: flex; flex-wrap: wrap; align-items: baseline; gap: .25rem .75rem;
  margin: 0 0 .5rem 0; }
.brag-board .nb-title { font-size: 1.5em; font-weight: 700; margin: 0; }
.brag-board .nb-state { font-size: .8em; font-weight: 700; padding: .1em .6em; border-radius: 1em;
  background: #fff3cd; color: #6b4e00; }
.brag-board .nb-state.final { background: #d8f5dd; color: #17521f; }
.brag-board .nb-stamp { font-size: .8em; opacity: .75; }
.brag-board .nb-grid { display: grid; gap: 1rem; grid-template-columns: minmax(0, 1fr); }
@media (min-width: 56rem) { .brag-board .nb-grid { grid-template-columns: minmax(0, 3fr)
  minmax(0, 2fr); } }
.brag-board h3 { font-size: 1.1em; margin: .9em 0 .4em 0; padding: 0; }
.brag-board .nb-grid h3:first-child { margin-top: .25em; }
.brag-board table { border-collapse: collapse; width: 100%; }
.brag-board th, .brag-board td { text-align: left; padding: .3em .45em;
  border-bottom: 1px solid rgba(128, 128, 128, .3); overflow-wrap: break-word; }
.brag-board th { font-size: .8em; opacity: .8; font-weight: 600; }
.brag-board .num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
.brag-board .pos { color: #17751f; } .brag-board .neg { color: #b3261e; }
.brag-board ul.nb-tables { list-style: none; margin: 0; padding: 0; display: grid; gap: .5rem; }
.brag-board ul.nb-tables li { border: 1px solid rgba(128, 128, 128, .35); border-radius: .5rem;
  padding: .4em .7em; margin: 0; display: flex; align-items: center; gap: .5em; }
.brag-board ul.nb-tables li > div { flex: 1 1 auto; min-width: 0; }
.brag-board .nb-table { font-weight: 700; overflow-wrap: anywhere; }
.brag-board .nb-session { font-size: .8em; opacity: .75; overflow-wrap: anywhere; }
.brag-board .nb-pot { font-weight: 700; }
.brag-board a.nb-follow { flex: 0 0 auto; display: inline-block; min-height: 44px;
  line-height: 44px; padding: 0 .25em; color: #1c5fb0; text-decoration: none; font-weight: 600;
  white-space: nowrap; }
.brag-board .nb-line { margin: .5rem 0; }
.brag-board ol.nb-pays { margin: 0; padding-left: 1.4em; }
.brag-board ul.nb-fixed { margin: .25rem 0 .5rem 0; padding-left: 1.2em; font-size: .9em; }
.brag-board ul.nb-fixed li { overflow-wrap: anywhere; }
</style>"""
"""The board's look: one column on a phone, standings beside the tables on a wide screen; every
link at least 44 px high (a thumb's target)."""

TV_CSS = """<style>
[data-testid="stSidebar"], [data-testid="stHeader"], [data-testid="stSidebarCollapsedControl"],
[data-testid="stToolbar"], [data-testid="stDecoration"] { display: none !important; }
[data-testid="stMainBlockContainer"], .block-container { padding: 1rem 1.5rem !important;
  max-width: none !important; }
.brag-board.tv { font-size: clamp(1rem, 1.45vw, 2.4rem); }
.brag-board.tv .nb-grid { grid-template-columns: minmax(0, 1fr); }
@media (min-width: 40rem) { .brag-board.tv .nb-grid { grid-template-columns: minmax(0, 3fr)
  minmax(0, 2fr); } }
.brag-board.tv a.nb-follow { display: none; }
</style>"""
"""The display for a TV (``display=tv``): no sidebar, header or toolbar, the board's type grown
with the screen's width, so a night of a dozen players fits 1920x1080; on a phone it stacks."""


def parse_money(text: str, what: str) -> Fraction:
    """``text`` (``"0.50"``, ``"1/2"``, ``"2"``) as exact money above 0. Raises ``ValueError``
    with one line naming ``what`` otherwise."""
    got = text.strip()
    try:
        value = Fraction(got)
    except (ValueError, ZeroDivisionError):
        value = None
    if value is None or value <= 0 or len(got) > 20:
        raise ValueError(f"{what} {got!r}: give money above 0, as a decimal (0.50) or a fraction")
    return value


def _t(value: object) -> str:
    return html.escape(inert(str(value)), quote=True)


def _units(value: Fraction) -> str:
    return amount_text(value)  # as every page writes an amount: 9½, -2¼, -7/3


def _signed(value: Fraction) -> str:
    text = _units(value)
    if value > 0:
        return f"<span class='pos'>+{_t(text)}</span>"
    if value < 0:
        return f"<span class='neg'>{_t(text)}</span>"
    return _t(text)


def _standings(night: Night) -> str:
    rows = "".join(
        f"<tr><td class='num'>{n}</td><td>{_t(s.player)}</td>"
        f"<td class='num'>{_signed(s.net)}</td><td class='num'>{s.sessions}</td>"
        f"<td>{_t(', '.join(s.tables))}</td></tr>"
        for n, s in enumerate(night.standings, 1)
    )
    return (
        "<h3>Standings</h3><table aria-label='Standings'><thead><tr><th class='num'>#</th>"
        "<th>Player</th><th class='num'>Net</th><th class='num'>Sessions</th><th>Tables</th>"
        f"</tr></thead><tbody>{rows}</tbody></table>"
    )


def _table(s: SessionNets) -> str:
    name = s.table if s.table else "no table"
    if s.finished:
        status, href, go = "finished", link(s.session, 1, 1), "Replay ▶"
    else:
        status = f"in progress · <span class='nb-pot'>pot {_t(_units(s.pot))}</span> on the table"
        href, go = link(s.session, follow="1"), "Follow live ▶"
    return (
        f"<li data-session='{_t(s.session)}'><div><div class='nb-table'>{_t(name)}</div>"
        f"<div class='nb-session'>{_t(s.session)}</div><div>{status}</div></div>"
        f"<a class='nb-follow' href='{_t(href)}' target='_self'>{go}</a></li>"
    )


def settlement_of(night: Night) -> tuple[tuple[Transfer, ...] | None, str]:
    """Who pays whom (at most n-1 transfers: in the club's money at the night's stake when the
    director set one, :attr:`log.night_facts.NightFacts.stake`, else in stake units), and the
    line above it; ``None`` and the one line saying why not while money in is not money out (a
    pot on a table, RULES 1.4, 6.1: :func:`service.night.settle` refuses)."""
    on = [s for s in night.sessions if s.pot != 0]
    if on:
        where = ", ".join(f"{s.table or s.session} {_units(s.pot)}" for s in on)
        return None, (
            f"No settlement yet: money in is not money out while a pot is on a table ({where}; "
            "RULES 1.4, 6.1)."
        )
    stake = night.facts.stake
    try:
        transfers = settle(night, None if stake is None else stake.money)
    except NightRefused as err:
        return None, f"No settlement yet: {err}."
    if not transfers:
        return transfers, "Money in equals money out: everyone is square."
    if stake is None:
        return transfers, "Money in equals money out. Who pays whom (stake units):"
    return transfers, (
        f"Money in equals money out. Who pays whom (money, at {money_text(stake.money)} a "
        "stake unit):"
    )


def settlement_html(night: Night) -> str:
    """The settlement's part of the board (see :func:`settlement_of`)."""
    transfers, line = settlement_of(night)
    shown = _units if night.facts.stake is None else money_text
    out = f"<h3>Who pays whom</h3><p class='nb-line'>{_t(line)}</p>"
    if transfers:
        out += (
            "<ol class='nb-pays' aria-label='Who pays whom'>"
            + "".join(
                f"<li>{_t(t.payer)} pays {_t(t.payee)} <b>{_t(shown(t.amount))}</b></li>"
                for t in transfers
            )
            + "</ol>"
        )
    return out


def corrections_html(night: Night) -> str:
    """A final night's sessions changed since it was finalised, one line each
    (:meth:`service.night.Correction.text`: "corrected after final: session S deal 2 step 7
    (replace): Ann -3 -> 2"); ``""`` when none."""
    if night.facts.state == "final" and night.state != "final":
        going = ", ".join(s.table or s.session for s in night.sessions if not s.finished)
        again = (
            f"<p class='nb-note'>Finalised, then a correction put a pot back on a table: "
            f"{_t(going)} is in progress again (RULES 1.4). The night is final again once the "
            "director finalises it after that session is over.</p>"
        )
    else:
        again = ""
    if not night.corrections:
        return again
        return ""
    lines = "".join(f"<li>{_t(c.text())}</li>" for c in night.corrections)
    return f"{again}<ul class='nb-fixed' aria-label='Corrected after final'>{lines}</ul>"


def board_html(night: Night, position: int, *, tv: bool = False) -> str:
    """The whole board of ``night`` as read at the store's ``position``: title and state
    ("Provisional" until the night is final), the standings, the tables (each session's pot and
    its link: follow it live on the Replay page while in progress, ``follow=1``), the pot on the
    tables (nets + pot = 0, RULES 1.5) and the settlement. ``tv``: the TV display's classes
    (:data:`TV_CSS`); its links are not drawn (nobody taps a TV)."""
    state = night.state
    going = [s for s in night.sessions if not s.finished]
    pot = (
        f"{len(going)} of {len(night.sessions)} tables playing · "
        f"<span class='nb-pot' data-pot='{_t(_units(night.pot))}'>"
        f"{_t(_units(night.pot))} on the tables</span> (nets + pot = 0)"
        if going
        else f"all {len(night.sessions)} sessions finished"
        if len(night.sessions) != 1
        else "its one session finished"
    )
    head = (
        f"<div class='nb-head'><p class='nb-title'>Night of {night.day.isoformat()}</p>"
        f"<span class='nb-state {state}'>{state.capitalize()}</span>"
        f"<span class='nb-stamp'>{pot} · nets in stake units · log position {position}</span></div>"
        + corrections_html(night)
    )
    tables = "".join(_table(s) for s in night.sessions)
    right = (
        f"<h3>Tables</h3><ul class='nb-tables' aria-label='Tables'>{tables}</ul>"
        + settlement_html(night)
    )
    cls, style = "brag-board", ""
    if tv:  # the type shrinks with a long list, so the whole night fits one screen
        cls += " tv"
        rows = max(len(night.standings), len(night.sessions) * 2.2) + 4
        style = f" style='font-size: clamp(.8rem, {min(1.45, 1.45 * 15 / rows):.2f}vw, 2.4rem)'"
    body = f"<div class='nb-grid'><div>{_standings(night)}</div><div>{right}</div></div>"
    return (BOARD_CSS + (TV_CSS if tv else "")).replace("\n", " ") + (
        f"<div class='{cls}'{style} aria-label='The night board'>{head}{body}</div>"
    )
