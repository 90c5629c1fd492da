"""Every URL pattern of the project, with real objects in its path, for an outsider, a member and
a director: an outsider gets 404 on anything of the club (and nothing is written), members and
directors never get 404 or an error. CSRF is enforced on the htmx posts."""

from __future__ import annotations

import datetime
import hashlib
import re

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from leagues.clubs import services as club_services
from leagues.clubs.models import Invitation, Membership, Season
from leagues.clubs.roles import Role
from leagues.standings import rebuild
from leagues.standings.models import PlayerStanding
from leagues.tournaments.services import entry_register, round_draw, tournament_create
from scorecards.services import game_token_issue
from tests.conftest import PASSWORD, client_for
from tests.leagues_helpers import two_games

# URLs open to anyone by design: no club object behind them, or a capability link whose token
# is the access (then a wrong token must be 404, see test_capability_links_need_the_token).
OPEN = {
    "home",
    "healthz",
    "service_worker",
    "favicon",
    "robots_txt",
    "offline",
    "login",
    "logout",
    "signup",
    "set_language",
    "club_create",
    "quick_game_new",
    "password_reset",
    "password_reset_done",
    "password_reset_confirm",
    "password_reset_complete",
}
CAPABILITY = {"invitation_accept", "game_table_join", "game_shared"}


def _patterns(resolvers, prefix="", namespace=""):
    for entry in resolvers:
        if isinstance(entry, URLResolver):
            ns = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            yield from _patterns(entry.url_patterns, prefix + str(entry.pattern), ns)
        elif isinstance(entry, URLPattern):
            yield prefix + str(entry.pattern), entry, namespace


def all_patterns():
    """(route, pattern, namespace) of every URL pattern in the project."""
    return list(_patterns(get_resolver().url_patterns))


@pytest.fixture
def world(club, players, alice, bob, charlie):
    """A club with a season, two finished games, standings, an invitation and a director."""
    season = Season.objects.create(club=club, name="2026", starts_on=datetime.date(2026, 9, 1))
    first, _second = two_games(club, season, {p.name: p for p in players})
    rebuild.standings_rebuild(season_id=season.pk)
    rebuild.ratings_rebuild(club_id=club.pk)
    game_token_issue(game=first)
    first.refresh_from_db()
    invitation = club_services.invitation_create(club=club, created_by=alice)
    night = tournament_create(club=club, name="Friday", date=datetime.date(2026, 11, 20))
    for i in range(8):
        entry_register(tournament=night, player=f"P{i}", checked_in=True)
    drawn = round_draw(tournament=night)
    director = get_user_model().objects.create_user("dirk", password=PASSWORD)
    Membership.objects.create(club=club, user=director, role=Role.DIRECTOR)
    return {
        "club": club,
        "season": season,
        "game": first,
        "player": players[0],
        "invitation": invitation,
        "membership": Membership.objects.get(club=club, user=bob),
        "director": director,
        "tournament": night,
        "round": drawn.round,
        "table": drawn.tables[0],
    }


def path_args(world, user) -> dict:
    """A real value for every path argument name used in the project. A new name must be
    added here (the sweep fails on an unknown one rather than skip a URL)."""
    return {
        "slug": world["club"].slug,
        "game_id": world["game"].pk,
        "player_id": world["player"].pk,
        "membership_id": world["membership"].pk,
        "invitation_id": world["invitation"].pk,
        "season_id": world["season"].pk,
        "tournament_id": world["tournament"].pk,
        "entry_id": world["tournament"].entries.first().pk,
        "number": world["round"].number,
        "table_id": world["table"].pk,
        "token": world["invitation"].token,
        "uidb64": urlsafe_base64_encode(force_bytes(user.pk)),
        # The admin's own arguments.
        "app_label": "clubs",
        "model_name": "club",
        "object_id": str(world["club"].pk),
        "content_type_id": "1",
        "url": "x",
    }


def fill(route: str, values: dict) -> str:
    """The route with every <converter:name> replaced by values[name]."""

    def one(match: re.Match) -> str:
        name = match.group(2)
        assert name in values, f"URL sweep: add a real value for path argument {name!r}"
        return str(values[name])

    path = re.sub(r"<(?:(\w+):)?(\w+)>", one, route)
    # Regex routes (the admin's): strip the anchors and the named groups.
    path = re.sub(r"\(\?P<(\w+)>[^)]*\)", lambda m: str(values.get(m.group(1), "x")), path)
    return "/" + path.replace("^", "").replace("$", "").replace("\\", "")


def database_fingerprint() -> str:
    """A digest of every row of the project's own tables (every app under `leagues` and
    `scorecards`, whatever its label) and the accounts."""
    digest = hashlib.sha256()
    ours = [c for c in apps.get_app_configs() if c.name.split(".")[0] in {"leagues", "scorecards"}]
    for config in [*ours, apps.get_app_config("auth")]:
        for model in config.get_models():
            rows = model.objects.order_by("pk").values_list()
            digest.update(repr((model.__name__, [r for r in rows])).encode())
    return digest.hexdigest()


def club_scoped(route: str, name: str | None = None) -> bool:
    """Every route with a path argument reaches some club's object, unless it is open by design
    or a capability link (a new object kind gets swept: give path_args a real value for it)."""
    return "<" in route and name not in OPEN | CAPABILITY


