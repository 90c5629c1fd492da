"""Ten identical requests at the same instant, over HTTP through gunicorn (several processes),
repeated 20 times for each form that creates something named: add a player, add a season,
sign up, create a club. Never a 500: one request creates the thing and the others get the form
back naming what already exists.
Runs on SQLite and on PostgreSQL (whichever the suite runs on); prints the answer counts."""

from __future__ import annotations

import json
import re
import threading
from collections import Counter
from collections.abc import Callable

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import PBKDF2PasswordHasher

from bench.harness import HttpSession
from leagues.clubs import services
from leagues.clubs.models import Club, Player, Season

REPEATS = 20
AT_ONCE = 10
PASSWORD = "a long race password"
CSRF = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"')


def _user(username: str):
    """An account the production server can log in (it has no MD5 hasher, unlike the tests);
    few iterations, for speed."""
    hashed = PBKDF2PasswordHasher().encode(PASSWORD, "racesalt", iterations=1000)
    return get_user_model().objects.create(username=username, password=hashed)


def _logged_in(base: str, username: str) -> HttpSession:
    phone = HttpSession(base)
    status, _, body = phone.get("/accounts/login/")
    token = CSRF.search(body).group(1).decode()
    status, _, _ = phone.post_form(
        "/accounts/login/",
        {"username": username, "password": PASSWORD, "csrfmiddlewaretoken": token},
    )
    assert status == 302, status
    return phone


def _race(sessions: list[HttpSession], path: str, form: Callable[[int], dict]) -> list[int]:
    barrier = threading.Barrier(len(sessions))
    statuses: list[int] = [0] * len(sessions)

    def send(i: int) -> None:
        barrier.wait()
        statuses[i] = sessions[i].post_form(path, form(i))[0]

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(sessions))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return statuses


@pytest.mark.django_db(transaction=True)
def test_ten_identical_creates_at_once_never_answer_500(web_server) -> None:
    base = web_server.base_url
    owner = _user("owner")
    club = services.club_create(name="Race club", owner=owner)
    directors = [_logged_in(base, "owner") for _ in range(AT_ONCE)]
    counts: dict[str, Counter] = {}

    def run(kind: str, path: str, form: Callable[[int, int], dict], sessions=None) -> None:
        counts[kind] = Counter()
        for rep in range(REPEATS):
            phones = sessions(rep) if sessions else directors
            statuses = _race(phones, path, lambda i, rep=rep: form(rep, i))
            counts[kind].update(statuses)

    run(
        "add player",
        f"/clubs/{club.slug}/players/",
        lambda rep, i: {"name": f"Racer {rep}"},
    )
    run(
        "add season",
        f"/clubs/{club.slug}/seasons/",
        lambda rep, i: {"name": f"Season {rep}", "starts_on": "2026-09-01", "preset": "standard"},
    )
    run("create club", "/clubs/new/", lambda rep, i: {"name": f"Night club {rep}"})

    def newcomers(rep: int) -> list[HttpSession]:
        phones = [HttpSession(base) for _ in range(AT_ONCE)]
        for phone in phones:
            assert phone.get("/accounts/signup/")[0] == 200  # the CSRF cookie
        return phones

    run(
        "sign-up",
        "/accounts/signup/",
        lambda rep, i: {
            "username": f"newcomer{rep}",
            "email": f"newcomer{rep}@example.com",
            "password1": "Kaiser-night-2026!",
            "password2": "Kaiser-night-2026!",
        },
        sessions=newcomers,
    )
    print()
    for kind, statuses in counts.items():
        print(
            f"{kind}: {sum(statuses.values())} requests, answers {dict(sorted(statuses.items()))}"
        )
    for kind, statuses in counts.items():
        assert sum(statuses.values()) == REPEATS * AT_ONCE, kind
        assert statuses[500] == 0 and not any(s >= 500 for s in statuses), (kind, statuses)
        # One winner per race redirects; the others get the form back with the reason.
        assert statuses[302] == REPEATS, (kind, statuses)
        assert statuses[422] == REPEATS * (AT_ONCE - 1), (kind, statuses)
    # Exactly one of each thing, as many as races.
    assert Player.objects.filter(club=club, name__startswith="Racer").count() == REPEATS
    assert Season.objects.filter(club=club).count() == REPEATS
    assert get_user_model().objects.filter(username__startswith="newcomer").count() == REPEATS
    assert Club.objects.filter(name__startswith="Night club").count() == REPEATS


@pytest.mark.django_db(transaction=True)
def test_ten_imports_of_the_same_new_players_at_once_never_answer_500(web_server) -> None:
    """The same record, naming four players the club does not have yet, imported by ten
    requests at once, 20 times: each import makes its game or is refused naming the seats,
    and every new name becomes exactly one player."""
    base = web_server.base_url
    owner = _user("owner")
    club = services.club_create(name="Import race club", owner=owner)
    directors = [_logged_in(base, "owner") for _ in range(AT_ONCE)]
    statuses: Counter = Counter()
    for rep in range(REPEATS):
        record = {
            "format": "kaiser-game/1",
            "seats": [f"Nouveau {rep} {seat}" for seat in "ABCD"],
            "hands": [
                {"bidder": 0, "bid": 7, "tricks": [7, 1], "five_hearts": 0, "three_spades": 1}
            ],
        }
        text = json.dumps(record)
        statuses.update(
            _race(
                directors, f"/clubs/{club.slug}/games/import", lambda i, text=text: {"text": text}
            )
        )
    print(f"\nimport: {sum(statuses.values())} requests, answers {dict(sorted(statuses.items()))}")
    assert sum(statuses.values()) == REPEATS * AT_ONCE
    assert set(statuses) <= {302, 422}, statuses
    assert statuses[302] >= REPEATS, statuses  # at least the first import of each race
    assert Player.objects.filter(club=club, name__startswith="Nouveau").count() == 4 * REPEATS
