# Every target creates the virtual environment first if it is missing or stale.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
LOCK := lock/dev.txt
LOCKED := $(VENV)/.locked
# Linux and every other platform, Python 3.11 and newer (README: 3.11 to 3.13), one version of
# each package with every file's hash.
UV_LOCK := --universal --python-version 3.11 --generate-hashes --quiet \
	--custom-compile-command 'make lock'

.PHONY: setup lock test test-cluster lint bench schemas rules-table nats-config run clean

setup: $(STAMP)

# The install is the lock: lock/dev.txt holds the whole closure, runtime and dev, each file's
# sha256 (pip --require-hashes), so what a fresh clone installs does not depend on the day.
# A lock that changes remakes the venv from nothing (nothing left over from the old one);
# pyproject.toml changing reinstalls only the project itself.
$(LOCKED): $(LOCK)
	rm -rf $(VENV)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --require-hashes \
		--no-deps -r $(LOCK)
	touch $@

$(STAMP): $(LOCKED) pyproject.toml
	PYTHONWARNINGS="ignore:Editable installation" \
		$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
	$(BIN)/python -m pip check
	touch $@

# Updates the lock on purpose: pyproject.toml's pins and lock/installers.in, the rest kept as
# locked (LOCK_FLAGS=--upgrade takes every unpinned dependency to its newest release). The
# image's lock/runtime.txt is the run-time part, constrained to lock/dev.txt's versions.
lock: $(STAMP)
	$(BIN)/uv pip compile pyproject.toml lock/installers.in --extra dev $(UV_LOCK) \
		-o $(LOCK) $(LOCK_FLAGS)
	$(BIN)/uv pip compile pyproject.toml lock/installers.in --constraint $(LOCK) $(UV_LOCK) \
		-o lock/runtime.txt

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
