# Scorekeeper developer tasks (GNU make). Needs only python3 >= 3.11 and make.
SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON_BOOT ?= python3
VENV := .venv
PY := $(VENV)/bin/python
MANAGE := $(PY) manage.py
STAMP := $(VENV)/.installed-dev
HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST_ARGS ?=
PIP_COMPILE_ARGS ?=
PIP_COMPILE := $(PY) -m piptools compile --quiet --generate-hashes --allow-unsafe --strip-extras \
	--no-emit-index-url --no-emit-find-links $(PIP_COMPILE_ARGS)

.PHONY: help install run serve test lint bench bench-api bench-soak bench-ratings worker beat lock clean screenshots

help:
	@echo "make run     install into $(VENV), migrate, seed demo data (when available), serve"
	@echo "make serve   production-like: migrate, collectstatic, gunicorn with gunicorn.conf.py"
	@echo "make test    install into $(VENV) and run the test suite (PYTEST_ARGS=... to pass options)"
	@echo "make lint    ruff check, ruff format --check, mypy (strict for rules_engine)"
	@echo "make bench   run the benchmarks: rules engine, seating, live pages (300 phones polling)"
	@echo "make bench-soak  10,000 deals at 50/s, 20 rounds, Redis stopped 10 s, a worker killed: nothing lost"
	@echo "make bench-api  deal POST, game page and standings against bare endpoints (gunicorn, locust)"
	@echo "make bench-ratings  ratings of 20,000 games from scratch; standings with ratings at 1M deals"
	@echo "make worker  run a Celery worker (needs CELERY_BROKER_URL)"
	@echo "make beat    run Celery beat (needs CELERY_BROKER_URL)"
	@echo "make lock    regenerate requirements.lock and requirements-dev.lock from pyproject.toml"
	@echo "make screenshots  phone-sized PNGs of the main pages into docs/screenshots/ (needs Chromium)"

$(PY):
	$(PYTHON_BOOT) -m venv $(VENV)

# Reinstall whenever the lock changes; --require-hashes makes the install reproducible.
$(STAMP): requirements-dev.lock | $(PY)
	$(PY) -m pip install --quiet --disable-pip-version-check --require-hashes -r requirements-dev.lock
	@touch $@

install: $(STAMP)

run: install
	$(MANAGE) migrate --noinput
	@if [ -f scorekeeper/management/commands/seed_demo.py ]; then \
		echo "$(MANAGE) seed_demo"; $(MANAGE) seed_demo; \
	else \
		echo "(no seed_demo command yet: skipping demo data)"; \
	fi
	$(MANAGE) collectstatic --noinput --verbosity 0
	@echo
	@echo "  Scorekeeper is running at http://$(HOST):$(PORT)/   (Ctrl-C to stop)"
	@echo
	@# No broker here, so no beat: the clock runs the beat schedule's jobs beside the server
	@# (timed rounds' time called and closed), and stops with it.
	DEBUG=true $(MANAGE) clock & clock=$$!; trap 'kill $$clock 2>/dev/null' EXIT INT TERM; \
		DEBUG=true $(MANAGE) runserver $(HOST):$(PORT)

# Production-like (DEBUG off): gunicorn with gunicorn.conf.py on $(HOST):$(PORT).
serve: install
	$(MANAGE) migrate --noinput
	$(MANAGE) collectstatic --noinput --verbosity 0
	GUNICORN_BIND=$(HOST):$(PORT) $(VENV)/bin/gunicorn -c gunicorn.conf.py scorekeeper.wsgi

test: install
	$(PY) -m pytest $(PYTEST_ARGS)

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy --strict rules_engine tournaments/seating
	$(VENV)/bin/mypy scorekeeper tournaments

bench: install
	$(PY) bench/rules_engine.py
	$(PY) bench/seating.py
	$(PY) bench/live.py

bench-api: install
	$(PY) bench/api.py

bench-soak: install
	$(PY) bench/soak.py

bench-ratings: install
	$(PY) bench/ratings.py

worker: install
	$(VENV)/bin/celery -A scorekeeper worker --loglevel=INFO

beat: install
	$(VENV)/bin/celery -A scorekeeper beat --loglevel=INFO --schedule=var/celerybeat-schedule

# Demo data on a throwaway SQLite database, served and photographed at 390x844 by Chromium.
screenshots: install
	$(PY) scripts/screenshots.py

# Hash every file PyPI has for each pin (ignoring any local pip mirror/find-links config),
# so the locks install anywhere with --require-hashes.
lock: install
	env -u PIP_FIND_LINKS PIP_CONFIG_FILE=/dev/null $(PIP_COMPILE) -o requirements.lock pyproject.toml
	env -u PIP_FIND_LINKS PIP_CONFIG_FILE=/dev/null $(PIP_COMPILE) --extra dev -o requirements-dev.lock pyproject.toml

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .mypy_cache .ruff_cache