def test_the_sweep_sees_every_pattern():
    names = {pattern.name for _route, pattern, _ns in all_patterns()}
    for expected in ("standings", "ratings", "player_detail", "game_sheet", "club_detail"):
        assert expected in names


@pytest.mark.parametrize("who", ["charlie", "anonymous"])
def test_outsider_gets_404_on_every_club_url_and_writes_nothing(world, charlie, who):
    client = client_for(charlie if who == "charlie" else None)
    before = database_fingerprint()
    checked = 0
    for route, pattern, namespace in all_patterns():
        if namespace == "admin:" or not club_scoped(route, pattern.name):
            continue
        url = fill(route, path_args(world, charlie))
        closed = 404
        for method in ("get", "post"):
            response = getattr(client, method)(url)
            status = response.status_code
            if who == "anonymous" and status == 302:
                # A signed-out visitor is sent to the login page (club or no club), nothing else.
                assert response["Location"].startswith(reverse("login") + "?next="), url
                closed = 302
                continue
            # 405: the view does not take that method at all (decided before any access).
            assert status in (404, 405), (method, url, status)
        assert client.get(url).status_code == closed or client.post(url).status_code == closed, url
        checked += 1
    assert checked >= 15
    assert database_fingerprint() == before


@pytest.mark.parametrize("who", ["bob", "director"])
def test_members_and_directors_reach_every_club_url(world, who, bob):
    user = bob if who == "bob" else world["director"]
    client = client_for(user)
    for route, pattern, namespace in all_patterns():
        if namespace == "admin:" or not club_scoped(route, pattern.name):
            continue
        url = fill(route, path_args(world, user))
        status = client.get(url).status_code
        assert status in (200, 302, 403, 405), (who, url, status)
        # Owners only: the club's settings, its members' roles, deleting the club.
        owner_only = ("club_settings", "membership_role", "club_delete")
        if who == "director" and pattern.name not in owner_only:
            assert status != 403, (who, url)


def test_open_urls_answer_everyone_without_error(world, charlie):
    for user in (charlie, None):
        client = client_for(user)
        for route, pattern, namespace in all_patterns():
            if namespace == "admin:" or pattern.name not in OPEN:
                continue
            values = path_args(world, charlie)
            if pattern.name == "password_reset_confirm":
                values["token"] = default_token_generator.make_token(charlie)
            status = client.get(fill(route, values)).status_code
            assert status in (200, 302, 405), (pattern.name, status)


def test_every_pattern_is_classified():
    """A new URL must be club-scoped (then swept), open, a capability link, or the admin."""
    for route, pattern, namespace in all_patterns():
        if namespace == "admin:":
            continue
        assert club_scoped(route, pattern.name) or pattern.name in OPEN | CAPABILITY, route


def test_capability_links_need_the_token(world, charlie):
    client = client_for(charlie)
    before = database_fingerprint()
    assert client.get(reverse("invitation_accept", args=["wrong"])).status_code == 404
    assert client.post(reverse("invitation_accept", args=["wrong"])).status_code == 404
    assert client.get(reverse("game_table_join", args=["wrong"])).status_code == 404
    assert client.get(reverse("game_shared", args=["wrong"])).status_code == 404
    Invitation.objects.update(revoked=True)
    before = database_fingerprint()
    token = world["invitation"].token
    assert client.post(reverse("invitation_accept", args=[token])).status_code == 404
    assert database_fingerprint() == before


def test_the_admin_is_for_staff_only(world, charlie, bob):
    for user in (charlie, bob, None):
        response = client_for(user).get("/admin/clubs/club/")
        assert response.status_code == 302 and "/admin/login/" in response.url


# --- CSRF on htmx posts ---------------------------------------------------------------------


def csrf_client(user) -> Client:
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    return client


def test_htmx_posts_without_the_csrf_token_are_refused(world, alice):
    club = world["club"]
    client = csrf_client(alice)
    PlayerStanding.objects.all().delete()
    before = database_fingerprint()
    posts = [
        (reverse("standings_refresh", args=[club.slug]), {}),
        (reverse("club_players", args=[club.slug]), {"name": "Zed"}),
        (reverse("club_seasons", args=[club.slug]), {"name": "x", "starts_on": "2027-01-01"}),
        (reverse("invitation_create", args=[club.slug]), {"role": "member"}),
        (
            reverse("membership_role", args=[club.slug, world["membership"].pk]),
            {"role": "director"},
        ),
        (reverse("club_settings", args=[club.slug]), {"name": "Renamed"}),
    ]
    for url, data in posts:
        response = client.post(url, data, headers={"HX-Request": "true"})
        assert response.status_code == 403, url
    assert database_fingerprint() == before


def test_htmx_posts_with_the_token_from_the_page_go_through(world, alice):
    club = world["club"]
    client = csrf_client(alice)
    page = client.get(reverse("standings", args=[club.slug])).content.decode()
    # base.html puts the token on <body> for htmx to send as a header.
    token = re.search(r'hx-headers=\'\{"X-CSRFToken": "([^"]+)"\}\'', page).group(1)
    PlayerStanding.objects.all().delete()
    response = client.post(
        reverse("standings_refresh", args=[club.slug]),
        headers={"HX-Request": "true", "X-CSRFToken": token},
    )
    assert response.status_code == 200
    assert PlayerStanding.objects.count() == 4
