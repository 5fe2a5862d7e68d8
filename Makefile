# Two commands for a new machine: `make run` (the product, embedded demo) and `make test` (every test).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
UV := $(VENV)/bin/uv
HOST ?= 127.0.0.1
PORT ?= 8000

# Compiled once at install: these machines (and many images) set PYTHONDONTWRITEBYTECODE=1, so a module without a
# .pyc is compiled again by every process that imports it (over a second of every manage.py start).
PROJECT_CODE := casino outbox audit paytables tables floor accounts manage.py

.PHONY: run test venv dev-venv compile migrate seed lint typecheck bench clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check uv==0.13.9

venv: $(PY)
	@$(UV) pip install -q --python $(PY) --compile-bytecode -r requirements.txt
	@$(MAKE) -s compile

dev-venv: $(PY)
	@$(UV) pip install -q --python $(PY) --compile-bytecode -r requirements-dev.txt
	@$(MAKE) -s compile

compile: $(PY)
	$(PY) -m compileall -q -j0 $(PROJECT_CODE)

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
