# Two commands for a newcomer: `make run` (serve on SQLite, port 8000) and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 0.0.0.0
PORT ?= 8000
export SVIZZERA_DATABASE_URL ?= sqlite:///./svizzera.db

.PHONY: install run test migrate lint

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

install: $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]' -e ./client

migrate: install
	$(BIN)/alembic upgrade head

run: migrate
	$(BIN)/uvicorn --factory app.main:create_app --host $(HOST) --port $(PORT)

test: install
	$(BIN)/pytest

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy --strict app/domain
	$(BIN)/mypy --strict app
	$(BIN)/mypy --strict client/svizzera_client client/tests
