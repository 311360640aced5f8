"""``brag stats`` below its table (issue 37), in a club player's words
(:mod:`analytics.skill_text`): the net per deal with the luck of the cards taken out and as won,
each give or take (a 95% interval clustered by session), the share of deals whose luck is known,
each player against the next over the sessions both played ("too close to call yet" until the
range of the difference excludes 0, with the sessions still needed; "never met" for neighbours
who never sat at the same table), a warning where taking the luck out makes a figure swing more,
the ratings give or take, and how much of the spread between players is skill. With ``--player``,
the player's rating on entering each of their last sessions. The technical names are in
docs/skill.md. Names are data: printed inert."""

from __future__ import annotations

from typing import Any

from analytics.skill_rows import skill_pair, skill_summary
from analytics.skill_text import (
    INTERVALS,
    RATINGS,
    figure_rows,
    meter_sentence,
    rating_rows,
    step_rows,
    widening_lines,
)
from present.numbers import count_of

__all__ = ["print_skill"]


def _table(console: Any, title: str, rows: list[dict[str, str]]) -> None:
    from rich.table import Table

    if not rows:
        return
    t = Table(title=title, title_justify="left", show_lines=False)
    for col in rows[0]:
        t.add_column(col, justify="left" if col in ("player", "session") else "right")
    for r in rows:
        t.add_row(*r.values())  # Text cells below: never markup
    console.print(t)


def _text(rows: list[dict[str, str]]) -> list[dict[str, Any]]:
    from rich.text import Text

    return [{k: Text(v) for k, v in r.items()} for r in rows]


def _say(console: Any, line: str) -> None:
    console.print(line, markup=False, highlight=False)


def _neighbours(console: Any, neighbours: Any) -> None:
    """Each player against the next, over the sessions both played ("never met" otherwise)."""
    if neighbours:
        console.print()
        _say(console, "Who is ahead (each player against the next, at the same table):")
    for c in neighbours:
        _say(console, c.sentence())


def print_skill(con: Any, console: Any, player: str | None, table: str | None) -> None:
    """Prints the skill section for every player (or ``player`` alone) over the sessions the
    statistics cover (all, or one ``table``'s)."""
    from events.text import normal

    summary = skill_summary(con, table)
    want = None if player is None else normal(player)  # "ann" is Ann (the statistics' key)
    figs = [f for f in summary.figures if want is None or normal(f.player) == want]
    if not figs:
        return
    player = None if player is None else figs[0].player
    console.print()
    _table(console, "Skill apart from luck", _text(figure_rows(figs)))
    _say(console, INTERVALS)
    if player is None:
        _neighbours(console, summary.neighbours)
    for line in widening_lines(figs):
        _say(console, line)
    console.print()
    _say(console, meter_sentence(summary.meter))
    rated = [r for r in summary.ratings if player is None or r.player == player]
    if rated:
        console.print()
        title = f"Ratings ({count_of(summary.rated_sessions, 'session')} rated)"
        _table(console, title, _text(rating_rows(rated)))
        _say(console, RATINGS + " (How it is worked out: docs/skill.md.)")
    if player is not None:
        (steps,) = skill_pair(con, player, None, table).steps
        title = f"{player}: rating on entering each session (last 20, newest first)"
        _table(console, title, _text(step_rows(steps)))
