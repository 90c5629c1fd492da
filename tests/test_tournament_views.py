"""Tournament pages for owner (alice, a director), member (bob), outsider (charlie), anonymous;
query counts that do not grow with the size of the night."""

from __future__ import annotations

import datetime
import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from leagues.demo import plausible_hand
from leagues.tournaments.models import Tournament, TournamentEntry, TournamentRound
from leagues.tournaments.services import entry_register, round_draw, tournament_create
from scorecards.services import hand_record

pytestmark = pytest.mark.django_db

WHO = [("as_alice", 200), ("as_bob", 200), ("as_charlie", 404), ("client", 302)]
DIRECTOR_ONLY = [("as_alice", 200), ("as_bob", 403), ("as_charlie", 404), ("client", 302)]


def _tournament(club, n=8, **kwargs):
    t = tournament_create(club=club, name="Friday", date=datetime.date(2026, 11, 20), **kwargs)
    for i in range(n):
        if t.fixed_pairs and i % 2:
            continue
        entry_register(
            tournament=t,
            player=f"P{i:02d}",
            partner=f"P{i + 1:02d}" if t.fixed_pairs else None,
            checked_in=True,
        )
    return t


def _play(t, made, hands=3, seed=1):
    rng = random.Random(seed)
    for table in made.tables:
        for _ in range(hands):
            table.game.refresh_from_db()
            if table.game.is_finished:
                break
            hand_record(game=table.game, hand=plausible_hand(rng, table.game.rules_value))


@pytest.fixture
def running(club):
    t = _tournament(club, 9)
    made = round_draw(tournament=t)
    _play(t, made)
    return t, made


@pytest.mark.parametrize(("who", "status"), WHO)
@pytest.mark.parametrize("page", ["detail", "standings", "projector"])
def test_member_pages(request, running, who, status, page) -> None:
    t, _made = running
    url = reverse(f"tournament_{page}", args=[t.pk])
    response = request.getfixturevalue(who).get(url)
    assert response.status_code == status
    if status == 200:
        assert "P00" in response.content.decode()


@pytest.mark.parametrize(("who", "status"), DIRECTOR_ONLY)
def test_console_cards_and_table_are_for_directors(request, running, who, status) -> None:
    t, made = running
    client = request.getfixturevalue(who)
    urls = [
        reverse("tournament_console", args=[t.pk]),
        reverse("tournament_cards", args=[t.pk, 1]),
        reverse("tournament_table", args=[t.pk, made.tables[0].pk]),
    ]
    for url in urls:
        assert client.get(url).status_code == status
    if status == 200:
        cards = client.get(urls[1]).content.decode()
        assert cards.count('class="table-card"') == 2
        assert "<svg" in cards and made.tables[0].game.table_token in cards
        assert "Sitting out" in cards


@pytest.mark.parametrize(("who", "status"), [("as_alice", 200), ("as_bob", 200)])
def test_list_page(request, club, who, status) -> None:
    _tournament(club, 4)
    page = request.getfixturevalue(who).get(reverse("tournament_list", args=[club.slug]))
    assert page.status_code == status
    assert "Friday" in page.content.decode()
    # Only directors see the form.
    assert ("New tournament night" in page.content.decode()) == (who == "as_alice")


@pytest.mark.parametrize(("who", "status"), [("as_charlie", 404), ("client", 302)])
def test_list_page_outsiders(request, club, who, status) -> None:
    page = request.getfixturevalue(who).get(reverse("tournament_list", args=[club.slug]))
    assert page.status_code == status


def _create_data(**extra):
    return {
        "name": "Club night",
        "date": "2026-11-27",
        "format": "rotating",
        "rounds": "3",
        "round_end": "hands",
        "hands_per_round": "10",
        "extra_hand_on_tie": "on",
        "preset": "standard",
        "sitout_score": "average",
        "sitout_points": "0",
        **extra,
    }


@pytest.mark.parametrize(
    ("who", "status"), [("as_alice", 302), ("as_bob", 403), ("as_charlie", 404), ("client", 302)]
)
def test_create(request, club, who, status) -> None:
    url = reverse("tournament_list", args=[club.slug])
    response = request.getfixturevalue(who).post(url, _create_data())
    assert response.status_code == status
    assert Tournament.objects.count() == (1 if who == "as_alice" else 0)


