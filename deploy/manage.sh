#!/bin/sh
# deploy/manage.sh COMMAND [ARGS]: `manage.py COMMAND` on a club server, with the settings the
# services run with (ENV_FILE, /etc/kaiser-league/kaiser.env) and, when run as root, as the
# service user (SERVICE_USER, kaiser), e.g. `deploy/manage.sh createsuperuser`.
set -eu
cd "$(dirname "$0")/.."
ENV_FILE="${ENV_FILE:-/etc/kaiser-league/kaiser.env}"
SERVICE_USER="${SERVICE_USER:-kaiser}"
set -a
. "$ENV_FILE"
set +a
if [ "$(id -u)" = 0 ] && id -u "$SERVICE_USER" >/dev/null 2>&1; then
  exec runuser -u "$SERVICE_USER" -- .venv/bin/python manage.py "$@"
fi
exec .venv/bin/python manage.py "$@"
