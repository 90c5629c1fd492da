"""The end of a game: the summary on the sheet (its figures against a count of the hands done
here), "new game, same seats" (prefilled, the deal moved on; refused to whoever may not start
a game there), and the share link (who may make and stop it; the public record it opens)."""

from __future__ import annotations

import datetime
import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from leagues.clubs.models import Membership, Season
from leagues.clubs.roles import Role
from scorecards.game_end import game_end
from scorecards.models import Game
from scorecards.rules import HandInput, rules_build
from scorecards.selectors import game_scored, seat_names
from scorecards.services import game_start, game_token_issue, hand_record
from scorecards.services.share import game_share
from tests.conftest import client_for
from tests.leagues_helpers import GAME_1, play

pytestmark = pytest.mark.django_db

IDENTITIES = ("owner", "member", "outsider", "ex_member", "table_phone", "anonymous")


@pytest.fixture
def season(club):
    return Season.objects.create(club=club, name="2026", starts_on=datetime.date(2026, 9, 1))


@pytest.fixture
def finished(club, season, players, alice):
    """GAME_1 of tests.leagues_helpers: Ann & Bob against Cat & Dan, first dealer 0."""
    ann, cat, bob, dan = players[0], players[1], players[2], players[3]
    game = play(club, season, [ann, cat, bob, dan], GAME_1)
    Game.objects.filter(pk=game.pk).update(created_by=alice)
    game_token_issue(game=game)
    game.refresh_from_db()
    assert game.is_finished
    return game


@pytest.fixture
def ex_member(club, charlie):
    """Dora was a director of the club and was removed."""
    from django.contrib.auth import get_user_model

    dora = get_user_model().objects.create_user("dora", password="x-password-1")
    Membership.objects.create(club=club, user=dora, role=Role.DIRECTOR).delete()
    return dora


def _client(who: str, game: Game, users: dict) -> Client:
    if who == "table_phone":
        phone = Client()
        phone.get(reverse("game_table_join", args=[game.table_token]))
        return phone
    if who == "anonymous":
        return Client()
    return client_for(users[who])


@pytest.fixture
def users(alice, bob, charlie, ex_member):
    return {"owner": alice, "member": bob, "outsider": charlie, "ex_member": ex_member}


def _count(hands: list[HandInput]) -> dict:
    """The hands counted here, by hand: Ann (0) and Bob (2) are side 0; a trump bid is made
    when the bidder's side takes at least the bid in points (tricks, the five of hearts +5,
    the three of spades -3)."""
    made, set_, thrown = [0, 0], [0, 0], 0
    for hand in hands:
        if hand.thrown_in:
            thrown += 1
            continue
        side = hand.bidder % 2
        points = (
            hand.tricks[side] + 5 * (hand.five_hearts == side) - 3 * (hand.three_spades == side)
        )
        if points >= hand.bid:
            made[side] += 1
        else:
            set_[side] += 1
    return {"made": made, "set": set_, "thrown": thrown, "hands": len(hands)}


def test_summary_figures_match_a_count_of_the_hands(finished):
    count = _count(GAME_1)
    assert count == {"made": [6, 1], "set": [1, 0], "thrown": 1, "hands": 9}
    summary = game_end(game_scored(finished), seat_names(finished))
    assert summary.winner == 0 and summary.winner_name == "Ann & Bob"
    assert summary.hands == count["hands"] and summary.thrown_in == count["thrown"]
    assert [side.made for side in summary.sides] == count["made"]
    assert [side.set for side in summary.sides] == count["set"]
    # The module docstring's totals: 63 to 2.
    assert [side.score for side in summary.sides] == [63, 2]
    assert summary.score_text == "63 – 2"
    # Hand 1 (Ann 8, 7-1 with the five of hearts) gave side 0 +12 first; no hand gave more.
    best = summary.best
    assert (best.number, best.side, best.points, best.bidder_name) == (1, 0, 12, "Ann")


def test_the_sheet_shows_the_summary_and_what_each_person_may_do(finished, users):
    sheet = reverse("game_sheet", args=[finished.pk])
    rematch = reverse("club_game_new", args=["regina"]) + f"?after={finished.pk}"
    share = reverse("game_share", args=[finished.pk])
    for who in IDENTITIES:
        page = _client(who, finished, users).get(sheet)
        if who in ("outsider", "ex_member", "anonymous"):
            assert page.status_code == 404, who
            continue
        html = page.content.decode()
        assert "The game in figures" in html, who
        assert "Ann &amp; Bob win, 63 – 2." in html, who
        at_club = who in ("owner", "member")
        assert (rematch in html) is at_club, who
        assert (share in html) is at_club, who


def test_a_game_in_progress_has_no_summary(club, players, standard_rules, as_bob):
    game = game_start(seats=players, rules=standard_rules, club=club)
    html = as_bob.get(reverse("game_sheet", args=[game.pk])).content.decode()
    assert "The game in figures" not in html
    assert reverse("game_share", args=[game.pk]) not in html


