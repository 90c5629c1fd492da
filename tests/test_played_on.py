"""The day a game was played: `played_on` in kaiser-game/1 records (import on the web page and
by the command, export, kaiser_score, backups), on new games (the start form, tournament
tables), on the sheet and print page, and the lists that sort and show by it (the player page,
the club page), in English and in French."""

from __future__ import annotations

import copy
import datetime
import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import timezone

from leagues.backup import club_export, club_import
from leagues.clubs.models import Club, Membership, Player
from scorecards.importing import game_import
from scorecards.models import Game
from scorecards.rules import RecordError, record_parse, record_score
from tests.conftest import client_for
from tests.examples import valid_examples
from tests.player_page_queries import PLAYER_PAGE_QUERIES

pytestmark = pytest.mark.django_db

RECORD = next(
    case["record"]
    for _, case in valid_examples()
    if case["record"].get("rules", {}).get("preset") == "standard"
)
SEPT_14 = datetime.date(2026, 9, 14)
NOV_6 = datetime.date(2026, 11, 6)


def _dated(day: str | None) -> dict:
    record = copy.deepcopy(RECORD)
    record.pop("played_on", None)
    if day is not None:
        record["played_on"] = day
    return record


def _web_import(client, club: Club, record: dict):
    return client.post(
        reverse("club_game_import", kwargs={"slug": club.slug}), {"text": json.dumps(record)}
    )


def _wipe() -> None:
    Game.objects.all().delete()
    Club.objects.all().delete()
    get_user_model().objects.all().delete()


def _order_on(page: str, *needles: str) -> list[int]:
    return [page.index(needle) for needle in needles]


# --- The case: a game played on 2026-09-14, imported in November --------------------


def test_an_imported_day_is_kept_exported_backed_up_and_listed_in_date_order(
    club, as_alice, as_bob, django_assert_max_num_queries
) -> None:
    # A game played in November is imported first, the September one after it.
    assert _web_import(as_alice, club, _dated("2026-11-06")).status_code == 302
    answer = _web_import(as_alice, club, _dated("2026-09-14"))
    assert answer.status_code == 302
    september = Game.objects.get(played_on=SEPT_14)
    november = Game.objects.get(played_on=NOV_6)
    assert september.created_at > november.created_at

    # The import's answer and the sheet say the day.
    sheet = as_alice.get(answer["Location"], follow=True).content.decode()
    assert "played on Sept. 14, 2026" in sheet
    assert re.search(r'class="played-on">Sept\. 14, 2026<', sheet)

    # Exported again, the record carries it.
    exported = json.loads(
        as_alice.get(reverse("game_record_download", args=[september.pk])).content
    )
    assert exported["played_on"] == "2026-09-14"
    assert record_parse(exported).played_on == SEPT_14

    # The player page lists the games by the day played (latest first), not by import.
    ann = Player.objects.get(club=club, name="Ann")
    with django_assert_max_num_queries(PLAYER_PAGE_QUERIES):
        page = as_bob.get(reverse("player_detail", args=[club.slug, ann.pk])).content.decode()
    nov_at, sept_at = _order_on(page, "Nov. 6, 2026", "Sept. 14, 2026")
    assert nov_at < sept_at
    assert page.index(november.get_absolute_url()) < page.index(september.get_absolute_url())

    # A backup round trip keeps the day and comes back equal.
    document = club_export(club)
    _wipe()
    restored = club_import(data=json.loads(json.dumps(document)))
    assert club_export(restored) == document
    assert sorted(Game.objects.values_list("played_on", flat=True)) == [SEPT_14, NOV_6]


def test_the_import_command_keeps_the_day_and_game_export_writes_it(club, tmp_path, capsys) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(_dated("2026-09-14")), encoding="utf-8")
    call_command("game_import", str(path), "--club", club.slug)
    out, err = capsys.readouterr()
    game = Game.objects.get(pk=int(out.strip()))
    assert game.played_on == SEPT_14
    assert "played on 2026-09-14" in err

    call_command("game_export", str(game.pk))
    assert json.loads(capsys.readouterr().out)["played_on"] == "2026-09-14"


def test_kaiser_score_accepts_a_record_with_its_day(tmp_path, capsys) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(_dated("2026-09-14")), encoding="utf-8")
    call_command("kaiser_score", str(path))
    assert json.loads(capsys.readouterr().out) == record_score(_dated(None))


# --- A record without a day -----------------------------------------------------------------