def test_create_refuses_a_bad_form(as_alice, club) -> None:
    url = reverse("tournament_list", args=[club.slug])
    response = as_alice.post(url, _create_data(rounds="0"))
    assert response.status_code == 422
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(
    ("who", "status"), [("as_alice", 302), ("as_bob", 403), ("as_charlie", 404), ("client", 302)]
)
def test_register_check_in_withdraw(request, club, players, who, status) -> None:
    t = _tournament(club, 0)
    client = request.getfixturevalue(who)
    url = reverse("tournament_entry_add", args=[t.pk])
    assert client.post(url, {"player": players[0].pk}).status_code == status
    assert client.post(url, {"name": "Walk-in Wanda", "checked_in": "on"}).status_code == status
    written = 2 if who == "as_alice" else 0
    assert TournamentEntry.objects.filter(tournament=t).count() == written
    if written:
        entry = TournamentEntry.objects.get(player=players[0])
        assert not entry.checked_in
        assert TournamentEntry.objects.get(player__name="Walk-in Wanda").checked_in
    else:
        entry = TournamentEntry.objects.create(tournament=t, player=players[0])
    check_in = reverse("tournament_entry_check_in", args=[t.pk, entry.pk])
    assert client.post(check_in, {"checked_in": "1"}).status_code == status
    entry.refresh_from_db()
    assert entry.checked_in == (who == "as_alice")
    withdraw = reverse("tournament_entry_withdraw", args=[t.pk, entry.pk])
    assert client.post(withdraw).status_code == status
    entry.refresh_from_db()
    assert (entry.last_round is not None) == (who == "as_alice")


