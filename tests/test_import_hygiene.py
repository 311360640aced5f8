"""The pure core imports no database, DuckDB or Streamlit (STYLE.md "The shape of the house").

Each check runs in a fresh interpreter so that modules other tests imported do not hide a leak.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FORBIDDEN = ("sqlmodel", "sqlalchemy", "duckdb", "streamlit", "psycopg")
CORE = (
    "engine",
    "engine.hands",
    "engine.state",
    "engine.apply",
    "engine.rules",
    "engine.fold",
    "engine.legal",
    "events.model",
    "events.codec",
    "events.upcast",
    "events.errors",
    "events.cards",
    "events.amounts",
)


def loaded_after_import(modules: tuple[str, ...]) -> list[str]:
    code = (
        "import importlib, json, sys\n"
        f"for m in {list(modules)!r}:\n"
        "    importlib.import_module(m)\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    names: list[str] = json.loads(out)
    return names


@pytest.mark.parametrize("module", ["engine", "events.model", "events.codec"])
def test_core_module_loads_no_database_duckdb_or_streamlit(module: str) -> None:
    loaded = loaded_after_import((module,))
    leaks = [m for m in loaded if m.split(".")[0] in FORBIDDEN]
    assert leaks == [], f"importing {module} loaded {leaks}"
    assert module in loaded


def test_the_whole_core_together() -> None:
    loaded = loaded_after_import(CORE)
    assert not [m for m in loaded if m.split(".")[0] in FORBIDDEN]
    assert not [m for m in loaded if m.split(".")[0] in ("analytics", "dashboard", "brag")]
    assert not [m for m in loaded if m.split(".")[0] in ("store", "log")]  # the store is not core