def test_a_record_without_a_day_says_the_date_is_not_known(club, as_alice, capsys) -> None:
    answer = _web_import(as_alice, club, _dated(None))
    game = Game.objects.get()
    assert game.played_on is None  # never the day of the import
    sheet = as_alice.get(answer["Location"], follow=True).content.decode()
    assert "the day it was played is not known" in sheet
    assert 'class="played-on">date not known<' in sheet
    printed = as_alice.get(reverse("game_print", args=[game.pk])).content.decode()
    assert "date not known" in printed
    exported = json.loads(as_alice.get(reverse("game_record_download", args=[game.pk])).content)
    assert "played_on" not in exported


def test_the_import_command_says_when_the_date_is_not_known(club, tmp_path, capsys) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(_dated(None)), encoding="utf-8")
    call_command("game_import", str(path), "--club", club.slug)
    assert "date not known" in capsys.readouterr().err
    assert Game.objects.get().played_on is None


# --- Malformed and out-of-bounds days are refused, naming played_on ---------------------------

BAD_DAYS = [
    "20260914",  # ISO's basic form: not what a record writes
    "2026-9-14",
    "14/09/2026",
    "2026-09-14T19:30",
    "2026-09-14 ",
    "\uff12\uff10\uff12\uff16-09-14",  # full-width digits
    "2026-02-30",  # no such day
    "2026-13-01",
    "1899-12-31",  # before 1900
    "3000-01-01",
    "",
    None,
    20260914,
    True,
    ["2026-09-14"],
]


@pytest.mark.parametrize("value", BAD_DAYS)
def test_the_engine_refuses_a_bad_day_naming_played_on(value) -> None:
    with pytest.raises(RecordError) as refused:
        record_parse(_dated(None) | {"played_on": value})
    assert refused.value.field == "played_on"
    assert str(refused.value).startswith("played_on: ")


@pytest.mark.parametrize("value", ["1900-01-01", "2026-02-28", "2028-02-29", "2999-12-31"])
def test_the_engine_takes_any_real_day_in_its_years(value) -> None:
    assert record_parse(_dated(value)).played_on == datetime.date.fromisoformat(value)


@pytest.mark.parametrize("value", BAD_DAYS)
def test_kaiser_score_refuses_a_bad_day_naming_played_on(value, tmp_path, capsys) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(_dated(None) | {"played_on": value}), encoding="utf-8")
    with pytest.raises(CommandError, match=r"^played_on: "):
        call_command("kaiser_score", str(path))
    assert capsys.readouterr().out == ""


def _day_after_tomorrow() -> str:
    return (timezone.localdate() + datetime.timedelta(days=2)).isoformat()


@pytest.mark.parametrize("value", ["2026-02-30", "1899-12-31", "20260914", None, "future"])
def test_the_import_page_refuses_a_bad_day_and_writes_nothing(club, as_alice, value) -> None:
    value = _day_after_tomorrow() if value == "future" else value
    answer = _web_import(as_alice, club, _dated(None) | {"played_on": value})
    assert answer.status_code == 422
    assert "This record cannot be imported: played_on: " in answer.content.decode()
    assert not Game.objects.exists() and not Player.objects.exists()


def test_the_import_command_refuses_a_day_in_the_future(club, tmp_path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(_dated(_day_after_tomorrow())), encoding="utf-8")
    with pytest.raises(CommandError, match=r"^played_on: .* is in the future"):
        call_command("game_import", str(path), "--club", club.slug)
    assert not Game.objects.exists()


def test_tomorrow_is_taken_for_a_club_a_time_zone_ahead(club) -> None:
    tomorrow = timezone.localdate() + datetime.timedelta(days=1)
    game = game_import(club=club, record=_dated(tomorrow.isoformat()))
    assert game.played_on == tomorrow


# --- New games: the start form and tournament tables ------------------------------------------

FOUR = {"seat_0": "Ann", "seat_1": "Cat", "seat_2": "Bob", "seat_3": "Dan", "start": "1"}


@pytest.mark.parametrize(
    ("who", "status"), [("alice", 303), ("bob", 303), ("charlie", 404), (None, 302)]
)
def test_the_start_form_takes_the_day_per_identity(club, alice, bob, charlie, who, status):
    client = client_for({"alice": alice, "bob": bob, "charlie": charlie, None: None}[who])
    url = reverse("club_game_new", args=[club.slug])
    answer = client.post(url, {**FOUR, "played_on": "2026-09-14"})
    assert answer.status_code == status
    if status == 303:
        assert Game.objects.get().played_on == SEPT_14
    else:
        assert not Game.objects.exists()


def test_a_new_game_is_played_today_by_default(club, as_bob) -> None:
    url = reverse("club_game_new", args=[club.slug])
    form = as_bob.get(url).content.decode()
    today = timezone.localdate()
    assert f'name="played_on" id="id_played_on" value="{today.isoformat()}"' in form
    tomorrow = today + datetime.timedelta(days=1)
    assert f'min="1900-01-01" max="{tomorrow.isoformat()}"' in form
    assert as_bob.post(url, FOUR).status_code == 303
    assert Game.objects.get().played_on == today


