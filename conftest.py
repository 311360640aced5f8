"""Collection settings for the whole checkout (pytest reads this before the test folders).

The packages are collected with ``--doctest-modules`` (``pyproject.toml``), which imports every
module. The Streamlit entry script and its pages run their screen on import, so they are not
collected; the other ``dashboard`` modules only define things and are safe to import.
"""

import sys
from collections.abc import Iterator

import pytest

collect_ignore = ["dashboard/app.py"]
collect_ignore_glob = ["dashboard/screens/*"]


@pytest.fixture(autouse=True)
def _keep_main_module() -> Iterator[None]:
    """Puts back the process's ``__main__`` after every test: Streamlit's AppTest script runner
    makes the script under test the process's ``__main__`` and leaves it there, and a later
    process pool started by *spawn* (``brag analytics refresh --rebuild``'s workers) would run
    that script again in each worker and break (``NameError: __args``)."""
    main = sys.modules.get("__main__")
    yield
    if main is not None:
        sys.modules["__main__"] = main


@pytest.fixture(autouse=True)
def _let_go_of_postgres() -> Iterator[None]:
    """Lets go, after every test and its fixtures, of the hold a test took on the shared
    PostgreSQL server (``tests/store_helpers.py``'s ``require_pg``; imported as ``store_helpers``
    by most tests, as ``tests.store_helpers`` by some: two modules, each with its own hold)."""
    yield
    for name in ("store_helpers", "tests.store_helpers"):
        helpers = sys.modules.get(name)
        if helpers is not None:
            helpers.release_pg()
