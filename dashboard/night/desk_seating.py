"""The desk's seating (issue 36 item 1): "Make tables" seats the players checked in
(:func:`service.seating.seat`: RULES 1.3 sizes, as even as possible, opponents of the season's
earlier nights repeated least, :func:`service.seating.history_of`) and keeps each table as a
fact of the night (:func:`service.night_facts.seat_tables`: every table in one write, the
device's token checked inside it, all stored or none); the tables are shown, and the
organiser moves a player with two selects
(:func:`service.seating.move`: refused in one line when a table would leave 2 to 10 players).

The tables are ``Table 1``, ``Table 2`` ...; making them again reseats everyone present (a table
left without a player is not shown: the night's facts keep every seat, :mod:`log.night_facts`)."""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from datetime import date
from typing import Any

import streamlit as st

from dashboard.common.escape import md
from dashboard.common.links import link, start_link
from dashboard.night import nights
from events.text import inert, normal
from log.night_facts import NightFacts, facts_of
from present.numbers import count_of
from service import night_facts as nf
from service import seating
from service.night import NightRefused, SessionNets

__all__ = ["seating_section", "tables_of"]

Write = Callable[[Callable[[Any], object], str, str], bool]


def tables_of(facts: NightFacts) -> list[tuple[str, list[str]]]:
    """The night's tables with a player (name, players in seat order), in the order made."""
    return [(t, list(ps)) for t, ps in facts.seats if ps]


def _made(day: date, write: Write, by: str) -> None:
    def act(store: Any) -> None:
        facts = facts_of(store, day)
        present = list(facts.present)
        history = seating.history_of(store, day)
        made = seating.seat(present, history, seed=facts.last)
        nf.seat_tables(store, day, [(f"Table {n}", ps) for n, ps in enumerate(made, 1)], by=by)

    write(act, "Tables made: each is kept for the night.", "seat")


def _moved(day: date, write: Write, by: str, tables: list[tuple[str, list[str]]]) -> None:
    name = str(st.session_state.get("desk_move_who") or "")
    to = str(st.session_state.get("desk_move_to") or "")

    def act(store: Any) -> None:
        if not name or not to:
            raise ValueError("pick the player and the table first")
        number = [t for t, _ in tables].index(to) + 1
        moved = seating.move([ps for _, ps in tables], name, number)
        nf.seat_table(store, day, to, moved[number - 1], by=by)

    write(act, f"{name} moved to {to}.", "seat")


def session_name(day: date, table: str, taken: set[str]) -> str:
    """A name for ``table``'s session of the night of ``day`` (``2026-12-05-table-2``; ``-2``,
    ``-3`` ... after it when the store already has that name)."""
    slug = "-".join(re.findall(r"[a-z0-9]+", table.casefold())) or "table"
    name = f"{day.isoformat()}-{slug}"
    n = 1
    while name in taken:
        n += 1
        name = f"{day.isoformat()}-{slug}-{n}"
    return name


def _table_html(
    day: date, table: str, players: list[str], played: list[tuple[str, bool]], taken: set[str]
) -> str:
    """One seated table: its players in their seats, then its sessions of the night (each with
    its link, in progress or finished) or, before any, the link that starts it."""
    names = "".join(f"<li>{html.escape(inert(p))}</li>" for p in players)
    if played:
        rows = "".join(
            f"<li><a href='{html.escape(link(s, follow='' if done else '1'), quote=True)}' "
            f"target='_self'>{html.escape(inert(s))}</a> · "
            f"{'finished' if done else 'in progress'}</li>"
            for s, done in played
        )
        after = f"<ul class='desk-played'>{rows}</ul>"
    else:
        start = html.escape(start_link(table, players, session_name(day, table, taken)), True)
        after = f"<a class='desk-start' href='{start}' target='_self'>Start its session</a>"
    return (
        f"<div class='desk-table'><b>{html.escape(inert(table))}</b> · "
        f"{count_of(len(players), 'player')}<ol>{names}</ol>{after}</div>"
    )


TABLES_CSS = """<style>
.desk-tables { display: grid; gap: .5rem; grid-template-columns: repeat(auto-fill,
  minmax(10rem, 1fr)); }
.desk-table { border: 1px solid rgba(128,128,128,.35); border-radius: .5rem; padding: .4em .7em;
  overflow-wrap: anywhere; }
.desk-table ol { margin: .25em 0 0 0; padding-left: 1.3em; }
.desk-start { display: inline-block; min-height: 44px; line-height: 44px; white-space: nowrap; }
.desk-played { margin: .25em 0 0 0; padding-left: 1.1em; }
.desk-played a { display: inline-block; min-height: 44px; line-height: 44px; }
</style>"""


def _sessions(day: date) -> tuple[SessionNets, ...]:
    """The night's sessions now (none before the first is started)."""
    try:
        return nights.night(day, nights.position(), nights.facts_position(day)).sessions
    except NightRefused:
        return ()


def _tables_html(day: date, tables: list[tuple[str, list[str]]]) -> str:
    """The seated tables as cards, each with its sessions of the night or its start link."""
    played: dict[str, list[tuple[str, bool]]] = {}
    for s in _sessions(day):
        played.setdefault(normal(s.table or ""), []).append((s.session, s.finished))
    taken = {sid for rows in played.values() for sid, _ in rows}
    body = "".join(_table_html(day, t, ps, played.get(normal(t), []), taken) for t, ps in tables)
    return TABLES_CSS.replace("\n", " ") + f"<div class='desk-tables'>{body}</div>"


def seating_section(
    day: date, facts: NightFacts, write: Write, said: Callable[[str], None], by: str
) -> None:
    """The seating: Make tables, the tables, a move (see the module docstring)."""
    with st.container(key="desk_seating"):
        st.markdown("#### Seating")
        said("seat")
        tables = tables_of(facts)
        seated = {normal(p) for _, ps in tables for p in ps}
        waiting = [p for p in facts.present if normal(p) not in seated]
        final = facts.state == "final"
        label = "Make tables again" if tables else "Make tables"
        st.button(
            label,
            key="desk_make",
            on_click=_made,
            args=(day, write, by),
            disabled=final,
            help="Seats everyone present: tables of 2 to 10, opponents repeated least.",
        )
        if waiting and tables:
            st.caption(md(f"Present, not seated: {', '.join(waiting)}."))
        if not tables:
            return
        st.markdown(_tables_html(day, tables), unsafe_allow_html=True)
        a, b = st.columns(2)
        a.selectbox("Move", sorted(p for _, ps in tables for p in ps), index=None,
                    key="desk_move_who", placeholder="player")  # fmt: skip
        b.selectbox("to", [t for t, _ in tables], index=None, key="desk_move_to",
                    placeholder="table")  # fmt: skip
        st.button("Move the player", key="desk_move", on_click=_moved,
                  args=(day, write, by, tables), disabled=final)  # fmt: skip
