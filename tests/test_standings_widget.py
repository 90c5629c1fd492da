"""Results that travel: the standings widget a club's own site frames (only while the club's
standings are public, framed only by the sites it listed), the sites checked as origins in the
club's settings, and the owner's copyable public link and iframe line on the standings page."""

from __future__ import annotations

import datetime
import re

import pytest
from django.conf import settings
from django.urls import reverse

from leagues.clubs.embed import embed_origins, embed_sites_clean, origin_clean
from leagues.clubs.models import Club, Season
from leagues.standings import rebuild
from tests.conftest import client_for
from tests.leagues_helpers import two_games

pytestmark = pytest.mark.django_db

SITES = "https://club.example.org\nhttp://localhost:8080"
IDENTITIES = ["alice", "bob", "charlie", "ex_member", None]


@pytest.fixture
def season(club, players) -> Season:
    season = Season.objects.create(club=club, name="2026", starts_on=datetime.date(2026, 9, 1))
    two_games(club, season, {p.name: p for p in players})
    rebuild.standings_rebuild(season_id=season.pk)
    return season


def _public(club: Club, sites: str = SITES) -> None:
    club.standings_public = True
    club.embed_sites = sites
    club.save(update_fields=["standings_public", "embed_sites"])


def _directives(policy: str) -> dict[str, str]:
    return {
        part.strip().split(" ", 1)[0]: part.strip().split(" ", 1)[1]
        for part in policy.split(";")
        if part.strip()
    }


@pytest.mark.parametrize("who", IDENTITIES)
def test_the_widget_of_a_public_club_is_framed_only_by_its_sites(club, season, users, who):
    _public(club)
    answer = client_for(users[who]).get(reverse("standings_widget", args=[club.slug, season.pk]))
    assert answer.status_code == 200
    policy = _directives(answer["Content-Security-Policy"])
    assert policy["frame-ancestors"] == "https://club.example.org http://localhost:8080"
    # The rest of the site's policy still holds (no inline script or style).
    assert policy["script-src"] == "'self'" and policy["style-src"] == "'self'"
    assert "X-Frame-Options" not in answer
    text = answer.content.decode()
    # No site chrome: no navigation, no site stylesheet, the club's players.
    assert "<nav" not in text and "kaiser.css" not in text and "widget.css" in text
    for name in ("Ann", "Bob", "Cat", "Dan"):
        assert f'<th scope="row">{name}</th>' in text
    assert reverse("standings", args=[club.slug]) + f"?season={season.pk}" in text


def test_every_other_page_still_refuses_every_frame(club, season, bob) -> None:
    _public(club)
    answer = client_for(bob).get(reverse("standings", args=[club.slug]))
    assert answer["X-Frame-Options"] == "DENY"
    assert _directives(answer["Content-Security-Policy"])["frame-ancestors"] == "'none'"
    assert answer["Content-Security-Policy"] == settings.CONTENT_SECURITY_POLICY


def test_a_widget_without_listed_sites_may_be_framed_by_none(club, season) -> None:
    _public(club, sites="")
    answer = client_for(None).get(reverse("standings_widget", args=[club.slug, season.pk]))
    assert answer.status_code == 200
    assert _directives(answer["Content-Security-Policy"])["frame-ancestors"] == "'none'"


def test_a_stored_line_that_is_not_an_origin_never_reaches_the_header(club, season) -> None:
    # Written around the form's check (the admin, an old backup): left out, not injected.
    _public(club, sites="https://ok.example\nhttps://x.example; script-src *\n*")
    answer = client_for(None).get(reverse("standings_widget", args=[club.slug, season.pk]))
    policy = _directives(answer["Content-Security-Policy"])
    assert policy["frame-ancestors"] == "https://ok.example"
    assert policy["script-src"] == "'self'"


@pytest.mark.parametrize("who", IDENTITIES)
def test_the_widget_is_refused_while_the_standings_are_not_public(club, season, users, who):
    club.embed_sites = SITES
    club.save(update_fields=["embed_sites"])
    answer = client_for(users[who]).get(reverse("standings_widget", args=[club.slug, season.pk]))
    if who in ("alice", "bob"):
        # A member is sent to the standings page, which refuses every frame.
        assert answer.status_code == 302
        assert answer["Location"] == reverse("standings", args=[club.slug])
        assert "widget.css" not in answer.content.decode()
    else:
        assert answer.status_code == 404  # never a sign-in page in a frame


def test_the_widget_of_another_clubs_season_is_not_found(club, season) -> None:
    _public(club)
    other = Club.objects.create(name="Other", slug="other", standings_public=True)
    assert (
        client_for(None).get(reverse("standings_widget", args=[other.slug, season.pk])).status_code
        == 404
    )
    missing = reverse("standings_widget", args=["no-such-club", season.pk])
    assert client_for(None).get(missing).status_code == 404


def test_the_widget_ranks_only_players_with_the_nights_and_says_how_many_wait(club, season):
    _public(club)
    season.min_nights = 1  # these games were no club night: nobody has one
    season.save(update_fields=["min_nights"])
    text = client_for(None).get(reverse("standings_widget", args=[club.slug, season.pk]))
    text = text.content.decode()
    assert '<th scope="row">' not in text
    assert "4 players not yet ranked (fewer than 1 nights)." in text


