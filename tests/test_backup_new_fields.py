"""A backup carries what a season that adds up keeps: the day each game was played (known or
not), when a season was closed, since when the club asks for confirmation, a cancelled night,
and the trace of two players merged into one. A restore gives them back equal, an older
document without them still restores, and a bad value is refused naming its place."""

from __future__ import annotations

import copy
import datetime
import json
import random

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from leagues.backup import BackupError, club_export, club_import
from leagues.clubs.models import Club, Player, PlayerMerge, Season
from leagues.tournaments.models import Tournament, TournamentStatus
from scorecards.importing import game_import
from scorecards.models import Game
from tests.backup_club import club_summary, derived_rebuild, full_club_build
from tests.examples import valid_examples

pytestmark = pytest.mark.django_db

RECORD = next(
    case["record"]
    for _, case in valid_examples()
    if case["record"].get("rules", {}).get("preset") == "standard"
)
CONFIRMATION_SINCE = datetime.datetime(2026, 10, 1, 18, 30, tzinfo=datetime.UTC)
CLOSED_AT = datetime.datetime(2026, 6, 30, 23, 0, tzinfo=datetime.UTC)


def _with_day(day: str | None) -> dict:
    record = copy.deepcopy(RECORD)
    if day is not None:
        record["played_on"] = day
    return record


def _club_with_new_fields() -> Club:
    """The full backup club, plus: confirmation asked since a known time, a closed season with a
    dated game in it, an imported game whose day is not known, a cancelled night with a drawn
    round, and a merge of two players."""
    from leagues.demo import demo_game_play
    from leagues.tournaments.services import entry_register, round_draw, tournament_create

    club = full_club_build()
    Club.objects.filter(pk=club.pk).update(confirmation_since=CONFIRMATION_SINCE)
    spring = Season.objects.create(
        club=club, name="Printemps 2026", starts_on=datetime.date(2026, 3, 1)
    )
    game_import(club=club, record=_with_day("2026-04-18"), season=spring)
    Season.objects.filter(pk=spring.pk).update(closed_at=CLOSED_AT)
    game_import(club=club, record=_with_day(None))

    owner = get_user_model().objects.get(username="olga")
    players = list(Player.objects.filter(club=club).order_by("pk"))
    called_off = tournament_create(
        club=club, name="Samedi", date=datetime.date(2026, 11, 21), created_by=owner
    )
    for player in players[:4]:
        entry_register(tournament=called_off, player=player, checked_in=True)
    drawn = round_draw(tournament=called_off, by=owner)
    demo_game_play(drawn.tables[0].game, random.Random(5), max_hands=3)
    Tournament.objects.filter(pk=called_off.pk).update(status=TournamentStatus.CANCELLED)

    PlayerMerge.objects.create(
        club=club,
        kept=players[5],
        merged_name="Anne",
        merged_player_id=987654,
        by=owner,
        by_name="Olga",
        moved={"seats": 3, "entries": 1},
    )
    derived_rebuild(club)
    return Club.objects.get(pk=club.pk)


def _wipe() -> None:
    Tournament.objects.all().delete()
    Game.objects.all().delete()
    Club.objects.all().delete()
    get_user_model().objects.all().delete()


def _restore(document: dict) -> Club:
    return club_import(data=json.loads(json.dumps(document)))


def test_the_document_carries_every_new_field() -> None:
    document = club_export(_club_with_new_fields())

    assert document["club"]["confirmation_since"] == CONFIRMATION_SINCE.isoformat()
    closed = {s["name"]: s["closed_at"] for s in document["seasons"]}
    assert closed["Printemps 2026"] == CLOSED_AT.isoformat() and closed["Saison 2026"] is None
    days = [g["played_on"] for g in document["games"]]
    assert "2026-04-18" in days and None in days
    # The day is in the game's record too, when known (and only then).
    for game in document["games"]:
        assert game["record"].get("played_on") == game["played_on"]
    # A night's tables are played on the night's day, whenever the round was drawn.
    assert "2026-11-20" in days and "2026-11-21" in days
    assert {t["status"] for t in document["tournaments"]} == {"running", "cancelled"}
    [merge] = document["player_merges"]
    assert merge["merged_name"] == "Anne" and merge["merged_player_id"] == 987654
    assert merge["kept"] == [p["name"] for p in document["players"]].index("Ann")
    assert merge["by"] == "olga" and merge["moved"] == {"seats": 3, "entries": 1}


