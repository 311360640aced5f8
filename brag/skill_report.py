"""``brag stats`` below its table (issue 37): the raw and the luck-adjusted net per deal side by
side with their 95% intervals clustered by session, the share of deals whose luck is measured,
each player against the next ("not yet distinguishable" until the interval of the difference
excludes 0, with the sessions still needed), a warning where the adjustment widens a player's
spread, the ratings with their uncertainty, and the club's skill meter. With ``--player``, the
player's rating on entering each of their last sessions. Names are data: printed inert."""

from __future__ import annotations

from typing import Any

from analytics.skill_rows import skill_pair, skill_summary
from analytics.skill_text import (
    INTERVALS,
    RATINGS,
    figure_rows,
    rating_rows,
    step_rows,
    summary_lines,
)

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


def print_skill(con: Any, console: Any, player: str | None, table: str | None) -> None:
    """Prints the skill section for every player (or ``player`` alone) over the sessions the
    statistics cover (all, or one ``table``'s)."""
    from rich.text import Text

    summary = skill_summary(con, table)
    figs = [f for f in summary.figures if player is None or f.player == player]
    if not figs:
        return

    def text(rows: list[dict[str, str]]) -> list[dict[str, Any]]:
        return [{k: Text(v) for k, v in r.items()} for r in rows]

    console.print()
    _table(console, "Skill apart from luck", text(figure_rows(figs)))
    console.print(INTERVALS, markup=False, highlight=False)
    if player is None:
        for c in summary.neighbours:
            console.print(c.sentence(), markup=False, highlight=False)
    for line in summary_lines(summary):
        if player is None or player in line or line.startswith("Skill meter"):
            console.print(line, markup=False, highlight=False)
    rated = [r for r in summary.ratings if player is None or r.player == player]
    if rated:
        console.print()
        _table(
            console, f"Ratings ({summary.rated_sessions} sessions rated)", text(rating_rows(rated))
        )
        console.print(RATINGS, markup=False, highlight=False)
    if player is not None:
        (steps,) = skill_pair(con, player, None, table).steps
        if steps:
            _table(console, f"{player}: rating on entering each session (last 20, newest first)",
                   text(step_rows(steps)))  # fmt: skip
