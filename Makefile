# Every target creates the virtual environment first if it is missing or stale.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup test lint bench schemas run clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

test: $(STAMP)
	$(BIN)/python -m pytest

lint: $(STAMP)
	$(BIN)/ruff check services contracts tests
	$(BIN)/ruff format --check services contracts tests
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python -m sicbo.bench

schemas: $(STAMP)
	$(BIN)/sicbo schemas write

run: $(STAMP)
	$(BIN)/sicbo run

clean:
	rm -rf $(VENV) build .pytest_cache .mypy_cache .ruff_cache