@pytest.mark.parametrize(
    ("line", "origin"),
    [
        ("https://club.example.org", "https://club.example.org"),
        ("  HTTPS://Club.Example.org/ ", "https://club.example.org"),
        ("http://localhost:8080", "http://localhost:8080"),
        ("https://192.168.1.20", "https://192.168.1.20"),
        ("club.example.org", None),
        ("https://club.example.org/standings", None),
        ("ftp://club.example.org", None),
        ("https://*.example.org", None),
        ("https://user@club.example.org", None),
        ("https://club.example.org:99999", None),
        ("https://a.example 'unsafe-inline'", None),
        ("https://a.example;script-src", None),
        ("javascript:alert(1)", None),
    ],
)
def test_only_a_web_origin_is_a_site(line, origin) -> None:
    assert origin_clean(line) == origin


def test_the_sites_are_kept_clean_one_a_line() -> None:
    assert embed_sites_clean("\nhttps://A.example/\r\n\nhttps://a.example\nhttp://b.example") == (
        "https://a.example\nhttp://b.example"
    )
    assert embed_origins("https://a.example\nnope\nhttp://b.example") == [
        "https://a.example",
        "http://b.example",
    ]


def _settings_post(club: Club, **changes: str) -> dict[str, str]:
    data = {"name": club.name, "standings_public": "on", "embed_sites": SITES}
    data.update(changes)
    return data


@pytest.mark.parametrize(
    ("who", "status"),
    [("alice", 302), ("bob", 403), ("charlie", 404), ("ex_member", 404), (None, 302)],
)
def test_only_the_owner_lists_the_sites_in_the_club_settings(club, users, who, status) -> None:
    answer = client_for(users[who]).post(
        reverse("club_settings", args=[club.slug]), _settings_post(club)
    )
    assert answer.status_code == status
    club.refresh_from_db()
    assert club.embed_sites == (SITES if who == "alice" else "")
    if who == "alice":
        page = client_for(users[who]).get(reverse("club_settings", args=[club.slug]))
        assert "https://club.example.org\nhttp://localhost:8080</textarea>" in page.content.decode()


@pytest.mark.parametrize(
    "sites",
    [
        "https://club.example.org\nclub.example.org/standings",
        "https://ok.example\njavascript:alert(1)",
        "https://" + "a" * 600 + ".example",
    ],
)
def test_a_site_that_is_not_an_origin_is_refused_naming_the_field(club, alice, sites) -> None:
    answer = client_for(alice).post(
        reverse("club_settings", args=[club.slug]), _settings_post(club, embed_sites=sites)
    )
    assert answer.status_code == 422
    form = answer.context["form"]
    assert list(form.errors) == ["embed_sites"]
    error = str(form.errors["embed_sites"][0])
    if len(sites) < 500:
        assert error.startswith("Sites that may embed the standings: line 2")
    club.refresh_from_db()
    assert club.embed_sites == "" and not club.standings_public


def _share(text: str) -> str:
    return text[text.index('id="share"') :] if 'id="share"' in text else ""


@pytest.mark.parametrize("who", IDENTITIES)
def test_the_owner_copies_the_public_link_and_the_iframe_line(club, season, users, who):
    _public(club)
    answer = client_for(users[who]).get(reverse("standings", args=[club.slug]))
    assert answer.status_code == 200
    share = _share(answer.content.decode())
    if who != "alice":
        assert share == ""
        return
    page_url = f"http://testserver/clubs/{club.slug}/standings/?season={season.pk}"
    widget_url = f"http://testserver/clubs/{club.slug}/seasons/{season.pk}/widget/"
    assert re.search(
        rf'<input id="share-page" type="url" readonly value="{re.escape(page_url)}"', share
    )
    assert f"&lt;iframe src=&quot;{widget_url}&quot;" in share
    assert f'href="{widget_url}"' in share
    assert "https://club.example.org, http://localhost:8080" in share
    # The link opens for anyone, signed in or not.
    assert client_for(None).get(page_url).status_code == 200


@pytest.mark.parametrize(("who", "status"), [("alice", 200), ("bob", 200), ("charlie", 404),
                                             ("ex_member", 404), (None, 302)])  # fmt: skip
def test_before_the_standings_are_public_only_the_owner_is_told_how_to_share(
    club, season, users, who, status
) -> None:
    answer = client_for(users[who]).get(reverse("standings", args=[club.slug]))
    assert answer.status_code == status
    share = _share(answer.content.decode()) if status == 200 else ""
    assert ("Turn on public standings" in share) is (who == "alice")
    assert "share-page" not in share and "widget" not in share.split("Turn on")[0][30:]


def test_a_club_name_cannot_break_out_of_the_iframe_line(club, season, alice) -> None:
    club.name = 'Kaiser "Club" </textarea><script>alert(1)</script>'
    club.save(update_fields=["name"])
    _public(club)
    share = _share(client_for(alice).get(reverse("standings", args=[club.slug])).content.decode())
    assert "<script>" not in share and "</textarea><script" not in share
    # The line copied holds the name escaped once, as an attribute of the iframe.
    assert "title=&quot;Standings of Kaiser &amp;quot;Club&amp;quot;" in share


def test_the_widget_costs_three_queries_whatever_the_players(
    club, season, django_assert_max_num_queries
) -> None:
    _public(club)
    url = reverse("standings_widget", args=[club.slug, season.pk])
    client = client_for(None)
    with django_assert_max_num_queries(3):
        assert client.get(url).status_code == 200
