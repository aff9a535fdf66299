# Every target creates the virtual environment first if it is missing or stale.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup test test-cluster lint bench schemas rules-table nats-config run clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# The browser tests need Chromium: installed from the distribution when missing and allowed.
test: $(STAMP)
	scripts/ensure-chromium
	$(BIN)/python -m pytest --ignore=tests/cluster

# A 3-node JetStream cluster on 127.0.0.1 and the services killed under play: run it alone.
test-cluster: $(STAMP)
	$(BIN)/python -m pytest tests/cluster -s

lint: $(STAMP)
	$(BIN)/ruff check services contracts tests scripts
	$(BIN)/ruff format --check services contracts tests scripts
	$(BIN)/mypy
	$(BIN)/lint-imports

bench: $(STAMP)
	$(BIN)/python -m sicbo.bench $(BENCH_FLAGS)

schemas: $(STAMP)
	$(BIN)/sicbo schemas write

# The clause table of docs/rules.md, from docs/clauses.toml and the citations in the code.
rules-table: $(STAMP)
	$(BIN)/python scripts/clause_index.py

# deploy/nats/accounts.conf and the Helm values' accounts, from sicbo.infra.nats_accounts.
nats-config: $(STAMP)
	$(BIN)/python -m sicbo.infra.nats_config write

run: $(STAMP)
	$(BIN)/sicbo run

clean:
	rm -rf $(VENV) build .pytest_cache .mypy_cache .ruff_cache
