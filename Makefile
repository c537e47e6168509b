# Two commands for a newcomer: `make run` (serve on SQLite, port 8000) and `make test`; and
# `make test-fast` for the edit-run loop.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 0.0.0.0
PORT ?= 8000
export SVIZZERA_DATABASE_URL ?= sqlite:///./svizzera.db

STAMP := $(VENV)/.installed
LOCK := $(VENV).lock

# Test processes (pytest-xdist): one a core by default (TEST_WORKERS=1 for one process).
TEST_WORKERS ?= auto
PYTEST_XDIST := -n $(TEST_WORKERS) --dist worksteal
# What `make test-fast` leaves out: servers in a process, Chromium, tests marked slow; and it runs
# each property (hypothesis) with at most 25 examples.
FAST := not slow and not server and not browser

.PHONY: install run test test-fast migrate lint

# Installs only when the stamp is older than what it installs from, so `make run` works offline
# once installed. The lock lets `make run` and `make test` start together: one installs, the
# other waits for it and then finds the stamp fresh.
install: $(STAMP)

$(STAMP): pyproject.toml client/pyproject.toml
	flock $(LOCK) sh -c 'if [ -e $(STAMP) ] && [ $(STAMP) -nt pyproject.toml ] \
	    && [ $(STAMP) -nt client/pyproject.toml ]; then exit 0; fi; \
	  [ -x $(BIN)/python ] || $(PYTHON) -m venv $(VENV) || exit 1; \
	  $(BIN)/python -m pip install --quiet --upgrade pip \
	  && $(BIN)/python -m pip install --quiet -e ".[dev]" -e ./client \
	  && touch $(STAMP)'

migrate: install
	$(BIN)/alembic upgrade head

# Prints the addresses a phone on the same network can open (app/lan.py: no external service).
run: migrate
	@$(BIN)/python -m app.lan --host $(HOST) --port $(PORT)
	$(BIN)/uvicorn --factory app.main:create_app --host $(HOST) --port $(PORT) --no-proxy-headers

# The whole suite; with SVIZZERA_TEST_POSTGRES_URL set, on PostgreSQL too.
test: install
	$(BIN)/pytest $(PYTEST_XDIST)

# The domain and the API in process, on SQLite: for the edit-run loop, not instead of `make test`.
test-fast: install
	env -u SVIZZERA_TEST_POSTGRES_URL SVIZZERA_TEST_MAX_EXAMPLES=25 $(BIN)/pytest $(PYTEST_XDIST) -m "$(FAST)" \
	    tests/domain tests/api tests/services

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy --strict app/domain
	$(BIN)/mypy --strict app
	$(BIN)/mypy --strict client/svizzera_client client/tests
