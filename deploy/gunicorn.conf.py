"""Gunicorn settings for Kaiser League, shared by `make serve` and the systemd unit.

Everything a server changes comes from the environment: GUNICORN_BIND, WEB_CONCURRENCY,
GUNICORN_THREADS, GUNICORN_TIMEOUT."""

import multiprocessing
import os

bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
# Requests are short and mostly wait on the database: two processes per core, a few threads each.
workers = int(os.environ.get("WEB_CONCURRENCY", 2 * multiprocessing.cpu_count()))
threads = int(os.environ.get("GUNICORN_THREADS", "4"))
worker_class = "gthread" if threads > 1 else "sync"
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
