# The two set-up commands of the README: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test test-fast lint format bench setup clean hooks

PORT ?= 8080

run: $(STAMP)
	$(BIN)/pegs serve --simulate --data data --port $(PORT) --host 0.0.0.0

# Every test, then the product's branch coverage (pyproject.toml, [tool.coverage]).
test: $(STAMP)
	scripts/ensure-test-tools.sh
	$(BIN)/python -m pytest --cov --cov-report=term

# The tests a developer runs every few minutes (under a minute): all but the slow, real-process
# and browser tiers (tests/conftest.py, TIERS). `make test` runs everything.
test-fast: $(STAMP)
	$(BIN)/python -m pytest -m "not slow and not process and not browser"

lint: $(STAMP)
	$(BIN)/ruff check referee hardware firmware_bridge web tests scripts
	$(BIN)/ruff format --check referee hardware firmware_bridge web tests scripts
	$(BIN)/mypy

format: $(STAMP)
	$(BIN)/ruff format referee hardware firmware_bridge web tests scripts

# A pre-commit hook that runs `make lint` (.githooks/pre-commit), once per clone.
hooks:
	git config core.hooksPath .githooks

bench: $(STAMP)
	$(BIN)/pegs bench

setup: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11) and "Python 3.11 or newer is needed")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -e '.[test,kit]'
	touch $(STAMP)

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis

# A release archive of the last commit, for a Pi without git: build/pegs-<version>.tar.gz unpacks
# into pegs/ (then, on the Pi: sudo pegs/deploy/install.sh --players N). Uncommitted changes are not in it.
DIST_DIR ?= build
.PHONY: dist
dist:
	mkdir -p $(DIST_DIR)
	git archive --format=tar.gz --prefix=pegs/ -o $(DIST_DIR)/pegs-$$(git describe --tags --always).tar.gz HEAD
	@git diff --quiet HEAD || echo "note: uncommitted changes are not in the archive"
	@echo "$(DIST_DIR)/pegs-$$(git describe --tags --always).tar.gz"
