"""A command line imports only what its command uses (issue 22, part 1): the light table of
commands in :mod:`brag.cli` says what the modules register, the parser built for one command
prints the same help and usage errors as the full one, and a fresh ``brag`` process of a read
command loads neither SQLAlchemy nor DuckDB nor, where it needs none, the engine."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from brag.cli import COMMANDS, build_parser

ROOT = Path(__file__).resolve().parents[2]
SEASON = ROOT / "data" / "season"
LOG = SEASON / "2026-09-24-top-1.jsonl"


def _subparsers(parser: argparse.ArgumentParser) -> Any:
    return next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))


def test_the_table_says_what_the_modules_register() -> None:
    full = _subparsers(build_parser())
    listed = [(a.dest, a.help) for a in full._choices_actions]
    assert listed == [c for _, commands in COMMANDS for c in commands]


@pytest.mark.parametrize("command", [c for _, cs in COMMANDS for c, _ in cs])
def test_the_parser_of_one_command_prints_the_same_help(command: str) -> None:
    full, one = build_parser(), build_parser(only=command)
    assert one.format_help() == full.format_help()
    assert one.format_usage() == full.format_usage()
    mine = _subparsers(one).choices[command]
    assert mine.format_help() == _subparsers(full).choices[command].format_help()


@pytest.mark.parametrize(
    "argv", [[], ["nosuch"], ["--db"], ["--help"], ["sessions", "--bogus"], ["replay"]]
)
def test_usage_errors_and_help_are_the_full_parsers(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    from brag.cli import main

    with pytest.raises(SystemExit) as lazy:
        main(argv)
    got = capsys.readouterr()
    with pytest.raises(SystemExit) as full:
        build_parser().parse_args(argv)
    want = capsys.readouterr()
    assert (lazy.value.code, got.out, got.err) == (full.value.code, want.out, want.err)


def test_the_names_written_out_are_the_ones_they_copy() -> None:
    from events.model import DERIVED_TYPES
    from store import records
    from store.orm import EventRecord
    from store.schema import TABLE

    assert records.DERIVED_TYPES == DERIVED_TYPES
    assert EventRecord.__tablename__ == TABLE


@pytest.mark.parametrize(
    "url",
    [
        "sqlite:///a.db",
        "sqlite:////tmp/a b.db",
        "sqlite:///x#y",
        "sqlite:///x@y:z",
        "sqlite:///é.db",
        "sqlite:///:memory:",
        "sqlite:///",
    ],
)
def test_a_plain_sqlite_url_is_read_as_sqlalchemy_reads_it(url: str) -> None:
    from sqlalchemy.engine import make_url

    from store.sql import plain_sqlite_url

    assert plain_sqlite_url(url) == make_url(url).database


def test_urls_with_escapes_or_queries_are_left_to_sqlalchemy() -> None:
    from store.sql import plain_sqlite_url, sqlite_file

    for url in ("sqlite:///a%20b.db", "sqlite:///a.db?mode=ro", "sqlite://", "postgresql://x/y"):
        assert plain_sqlite_url(url) is None
    assert sqlite_file("sqlite:///a%20b.db") == "a b.db"
    assert sqlite_file("sqlite:///a.db?mode=ro") == "a.db"


def _loaded(argv: list[str], cwd: Path) -> list[str]:
    """The modules a fresh ``brag`` process of ``argv`` has loaded when its command returns."""
    code = (
        "import json, sys\n"
        "from brag.cli import main\n"
        f"code = main({argv!r})\n"
        "assert code == 0, code\n"
        "print(json.dumps(sorted(sys.modules)), file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True, check=True
    )
    names: list[str] = json.loads(done.stderr.strip().splitlines()[-1])
    return names


def _tops(names: list[str]) -> set[str]:
    return {n.split(".")[0] for n in names}


def test_read_commands_load_only_what_they_use(tmp_path: Path) -> None:
    from brag.cli import main

    db = tmp_path / "s.db"
    assert main(["--db", str(db), "import", str(LOG)]) == 0
    session = LOG.stem
    heavy = {"sqlalchemy", "sqlmodel", "duckdb", "pyarrow", "pandas", "numpy", "streamlit"}

    listing = _tops(_loaded(["--db", str(db), "sessions", "--json"], tmp_path))
    assert not listing & (heavy | {"engine", "pydantic", "rich", "analytics", "present"})

    for argv in (
        ["--db", str(db), "export", session],
        ["--db", str(db), "replay", session, "--deal", "1"],
        ["verify", str(LOG)],
    ):
        assert not _tops(_loaded(argv, tmp_path)) & heavy, argv


def test_hands_ranked_on_demand_are_the_whole_table() -> None:
    from itertools import combinations

    from engine import hands

    table = hands._build_table()
    for a, b, c in combinations(range(52), 3):
        assert hands.strength_codes(c, a, b) == table[(1 << a) | (1 << b) | (1 << c)]
    assert table == hands._BY_MASK
    for bad in ((0, 0, 1), (0, 1, 52), (-1, 2, 3), (0, 1), (0, 1, 2, 3)):
        with pytest.raises((ValueError, TypeError)):
            hands.strength_codes(*bad)


@pytest.mark.parametrize("package", ["analytics", "engine", "log"])
def test_a_package_file_imports_nothing_and_loads_nothing(package: str) -> None:
    """Issue 34, item 4: a plain ``__init__`` (no facade, no lazy names): each name has one
    address, its module, and importing the package in a fresh process loads none of its modules."""
    import ast

    tree = ast.parse((ROOT / package / "__init__.py").read_text(encoding="utf-8"))
    assert [type(node).__name__ for node in tree.body] == ["Expr"]  # the docstring, nothing else
    code = f"import json, sys; import {package}; print(json.dumps(sorted(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    loaded = json.loads(done.stdout)
    assert [n for n in loaded if n.startswith(f"{package}.")] == []


def test_pydantic_plugins_are_not_looked_for_unless_the_environment_asks(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``brag`` sets ``PYDANTIC_DISABLE_PLUGINS=__all__`` for its process (pydantic then skips
    the scan of every installed distribution's entry points), unless the environment set it."""
    import os

    from brag.cli import PLUGINS_OFF, main

    name, off = PLUGINS_OFF
    monkeypatch.delenv(name, raising=False)
    assert main(["verify", str(LOG)]) == 0
    assert os.environ[name] == off == "__all__"
    monkeypatch.setenv(name, "")  # a user who wants their plugins
    assert main(["verify", str(LOG)]) == 0
    assert os.environ[name] == ""
    capsys.readouterr()
