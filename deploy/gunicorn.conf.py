"""Gunicorn settings for Kaiser League, shared by `make serve` and the systemd unit.

Everything a server changes comes from the environment: GUNICORN_BIND, WEB_CONCURRENCY,
GUNICORN_THREADS, GUNICORN_TIMEOUT."""

import multiprocessing
import os
import sys
from pathlib import Path
from typing import Any

# The project, for the log formatters (gunicorn reads this file before it imports the app).
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kaiser_league.logs import logging_config

bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
# Requests are short and mostly wait on the database: two processes per core, a few threads each.
# (kaiser_league/settings.py reads the same default: several processes need a shared CACHE_URL.)
workers = int(os.environ.get("WEB_CONCURRENCY", 2 * multiprocessing.cpu_count()))
threads = int(os.environ.get("GUNICORN_THREADS", "4"))
worker_class = "gthread" if threads > 1 else "sync"
# The last resort of a request's time budget: a worker silent this long is killed and restarted.
# Above the database's budgets (a statement 5 s on PostgreSQL, the SQLite lock wait 20 s:
# kaiser_league/settings.py), which answer 503 first; a sheet takes well under a second.
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
# On SIGTERM, let the hand being saved finish: phones retry with their idempotency key anyway.
graceful_timeout = 20
keepalive = 5
# Recycle workers now and then so a slow leak never takes a club night down.
max_requests = 2000
max_requests_jitter = 200
# The TLS proxy on the same host tells us the request was https (SECURE_PROXY_SSL_HEADER).
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1,::1")
accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-")
errorlog = "-"
# gunicorn's lines in the format of Django's and Celery's (kaiser_league/logs.py): UTC with the
# zone, LOG_FORMAT=json as an option; each access line ends with the request's X-Request-ID.
logconfig_dict = logging_config(
    log_format=os.environ.get("LOG_FORMAT", "text"), level=os.environ.get("LOG_LEVEL", "INFO")
)
access_log_format = '%(h)s "%(r)s" %(s)s %(b)s %(M)sms request_id=%({x-request-id}o)s'


def pre_fork(server: Any, worker: Any) -> None:
    """Tell the worker how many processes really serve (a --workers flag or a TTIN included):
    its settings refuse several processes on a per-process cache (kaiser_league/settings.py)."""
    os.environ["WEB_CONCURRENCY"] = str(server.num_workers)
