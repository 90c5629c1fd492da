"""Nothing a page shows depends on which web process answers it.

Two gunicorn workers each keep their own per-process cache; here each "worker" is a LocMemCache
of its own, swapped in as the default cache between two requests. A seat renamed, or a hand
corrected, through one worker is shown at once by the other, on the sheet, a poll or a hand
submit. And production settings refuse to run several workers on a per-process cache."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from kaiser_league.settings import per_process_cache_refusal
from scorecards.rules import HandInput
from scorecards.services import game_start, hand_correct, hand_record

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parent.parent
HTMX = {"HX-Request": "true"}
MADE = HandInput(bidder=0, bid=7, tricks=(8, 0), five_hearts=0, three_spades=0)
SET = HandInput(bidder=1, bid=9, tricks=(6, 2), five_hearts=0, three_spades=1)
LOCMEM = "django.core.cache.backends.locmem.LocMemCache"
REDIS = "django.core.cache.backends.redis.RedisCache"


class Worker:
    """One web process: its own in-memory cache, answering a request when asked."""

    def __init__(self, name: str) -> None:
        self.cache = LocMemCache(f"worker-{name}-{uuid.uuid4()}", {})

    @contextmanager
    def answering(self) -> Iterator[None]:
        before = caches["default"]
        caches["default"] = self.cache
        try:
            yield
        finally:
            caches["default"] = before

    def get(self, client: Client, url: str, **headers: str) -> str:
        with self.answering():
            response = client.get(url, headers=headers)
        assert response.status_code == 200, response.status_code
        return response.content.decode()

    def post(self, client: Client, url: str, data: dict[str, str], **headers: str) -> str:
        with self.answering():
            response = client.post(url, data, headers=headers)
        assert response.status_code == 200, response.content
        return response.content.decode()


@pytest.fixture
def workers() -> tuple[Worker, Worker]:
    return Worker("a"), Worker("b")


@pytest.fixture
def game(club, players, standard_rules, alice):
    game = game_start(seats=players, rules=standard_rules, club=club, created_by=alice)
    hand_record(game=game, hand=MADE)
    hand_record(game=game, hand=SET)
    return game


def _row(html: str, number: int) -> str:
    match = re.search(rf'<tr [^>]*id="hand-{number}">.*?</tr>', html, re.S)
    assert match, f"no row {number} in {html[:300]}"
    return match.group(0)


def _poll_url(game, page: str) -> str:
    """The poll the sheet's phone sends next (what its sheet shows: version, rows and their
    fingerprint, the inputs of #sheet-seen)."""
    seen = re.search(r'<span id="sheet-seen".*?</span>', page, re.S)
    assert seen, "no #sheet-seen"
    query = "&".join(f"{k}={v}" for k, v in re.findall(r'name="(\w)" value="([^"]*)"', seen[0]))
    return reverse("game_poll", args=[game.pk]) + "?" + query


def _hand_data() -> dict[str, str]:
    """Hand 3: Cat (seat 1) deals; Ann (seat 0) bids 8 and takes 6 tricks and the three."""
    return {
        "idempotency_key": str(uuid.uuid4()),
        "bidder": "0",
        "bid": "8",
        "kind": "trump",
        "tricks_bidder": "6",
        "five_hearts": "0",
        "three_spades": "1",
    }


def _rename_seat(game, seat: int, name: str) -> None:
    """An edit of the seat's name (the admin's, or a player's rename carried to the seat)."""
    row = game.seats.get(seat=seat)
    row.name = name
    row.save()


# --- seat names ---------------------------------------------------------------------------------


def test_a_renamed_seat_is_shown_by_the_other_worker_on_a_poll(as_bob, game, workers) -> None:
    a, b = workers
    sheet = reverse("game_sheet", args=[game.pk])
    page = b.get(as_bob, sheet, **HTMX)  # worker B has drawn this game with the old names
    assert "Ann" in _row(page, 1)
    _rename_seat(game, 0, "Annabelle")
    assert "Annabelle" in _row(a.get(as_bob, sheet), 1)
    hand_record(game=game, hand=MADE)  # the sheet changed: the next poll draws it
    polled = b.get(as_bob, _poll_url(game, page))
    assert "Annabelle" in _row(polled, 1) and "Annabelle" in _row(polled, 3)
    assert ">Ann<" not in polled


