#!/usr/bin/env bash
# `make serve`: run Kaiser League as a club server does, on 127.0.0.1:8000 (gunicorn, PostgreSQL,
# Redis, a Celery worker and beat, static files through WhiteNoise, DJANGO_DEBUG=false).
# Every setting below is only a default: export your own to override it. Ctrl-C stops everything.
set -euo pipefail
cd "$(dirname "$0")/.."

export DJANGO_SETTINGS_MODULE=kaiser_league.settings
export DJANGO_DEBUG=false
export DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/kaiser_league}"
export CELERY_BROKER_URL="${CELERY_BROKER_URL:-redis://127.0.0.1:6379/0}"
# gunicorn runs several processes (WEB_CONCURRENCY, two per core): they share one cache, or the
# settings refuse to start (a page must not depend on which process answers it).
export CACHE_URL="${CACHE_URL:-redis://127.0.0.1:6379/1}"
export KAISER_STATE_DIR="${KAISER_STATE_DIR:-.serve}"
export GUNICORN_BIND="${GUNICORN_BIND:-127.0.0.1:8000}"
# On a server the TLS proxy in front redirects to https; here we are that proxy's plain-HTTP side.
export SECURE_SSL_REDIRECT="${SECURE_SSL_REDIRECT:-false}"
mkdir -p "$KAISER_STATE_DIR"
if [ -z "${SECRET_KEY:-}" ]; then
  # A key made once for this checkout, never committed (.serve/ is git-ignored).
  [ -s "$KAISER_STATE_DIR/secret_key" ] || .venv/bin/python -c \
    "import secrets; print(secrets.token_urlsafe(50))" > "$KAISER_STATE_DIR/secret_key"
  SECRET_KEY="$(cat "$KAISER_STATE_DIR/secret_key")"
  export SECRET_KEY
fi

.venv/bin/python manage.py check
.venv/bin/python manage.py migrate --noinput
.venv/bin/python manage.py collectstatic --noinput --verbosity 0
echo "Kaiser League on http://$GUNICORN_BIND/ (Ctrl-C stops the web, worker and beat processes)"
# honcho starts each line of the Procfile in its own process group; when one process stops, or on
# Ctrl-C, it sends SIGTERM to the others and SIGKILL 5 seconds later. Its status is that of the first
# process to stop (130 after Ctrl-C), so a process that stopped by itself with 0 comes back as 0: the
# server is down all the same, which we say with 1. `--env /dev/null`: the environment is the one
# exported above, not a .env file that the processes would see and `migrate` would not.
.venv/bin/honcho start --no-colour --env /dev/null --procfile deploy/Procfile || exit
echo "a process of deploy/Procfile stopped by itself: every other one was stopped" >&2
exit 1
