"""Rich tables that fit the terminal: split into parts rather than cut to ``…``."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, cast

from rich.cells import cell_len
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from brag.console import shown

if TYPE_CHECKING:
    from rich.console import JustifyMethod

__all__ = ["fitted_tables", "natural_width", "plain_width"]


def _table(
    title: str,
    headers: list[tuple[str, str]],
    rows: list[list[str]],
    *,
    fit: int | None = None,
    **options: Any,
) -> Any:
    """The rich table. Given ``fit`` (the console's width; only for rich's default box and
    padding, no lines between rows, cells of one line) and when the table is no wider, the rows
    are one row of cells of one line per row: rich renders it line for line as it renders the
    rows, at a fraction of the cost (it measures, pads and crops each cell: 226 rows of 8
    columns took ~170 ms). A table rich must wrap keeps its rows: a wrapped cell would push its
    later lines out of their rows."""
    table = Table(title=title, **options)
    for text, justify in headers:
        # headers are (text, "left" | "right" ...): the justify rich takes, spelt as a str
        table.add_column(text, justify=cast("JustifyMethod", justify))
    if fit is not None and rows:
        # Each line made inert here, as SafeConsole's render_str makes a cell (it would escape
        # the newlines that join them); the width is that of the text shown.
        columns = [[shown(r[c]) for r in rows] for c in range(len(headers))]
        if _box_width(_widest([shown(h[0]) for h in headers], columns)) <= fit:
            table.add_row(*(Text("\n".join(col), no_wrap=True) for col in columns))
            return table
    for r in rows:
        table.add_row(*r)
    return table


def natural_width(console: Any, renderable: Any) -> int:
    """The width ``renderable`` takes when nothing limits it (rich's measurement)."""
    unlimited = console.options.update_width(1_000_000)
    return Measurement.get(console, unlimited, renderable).maximum


def plain_width(headers: list[str], rows: list[list[str]]) -> int:
    """The width a table of rich's default box and padding takes when nothing limits it (what
    :func:`natural_width` measures of it, without measuring each cell through rich): each column
    its widest cell as a :class:`~brag.safe_console.SafeConsole` shows it (inert, one line) + 2 of
    padding + 1 rule, + 1. ``headers``, ``rows``: the cells as text."""
    columns = [[shown(r[c]) for r in rows] for c in range(len(headers))]
    return _box_width(_widest([shown(h) for h in headers], columns))


def _widest(headers: list[str], columns: list[list[str]]) -> list[int]:
    """Each column's widest cell in terminal cells, its header's included (the text as shown)."""
    return [max(cell_len(t) for t in [h, *col]) for h, col in zip(headers, columns, strict=True)]


def _box_width(widths: Iterable[int]) -> int:
    """The width of rich's default box around columns of these widths: each column + 2 of
    padding + 1 rule, + 1."""
    return sum(w + 3 for w in widths) + 1


def fitted_tables(
    console: Any,
    title: str,
    headers: list[tuple[str, str]],
    rows: list[list[str]],
    *,
    keys: int = 1,
    **options: Any,
) -> list[Any]:
    """The table, or, when it is wider than the console, several tables of consecutive columns,
    each led by the first ``keys`` columns (what names a row: the player; the session and the
    player), so that cells are shown whole rather than squeezed to ``…`` (17 statistics on an
    80-column terminal). A column too wide to share a part with the keys gets a part of its own,
    where rich wraps it as it must. Later parts are titled "(continued)". ``headers``: (text,
    justify) per column; ``rows``: the cells as text; ``options``: for each ``rich.table.Table``.
    No rows: one table of the headers."""

    plain = not {"box", "padding", "pad_edge", "show_edge", "collapse_padding"} & set(options)
    width = _measure(console, headers, rows, plain=plain)
    lead = min(keys, len(headers))
    groups = (
        _parts(len(headers), lead, width, console.width) if rows else [list(range(len(headers)))]
    )
    one_line = plain and not any("\n" in cell for r in rows for cell in r)
    return [
        _table(
            title if k == 0 else f"{title} (continued)" if title else "",
            [headers[c] for c in cols],
            [[r[c] for c in cols] for r in rows],
            fit=console.width if one_line and "show_lines" not in options else None,
            **options,
        )
        for k, cols in enumerate(groups)
    ]


def _measure(
    console: Any, headers: list[tuple[str, str]], rows: list[list[str]], *, plain: bool
) -> Callable[[list[int]], int]:
    """The width of a table of some of the columns (their indexes): ``plain`` (rich's default
    box, :func:`_box_width`), from each column's widest line; else as rich measures it."""
    if plain:
        widest = [
            max(cell_len(line) for cell in [h[0], *(r[c] for r in rows)] for line in
                cell.split("\n"))
            for c, h in enumerate(headers)
        ]  # fmt: skip
        return lambda cols: _box_width(widest[c] for c in cols)

    def width(cols: list[int]) -> int:
        t = _table("", [headers[c] for c in cols], [[r[c] for c in cols] for r in rows])
        return natural_width(console, t)

    return width


def _parts(
    columns: int, lead: int, width: Callable[[list[int]], int], limit: int
) -> list[list[int]]:
    """The columns in parts of consecutive ones, each led by the first ``lead`` columns and no
    wider than ``limit`` (``width``: of a part) unless it holds one column besides them."""
    groups: list[list[int]] = [list(range(lead))]
    for c in range(lead, columns):
        if len(groups[-1]) > lead and width([*groups[-1], c]) > limit:
            groups.append(list(range(lead)))
        groups[-1].append(c)
    return groups
