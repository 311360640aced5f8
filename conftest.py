"""Collection settings for the whole checkout (pytest reads this before the test folders).

The packages are collected with ``--doctest-modules`` (``pyproject.toml``), which imports every
module. The Streamlit entry script and its pages run their screen on import, so they are not
collected; the other ``dashboard`` modules only define things and are safe to import.
"""

import os
import sys
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

# Hypothesis: one profile per use, chosen by $HYPOTHESIS_PROFILE, else "ci" under CI=true, else
# "dev". Neither has a deadline: the examples' times swing with the load of the other test
# workers (and other work on the machine), and a deadline then fails a correct test. Under CI the
# examples are drawn from a fixed seed (derandomize): a run fails only for a change in the code,
# never for a newly drawn example, and writes no example database into the checkout. "dev" draws
# new examples each run and keeps the failing ones in .hypothesis/ to replay them. Each test's own
# @settings (its example count ...) still wins over the profile.
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "ci",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
    database=None,
    print_blob=True,
)
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE")
    or ("ci" if os.environ.get("CI", "").lower() == "true" else "dev")
)

# A pytest-xdist worker starts with COLUMNS=80 and LINES=24 in its environment (GNU readline,
# imported on the way, exports the size of the terminal it does not have), and the commands' tables
# take their width from COLUMNS when they do not write to a terminal: a test of a wide table would
# see it wrapped in a worker and not in a run without workers. The run's own values (none, most
# often) are handed to the workers and put back.
_OUTER = "BRAG_TEST_OUTER_"
if os.environ.get("PYTEST_XDIST_WORKER"):
    for _name in ("COLUMNS", "LINES"):
        _outer = os.environ.get(_OUTER + _name)
        if _outer:
            os.environ[_name] = _outer
        elif _outer is not None:
            os.environ.pop(_name, None)
else:
    for _name in ("COLUMNS", "LINES"):
        os.environ[_OUTER + _name] = os.environ.get(_name, "")

collect_ignore = ["dashboard/app.py"]
collect_ignore_glob = ["dashboard/*/*_page.py"]


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


# --- the parallel run (pytest-xdist, `make test`) ----------------------------------------------

SHARED_SCOPES = ("class", "module", "package")


def _first(item: pytest.Item) -> int:
    """Where ``item`` goes in the queue: the long ones (a browser, a server restarted, a crash
    test) first, so that no worker starts one when the others are about to finish."""
    if item.get_closest_marker("browser") or item.get_closest_marker("slow"):
        return 0
    return 1 if item.get_closest_marker("postgres") else 2


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under ``--dist loadgroup`` (``make test``): a test that uses a fixture built once per class
    or module (a dashboard server, a store) is grouped with its module, so the fixture is built
    once, in one worker; any other test is sent alone to whichever worker is free. And the queue
    is put in :func:`_first`'s order (with ``--no-loadscope-reorder``: in this order). Each worker
    collects and sorts alike, as xdist requires; a run without xdist is left as collected."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return
    for item in items:
        info = getattr(item, "_fixtureinfo", None)
        if info is None or item.get_closest_marker("xdist_group"):
            continue
        shared = any(
            defs[-1].scope in SHARED_SCOPES for defs in info.name2fixturedefs.values() if defs
        )
        if shared:
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::")[0]))
    items.sort(key=_first)  # stable: a module's tests stay in their order
