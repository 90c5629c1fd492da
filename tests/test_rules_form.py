"""The rules chosen in words: one form for seasons, games and nights, validated by the engine."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import translation

from leagues.clubs.models import Season
from leagues.tournaments.models import Tournament
from scorecards.models import Game
from scorecards.rules import PRESETS, rules_build
from scorecards.rules.catalogue import settings_catalogue
from scorecards.rules_form import RulesForm

pytestmark = pytest.mark.django_db

SEASON = {"name": "2027", "starts_on": "2027-09-01", "ends_on": "2028-05-31"}
FOUR = {"seat_0": "Ann", "seat_1": "Cat", "seat_2": "Bob", "seat_3": "Dan"}


def test_every_preset_is_offered_by_name_and_every_setting_with_its_label() -> None:
    form = RulesForm()
    offered = dict(form.fields["preset"].choices)
    assert set(offered) == set(PRESETS)
    assert offered["lost-heir"].startswith("Lost Heir — McLoughlin, 1893")
    for setting in settings_catalogue():
        assert form.fields[setting.key].label == setting.label


def test_the_form_speaks_french() -> None:
    with translation.override("fr"):
        form = RulesForm()
        assert form.fields["min_bid"].label != "Minimum bid"
        assert "Lost Heir" not in dict(form.fields["preset"].choices)["standard"]


@pytest.mark.parametrize(
    ("data", "stored"),
    [
        ({"preset": "standard"}, {"preset": "standard"}),
        (
            {"preset": "standard", "cover_three": "on", "min_bid": "6"},
            {"preset": "standard", "min_bid": 6, "cover_three": True},
        ),
        ({"preset": "pagat", "min_bid": "6"}, {"preset": "pagat"}),  # as the preset already
        ({"preset": "standard", "bid_out_none": "on"}, {"preset": "standard", "bid_out": None}),
        (
            {"preset": "standard", "seats": "6", "partnership": "triples"},
            {"preset": "standard", "seats": 6, "partnership": "triples"},
        ),
        (
            {"preset": "standard", "overrides": '{"target": 62, "nt_target": 72}'},
            {"preset": "standard", "target": 62, "nt_target": 72},
        ),
    ],
)
def test_the_form_stores_the_preset_and_what_differs(data, stored) -> None:
    form = RulesForm(data)
    assert form.is_valid(), form.errors
    assert form.record() == stored
    assert rules_build(stored) == form.cleaned_data["rules"]


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"preset": "standard", "min_bid": "99"}, "min_bid"),
        ({"preset": "standard", "target": "-5"}, "target"),
        ({"preset": "standard", "seats": "5", "partnership": "pairs"}, "partnership"),
        ({"preset": "standard", "overrides": "[1]"}, "overrides"),
        ({"preset": "standard", "overrides": '{"nope": 1}'}, "overrides"),
        ({"preset": "nope"}, "preset"),
        ({"preset": "standard", "min_bid": "x"}, "min_bid"),
        ({"preset": "standard", "min_bid": "9" * 400}, "min_bid"),
    ],
)
def test_the_engine_refuses_on_the_field_it_names(data, field) -> None:
    form = RulesForm(data)
    assert not form.is_valid()
    assert field in form.errors


def test_a_refusal_reads_in_the_engines_words_on_the_page(club, as_alice) -> None:
    url = reverse("club_seasons", args=[club.slug])
    response = as_alice.post(url, {**SEASON, "preset": "standard", "min_bid": "99"})
    page = response.content.decode()
    assert response.status_code == 422 and 'id="id_min_bid"' in page
    form = RulesForm({"preset": "standard", "min_bid": "99"})
    form.is_valid()
    assert form.errors["min_bid"][0] in page
    assert not Season.objects.filter(name="2027").exists()


@pytest.mark.parametrize(
    ("who", "status"), [("as_alice", 302), ("as_bob", 403), ("as_charlie", 404), ("client", 302)]
)
def test_a_season_takes_settings_in_words(request, club, who, status) -> None:
    url = reverse("club_seasons", args=[club.slug])
    data = {**SEASON, "preset": "standard", "cover_three": "on", "min_bid": "6"}
    response = request.getfixturevalue(who).post(url, data)
    assert response.status_code == status
    seasons = Season.objects.filter(club=club, name="2027")
    if who == "client":  # signed out: sent to the login page, nothing written
        assert response["Location"].startswith(reverse("login"))
        assert not seasons.exists()
    elif status == 302:
        assert seasons.get().rules == {"preset": "standard", "min_bid": 6, "cover_three": True}
        page = request.getfixturevalue(who).get(url).content.decode()
        assert "Standard · Minimum bid: 6 · Cover the three: on" in page
    else:
        assert not seasons.exists()


def test_a_game_starts_from_its_seasons_rules_without_json(club, players, as_alice) -> None:
    Season.objects.create(
        club=club,
        name="Winter",
        starts_on=datetime.date(2020, 1, 1),
        rules={"preset": "standard", "min_bid": 6, "cover_three": True},
    )
    url = reverse("club_game_new", args=[club.slug])
    page = as_alice.get(url).content.decode()
    assert 'name="min_bid" value="6"' in page
    assert '<option value="on" selected>' in page
    form_data = {"preset": "standard", "min_bid": "6", "cover_three": "on", **FOUR, "start": "1"}
    assert as_alice.post(url, form_data).status_code == 303
    rules = rules_build(Game.objects.get().rules)
    assert (rules.min_bid, rules.cover_three) == (6, True)


@pytest.mark.parametrize(
    ("seats", "partnership", "shown", "hidden"),
    [
        ("2", "", 1, 2),
        ("3", "", 2, 3),
        ("5", "", 4, 5),
        ("6", "pairs", 5, 6),
        ("6", "triples", 5, 6),
        ("4", "individual", 3, 4),
    ],
)
def test_every_seat_count_is_reachable(club, as_alice, seats, partnership, shown, hidden) -> None:
    url = reverse("club_game_new", args=[club.slug])
    data = {"preset": "standard", "seats": seats, "partnership": partnership, "refresh": "1"}
    page = as_alice.post(url, data).content.decode()
    assert f'name="seat_{shown}"' in page and f'name="seat_{hidden}"' not in page
    names = {f"seat_{i}": f"P{i}" for i in range(int(seats))}
    response = as_alice.post(url, {**data, **names, "start": "1"})
    assert response.status_code == 303
    rules = rules_build(Game.objects.get().rules)
    assert rules.seats == int(seats)
    if partnership:
        assert rules.partnership == partnership


def test_a_night_takes_overrides_and_starts_from_the_season(club, as_alice) -> None:
    Season.objects.create(
        club=club,
        name="Winter",
        starts_on=datetime.date(2020, 1, 1),
        rules={"preset": "standard", "min_bid": 6},
    )
    url = reverse("tournament_list", args=[club.slug])
    assert 'name="min_bid" value="6"' in as_alice.get(url).content.decode()
    data = {
        "name": "Club night",
        "date": "2026-11-27",
        "format": "rotating",
        "rounds": "3",
        "round_end": "hands",
        "hands_per_round": "10",
        "sitout_score": "average",
        "sitout_points": "0",
        "preset": "standard",
        "min_bid": "6",
        "cover_three": "on",
    }
    assert as_alice.post(url, data).status_code == 302
    night = Tournament.objects.get()
    assert night.rules == {"preset": "standard", "min_bid": 6, "cover_three": True}
    page = as_alice.get(night.get_absolute_url()).content.decode()
    assert "Cover the three: on" in page
    response = as_alice.post(url, {**data, "name": "Three", "preset": "three-player"})
    assert response.status_code == 422
    assert Tournament.objects.count() == 1


def test_pages_with_the_rules_form_keep_their_query_counts(
    club, players, as_alice, django_assert_max_num_queries
) -> None:
    for season in range(3):
        Season.objects.create(
            club=club,
            name=f"S{season}",
            starts_on=datetime.date(2020 + season, 1, 1),
            rules={"preset": "standard", "min_bid": 6},
        )
    for name in ("club_seasons", "tournament_list", "club_game_new"):
        with django_assert_max_num_queries(8):
            assert as_alice.get(reverse(name, args=[club.slug])).status_code == 200