def _field(html: str, name: str) -> str:
    found = re.search(rf'name="{name}" id="id_{name}" value="([^"]*)"', html)
    assert found, name
    return found.group(1)


def test_new_game_same_seats_is_prefilled_with_the_deal_moved_on(finished, season, as_bob):
    url = reverse("club_game_new", args=["regina"]) + f"?after={finished.pk}"
    page = as_bob.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert [_field(html, f"seat_{seat}") for seat in range(4)] == ["Ann", "Cat", "Bob", "Dan"]
    # The earlier game's first dealer was seat 0: seat 1 deals first now.
    assert '<option value="1" selected>' in html
    assert '<option value="0" selected>' not in html
    # Started as it is shown: the same people, the same season, the deal moved on.
    form = {f"seat_{seat}": _field(html, f"seat_{seat}") for seat in range(4)}
    posted = as_bob.post(
        reverse("club_game_new", args=["regina"]),
        {**form, "first_dealer": "1", "preset": "standard", "start": "1"},
    )
    assert posted.status_code == 303
    new = Game.objects.exclude(pk=finished.pk).get()
    assert new.first_dealer == 1
    assert new.season_id == season.pk
    assert [seat.player_id for seat in new.seats.order_by("seat")] == [
        seat.player_id for seat in finished.seats.order_by("seat")
    ]


def test_the_prefill_can_be_changed_before_starting(finished, as_bob):
    url = reverse("club_game_new", args=["regina"])
    posted = as_bob.post(
        url,
        {
            "seat_0": "Dan",
            "seat_1": "Cat",
            "seat_2": "Bob",
            "seat_3": "Ann",
            "first_dealer": "3",
            "preset": "standard",
            "start": "1",
        },
    )
    assert posted.status_code == 303
    new = Game.objects.exclude(pk=finished.pk).get()
    assert new.first_dealer == 3
    assert seat_names(new) == ["Dan", "Cat", "Bob", "Ann"]


def test_new_game_same_seats_refused_to_outsiders_and_ex_members(finished, users, club):
    url = reverse("club_game_new", args=["regina"]) + f"?after={finished.pk}"
    for who in ("outsider", "ex_member"):
        assert client_for(users[who]).get(url).status_code == 404, who
    assert Client().get(url).status_code == 302  # to the login page
    # A phone holding the table link starts no game of the club: it is sent to sign in.
    assert _client("table_phone", finished, users).get(url).status_code == 302
    # A member of another club cannot have this club's game prefilled into theirs.
    from leagues.clubs.models import Club

    other = Club.objects.create(name="Moose Jaw", slug="moose")
    Membership.objects.create(club=other, user=users["outsider"], role=Role.OWNER)
    away = reverse("club_game_new", args=["moose"]) + f"?after={finished.pk}"
    assert client_for(users["outsider"]).get(away).status_code == 404
    assert Game.objects.count() == 1


def test_quick_game_rematch_is_its_starter_s_only(alice, bob, standard_rules):
    game = game_start(seats=["Zoé", "Yan", "Xu", "Wil"], rules=standard_rules, created_by=alice)
    while not Game.objects.get(pk=game.pk).is_finished:
        hand_record(
            game=game, hand=HandInput(bidder=0, bid=7, tricks=(8, 0), five_hearts=0, three_spades=0)
        )
    url = reverse("quick_game_new") + f"?after={game.pk}"
    html = client_for(alice).get(url).content.decode()
    assert [_field(html, f"seat_{seat}") for seat in range(4)] == ["Zoé", "Yan", "Xu", "Wil"]
    assert client_for(bob).get(url).status_code == 404


def test_who_may_share_and_stop(finished, users):
    url = reverse("game_share", args=[finished.pk])
    allowed = {"owner", "member"}
    for who in IDENTITIES:
        for action in ("share", "stop"):
            Game.objects.filter(pk=finished.pk).update(
                share_token=None if action == "share" else "t" * 43
            )
            response = _client(who, finished, users).post(url, {"action": action})
            token = Game.objects.get(pk=finished.pk).share_token
            if who in allowed:
                assert response.status_code == 303, (who, action)
                assert (token is None) is (action == "stop"), (who, action)
                if action == "share":
                    assert len(token) == 43
            else:
                assert response.status_code == (403 if who == "table_phone" else 404), (who, action)
                assert token == (None if action == "share" else "t" * 43), (who, action)


def test_sharing_twice_keeps_the_link_and_an_unfinished_game_is_not_shared(
    finished, club, players, standard_rules, alice, as_alice
):
    first = game_share(game=finished, by=alice)
    assert game_share(game=finished, by=alice) == first
    playing = game_start(seats=players, rules=standard_rules, club=club)
    response = as_alice.post(reverse("game_share", args=[playing.pk]), {"action": "share"})
    assert response.status_code == 409
    assert Game.objects.get(pk=playing.pk).share_token is None


