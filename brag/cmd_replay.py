"""``brag replay SESSION [--deal N]``: the events step by step with the pot, the level, whose turn
it is and each player's status and what they paid in the deal (``present.replay.step_table``,
printed as a rich table, or step by step on a terminal too narrow for it)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from rich.cells import cell_len
from rich.table import Table

from brag.store_access import open_event_store, store_console
from brag.tables import plain_width
from events.errors import StoreError, UnknownSession
from present.numbers import count_of
from present.replay import Replay, StepTable, step_table

if TYPE_CHECKING:
    from rich.console import JustifyMethod

__all__ = ["cmd_replay", "register"]


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "replay",
        parents=[common],
        help="step through a stored session in the terminal",
        description="Every event of SESSION (or of deal N) with the pot, the level, whose turn "
        "it is, and for each player: blind, seen, folded or two hands, and what they have paid "
        "in this deal.",
    )
    p.add_argument("session", help="the session id (see brag sessions)")
    p.add_argument("--deal", type=int, metavar="N", help="only deal N (1-based)")
    p.set_defaults(func=cmd_replay)


def _packed(items: list[str], width: int, sep: str = "; ") -> list[str]:
    """``items`` joined by ``sep`` into lines of at most ``width`` cells, never breaking an item
    (one longer than ``width`` gets a line of its own)."""
    lines: list[str] = []
    for item in items:
        if lines and cell_len(lines[-1] + sep + item) <= width:
            lines[-1] += sep + item
        else:
            lines.append(item)
    return lines


def cmd_replay(args: argparse.Namespace) -> int:
    with open_event_store(args) as store:
        t = store.timeline(args.session)  # a tampered stream: one line, session and seq
    if not t.last_seq:
        raise UnknownSession(args.session)
    last = t.state
    if args.deal is not None and not 1 <= args.deal <= last.deals:
        raise StoreError(
            f"session {args.session!r} has {count_of(last.deals, 'deal')}; "
            f"there is no deal {args.deal}"
        )
    table = step_table(Replay.from_timeline(t, recorded=True), args.deal)
    console = store_console()
    _print_steps(console, table)
    console.print(table.summary)
    return 0


def _print_steps(console: Any, tab: StepTable) -> None:
    """The steps as a table, a column per player; on a terminal too narrow for that, each step
    as a few lines, nothing cut."""
    whole = tab.deal is None
    t = Table(title=tab.title, title_justify="left")
    cols: tuple[tuple[str, JustifyMethod], ...] = (
        ("step", "right"),
        ("event", "left"),
        ("pot", "right"),
        ("level", "right"),
    )
    if whole:
        cols = (("deal", "right"), *cols)
    for col, just in cols:
        t.add_column(col, justify=just)
    t.add_column("turn")
    for name in tab.seats:
        t.add_column(name)
    cells = [
        [*([str(r.deal)] if whole else []), r.step, r.text, r.pot, r.level, r.turn, *r.seats]
        for r in tab.rows
    ]
    for r, row in zip(tab.rows, cells, strict=True):
        t.add_row(*row, style=_style(r))
    # rich's own measure of the table took ~90 ms (every cell through Padding and Measurement).
    if plain_width([c for c, _ in cols] + ["turn", *tab.seats], cells) <= console.width:
        console.print(t)
        return
    _print_stacked(console, tab)


def _style(r: Any) -> str | None:
    """A withdrawn step struck through (it keeps its place and number); a conclusion in bold."""
    return "strike dim" if r.withdrawn else "bold" if r.derived else None


def _print_stacked(console: Any, tab: StepTable) -> None:
    """Each step as a few lines (the title, then per step: its number and sentence, the pot,
    level and turn, the players packed to the console's width), for a terminal too narrow for
    the table."""
    whole = tab.deal is None
    console.print(tab.title, style="italic", soft_wrap=True)
    deal_shown = -1
    for r in tab.rows:
        if whole and r.deal != deal_shown:
            deal_shown = r.deal
            console.print(f"deal {r.deal}" if r.deal else "before the first deal")
        console.print(f"{r.step:>4}  {r.text}", style=_style(r))
        where = f"pot {r.pot}" + (f", level {r.level}" if r.level else "")
        where += f", {r.turn} to act" if r.turn else ""
        console.print(f"      {where}")
        people = [f"{n}: {c}" for n, c in zip(tab.seats, r.seats, strict=True) if c]
        for line in _packed(people, console.width - 6):
            console.print("      " + line, soft_wrap=True)
