"""What the HTTP benchmarks and the load test share: a gunicorn server on a free 127.0.0.1 port
with production settings, a tiny cookie-keeping HTTP client (threads + http.client), percentiles,
and the `RESULT name=value unit` lines that `bench/run_all.py` collects.

Everything here talks to 127.0.0.1 only, and every run is bounded in count and in time.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1"}


def result(name: str, value: float, unit: str) -> str:
    """Print (and return) one machine-readable figure: `RESULT name=value unit`."""
    line = f"RESULT {name}={value:.6g} {unit}"
    print(line, flush=True)
    return line


def percentile(values: list[float], p: float) -> float:
    """The p-th percentile (0..100) by linear interpolation; 0.0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = (len(ordered) - 1) * p / 100
    low = int(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def median(values: list[float]) -> float:
    return statistics.median(values) if values else 0.0


def local_base_url(url: str) -> tuple[str, int]:
    """(host, port) of an http:// URL on this machine; anything else is refused."""
    parsed = urllib.parse.urlsplit(url)
    if parsed.scheme != "http" or parsed.hostname not in LOCAL_HOSTS:
        raise SystemExit(f"refusing {url!r}: benchmarks and load tests run against 127.0.0.1 only")
    return parsed.hostname, parsed.port or 80


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def production_env(
    *,
    static_root: Path,
    database_url: str = "",
    sqlite_path: Path | None = None,
    floor: bool = False,
) -> dict[str, str]:
    """Environment for a server process with DJANGO_DEBUG=false, reachable over plain HTTP on
    127.0.0.1 (no SSL redirect), eager Celery, on the given database. With `floor`, the same
    settings also serve the bench's floor views (`bench.floor.settings`; gunicorn runs from the
    project root, where the `bench` package is found)."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "CELERY_BROKER_URL", "SQLITE_PATH"}
    }
    env.update(
        DJANGO_SETTINGS_MODULE="bench.floor.settings" if floor else "kaiser_league.settings",
        DJANGO_DEBUG="false",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SECURE_SSL_REDIRECT="false",
        STATIC_ROOT=str(static_root),
        AXES_ENABLED="false",
        LOG_LEVEL="WARNING",
        GUNICORN_ACCESS_LOG="/dev/null",
        # Several gunicorn workers on one machine with no Redis: production settings refuse a
        # per-process cache; measuring may (every cache is keyed by what it shows).
        ALLOW_PER_PROCESS_CACHE="true",
        # Sign-up is closed by default in production; the load tests sign newcomers up at once.
        SIGNUP_OPEN="true",
    )
    if database_url:
        env["DATABASE_URL"] = database_url
    elif sqlite_path is not None:
        env["SQLITE_PATH"] = str(sqlite_path)
    return env


SQLITE = "sqlite"  # --database-url value: a throw-away SQLite file


def vendor_of(database_url: str) -> str:
    """The vendor name a figure carries: "postgresql" for a postgres:// URL, else "sqlite"."""
    return "postgresql" if database_url.startswith("postgres") else "sqlite"


def per_database(script: str, argv: list[str], database_url: str | None) -> int | None:
    """Run a benchmark once per database when none was named.

    With `database_url` None, run `script argv --database-url URL` in its own process (Django
    is set up once per process) on a throw-away SQLite file, then on BENCH_DATABASE_URL's
    PostgreSQL when that is set (when not, say loudly that PostgreSQL was not measured); return
    the worst exit status. With a database named, return None: the caller measures it."""
    if database_url is not None:
        return None
    urls = [SQLITE]
    postgres = os.environ.get("BENCH_DATABASE_URL", "")
    if postgres:
        urls.append(postgres)
    worst = 0
    for url in urls:
        print(f"-- {Path(script).name} on {vendor_of(url)}", flush=True)
        done = subprocess.run([sys.executable, script, *argv, "--database-url", url], cwd=ROOT)
        worst = max(worst, done.returncode)
    if not postgres:
        print("PostgreSQL NOT MEASURED: BENCH_DATABASE_URL is not set", flush=True)
    return worst


def django_ready(env: Mapping[str, str], *, migrate: bool = True) -> None:
    """Set up Django in this process on the server's database (`env`), and, unless the server
    is someone else's, migrate it and collect the static files."""
    os.environ.update(env)
    import django

    django.setup()
    if migrate:
        from django.core.management import call_command

        call_command("migrate", verbosity=0, interactive=False)
        call_command("collectstatic", verbosity=0, interactive=False)


def manage(env: Mapping[str, str], *args: str, timeout: float = 300) -> None:
    """Run `manage.py args` with `env` (raises on failure, output shown only then)."""
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=dict(env),
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if done.returncode:
        raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")


class GunicornServer:
    """gunicorn (deploy/gunicorn.conf.py) on a 127.0.0.1 port, that can be stopped hard and
    started again on the same port (the web-process restart fault)."""

    def __init__(
        self,
        env: Mapping[str, str],
        *,
        workers: int = 2,
        threads: int = 4,
        port: int | None = None,
        start_timeout: float = 30,
    ) -> None:
        self.port = port or free_port()
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.start_timeout = start_timeout
        self.env = dict(env)
        self.env.update(
            GUNICORN_BIND=f"127.0.0.1:{self.port}",
            WEB_CONCURRENCY=str(workers),
            GUNICORN_THREADS=str(threads),
        )
        self.process: subprocess.Popen | None = None
        # The server's log goes to a file: a pipe nobody reads would fill and stall the server.
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 - closed in close()

    def start(self) -> str:
        """Start it and wait for /healthz; returns the base URL."""
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "--config", "deploy/gunicorn.conf.py",
             "kaiser_league.wsgi"],
            cwd=ROOT, env=self.env, stdout=self.log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
        deadline = time.monotonic() + self.start_timeout
        while True:
            if self.process.poll() is not None:
                self.log.seek(0)
                raise RuntimeError(f"gunicorn exited: {self.log.read().decode()[-8000:]}")
            try:
                status, _, _ = HttpSession(self.base_url, timeout=5).get("/healthz")
                if status == 200:
                    return self.base_url
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("gunicorn did not answer /healthz in time")
            time.sleep(0.05)

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 25) -> None:
        """Signal its whole process group (master and workers); SIGKILL if it lingers."""
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, sig)
        try:
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        self.process = None

    def close(self) -> None:
        self.stop()
        self.log.close()