def test_a_renamed_seat_is_shown_by_the_other_worker_on_a_submit(as_bob, game, workers) -> None:
    a, b = workers
    b.get(as_bob, reverse("game_sheet", args=[game.pk]))
    _rename_seat(game, 0, "Annabelle")
    a.get(as_bob, reverse("game_sheet", args=[game.pk]))
    answer = b.post(as_bob, reverse("hand_submit", args=[game.pk]), _hand_data(), **HTMX)
    assert "Annabelle" in _row(answer, 3) and "Annabelle" in _row(answer, 1)


# --- the corrected mark -------------------------------------------------------------------------


@pytest.fixture
def corrected(game, alice):
    """Hand 2 corrected (through any worker: the service writes the database)."""

    def correct() -> None:
        hand_correct(
            game=game,
            number=2,
            hand=HandInput(bidder=1, bid=9, tricks=(3, 5), five_hearts=1, three_spades=1),
            by=alice,
        )

    return correct


@pytest.mark.parametrize("first", ["a", "b"])
def test_the_corrected_badge_whichever_worker_answers_a_submit(
    as_bob, game, workers, corrected, first
) -> None:
    """Worker B drew the sheet before the correction; the submit after it is answered by
    either worker, and the badge is on hand 2 either way."""
    a, b = workers
    sheet = reverse("game_sheet", args=[game.pk])
    b.get(as_bob, sheet)
    corrected()
    assert "badge corrected" in _row(a.get(as_bob, sheet), 2)
    worker = a if first == "a" else b
    answer = worker.post(as_bob, reverse("hand_submit", args=[game.pk]), _hand_data(), **HTMX)
    assert "badge corrected" in _row(answer, 2)
    assert "badge corrected" not in _row(answer, 1) + _row(answer, 3)
    # And the next hand, answered by the other one.
    other = b if worker is a else a
    answer = other.post(as_bob, reverse("hand_submit", args=[game.pk]), _hand_data(), **HTMX)
    assert "badge corrected" in _row(answer, 2)


def test_the_corrected_badge_on_a_submit_to_a_fresh_worker(
    as_bob, game, workers, corrected
) -> None:
    """A worker that never drew this game (just started, or recycled) answers the submit."""
    a, b = workers
    corrected()
    a.get(as_bob, reverse("game_sheet", args=[game.pk]))
    answer = b.post(as_bob, reverse("hand_submit", args=[game.pk]), _hand_data(), **HTMX)
    assert "badge corrected" in _row(answer, 2)


@pytest.mark.parametrize("first", ["a", "b"])
def test_the_corrected_badge_whichever_worker_answers_a_poll(
    as_bob, game, workers, corrected, first
) -> None:
    a, b = workers
    page = b.get(as_bob, reverse("game_sheet", args=[game.pk]), **HTMX)
    corrected()
    worker = a if first == "a" else b
    polled = worker.get(as_bob, _poll_url(game, page))
    assert "badge corrected" in _row(polled, 2)


# --- what it costs ------------------------------------------------------------------------------


def test_submit_and_poll_cost_a_fixed_number_of_queries(
    as_bob, game, workers, django_assert_max_num_queries
) -> None:
    """Names and corrected marks are read from the database, once per request. A poll of an
    unchanged game costs what it did (4 for a member: session, user, game, membership); a poll
    that draws the sheet one more than with the per-process names (6, was 5), a submit
    answered with the sheet two more (15, was 13: the names and the corrected marks, which
    the service's hands do not carry). None grows with the hands."""
    a, _b = workers
    sheet = reverse("game_sheet", args=[game.pk])
    counts = []
    for extra in (0, 9):
        for _ in range(extra):
            hand_record(game=game, hand=HandInput(thrown_in=True))
        page = a.get(as_bob, sheet, **HTMX)
        with a.answering():
            with django_assert_max_num_queries(4):
                assert as_bob.get(_poll_url(game, page)).status_code == 204
            with (
                django_assert_max_num_queries(15),
                CaptureQueriesContext(connection) as submitted,
            ):
                response = as_bob.post(
                    reverse("hand_submit", args=[game.pk]), _hand_data(), headers=HTMX
                )
            assert response.status_code == 200
            with django_assert_max_num_queries(6), CaptureQueriesContext(connection) as polled:
                assert as_bob.get(_poll_url(game, page)).status_code == 200
        counts.append((len(submitted), len(polled)))
    assert counts[0] == counts[1], counts


