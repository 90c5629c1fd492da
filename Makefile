# Kaiser League: `make run` to try it, `make test` to prove it. Everything a fresh machine needs is here.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test venv release migrate demo lint format messages system-deps bench check-examples clean serve loadtest screenshots

$(STAMP): requirements/base.txt requirements/dev.txt
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements/dev.txt
	@touch $(STAMP)

venv: $(STAMP)

migrate: venv
	$(PY) manage.py migrate --noinput

# A hall laptop (HOST=0.0.0.0): the phones reach this computer at its network address, so the
# links and QR codes carry that address and the server answers to it.
ifneq ($(filter 0.0.0.0 ::,$(HOST)),)
LAN_ADDRESS := $(shell $(PYTHON) kaiser_league/lan.py)
export PUBLIC_BASE_URL ?= http://$(LAN_ADDRESS):$(PORT)
export ALLOWED_HOSTS ?= 127.0.0.1,localhost,[::1],$(LAN_ADDRESS)
BASE_URL := $(PUBLIC_BASE_URL)
DEMO_QR := --qr
else
BASE_URL := http://$(HOST):$(PORT)
DEMO_QR :=
endif

demo: migrate
	$(PY) manage.py demo_club --base-url $(BASE_URL) $(DEMO_QR)

## run: create the venv, install, migrate, load the demo club, serve on $(HOST):$(PORT)
## (127.0.0.1:8000 unless told otherwise: `make run PORT=8101`, `make run HOST=0.0.0.0`)
run: demo
	$(PY) manage.py runserver $(HOST):$(PORT)

## system-deps: Debian's Chromium for the Playwright tests (never `playwright install`), GNU
## gettext for the translation checks, npm for axe-core
system-deps:
	@missing=""; \
	test -x /usr/bin/chromium || missing="$$missing chromium"; \
	command -v xgettext >/dev/null || missing="$$missing gettext"; \
	command -v npm >/dev/null || missing="$$missing npm"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	  else echo "Tests need Debian's$$missing: sudo apt-get install$$missing" >&2; exit 1; fi; fi

## node_modules: axe-core for the browser tests' accessibility checks, the version pinned in
## package-lock.json (nothing from npm is served to a browser by the app)
AXE := node_modules/axe-core/axe.min.js
$(AXE): package.json package-lock.json
	npm ci --no-audit --no-fund --ignore-scripts
	@touch $(AXE)

## test: the whole suite. With DATABASE_URL / CELERY_BROKER_URL set, also the tests of the real servers.
test: venv system-deps $(AXE)
	$(PY) manage.py makemigrations --check --dry-run --settings=kaiser_league.settings_test
	$(PY) -m pytest $(if $(DATABASE_URL),-m "not sqlite",-m "not postgres and not redis") $(PYTEST_ARGS)

## check-examples: the upstream examples through kaiser_score with the upstream checker when they
## are beside the project (as in CI), otherwise the repository's copy through the same command
## (UPSTREAM: as [tool.kaiser-league] upstream in pyproject.toml)
UPSTREAM ?= ../shared
check-examples: venv
	@if [ -d "$(UPSTREAM)/examples" ]; then \
	  $(PY) $(UPSTREAM)/tools/check_examples.py $(UPSTREAM)/examples && \
	  $(PY) $(UPSTREAM)/tools/check_examples.py $(UPSTREAM)/examples/lost-heir; \
	else \
	  echo "no $(UPSTREAM)/examples: checking the copy in tests/data/examples"; \
	  $(PY) -m pytest -q -p no:cacheprovider tests/test_kaiser_score_command.py; \
	fi

## lint: ruff (lint and format) and mypy with django-stubs (strict on the rules engine)
lint: venv
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy

format: venv
	$(PY) -m ruff check --fix .
	$(PY) -m ruff format .

## messages: refresh the French catalogue from the code, then compile it
messages: venv
	$(PY) manage.py makemessages --locale fr --no-obsolete --ignore ".venv/*" --ignore "bench/*" --ignore "tests/*"
	$(PY) manage.py compilemessages --ignore ".venv/*"

## screenshots: docs/screenshots/ from the demo club in a real browser (tools/screenshots.py):
## the projector and table cards at projector (1920x1080) and phone (390x844) size
screenshots: venv system-deps
	$(PY) tools/screenshots.py

## bench: every bench/*_bench.py, each figure beside its baseline and its goal; writes
## bench/RESULTS.md. QUICK=1: short runs (under 2 minutes) written to a temporary file.
## BENCH_DATABASE_URL=postgres://...: the PostgreSQL figures too. BENCH_ARGS: e.g. --only submit
bench: venv
	BENCH_QUICK=$(if $(filter 1 yes true,$(QUICK)),1,0) $(PY) bench/run_all.py $(BENCH_ARGS)

## loadtest: a short club night (bench/load_night.py) on gunicorn against the real hand endpoint;
## BENCH_DATABASE_URL for PostgreSQL, else a throw-away SQLite file.
LOAD_ARGS ?= --tables 40 --hands 6 --speedup 90 --time-limit 120
loadtest: venv
	$(PY) bench/load_night.py $(LOAD_ARGS)

## release: on a club server, as root after `git pull` (deploy/README.md): the packages of
## requirements/prod.txt, the migrations once, the static files, then a restart of web, worker
## and beat when their systemd units are installed. Runs as SERVICE_USER with ENV_FILE's settings.
SERVICE_USER ?= kaiser
ENV_FILE ?= /etc/kaiser-league/kaiser.env
AS_SERVICE = $(shell [ "$$(id -u)" = 0 ] && id -u $(SERVICE_USER) >/dev/null 2>&1 && echo "runuser -u $(SERVICE_USER) --")
WITH_ENV = $(if $(wildcard $(ENV_FILE)),set -a && . $(ENV_FILE) && set +a &&,)
UNITS := kaiser-web kaiser-worker kaiser-beat
release:
	$(WITH_ENV) $(AS_SERVICE) $(PY) -m pip install --quiet --require-hashes -r requirements/prod.txt
	$(WITH_ENV) $(AS_SERVICE) $(PY) manage.py migrate --noinput
	$(WITH_ENV) $(AS_SERVICE) $(PY) manage.py collectstatic --noinput --verbosity 0
	@if command -v systemctl >/dev/null 2>&1 && systemctl cat kaiser-web.service >/dev/null 2>&1; then \
	  echo "systemctl restart $(UNITS)"; systemctl restart $(UNITS); \
	else echo "no kaiser-web systemd unit here: restart the web, worker and beat processes yourself"; fi

## serve: run as a club server does: gunicorn, PostgreSQL, Redis, Celery worker and beat (Ctrl-C stops all)
serve: venv
	deploy/serve.sh

clean:
	rm -rf $(VENV) node_modules staticfiles .pytest_cache .hypothesis
