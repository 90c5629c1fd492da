"""Player names are one person under any case and any Unicode form, the same on SQLite and
PostgreSQL: the normalised, case-folded key has a database unique constraint."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from leagues.clubs.models import Player, name_key
from leagues.clubs.services import LeagueError, player_save

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Élise", "élise"),
        ("Élise", "ÉLISE"),
        ("E\u0301lise", "Élise"),  # combining accent against the precomposed letter
        ("Strauß", "STRAUSS"),
        ("Ｚｏé", "zoé"),  # full-width letters
        ("Ǆuro", "ǆuro"),
        ("  Ann ", "ann"),
    ],
)
def test_the_same_name_in_another_form_is_refused(club, one, other) -> None:
    assert name_key(one) == name_key(other)
    player_save(club=club, name=one)
    with pytest.raises(LeagueError):
        player_save(club=club, name=other)
    # The database refuses it too, whoever writes.
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(club=club, name=other)
    assert Player.objects.filter(club=club).count() == 1


@pytest.mark.parametrize(("one", "other"), [("Elise", "Élise"), ("Zoe", "Zoé"), ("Ann", "Anne")])
def test_different_names_stay_different(club, one, other) -> None:
    player_save(club=club, name=one)
    player_save(club=club, name=other)
    assert Player.objects.filter(club=club).count() == 2


def test_renaming_keeps_the_key(club) -> None:
    player = player_save(club=club, name="Élise")
    player_save(club=club, name="ZOÉ", player=player)
    player.refresh_from_db()
    assert (player.name, player.name_key) == ("ZOÉ", "zoé")
    player_save(club=club, name="Élise")


def test_a_name_whose_key_is_too_long_is_refused_naming_the_field(club) -> None:
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError) as raised:
        Player.objects.create(club=club, name="\ufdfa" * 80)  # one character, 18 letters
    assert "name" in raised.value.message_dict
