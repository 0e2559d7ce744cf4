# One command each for a newcomer: `make demo` and `make test` set up .venv themselves.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

$(BIN)/rotation: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

PORT ?= 8765

.PHONY: setup demo serve test test-quick test-busy bench bench-quick bench-odd bench-replan bench-balance bench-desk bench-room bench-odd-seats bench-limits bench-season
setup: $(BIN)/rotation

demo: setup
	$(BIN)/rotation plan --players 20 --rounds 7 --time-limit 10

serve: setup
	$(BIN)/rotation serve --port $(PORT)

test: setup
	$(BIN)/ruff format --check .
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/pytest

# A developer's lane: every test but the slow, browser and subprocess ones (under two minutes, quiet machine).
test-quick: setup
	$(BIN)/pytest -m "not slow and not browser and not subprocess"

# `make test` beside two CPU-bound processes (a director's busy laptop, a shared CI machine): no test may
# depend on the load. The two end with the tests, whatever their outcome; the status is the tests'.
test-busy: setup
	@$(PYTHON) -c 'while True: pass' & one=$$!; $(PYTHON) -c 'while True: pass' & two=$$!; \
	trap 'kill $$one $$two 2>/dev/null' EXIT INT TERM; \
	$(MAKE) --no-print-directory test

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

bench-season: setup
	$(BIN)/python -m benchmarks.season --half-life 4 inf