def test_register_with_htmx_returns_the_fragment(as_alice, club) -> None:
    t = _tournament(club, 0)
    url = reverse("tournament_entry_add", args=[t.pk])
    response = as_alice.post(url, {"name": "Zoé"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    body = response.content.decode()
    assert body.lstrip().startswith('<section id="entries">') and "Zoé" in body
    assert as_alice.post(url, {}, HTTP_HX_REQUEST="true").status_code == 422


@pytest.mark.parametrize(
    ("who", "status"), [("as_alice", 302), ("as_bob", 403), ("as_charlie", 404), ("client", 302)]
)
def test_draw(request, club, who, status) -> None:
    t = _tournament(club, 8)
    response = request.getfixturevalue(who).post(reverse("tournament_draw", args=[t.pk]))
    assert response.status_code == status
    assert TournamentRound.objects.filter(tournament=t).count() == (who == "as_alice")
    if who == "as_alice":
        assert response["Location"] == reverse("tournament_cards", args=[t.pk, 1])


def test_draw_with_tables_playing_asks_for_confirmation(as_alice, running) -> None:
    t, _made = running
    url = reverse("tournament_draw", args=[t.pk])
    response = as_alice.post(url)
    assert response.status_code == 409
    assert "draw anyway" in response.content.decode()
    assert t.round_set.count() == 1
    assert as_alice.post(url, {"confirm": "1"}).status_code == 302
    assert t.round_set.count() == 2


@pytest.mark.parametrize(
    ("who", "status"), [("as_alice", 302), ("as_bob", 403), ("as_charlie", 404), ("client", 302)]
)
def test_close_round_and_finish(request, running, who, status) -> None:
    t, _made = running
    client = request.getfixturevalue(who)
    assert client.post(reverse("tournament_round_close", args=[t.pk, 1])).status_code == status
    assert t.round_set.get().status == ("closed" if who == "as_alice" else "playing")
    assert client.post(reverse("tournament_finish", args=[t.pk])).status_code == status
    t.refresh_from_db()
    assert t.status == ("finished" if who == "as_alice" else "running")


def test_table_of_another_tournament_is_404(as_alice, club) -> None:
    first = _tournament(club, 8)
    made = round_draw(tournament=first)
    second = _tournament(club, 0)
    url = reverse("tournament_table", args=[second.pk, made.tables[0].pk])
    assert as_alice.get(url).status_code == 404


@pytest.mark.parametrize("page", ["standings", "projector", "console", "detail"])
def test_queries_do_not_grow_with_the_night(as_alice, club, page, django_assert_max_num_queries):
    small = _tournament(club, 8)
    _play(small, round_draw(tournament=small))
    url = reverse(f"tournament_{page}", args=[small.pk])
    with CaptureQueriesContext(connection) as few:
        assert as_alice.get(url).status_code == 200
    big = tournament_create(club=club, name="Big", date=datetime.date(2026, 12, 4))
    for i in range(40):
        entry_register(tournament=big, player=f"B{i:02d}", checked_in=True)
    for number in range(3):
        made = round_draw(tournament=big, confirm=True)
        _play(big, made, hands=4, seed=number)
    url = reverse(f"tournament_{page}", args=[big.pk])
    with django_assert_max_num_queries(len(few.captured_queries)):
        assert as_alice.get(url).status_code == 200
    assert len(few.captured_queries) <= 16


def test_cards_queries_do_not_grow(as_alice, club, django_assert_max_num_queries) -> None:
    small = _tournament(club, 9)
    round_draw(tournament=small)
    with CaptureQueriesContext(connection) as few:
        as_alice.get(reverse("tournament_cards", args=[small.pk, 1]))
    big = _tournament(club, 0)
    for i in range(43):
        entry_register(tournament=big, player=f"C{i:02d}", checked_in=True)
    round_draw(tournament=big)
    with django_assert_max_num_queries(len(few.captured_queries)):
        assert as_alice.get(reverse("tournament_cards", args=[big.pk, 1])).status_code == 200


def test_htmx_polls_get_fragments(as_alice, running) -> None:
    t, _made = running
    for page, marker in [
        ("console", '<section id="console"'),
        ("standings", '<section id="standings"'),
        ("projector", '<main id="board"'),
    ]:
        body = as_alice.get(
            reverse(f"tournament_{page}", args=[t.pk]), HTTP_HX_REQUEST="true"
        ).content.decode()
        assert body.lstrip().startswith(marker)
        assert "<html" not in body


def test_standings_page_writes_the_tiebreaks_and_sitouts(as_bob, running) -> None:
    t, _made = running
    body = as_bob.get(reverse("tournament_standings", args=[t.pk])).content.decode()
    assert "Ranked by points, then wins (a drawn table counts half), then head-to-head." in body
    assert "for sitting out once" in body and "(the round's average)" in body


def test_fixed_pairs_pages(as_alice, club) -> None:
    t = _tournament(club, 10, format="swiss", rounds=3)
    made = round_draw(tournament=t)
    assert len(made.tables) == 2
    body = as_alice.get(reverse("tournament_standings", args=[t.pk])).content.decode()
    assert "P00 &amp; P01" in body
    assert "Ranked by wins" in body


def test_pages_speak_french(as_bob, running) -> None:
    t, _made = running
    as_bob.cookies["django_language"] = "fr"
    try:
        body = as_bob.get(reverse("tournament_standings", args=[t.pk])).content.decode()
    finally:
        translation.activate("en")  # the request leaves French active in this thread
    assert "Classement" in body and "face-à-face" in body


def test_a_second_click_on_draw_changes_nothing(as_alice, club) -> None:
    t = _tournament(club, 8)
    url = reverse("tournament_draw", args=[t.pk])
    assert as_alice.post(url, {"number": "1"}).status_code == 302
    again = as_alice.post(url, {"number": "1", "confirm": "1"}, follow=True)
    assert "Round 1 has already been drawn." in again.content.decode()
    assert t.round_set.count() == 1


@pytest.mark.parametrize(
    ("who", "status"), [("as_alice", 302), ("as_bob", 403), ("as_charlie", 404), ("client", 302)]
)
def test_director_removes_the_last_hand(request, running, who, status) -> None:
    t, made = running
    game = made.tables[0].game
    before = game.hands.count()
    url = reverse("tournament_table_undo", args=[t.pk, made.tables[0].pk])
    assert request.getfixturevalue(who).post(url).status_code == status
    assert game.hands.count() == before - (who == "as_alice")
    if who == "as_alice":
        assert game.hand_versions.filter(action="undo").count() == 1


def test_time_limit_round_shows_when_time_is_up(as_alice, club) -> None:
    t = _tournament(club, 8, round_end="time", minutes_per_round=45)
    round_draw(tournament=t)
    body = as_alice.get(reverse("tournament_console", args=[t.pk])).content.decode()
    assert "Time is up at" in body


def test_list_and_table_pages_queries_do_not_grow(
    as_alice, club, django_assert_max_num_queries
) -> None:
    t = _tournament(club, 8)
    made = round_draw(tournament=t)
    table_url = reverse("tournament_table", args=[t.pk, made.tables[0].pk])
    list_url = reverse("tournament_list", args=[club.slug])
    with CaptureQueriesContext(connection) as few_table:
        as_alice.get(table_url)
    with CaptureQueriesContext(connection) as few_list:
        as_alice.get(list_url)
    _play(t, made, hands=8)
    for i in range(5):
        tournament_create(club=club, name=f"Night {i}", date=datetime.date(2026, 12, 1))
    with django_assert_max_num_queries(len(few_table.captured_queries)):
        assert as_alice.get(table_url).status_code == 200
    with django_assert_max_num_queries(len(few_list.captured_queries)):
        assert as_alice.get(list_url).status_code == 200
