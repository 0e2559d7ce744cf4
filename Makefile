# One command each for a newcomer: `make demo` and `make test` set up .venv themselves.
# demo and serve install the app alone; test (and setup, for developers) add the test tools.
# A set-up that fails removes what it made, so a later run starts afresh instead of reusing half a .venv.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
LOWEST := .venv-lowest

$(VENV)/.app: pyproject.toml
	@rm -f $(VENV)/.app $(VENV)/.test-tools
	$(PYTHON) -m venv $(VENV) && $(BIN)/python -m pip install --quiet --upgrade pip \
	  && $(BIN)/python -m pip install --quiet -e . || { rm -rf $(VENV); exit 1; }
	touch $@

$(VENV)/.test-tools: $(VENV)/.app
	$(BIN)/python -m pip install --quiet -e '.[test]' || { rm -rf $(VENV); exit 1; }
	touch $@

# `make serve PORT=9000` for a port of your choosing; left out, 8765 or the next free one.
PORT ?=

.PHONY: app setup demo serve test test-quick test-busy test-lowest bench bench-quick bench-odd bench-replan bench-balance bench-desk bench-room bench-odd-seats bench-limits bench-season bench-frontier fuzz-desk rehearse
app: $(VENV)/.app

setup: $(VENV)/.test-tools

demo: app
	$(BIN)/rotation plan --players 20 --rounds 7 --time-limit 10

serve: app
	$(BIN)/rotation serve $(if $(PORT),--port $(PORT))

test: setup
	$(BIN)/ruff format --check .
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/pytest

# The rehearsal alone (whole events in Chromium: director, projector, phones, paper), a screenshot of every step
# kept in rehearsal-shots/ for a person to look at (emptied first, so it shows this run only).
rehearse: setup
	rm -rf rehearsal-shots
	REHEARSAL_SHOTS=rehearsal-shots $(BIN)/pytest -p no:cacheprovider tests/rotation/desk/test_rehearsal_browser.py

# A developer's lane: every test but the slow, browser and subprocess ones (under two minutes, quiet machine).
test-quick: setup
	$(BIN)/pytest -m "not slow and not browser and not subprocess"

# `make test` beside two CPU-bound processes (a director's busy laptop, a shared CI machine): no test may
# depend on the load. The two end with the tests, whatever their outcome; the status is the tests'.
test-busy: setup
	@$(PYTHON) -c 'while True: pass' & one=$$!; $(PYTHON) -c 'while True: pass' & two=$$!; \
	trap 'kill $$one $$two 2>/dev/null' EXIT INT TERM; \
	$(MAKE) --no-print-directory test

# The lowest version pyproject.toml allows of every direct dependency (uv's lowest-direct resolution;
# what they pull in comes at its newest), on the lowest Python it claims (requires-python; pyenv's where the
# machine has it, as CI's does), in a venv of its own made afresh, then the quick tests but the browser's
# (ROTATION_LOWEST=1: tests/project/test_dependencies.py checks each floor is the version installed). `.ci/run` runs it.
# LOWEST_TESTS chooses other tests (`make test-lowest LOWEST_TESTS=tests/rotation/commands/test_plan.py`).
LOWEST_PY := 3.10
LOWEST_PYTHON ?= $(firstword $(wildcard $(or $(PYENV_ROOT),$(HOME)/.pyenv)/versions/$(LOWEST_PY).*/bin/python$(LOWEST_PY)) python$(LOWEST_PY))
LOWEST_TESTS ?= -m "not slow and not browser"
test-lowest:
	@$(LOWEST_PYTHON) -c 'import sys; assert sys.version.startswith("$(LOWEST_PY).")' 2>/dev/null || \
	  { echo "test-lowest: Python $(LOWEST_PY) (the lowest pyproject.toml claims) not found: pyenv install $(LOWEST_PY), or LOWEST_PYTHON=/path/to/python$(LOWEST_PY)"; exit 2; }
	rm -rf $(LOWEST)
	$(LOWEST_PYTHON) -m venv $(LOWEST)
	$(LOWEST)/bin/python -m pip install --quiet uv
	$(LOWEST)/bin/python -m uv pip install --quiet --python $(LOWEST)/bin/python --resolution lowest-direct -e '.[test]'
	ROTATION_LOWEST=1 $(LOWEST)/bin/pytest -p no:cacheprovider $(LOWEST_TESTS)

bench: setup
	$(BIN)/python -m benchmarks.run --full

bench-quick: setup
	$(BIN)/python -m benchmarks.run --quick

bench-odd: setup
	$(BIN)/python -m benchmarks.odd_counts --open-time-limit 30

bench-odd-seats: setup
	$(BIN)/python -m benchmarks.odd_seats --time-limit 1

bench-replan: setup
	$(BIN)/python -m benchmarks.replan

bench-balance: setup
	$(BIN)/python -m benchmarks.balance

bench-desk: setup
	$(BIN)/python -m benchmarks.desk

bench-room: setup
	$(BIN)/python -m benchmarks.room

bench-limits: setup
	$(BIN)/python -m benchmarks.limits
	$(BIN)/python -m benchmarks.limits --rooms --runs 3
	$(BIN)/python -m benchmarks.limits --longer --runs 3
	$(BIN)/python -m benchmarks.limits --signals
	$(BIN)/python -m benchmarks.limits --startup --runs 7
	$(BIN)/python -m benchmarks.balance_work --sites 20x6 68x22 100x40 124x41 300x100 400x100 1000x100 2000x8

bench-frontier: setup
	$(BIN)/python -m benchmarks.frontier --plan

bench-season: setup
	$(BIN)/python -m benchmarks.season --half-life 4 inf

# the desk's JSON routes fuzzed from their OpenAPI schema with every check (st run --checks all), 200 examples a route (the suite runs 4)
fuzz-desk: setup
	ROTATION_FUZZ=200 $(BIN)/pytest tests/rotation/desk/test_desk_fuzz.py