def test_a_quick_game_has_its_day_too(as_charlie) -> None:
    data = {"seat_0": "Mom", "seat_1": "Dad", "seat_2": "Lea", "seat_3": "Sam", "start": "1"}
    assert as_charlie.post(reverse("quick_game_new"), data).status_code == 303
    assert Game.objects.get().played_on == timezone.localdate()


@pytest.mark.parametrize(
    "value", ["2026-02-30", "1899-12-31", "14/09/2026", "9" * 5000, "\x00", "future"]
)
def test_the_start_form_refuses_a_bad_day_next_to_the_field(club, as_alice, value) -> None:
    value = _day_after_tomorrow() if value == "future" else value
    url = reverse("club_game_new", args=[club.slug])
    answer = as_alice.post(url, {**FOUR, "played_on": value})
    assert answer.status_code == 422
    error = re.search(
        r'<p id="err-played_on" class="field-error">([^<]+)</p>', answer.content.decode()
    )
    assert error and ("expected" in error.group(1) or "in the future" in error.group(1))
    assert not Game.objects.exists()


def test_a_tournament_tables_games_are_played_on_the_nights_day(club, alice, players) -> None:
    from leagues.tournaments.services import entry_register, round_draw, tournament_create

    night_day = timezone.localdate() - datetime.timedelta(days=3)
    night = tournament_create(club=club, name="Friday", date=night_day, created_by=alice)
    for player in players:
        entry_register(tournament=night, player=player, checked_in=True)
    drawn = round_draw(tournament=night, by=alice)
    assert [table.game.played_on for table in drawn.tables] == [night_day]
    assert Game.objects.get().played_on == night_day


def test_a_night_dated_before_1900_refuses_its_draw_naming_played_on(club, alice, players):
    from leagues.tournaments.models import TournamentRound
    from leagues.tournaments.services import (
        TournamentError,
        entry_register,
        round_draw,
        tournament_create,
    )

    night = tournament_create(
        club=club, name="Old", date=datetime.date(1899, 12, 31), created_by=alice
    )
    for player in players:
        entry_register(tournament=night, player=player, checked_in=True)
    with pytest.raises(TournamentError, match=r"^played_on: "):
        round_draw(tournament=night, by=alice)
    assert not Game.objects.exists() and not TournamentRound.objects.exists()


# --- The lists: the club page, and French dates -----------------------------------------------


def test_the_club_page_lists_recent_games_by_the_day_played(
    club, as_bob, django_assert_max_num_queries
) -> None:
    game_import(club=club, record=_dated("2026-11-06"))
    game_import(club=club, record=_dated(None))
    game_import(club=club, record=_dated("2026-09-14"))
    with django_assert_max_num_queries(8):
        page = as_bob.get(reverse("club_detail", args=[club.slug])).content.decode()
    # Latest day first; a game whose day is not known comes last.
    positions = _order_on(page, "Nov. 6, 2026", "Sept. 14, 2026", "date not known")
    assert positions == sorted(positions)


def test_on_a_day_the_game_finished_last_comes_first(club, as_bob) -> None:
    first = game_import(club=club, record=_dated("2026-09-14"))
    second = game_import(club=club, record=_dated("2026-09-14"))
    Game.objects.filter(pk=first.pk).update(finished_at=timezone.now())
    Game.objects.filter(pk=second.pk).update(
        finished_at=timezone.now() - datetime.timedelta(hours=2)
    )
    page = as_bob.get(reverse("club_detail", args=[club.slug])).content.decode()
    assert page.index(first.get_absolute_url()) < page.index(second.get_absolute_url())


def test_french_pages_show_french_dates(club, bob) -> None:
    game = game_import(club=club, record=_dated("2026-09-14"))
    french = client_for(bob)
    french.cookies["django_language"] = "fr"
    ann = Player.objects.get(club=club, name="Ann")
    for url in (
        reverse("game_sheet", args=[game.pk]),
        reverse("game_print", args=[game.pk]),
        reverse("player_detail", args=[club.slug, ann.pk]),
        reverse("club_detail", args=[club.slug]),
    ):
        page = french.get(url).content.decode()
        assert "14 septembre 2026" in page, url
        assert "Sept. 14" not in page, url


def test_an_outsider_sees_no_dated_game(club, charlie) -> None:
    game = game_import(club=club, record=_dated("2026-09-14"))
    outsider = client_for(charlie)
    assert outsider.get(reverse("game_sheet", args=[game.pk])).status_code == 404
    assert outsider.get(reverse("game_record_download", args=[game.pk])).status_code == 404
    assert Membership.objects.filter(user=charlie).count() == 0
