"""Tournament night at the hall: the projector (seating and standings in turn, no site chrome),
the console's one big next action, registration that keeps "Here now", the night's defaults,
table cards naming the first dealer; for owner (alice), member (bob), outsider (charlie) and a
signed-out visitor, with query counts."""

from __future__ import annotations

import datetime
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from leagues.clubs.models import Season
from leagues.tournaments.services import entry_register, round_close, round_draw, tournament_finish
from tests.test_tournament_views import _play, _tournament

pytestmark = pytest.mark.django_db

WHO = [("as_alice", 200), ("as_bob", 200), ("as_charlie", 404), ("client", 302)]


def _night(club, players=9, hands_per_round=3, rounds=2, **kwargs):
    return _tournament(
        club, players, hands_per_round=hands_per_round, rounds=rounds, extra_hand_on_tie=False
    )


# --- Projector ------------------------------------------------------------------------------


@pytest.mark.parametrize(("who", "status"), WHO)
def test_projector_for_each_role(request, club, who, status) -> None:
    night = _night(club)
    round_draw(tournament=night)
    response = request.getfixturevalue(who).get(reverse("tournament_projector", args=[night.pk]))
    assert response.status_code == status
    if status == 302:
        assert response["Location"].startswith(reverse("login"))
    if status == 200:
        page = response.content.decode()
        # Full screen: no site header, no login chrome, no language switch.
        assert "topbar" not in page and "Log out" not in page and "Français" not in page
        assert "<script>" not in page and "style=" not in page and "hx-on" not in page
        assert "css/night.css" in page


def test_projector_shows_seating_and_standings_in_turn(as_bob, club) -> None:
    night = _night(club)
    made = round_draw(tournament=night)
    url = reverse("tournament_projector", args=[night.pk])
    seating = as_bob.get(url).content.decode()
    # During a round: the seating first, naming the next panel for htmx and without JavaScript.
    assert 'class="projector show-seating"' in seating
    assert f'hx-get="{url}?show=standings"' in seating
    assert 'http-equiv="refresh" content="15;url=?show=standings"' in seating
    assert seating.count('class="projector-table state') == len(made.tables) == 2
    table = made.tables[0]
    seats = sorted(table.game.seats.all(), key=lambda s: s.seat)
    assert f"{seats[0].name} &amp; {seats[2].name}" in seating
    assert f"{seats[table.game.first_dealer].name} deals first" in seating
    assert "Sitting out:" in seating  # nine players: one sits out
    standings = as_bob.get(url, {"show": "standings"}).content.decode()
    assert 'class="projector show-standings"' in standings
    assert f'hx-get="{url}?show=seating"' in standings
    assert "table" in standings and "P00" in standings
    # Once the round is closed (or the night over) only the standings stay up.
    round_close(round=made.round)
    closed = as_bob.get(url, {"show": "seating"}).content.decode()
    assert 'class="projector show-standings"' in closed
    assert f'hx-get="{url}?show=standings"' in closed


def test_projector_before_the_first_round_and_after_the_night(as_bob, club) -> None:
    night = _night(club)
    url = reverse("tournament_projector", args=[night.pk])
    page = as_bob.get(url, {"show": "seating"}).content.decode()
    assert "show-standings" in page and "Registration" in page
    _play(night, round_draw(tournament=night), hands=3)
    tournament_finish(tournament=night)
    page = as_bob.get(url).content.decode()
    assert "show-standings" in page and "Final standings" in page


@pytest.mark.parametrize("show", ["seating", "standings"])
def test_projector_queries_do_not_grow(as_alice, club, show, django_assert_max_num_queries):
    small = _night(club, 8)
    _play(small, round_draw(tournament=small))
    with CaptureQueriesContext(connection) as few:
        as_alice.get(reverse("tournament_projector", args=[small.pk]), {"show": show})
    big = _night(club, 0)
    for i in range(41):
        entry_register(tournament=big, player=f"B{i:02d}", checked_in=True)
    _play(big, round_draw(tournament=big), hands=2)
    with django_assert_max_num_queries(len(few.captured_queries)):
        response = as_alice.get(reverse("tournament_projector", args=[big.pk]), {"show": show})
    assert response.status_code == 200
    # session, user, the night with the member's role; the night's rows; its games, seats, hands
    assert len(few.captured_queries) <= 7


# --- Console --------------------------------------------------------------------------------


def _next_action(client, night) -> tuple[str, str]:
    page = client.get(reverse("tournament_console", args=[night.pk])).content.decode()
    match = re.search(r'id="next-action" data-kind="(\w+)">\s*(.*?)\s*</div>', page, re.S)
    assert match, page
    return match.group(1), match.group(2)


def test_console_big_button_is_the_action_that_matters_now(as_alice, club) -> None:
    night = _night(club, 8, rounds=2)
    kind, html = _next_action(as_alice, night)
    assert kind == "draw" and 'id="draw"' in html  # before the first round
    made = round_draw(tournament=night)
    kind, html = _next_action(as_alice, night)
    # During the round: entering hands at the first table still playing, and drawing is small.
    assert kind == "enter" and f"/games/{made.tables[0].game_id}/" in html
    page = as_alice.get(reverse("tournament_console", args=[night.pk])).content.decode()
    assert 'id="draw-early" ' not in page and 'class="secondary" id="draw-early"' in page
    _play(night, made, hands=3)
    kind, html = _next_action(as_alice, night)
    assert kind == "draw" and "Draw round 2" in html  # after it
    _play(night, round_draw(tournament=night), hands=3)
    kind, html = _next_action(as_alice, night)
    assert kind == "finish" and 'id="finish"' in html  # after the last round


