"""The dashboard is served without Streamlit's "magic" (``--runner.magicEnabled false``,
:func:`brag.cmd_app.streamlit_command`): with it, a page's first run builds Python AST objects,
and on Python 3.11.7 two threads doing so at once can fail ("AST constructor recursion depth
mismatch", CPython gh-106905: a CI run's replay page showed "Script execution error"). Magic
would write a bare expression of a page script; none of ours has one, so nothing is lost."""

from __future__ import annotations

import ast

from brag.cmd_app import APP, streamlit_command
from dashboard.common.pages import PAGE_FILES, page_file


def _magic_writes(tree: ast.AST) -> list[str]:
    """The statements magic would have written (a bare expression that is not a call, a
    docstring, a yield or an await), anywhere in the script."""
    found = []
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        for i, stmt in enumerate(body):
            if not isinstance(stmt, ast.Expr):
                continue
            value = stmt.value
            if isinstance(value, ast.Call | ast.Yield | ast.YieldFrom | ast.Await):
                continue
            if i == 0 and isinstance(value, ast.Constant) and isinstance(value.value, str):
                continue  # a docstring
            found.append(f"line {stmt.lineno}: {ast.unparse(stmt)[:60]}")
    return found


def test_the_dashboard_is_served_without_magic_and_its_pages_need_none() -> None:
    command = streamlit_command(8599, "localhost")
    assert command[command.index("--runner.magicEnabled") + 1] == "false"
    scripts = [APP, *(page_file(name) for name in PAGE_FILES)]
    assert len(scripts) >= 11
    for script in scripts:
        assert _magic_writes(ast.parse(script.read_text(), str(script))) == [], script
    # the check finds what magic would write
    assert _magic_writes(ast.parse('"doc"\nx = 1\nx\ndef f():\n    "doc"\n    y\n')) == [
        "line 3: x",
        "line 6: y",
    ]