def test_a_round_trip_gives_back_the_same_club_standings_and_ratings() -> None:
    before = club_summary(_club_with_new_fields())
    document = before["document"]
    _wipe()

    restored = _restore(document)
    derived_rebuild(restored)

    assert club_summary(restored) == before
    assert club_export(restored) == document
    restored.refresh_from_db()
    assert restored.confirmation_since == CONFIRMATION_SINCE
    spring = Season.objects.get(club=restored, name="Printemps 2026")
    assert spring.closed_at == CLOSED_AT
    assert Game.objects.get(season=spring).played_on == datetime.date(2026, 4, 18)
    assert Game.objects.filter(club=restored, played_on__isnull=True).count() == 1
    merge = PlayerMerge.objects.get(club=restored)
    assert merge.kept.name == "Ann" and merge.by.username == "olga"
    assert Tournament.objects.get(club=restored, name="Samedi").status == "cancelled"


def test_restored_beside_the_original_the_days_are_the_same() -> None:
    club = _club_with_new_fields()
    document = club_export(club)
    copy_ = club_import(data=document, slug="cafe-copy", name="Café (copy)")
    ours = sorted(Game.objects.filter(club=club).values_list("played_on", flat=True), key=str)
    theirs = sorted(Game.objects.filter(club=copy_).values_list("played_on", flat=True), key=str)
    assert ours == theirs


def test_a_document_made_before_games_kept_their_day_restores_with_the_day_started() -> None:
    document = club_export(_club_with_new_fields())
    for game in document["games"]:
        game.pop("played_on")
        game["record"].pop("played_on", None)
    document["club"].pop("confirmation_since")
    for season in document["seasons"]:
        season.pop("closed_at")
    document.pop("player_merges")
    _wipe()

    restored = _restore(document)

    # As the migration that added the day did: the local day the game was started.
    for game, stored in zip(
        document["games"],
        Game.objects.filter(club=restored).order_by("created_at", "pk"),
        strict=True,
    ):
        started = datetime.datetime.fromisoformat(game["created_at"])
        assert stored.played_on == timezone.localdate(started)
    assert restored.confirmation_since is None
    assert not Season.objects.filter(club=restored, closed_at__isnull=False).exists()
    assert not PlayerMerge.objects.exists()


def _game_at(document: dict, day: str | None) -> int:
    return next(i for i, g in enumerate(document["games"]) if g["played_on"] == day)


def _set_day(document: dict, day: str | None, value: object) -> None:
    document["games"][_game_at(document, day)]["played_on"] = value


@pytest.mark.parametrize(
    ("damage", "where"),
    [
        (lambda d: _set_day(d, "2026-04-18", "2026-02-30"), "games[{dated}].played_on"),
        (lambda d: _set_day(d, "2026-04-18", "1899-12-31"), "games[{dated}].played_on"),
        (lambda d: _set_day(d, "2026-04-18", 20260418), "games[{dated}].played_on"),
        # The document and the record say different days.
        (lambda d: _set_day(d, "2026-04-18", "2026-04-19"), "games[{dated}].played_on"),
        (lambda d: _set_day(d, "2026-04-18", None), "games[{dated}].played_on"),
        (
            lambda d: d["games"][_game_at(d, None)]["record"].update(played_on="20260418"),
            "games[{unknown}].record",
        ),
        (lambda d: d["club"].update(confirmation_since="2026-10-01"), "club.confirmation_since"),
        (lambda d: d["seasons"][1].update(closed_at="yesterday"), "seasons[1].closed_at"),
        (lambda d: d["player_merges"][0].update(kept=99), "player_merges[0].kept"),
        (lambda d: d["player_merges"][0].update(merged_name=""), "player_merges[0].merged_name"),
        (lambda d: d["player_merges"][0].update(by="nobody"), "player_merges[0].by"),
        (lambda d: d["tournaments"][1].update(status="postponed"), "tournaments[1].status"),
    ],
)
def test_a_bad_new_value_is_refused_naming_its_place(damage, where) -> None:
    document = club_export(_club_with_new_fields())
    where = where.format(dated=_game_at(document, "2026-04-18"), unknown=_game_at(document, None))
    damage(document)
    _wipe()
    with pytest.raises(BackupError) as refused:
        club_import(data=document)
    assert where in str(refused.value)
    assert not Club.objects.exists()