@contextlib.contextmanager
def gunicorn_server(
    env: Mapping[str, str], *, workers: int = 2, threads: int = 4, start_timeout: float = 30
) -> Iterator[str]:
    """gunicorn (deploy/gunicorn.conf.py) on a free 127.0.0.1 port; yields its base URL and
    stops it (SIGTERM to its process group, then SIGKILL) when the block ends."""
    server = GunicornServer(env, workers=workers, threads=threads, start_timeout=start_timeout)
    try:
        yield server.start()
    finally:
        server.close()


@dataclass
class HttpSession:
    """One client (a phone): a keep-alive connection and its cookies. Not thread-safe: one per
    thread."""

    base_url: str
    timeout: float = 30.0
    cookies: dict[str, str] = field(default_factory=dict)
    _conn: http.client.HTTPConnection | None = None

    def __post_init__(self) -> None:
        self.host, self.port = local_base_url(self.base_url)

    def _connection(self) -> http.client.HTTPConnection:
        if self._conn is None:
            self._conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
        return self._conn

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def request(
        self,
        method: str,
        path: str,
        body: bytes | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> tuple[int, http.client.HTTPMessage, bytes]:
        """One request; retried once on a connection the server had closed (keep-alive end)."""
        all_headers = {"Host": f"{self.host}:{self.port}", **(headers or {})}
        if self.cookies:
            all_headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        for attempt in (1, 2):
            conn = self._connection()
            try:
                conn.request(method, path, body=body, headers=all_headers)
                response = conn.getresponse()
                data = response.read()
                break
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self.close()
                if attempt == 2:
                    raise
        for header in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = header.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]
        if response.getheader("Connection", "").lower() == "close":
            self.close()
        return response.status, response.headers, data

    def get(
        self, path: str, headers: Mapping[str, str] | None = None
    ) -> tuple[int, http.client.HTTPMessage, bytes]:
        return self.request("GET", path, headers=headers)

    def post_form(
        self, path: str, fields: Mapping[str, str], headers: Mapping[str, str] | None = None
    ) -> tuple[int, http.client.HTTPMessage, bytes]:
        body = urllib.parse.urlencode(fields).encode()
        extra = {"Content-Type": "application/x-www-form-urlencoded", **(headers or {})}
        if "csrftoken" in self.cookies:
            extra.setdefault("X-CSRFToken", self.cookies["csrftoken"])
        extra.setdefault("Origin", self.base_url)
        extra.setdefault("Referer", self.base_url + "/")
        return self.request("POST", path, body=body, headers=extra)


@dataclass
class Timings:
    seconds: list[float] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)

    def add(self, elapsed: float, status: int) -> None:
        self.seconds.append(elapsed)
        self.statuses[status] = self.statuses.get(status, 0) + 1

    @property
    def errors(self) -> int:
        return sum(n for status, n in self.statuses.items() if status >= 500)


def load_run(
    sessions: list[HttpSession],
    path: str,
    *,
    requests: int,
    time_limit: float,
    expect: int = 200,
) -> Timings:
    """`requests` GETs of `path` spread over one thread per session, all starting together,
    stopping early at `time_limit` seconds. Raises if any answer is not `expect`."""
    timings = Timings()
    lock = threading.Lock()
    counter = iter(range(requests))
    deadline = time.monotonic() + time_limit
    barrier = threading.Barrier(len(sessions))
    failures: list[str] = []

    def worker(session: HttpSession) -> None:
        barrier.wait()
        while time.monotonic() < deadline:
            with lock:
                if next(counter, None) is None:
                    return
            start = time.perf_counter()
            try:
                status, _, _ = session.get(path)
            except OSError as exc:
                with lock:
                    failures.append(f"{path}: {exc!r}")
                return
            elapsed = time.perf_counter() - start
            with lock:
                timings.add(elapsed, status)
                if status != expect:
                    failures.append(f"{path}: HTTP {status}")

    threads = [threading.Thread(target=worker, args=(s,)) for s in sessions]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        raise RuntimeError(f"{len(failures)} bad answers, first: {failures[0]}")
    return timings


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start
