"""The people who may look at a game's pages, each with a browser of their own, and what a page
answers each of them: the owner, a member, an outsider, nobody signed in, a member who left the
club, and a table phone holding the game's table link. Shared by the tests of the pages that
show a game (the history page, the print view), so each says once who sees it."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.test import Client
from django.urls import reverse

from leagues.clubs.models import Membership
from scorecards.models import Game
from scorecards.services import game_token_issue
from tests.conftest import client_for

# Who sees a game's pages as they see its sheet: 200 for the club and the table, 404 for the
# rest (nobody signed in may be sent to the sign-in page instead).
SHEET_VIEWERS = {
    "owner": (200,),
    "member": (200,),
    "outsider": (404,),
    "nobody": (302, 404),
    "ex-member": (404,),
    "table link": (200,),
}


def table_phone(game: Game, by: Any) -> Client:
    """A browser that joined the game through its table link (issued anew by `by`)."""
    token = game_token_issue(game=game, by=by)
    phone = Client()
    phone.get(reverse("game_table_join", args=[token]))
    return phone


def answers_by_viewer(
    url: str, game: Game, *, owner: Any, member: Any, outsider: Any
) -> dict[str, HttpResponse]:
    """What a GET of `url` answers each viewer of SHEET_VIEWERS. The ex-member is `member` once
    their membership is deleted: the membership stays deleted afterwards."""
    answers = {
        "owner": client_for(owner).get(url),
        "member": client_for(member).get(url),
        "outsider": client_for(outsider).get(url),
        "nobody": Client().get(url),
    }
    ex = client_for(member)
    Membership.objects.filter(user=member, club=game.club).delete()
    answers["ex-member"] = ex.get(url)
    answers["table link"] = table_phone(game, owner).get(url)
    return answers


def assert_seen_as_the_sheet(answers: dict[str, HttpResponse]) -> None:
    """Each viewer got the status SHEET_VIEWERS gives them."""
    statuses = {who: answer.status_code for who, answer in answers.items()}
    for who, status in statuses.items():
        assert status in SHEET_VIEWERS[who], (who, statuses)


def confirming_table(club, owner, member) -> tuple[Game, str, Any]:
    """A 4-seat game (Ann, Cat, Eve, Dan) of a club that turned confirmation on through its
    settings, started by `owner`: Ann is the player of a new member, dave, and Cat of
    `member`. (The game, its table token, dave.)"""
    from django.contrib.auth import get_user_model

    from leagues.clubs.models import Player
    from leagues.clubs.roles import Role
    from leagues.clubs.services import club_settings_update
    from scorecards.rules import rules_build
    from scorecards.services import game_start

    club_settings_update(
        club=club, name=club.name, standings_public=False, hands_need_confirmation=True
    )
    dave = get_user_model().objects.create_user("dave", password="correct-horse-battery")
    Membership.objects.create(club=club, user=dave, role=Role.MEMBER)
    seats = [Player.objects.create(club=club, name=n) for n in ["Ann", "Cat", "Eve", "Dan"]]
    seats[0].user = dave
    seats[0].save()
    seats[1].user = member
    seats[1].save()
    game = game_start(
        seats=seats, rules=rules_build({"preset": "standard"}), club=club, created_by=owner
    )
    return game, game_token_issue(game=game), dave
