# Two commands for a new machine: `make run` (the product, embedded demo) and `make test` (every test).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
UV := $(VENV)/bin/uv
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test venv dev-venv migrate seed lint typecheck bench clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check uv==0.13.9

venv: $(PY)
	@$(UV) pip install -q --python $(PY) -r requirements.txt

dev-venv: $(PY)
	@$(UV) pip install -q --python $(PY) -r requirements-dev.txt

# prepare_run checks settings, PostgreSQL and Redis, creates a missing database, migrates and seeds: any
# failure is one line that says what to do. `@` keeps make's own command echo out of the way.
run: venv
	@$(PY) -m scripts.prepare_run --host http://$(HOST):$(PORT)
ifeq ($(strip $(REDIS_URL)),)
	@echo "Serving on http://$(HOST):$(PORT)/ ($(if $(strip $(DATABASE_URL)),PostgreSQL,SQLite); Celery jobs run in-process). Ctrl-C stops it."
	@$(PY) manage.py runserver $(HOST):$(PORT)
else
	@echo "Serving on http://$(HOST):$(PORT)/ with a Celery worker and beat (Procfile). Ctrl-C stops all."
	@$(UV) pip install -q --python $(PY) honcho==2.0.0
	@PORT=$(PORT) HOST=$(HOST) $(VENV)/bin/honcho -f Procfile start
endif

test: dev-venv
	$(PY) -m pytest $(PYTEST_ARGS)

lint: dev-venv
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy

bench: dev-venv
	$(PY) bench/run_all.py

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles artifacts