def test_anyone_with_the_link_sees_the_record_until_it_stops(finished, alice, as_alice):
    token = game_share(game=finished, by=alice)
    public = reverse("game_shared", args=[token])
    page = Client().get(public)
    assert page.status_code == 200
    assert page["X-Robots-Tag"] == "noindex, nofollow"
    html = page.content.decode()
    assert '<meta name="robots" content="noindex, nofollow">' in html
    assert "Ann &amp; Bob win, 63 – 2." in html
    assert html.count('<tr class="made">') + html.count('<tr class="set">') == 8
    # Nothing to change and nothing only members see: no form, no link into the club's pages.
    assert "<form" not in html
    assert reverse("game_sheet", args=[finished.pk]) not in html
    assert "/hands/" not in html and "/t/" not in html
    assert finished.table_token not in html
    # The sheet shows the link to copy.
    sheet = as_alice.get(reverse("game_sheet", args=[finished.pk])).content.decode()
    assert f"http://testserver{public}" in sheet
    as_alice.post(reverse("game_share", args=[finished.pk]), {"action": "stop"})
    assert Client().get(public).status_code == 404


def test_the_record_is_gone_once_the_game_is_no_longer_finished(finished, alice):
    token = game_share(game=finished, by=alice)
    Game.objects.filter(pk=finished.pk).update(status="in_progress", finished_at=None)
    assert Client().get(reverse("game_shared", args=[token])).status_code == 404
    assert Client().get(reverse("game_shared", args=["x" * 43])).status_code == 404


def test_the_record_in_french(finished, alice):
    token = game_share(game=finished, by=alice)
    page = Client(headers={"accept-language": "fr"}).get(reverse("game_shared", args=[token]))
    assert page.status_code == 200
    assert '<html lang="fr">' in page.content.decode()


def test_rules_build_for_six_seats_moves_the_deal_round_the_table(club, as_alice, alice):
    rules = rules_build({"preset": "standard"})
    names = ["Ann", "Cat", "Bob", "Dan"]
    game = game_start(seats=names, rules=rules, club=club, first_dealer=3, created_by=alice)
    Game.objects.filter(pk=game.pk).update(status="finished", finished_at="2026-11-20T20:00Z")
    html = as_alice.get(reverse("club_game_new", args=["regina"]) + f"?after={game.pk}")
    # Seat 3 dealt first: seat 0 deals first in the next game.
    assert '<option value="0" selected>' in html.content.decode()


def test_a_backup_carries_the_share_link(finished, alice, club):
    from leagues.backup import club_export, club_import

    token = game_share(game=finished, by=alice)
    document = json.loads(json.dumps(club_export(club)))
    assert [game["share_token"] for game in document["games"]] == [token]
    # Restored beside the original (a copy of the club): the token is taken, the copy is not
    # shared and the link still opens the original.
    copy = club_import(data=document, slug="regina-copy")
    assert Game.objects.get(club=copy).share_token is None
    # Restored in place of it: the same link opens the restored game.
    Game.objects.filter(club=club).delete()
    club.delete()
    again = club_import(data=document, slug="regina-again")
    restored = Game.objects.get(club=again)
    assert restored.share_token == token
    page = Client().get(reverse("game_shared", args=[token]))
    assert page.status_code == 200 and "Ann &amp; Bob win, 63 – 2." in page.content.decode()


def test_members_see_the_rating_changes_the_player_page_explains(finished, users, players):
    from leagues.standings import rebuild
    from leagues.standings.player_ratings import (
        player_explanations,
        player_rating_points,
        rating_change_text,
    )

    sheet = reverse("game_sheet", args=[finished.pk])
    # Not rated yet: nothing said about ratings.
    assert "game-end-ratings" not in client_for(users["member"]).get(sheet).content.decode()
    # As the standings room does once a game counts: the season's figures, then the ratings.
    rebuild.standings_rebuild(season_id=finished.season_id)
    rebuild.ratings_rebuild(club_id=finished.club_id)
    expected = []
    for player in players:  # Ann, Cat, Bob, Dan: the seats' order
        explained = player_explanations(player, player_rating_points(player))[finished.pk]
        expected.append(f"{player.name} <b>{rating_change_text(explained.change)}</b>")
    for who in ("owner", "member"):
        html = client_for(users[who]).get(sheet).content.decode()
        line = re.search(r'<p class="game-end-ratings">(.*?)</p>', html, re.S).group(1)
        for text in expected:
            assert text in line, (who, text)
        # In seat order.
        assert [line.index(text) for text in expected] == sorted(line.index(t) for t in expected)
        assert "provisional" in line  # everyone's first rated game
    # A phone at the table sees the summary, not the ratings (a member's page).
    phone = _client("table_phone", finished, users).get(sheet).content.decode()
    assert "The game in figures" in phone and "game-end-ratings" not in phone
    # Nor does the public record.
    token = game_share(game=finished, by=users["owner"])
    public = Client().get(reverse("game_shared", args=[token])).content.decode()
    assert "game-end-ratings" not in public
