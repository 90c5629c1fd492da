# Kaiser League: `make run` to try it, `make test` to prove it. Everything a fresh machine needs is here.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test venv migrate demo lint format messages browser bench check-examples clean

$(STAMP): requirements/base.txt requirements/dev.txt
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements/dev.txt
	@touch $(STAMP)

venv: $(STAMP)

migrate: venv
	$(PY) manage.py migrate --noinput

demo: migrate
	$(PY) manage.py demo_club

## run: create the venv, install, migrate, load the demo club, serve on 127.0.0.1:8000
run: demo
	$(PY) manage.py runserver $(HOST):$(PORT)

## browser: Debian's Chromium for the Playwright tests (never `playwright install`)
browser:
	@test -x /usr/bin/chromium || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; \
	  else echo "Browser tests need Debian's chromium: sudo apt-get install chromium" >&2; exit 1; fi; }

## test: the whole suite. With DATABASE_URL / CELERY_BROKER_URL set, also the tests of the real servers.
test: venv browser
	$(PY) manage.py makemigrations --check --dry-run --settings=kaiser_league.settings_test
	$(PY) -m pytest $(if $(DATABASE_URL),,-m "not postgres and not redis") $(PYTEST_ARGS)

check-examples: venv
	$(PY) ../shared/tools/check_examples.py

lint: venv
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

format: venv
	$(PY) -m ruff check --fix .
	$(PY) -m ruff format .

## messages: refresh the French catalogue from the code, then compile it
messages: venv
	$(PY) manage.py makemessages --locale fr --ignore ".venv/*" --ignore "bench/*"
	$(PY) manage.py compilemessages --ignore ".venv/*"

bench: venv
	$(PY) bench/engine_bench.py
	$(PY) bench/sheet_bench.py

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .hypothesis