def test_console_asks_to_confirm_a_table_waiting_for_confirmation(as_alice, club) -> None:
    night = _tournament(club, 8, hands_per_round=1, rounds=1, hands_need_confirmation=True)
    made = round_draw(tournament=night)
    _play(night, made, hands=1)
    kind, html = _next_action(as_alice, night)
    assert kind == "confirm"
    assert reverse("tournament_table", args=[night.pk, made.tables[0].pk]) in html


def test_console_queries(as_alice, club, django_assert_max_num_queries) -> None:
    night = _night(club, 9)
    _play(night, round_draw(tournament=night))
    with django_assert_max_num_queries(12):
        assert as_alice.get(reverse("tournament_console", args=[night.pk])).status_code == 200


# --- Registration and set-up ----------------------------------------------------------------


def test_registration_keeps_here_now(as_alice, club) -> None:
    night = _night(club, 0)
    url = reverse("tournament_entry_add", args=[night.pk])
    # htmx: the fresh form comes back with the box as it was ticked.
    page = as_alice.post(
        url, {"name": "Élise", "checked_in": "on"}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert re.search(r'name="checked_in"[^>]* checked[ >]', page)
    page = as_alice.post(url, {"name": "Zoé"}, HTTP_HX_REQUEST="true").content.decode()
    assert not re.search(r'name="checked_in"[^>]* checked[ >]', page)
    # Without JavaScript: the redirect carries it.
    response = as_alice.post(url, {"name": "Anne", "checked_in": "on"})
    assert response.status_code == 302 and "?here=1" in response["Location"]
    page = as_alice.get(response["Location"]).content.decode()
    assert re.search(r'name="checked_in"[^>]* checked[ >]', page)
    # Entries are listed in name order, accents with their letter.
    names = re.findall(r"<td>(Anne|Élise|Zoé)</td>", page)
    assert names == ["Anne", "Élise", "Zoé"]


def test_new_night_defaults_to_today_and_the_current_season(as_alice, club) -> None:
    today = timezone.localdate()
    Season.objects.create(club=club, name="Old", starts_on=today - datetime.timedelta(days=800))
    current = Season.objects.create(
        club=club, name="Now", starts_on=today - datetime.timedelta(days=10)
    )
    page = as_alice.get(reverse("tournament_list", args=[club.slug])).content.decode()
    assert f'value="{today.isoformat()}"' in page
    assert re.search(rf'<option value="{current.pk}" selected>Now</option>', page)


def test_member_drop_down_sorts_accented_names_with_their_letter(as_alice, club) -> None:
    from leagues.clubs.models import Player

    for name in ("Zoé", "Élise", "Anne", "edgar"):
        Player.objects.create(club=club, name=name)
    night = _night(club, 0)
    page = as_alice.get(reverse("tournament_detail", args=[night.pk])).content.decode()
    options = re.findall(r'<option value="\d+">([^<]+)</option>', page)
    assert options == ["Anne", "edgar", "Élise", "Zoé"]


def test_table_cards_name_the_first_dealer(as_alice, club) -> None:
    night = _night(club, 8)
    made = round_draw(tournament=night)
    page = as_alice.get(reverse("tournament_cards", args=[night.pk, 1])).content.decode()
    for table in made.tables:
        seats = sorted(table.game.seats.all(), key=lambda s: s.seat)
        assert f"{seats[table.game.first_dealer].name} deals first" in page
    assert page.count('class="dealer"') == 2


def test_a_big_night_fills_the_wall_screen_by_screen(as_bob, club) -> None:
    """41 players: 10 tables in three screens of seating, 41 rows in five screens of
    standings, then back to the seating."""
    night = _night(club, 0)
    for i in range(41):
        entry_register(tournament=night, player=f"B{i:02d}", checked_in=True)
    round_draw(tournament=night)
    url = reverse("tournament_projector", args=[night.pk])
    seen = []
    query = "show=seating"
    for _ in range(9):
        page = as_bob.get(f"{url}?{query}").content.decode()
        show = re.search(r'class="projector show-(\w+)"', page).group(1)
        tables = page.count('class="projector-table state')
        rows = len(re.findall(r"<td>B\d\d", page))
        seen.append((show, tables, rows))
        query = re.search(r'hx-get="[^"?]+\?([^"]+)"', page).group(1).replace("&amp;", "&")
    assert seen == [
        ("seating", 4, 0),
        ("seating", 4, 0),
        ("seating", 2, 0),
        ("standings", 0, 10),
        ("standings", 0, 10),
        ("standings", 0, 10),
        ("standings", 0, 10),
        ("standings", 0, 1),
        ("seating", 4, 0),
    ]
    # A hostile page number falls back to the first screen.
    assert as_bob.get(url, {"show": "standings", "page": "99999999"}).status_code == 200
