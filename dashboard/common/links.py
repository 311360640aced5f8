"""The dashboard's links: a replay position (``replay?session=S&deal=D&step=K``), and the rows a
thumb opens (:class:`LinkRow`, drawn by :func:`rows_html`): the sessions of the Sessions page,
the deals of the Session page. What a replay shows is :mod:`present.replay`."""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from events.text import inert
from present.numbers import count_of

__all__ = ["LinkRow", "deal_links", "link", "rows_html", "session_links"]


def link(session: str, deal: int | None = None, step: int | None = None, **extra: str) -> str:
    """The relative link to a replay position: ``replay?session=S&deal=D&step=K``."""
    from urllib.parse import urlencode

    q: dict[str, Any] = {"session": session}
    if deal is not None:
        q["deal"] = deal
    if step is not None:
        q["step"] = step
    q.update({k: v for k, v in extra.items() if v})
    return "replay?" + urlencode(q)


def start_link(table: str, players: Sequence[str], name: str = "") -> str:
    """The relative link to the Record page's start form filled with the session's ``name`` (if
    given), ``table`` and ``players`` in their seats
    (``record?name=N&table=T&player=A&player=B``; the form takes them once)."""
    from urllib.parse import urlencode

    first = [("name", name)] if name else []
    return "record?" + urlencode([*first, ("table", table), *(("player", p) for p in players)])


# --- rows a thumb opens ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LinkRow:
    """One row of a list of links: the whole row (``title`` and its ``details``, one line each)
    opens ``href``; ``side``, ``(href, label)``, is a second link at the row's end."""

    href: str
    title: str
    details: tuple[str, ...] = ()
    side: tuple[str, str] | None = None


ROWS_CSS = """<style>
.brag-rows { list-style: none; margin: 0 0 1rem 0; padding: 0; display: grid; gap: 0.5rem;
  grid-template-columns: repeat(auto-fill, minmax(min(100%, 22rem), 1fr)); }
.brag-rows li.brag-row { display: flex; margin: 0; padding: 0;
  border: 1px solid rgba(128, 128, 128, 0.35); border-radius: 0.5rem; overflow: hidden; }
.brag-rows a { text-decoration: none; color: inherit; min-height: 44px; }
.brag-rows a.brag-main { flex: 1 1 auto; min-width: 0; display: block; padding: 0.5rem 0.75rem; }
.brag-rows a:hover, .brag-rows a:focus-visible { background: rgba(128, 128, 128, 0.12); }
.brag-rows .brag-title { display: block; font-weight: 600; color: #1c5fb0;
  overflow-wrap: anywhere; }
.brag-rows .brag-detail { display: block; font-size: 0.875rem; opacity: 0.8;
  overflow-wrap: anywhere; }
.brag-rows a.brag-side { flex: 0 0 auto; display: flex; align-items: center; padding: 0 0.75rem;
  border-left: 1px solid rgba(128, 128, 128, 0.35); font-size: 0.875rem; color: #1c5fb0; }
@media (max-width: 640px) { [class*="st-key-brag-box-"], div:has(> [class*="st-key-brag-box-"]) {
  height: auto !important; max-height: none !important; overflow: visible !important; } }
</style>"""
"""The rows' look: a block per row, its whole width a link at least 44 px high (a thumb's
target), text wrapping rather than running off the screen's right edge; one column on a phone,
as many as fit on a wide screen; a long list's own box (``dashboard.common.ui.link_box``, its
key starting :data:`BOX_KEY`) scrolls on its own on a wide screen only: on a phone a scroll box
inside the page traps the thumb (28 flicks to get past 230 rows), so there the rows are part
of the page, a page of them at a time."""

BOX_KEY = "brag-box-"
"""The start of the key of a box of rows (``st.container(key=...)``, its class
``st-key-<key>``), which :data:`ROWS_CSS` sizes on a phone."""


def _text(value: object) -> str:
    """Text from a log or a user as HTML text: control characters shown as escapes
    (:func:`events.text.inert`, so no line ends the HTML block), then ``& < > " '`` escaped."""
    return html.escape(inert(str(value)), quote=True)


