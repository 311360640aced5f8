"""Rich tables that fit the terminal: split into parts rather than cut to ``…``."""

from __future__ import annotations

from typing import Any

__all__ = ["fitted_tables"]


def _table(
    title: str, headers: list[tuple[str, str]], rows: list[list[str]], **options: Any
) -> Any:
    from rich.table import Table

    table = Table(title=title, **options)
    for text, justify in headers:
        table.add_column(text, justify=justify)  # type: ignore[arg-type]
    for r in rows:
        table.add_row(*r)
    return table


def fitted_tables(
    console: Any,
    title: str,
    headers: list[tuple[str, str]],
    rows: list[list[str]],
    **options: Any,
) -> list[Any]:
    """The table, or, when it is wider than the console, several tables of consecutive columns,
    each led by the first (key) column, so that every cell is shown whole (rich would otherwise
    squeeze 17 statistics into an 80-column terminal as ``…``). Later parts are titled
    "(continued)". ``headers``: (text, justify) per column; ``rows``: the cells as text;
    ``options``: for each ``rich.table.Table``."""
    from rich.measure import Measurement

    def width(cols: list[int]) -> int:
        t = _table("", [headers[c] for c in cols], [[r[c] for c in cols] for r in rows])
        return Measurement.get(console, unlimited, t).maximum

    unlimited = console.options.update_width(1_000_000)
    groups: list[list[int]] = [[0]]
    for c in range(1, len(headers)):
        if len(groups[-1]) > 1 and width([*groups[-1], c]) > console.width:
            groups.append([0])
        groups[-1].append(c)
    return [
        _table(
            title if k == 0 else f"{title} (continued)" if title else "",
            [headers[c] for c in cols],
            [[r[c] for c in cols] for r in rows],
            **options,
        )
        for k, cols in enumerate(groups)
    ]