# --- the production guard -----------------------------------------------------------------------


def _caches(backend: str) -> dict[str, dict[str, str]]:
    return {"default": {"BACKEND": backend}}


@pytest.mark.parametrize(
    ("debug", "backend", "workers", "refused"),
    [
        (False, LOCMEM, 4, True),
        (False, LOCMEM, 2, True),
        (False, LOCMEM, 1, False),
        (False, REDIS, 4, False),
        (True, LOCMEM, 4, False),  # `make run`: one process, the development server
        (False, "django.core.cache.backends.dummy.DummyCache", 4, False),  # keeps nothing
    ],
)
def test_the_guard_refuses_several_workers_on_a_per_process_cache(
    debug: bool, backend: str, workers: int, refused: bool
) -> None:
    refusal = per_process_cache_refusal(debug=debug, caches=_caches(backend), workers=workers)
    if refused:
        assert refusal is not None
        assert "CACHE_URL" in refusal and f"WEB_CONCURRENCY={workers}" in refusal
    else:
        assert refusal is None


def _production(**extra: str) -> subprocess.CompletedProcess[str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "SECRET_", "CACHE_", "WEB_", "ALLOW_PER_PROCESS"))
    }
    env.update(
        DJANGO_SETTINGS_MODULE="kaiser_league.settings",
        DJANGO_DEBUG="false",
        SECRET_KEY="x" * 60,
        ALLOWED_HOSTS="kaiser.example.org",
        **extra,
    )
    return subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    ("extra", "refused"),
    [
        ({"WEB_CONCURRENCY": "4"}, True),  # deploy/kaiser.env.example without CACHE_URL
        ({}, True),  # gunicorn.conf.py's default: two processes per core
        ({"WEB_CONCURRENCY": "4", "CACHE_URL": "redis://127.0.0.1:6379/1"}, False),
        ({"WEB_CONCURRENCY": "1"}, False),
    ],
)
def test_production_settings_refuse_to_start_with_a_clear_message(
    extra: dict[str, str], refused: bool
) -> None:
    done = _production(**extra)
    if refused:
        assert done.returncode != 0
        assert "CACHE_URL" in done.stderr and "shared cache" in done.stderr
        assert "Traceback" not in done.stderr.splitlines()[-1]
    else:
        assert done.returncode == 0, done.stderr


def _gunicorn_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    from bench.harness import production_env

    env = production_env(static_root=tmp_path / "static", sqlite_path=tmp_path / "db.sqlite3")
    for name in ("ALLOW_PER_PROCESS_CACHE", "CACHE_URL", "WEB_CONCURRENCY"):
        env.pop(name, None)
    env.update(extra)
    return env


def test_gunicorn_with_several_workers_and_no_shared_cache_does_not_start(tmp_path) -> None:
    from bench.harness import GunicornServer

    server = GunicornServer(_gunicorn_env(tmp_path), workers=2, threads=1, start_timeout=60)
    try:
        with pytest.raises(RuntimeError, match="gunicorn exited") as refused:
            server.start()
    finally:
        server.close()
    assert "set CACHE_URL to a shared cache" in str(refused.value)


def test_gunicorn_tells_its_workers_how_many_really_serve(tmp_path) -> None:
    """WEB_CONCURRENCY says 4 but `--workers 1` starts one: that one process serves."""
    from bench.harness import HttpSession, free_port

    port = free_port()
    env = _gunicorn_env(
        tmp_path, WEB_CONCURRENCY="4", GUNICORN_BIND=f"127.0.0.1:{port}", GUNICORN_THREADS="1"
    )
    with open(tmp_path / "gunicorn.log", "wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "--config", "deploy/gunicorn.conf.py",
             "--workers", "1", "kaiser_league.wsgi"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        try:
            status = None
            for _ in range(600):
                assert process.poll() is None, (tmp_path / "gunicorn.log").read_text()[-2000:]
                try:
                    status, _headers, _body = HttpSession(f"http://127.0.0.1:{port}").get(
                        "/healthz"
                    )
                    break
                except OSError:
                    time.sleep(0.05)
            assert status == 200
        finally:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=30)