def rows_html(rows: Sequence[LinkRow], label: str) -> str:
    """The HTML of ``rows`` as a list named ``label`` (its ``aria-label``), with its style
    (:data:`ROWS_CSS`): plain links, opened in this tab by one tap. Every text and address is
    escaped (names and ids are data, never markup); the whole is one line, so Markdown reads it
    as one raw HTML block and never as Markdown."""
    items = []
    for r in rows:
        lines = f'<span class="brag-title">{_text(r.title)}</span>' + "".join(
            f'<span class="brag-detail">{_text(d)}</span>' for d in r.details
        )
        side = ""
        if r.side is not None:
            side = (
                f'<a class="brag-side" href="{_text(r.side[0])}" target="_self">'
                f"{_text(r.side[1])}</a>"
            )
        items.append(
            f'<li class="brag-row"><a class="brag-main" href="{_text(r.href)}" target="_self">'
            f"{lines}</a>{side}</li>"
        )
    return (
        ROWS_CSS.replace("\n", " ")
        + f'<ul class="brag-rows" aria-label="{_text(label)}">'
        + "".join(items)
        + "</ul>"
    )


def session_links(infos: Sequence[Any], *, results: bool) -> list[LinkRow]:
    """One row per session (:class:`~store.records.SessionInfo`), newest first: a tap opens its
    replay at deal 1, step 1, or, for a session in progress, following it live at its latest
    step (``follow=1``: :func:`dashboard.replay.widgets.following`); its side link, the Session
    page. Without ``results`` a row names
    no player (the winner is one of them) and says nothing of who won: when, where, how many
    players, deals and pots, finished or not. With ``results`` it adds the players and the
    winners (every player with the highest net, RULES 1.5)."""
    from urllib.parse import urlencode

    out = []
    for i in sorted(infos, key=lambda i: (i.started is None, i.started), reverse=True):
        when = i.started.strftime("%Y-%m-%d %H:%M") if i.started else "date not recorded"
        where = f"table {i.table}" if i.table else "no table"
        pots = f"{count_of(i.resolved_pots, 'pot')} resolved"
        if i.carried_pots:
            pots += f", {i.carried_pots:,} carried"
        details = [
            f"{when} · {where}",
            f"{count_of(len(i.players), 'player')} · {count_of(i.deals, 'deal')} · {pots} · "
            + ("finished" if i.finished else "in progress"),
        ]
        if results:
            details.append("Players: " + ", ".join(i.players))
            if i.finished and i.winners:
                shared = " (shared, RULES 1.5)" if len(i.winners) > 1 else ""
                details.append("Won by " + ", ".join(i.winners) + shared)
        out.append(
            LinkRow(
                href=link(i.session, follow="1") if not i.finished else link(i.session, 1, 1),
                title=f"▶ {i.session}",
                details=tuple(details),
                side=("session?" + urlencode({"session": i.session}), "Session"),
            )
        )
    return out


def _deal_result(r: dict[str, Any]) -> str:
    """``"Sandra wins 14 at the showdown with a flush: 7♦ Q♦ 8♦"``, ``"Ann wins 9 uncontested"``,
    ``"carried forward (2 blind) · pot 12"``, ``"in progress · pot 6"``."""
    if not r["winner"]:
        return f"{r['result']} · pot {r['pot']}"
    how = "at the showdown" if r["result"] == "showdown" else r["result"]
    hand = f" with {r['hand']}" if r["hand"] else ""
    cards = f": {r['cards']}" if r["cards"] else ""
    return f"{r['winner']} wins {r['pot']} {how}{hand}{cards}"


def deal_links(session: str, rows: Sequence[dict[str, Any]], *, results: bool) -> list[LinkRow]:
    """One row per deal (:func:`present.replay.deal_rows`): a tap opens its replay at step 1.
    Without ``results`` only who deals and its steps (as the replay's spoiler-free deal picker
    says it); with them the pot carried in, the result, the winner and the hand shown."""
    out = []
    for r in rows:
        details = [f"{r['dealer']} deals" if r["dealer"] else "no dealer yet"]
        if results and r.get("carried_in"):  # says how the deal before it ended
            details[0] += f" · {r['carried_in']} carried in"
        details[0] += f" · {count_of(int(r.get('steps') or 0), 'step')}"
        if results:
            details.append(_deal_result(r))
        out.append(
            LinkRow(
                href=link(session, int(r["deal"]), 1),
                title=f"▶ Deal {r['deal']}",
                details=tuple(details),
            )
        )
    return out
