# Bragbook: `make run` (the main job) and `make test` (the test suite) each set up what they need;
# `make check` is the inner loop (the fast tests, ruff, mypy).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# pytest-xdist workers for `make test` (TEST_WORKERS=0: one process, the whole suite in order).
# With workers the suite runs in two parts: first every test but the timing ones, in parallel
# (--dist loadgroup: the tests sharing a module's server or store run in one worker, conftest.py
# groups them; the others go one by one to a free worker, the long ones first); then the tests
# marked `timing` (a promise about time: a browser step under 50 ms, the other device within
# 2 s, a double tap within 600 ms), alone, so that the workers' own load on these 2 cores cannot
# break them. 3 workers on 2 cores: the long tests are mostly waiting (a browser, a server
# restarted, a lock held), so a third worker fills the time they leave.
TEST_WORKERS ?= 3
CHECK_WORKERS ?= 2
ifeq ($(TEST_WORKERS),0)
XDIST :=
else
XDIST := -n $(TEST_WORKERS) --dist loadgroup --no-loadscope-reorder
endif
FAST := not slow and not browser and not postgres and not timing

.PHONY: install run test check lint bench scenarios clean

install: $(STAMP)

# uv (from the package registry, into the venv) resolves and downloads in parallel and prints
# nothing but errors; pip, the fallback, is told to print errors only too (-qq: the "Location ...
# ignored" lines come from this machine's pip configuration, not from the install).
$(STAMP): pyproject.toml
	@echo "make install: setting up .venv from pyproject.toml (a few minutes the first time)..."
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@$(BIN)/python -m pip install -qq 'uv>=0.5,<1' \
	  && $(BIN)/uv pip install --quiet --python $(BIN)/python -e '.[test,bench]' \
	  || $(BIN)/python -m pip install -qq -e '.[test,bench]'
	@touch $(STAMP)
	@echo "make install: .venv is ready (from pyproject.toml)"

run: install
	$(BIN)/brag run

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports

test: install
ifeq ($(TEST_WORKERS),0)
	$(BIN)/python -m pytest
else
	$(BIN)/python -m pytest $(XDIST) -m "not timing"
	$(BIN)/python -m pytest -m timing
endif
	$(MAKE) --no-print-directory lint

check: install
	$(BIN)/python -m pytest -q -n $(CHECK_WORKERS) --dist loadgroup --no-loadscope-reorder -m "$(FAST)"
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# The team's shared folder: $BRAG_SHARED, else ../shared beside the checkout (as the tests look).
SHARED_DIR := $(or $(BRAG_SHARED),../shared)

scenarios: install
	$(BIN)/python $(SHARED_DIR)/tools/check_scenarios.py "$(BIN)/brag" $(SHARED_DIR)/scenarios

bench: install
	$(BIN)/python bench/replay.py
	$(BIN)/python bench/append.py
	$(BIN)/python bench/simulate.py
	$(BIN)/python bench/analytics.py
	$(BIN)/python bench/dashboard.py
	$(BIN)/python bench/hostile.py
	$(BIN)/python bench/replay_ui.py
	$(BIN)/python bench/pages.py
	$(BIN)/python bench/scale.py
	$(BIN)/python bench/decisions.py
	$(BIN)/python bench/record.py
	$(BIN)/python bench/live.py
	$(BIN)/python bench/share.py
	$(BIN)/python bench/body_bound.py
	$(BIN)/python bench/locked_taps.py
	$(BIN)/python bench/luck.py
	$(BIN)/python bench/cli.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
