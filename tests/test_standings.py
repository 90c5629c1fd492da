"""Standings and ratings: every figure against hand-computed expectations (the two games are
worked out hand by hand in tests/leagues_helpers.py), what counts, idempotent rebuilds, queueing,
reconciliation."""

from __future__ import annotations

import datetime
import logging
import time

import pytest
from django.core.management import call_command
from django.utils import timezone
from openskill.models import PlackettLuce

from leagues.clubs.models import Season
from leagues.standings import rebuild
from leagues.standings import services as standings_services
from leagues.standings.models import (
    PartnershipStanding,
    PlayerRating,
    PlayerStanding,
    RatingPoint,
    RatingSnapshot,
    StandingsSnapshot,
)
from scorecards.models import Game
from scorecards.rules import HandInput, rules_build
from scorecards.services import GameClosed, hand_correct, hand_record, hand_undo
from tests.leagues_helpers import GAME_1, play, trump, two_games

# The day last played is held in tests/test_standings_counted.py; these are the counts.
FIGURES = tuple(name for name in PlayerStanding.FIGURES if name != "last_played")

# name: games, wins, draws, win %, for, against, hands, avg, made, attempted, no-trump made,
# set, kaisers, streak -- worked out by hand from the hand-by-hand tables.
EXPECTED_PLAYERS = {
    # G1 won (63 for, 2 against, bids 4/4, set once as a side), G2 lost (-54/14, bids 1/2, 1 nt,
    # side set 3 times): 13 hands, 9 / 13 = 0.69 a hand.
    "Ann": (2, 1, 0, 50.0, 9, 16, 13, 0.69, 5, 6, 1, 4, 0, -1),
    # G1 won (bids 2/3, side set once), G2 won with Dan (14/-54, bids 1/1): 77 / 13 = 5.92.
    "Bob": (2, 2, 0, 100.0, 77, -52, 13, 5.92, 3, 4, 0, 1, 0, 2),
    # G1 lost (2/63, bids 1/1), G2 lost with Ann (-54/14, bids 0/2, side set 3 times).
    "Cat": (2, 0, 0, 0.0, -52, 77, 13, -4.0, 1, 3, 0, 3, 0, -2),
    # G1 lost (2/63), G2 won (14/-54); never bid. 16 / 13 = 1.23.
    "Dan": (2, 1, 0, 50.0, 16, 9, 13, 1.23, 0, 0, 0, 0, 0, 1),
}
EXPECTED_PAIRS = {
    ("Ann", "Bob"): (1, 1, 0, 100.0, 63, 2, 8, 7.88, 6, 7, 0, 1, 0, 1),
    ("Cat", "Dan"): (1, 0, 0, 0.0, 2, 63, 8, 0.25, 1, 1, 0, 0, 0, -1),
    ("Ann", "Cat"): (1, 0, 0, 0.0, -54, 14, 5, -10.8, 1, 4, 1, 3, 0, -1),
    ("Bob", "Dan"): (1, 1, 0, 100.0, 14, -54, 5, 2.8, 1, 1, 0, 0, 0, 1),
}


@pytest.fixture
def season(club):
    return Season.objects.create(club=club, name="2026", starts_on=datetime.date(2026, 9, 1))


@pytest.fixture
def by_name(players):
    return {p.name: p for p in players}


def player_rows(season):
    return {
        row.player.name: tuple(getattr(row, f) for f in FIGURES)
        for row in PlayerStanding.objects.filter(season=season).select_related("player")
    }


def pair_rows(season):
    rows = PartnershipStanding.objects.filter(season=season).select_related("first", "second")
    return {
        tuple(sorted((row.first.name, row.second.name))): tuple(getattr(row, f) for f in FIGURES)
        for row in rows
    }


def all_derived_rows():
    """Every derived row with its primary key: equal before and after means nothing changed."""
    players = PlayerStanding.objects.all()
    pairs = PartnershipStanding.objects.all()
    return (
        sorted((r.pk, r.season_id, r.player_id, *r.figures().values()) for r in players),
        sorted((r.pk, r.first_id, r.second_id, *r.figures().values()) for r in pairs),
        sorted(PlayerRating.objects.values_list()),
        sorted(RatingPoint.objects.values_list()),
    )


def test_the_two_games_end_as_worked_out_by_hand(club, season, by_name):
    first, second = two_games(club, season, by_name)
    assert (first.scores, first.winner, first.finish_reason) == ([63, 2], 0, "target")
    assert (second.scores, second.winner, second.finish_reason) == ([-54, 14], 1, "minus")


def test_every_player_figure_matches_the_hand_computed_expectation(club, season, by_name):
    two_games(club, season, by_name)
    snapshot = rebuild.standings_rebuild(season_id=season.pk)
    assert player_rows(season) == EXPECTED_PLAYERS
    assert (snapshot.games, snapshot.hands) == (2, 14)  # 9 + 5 hands, throw-in included


def test_every_partnership_figure_matches_the_hand_computed_expectation(club, season, by_name):
    two_games(club, season, by_name)
    rebuild.standings_rebuild(season_id=season.pk)
    assert pair_rows(season) == EXPECTED_PAIRS
    for row in PartnershipStanding.objects.all():
        assert row.first_id < row.second_id


def test_only_finished_games_of_the_season_count(club, season, by_name, players):
    two_games(club, season, by_name)
    ann, bob, cat, dan = (by_name[n] for n in ("Ann", "Bob", "Cat", "Dan"))
    play(club, season, [ann, cat, bob, dan], GAME_1[:3])  # still in progress
    other = Season.objects.create(club=club, name="other", starts_on=datetime.date(2025, 1, 1))
    play(club, other, [ann, cat, bob, dan], GAME_1)  # another season
    play(club, None, [ann, cat, bob, dan], GAME_1)  # no season
    rebuild.standings_rebuild(season_id=season.pk)
    assert player_rows(season) == EXPECTED_PLAYERS


def test_where_hands_need_confirming_only_fully_confirmed_games_count(club, season, by_name):
    club.hands_need_confirmation = True
    club.save()
    first, second = two_games(club, season, by_name)
    rebuild.standings_rebuild(season_id=season.pk)
    assert player_rows(season) == {}
    first.hands.update(confirmed_at=timezone.now())
    second.hands.exclude(number=3).update(confirmed_at=timezone.now())
    rebuild.standings_rebuild(season_id=season.pk)
    assert player_rows(season)["Bob"][:6] == (1, 1, 0, 100.0, 63, 2)  # game 1 only
    second.hands.update(confirmed_at=timezone.now())
    rebuild.standings_rebuild(season_id=season.pk)
    assert player_rows(season) == EXPECTED_PLAYERS


def test_a_made_kaiser_counts_as_a_kaiser_a_bid_and_a_win(club, season, by_name):
    ann, bob, cat, dan = (by_name[n] for n in ("Ann", "Bob", "Cat", "Dan"))
    rules = rules_build({"preset": "standard", "kaiser_bid": "team"})
    # Bob (seat 1) bids kaiser; his side takes 7 tricks and the five of hearts: 12 points, made,
    # and the game is won on that hand with the scores unchanged (0 - 0).
    kaiser = HandInput(
        bidder=1, kind="kaiser", bid=12, tricks=(1, 7), five_hearts=1, three_spades=0
    )
    play(club, season, [ann, bob, cat, dan], [kaiser], rules=rules)
    rebuild.standings_rebuild(season_id=season.pk)
    rows = player_rows(season)
    assert rows["Bob"] == (1, 1, 0, 100.0, 0, 0, 1, 0.0, 1, 1, 0, 0, 1, 1)
    assert rows["Dan"] == (1, 1, 0, 100.0, 0, 0, 1, 0.0, 0, 0, 0, 0, 0, 1)
    assert rows["Ann"] == (1, 0, 0, 0.0, 0, 0, 1, 0.0, 0, 0, 0, 0, 0, -1)


def test_rebuilding_twice_changes_nothing(club, season, by_name):
    two_games(club, season, by_name)
    rebuild.standings_rebuild(season_id=season.pk)
    rebuild.ratings_rebuild(club_id=club.pk)
    before = all_derived_rows()
    first_time = StandingsSnapshot.objects.get(season=season).computed_at
    rebuild.standings_rebuild(season_id=season.pk)
    rebuild.ratings_rebuild(club_id=club.pk)
    assert all_derived_rows() == before
    assert StandingsSnapshot.objects.get(season=season).computed_at >= first_time


def test_a_rebuild_follows_a_correction_and_a_finished_game_cannot_be_undone(
    club, season, by_name, alice
):
    _first, second = two_games(club, season, by_name)
    rebuild.standings_rebuild(season_id=season.pk)
    # Correct game 2, hand 5: Cat's 12 no now takes 4-4 with the five of hearts against her
    # side: side 0 has 1 point, set -24 all the same; side 1 takes 4 + 5 = 9 -> 14 - 1 + 9 = 22.
    hand_correct(
        game=second, number=5, hand=trump(2, 12, (4, 4), 1, 0, "no"), by=alice, reason="recount"
    )
    rebuild.standings_rebuild(season_id=season.pk)
    assert player_rows(season)["Dan"][4] == 2 + 22
    # Game 2 is over: undo is no back door around the correction power.
    with pytest.raises(GameClosed):
        hand_undo(game=second)
    rebuild.standings_rebuild(season_id=season.pk)
    assert player_rows(season)["Dan"][4] == 2 + 22


def test_a_season_that_is_gone_or_a_stale_rebuild_writes_nothing(club, season, by_name):
    assert rebuild.standings_rebuild(season_id=987654) is None
    assert rebuild.ratings_rebuild(club_id=987654) is None
    two_games(club, season, by_name)
    future = timezone.now() + datetime.timedelta(hours=1)
    StandingsSnapshot.objects.create(season=season, computed_at=future)
    # A rebuild that began before the stored one must not overwrite it.
    assert rebuild.standings_rebuild(season_id=season.pk) is None
    assert not PlayerStanding.objects.exists()


def test_ratings_follow_openskill_in_game_order(club, season, by_name):
    two_games(club, season, by_name)
    rebuild.ratings_rebuild(club_id=club.pk)
    # Independently: Plackett-Luce, teams of two, the winner ranked first, game 1 then game 2.
    model = PlackettLuce()
    r = {n: model.rating() for n in ("Ann", "Bob", "Cat", "Dan")}
    (r["Ann"], r["Bob"]), (r["Cat"], r["Dan"]) = model.rate(
        [[r["Ann"], r["Bob"]], [r["Cat"], r["Dan"]]], ranks=[0, 1]
    )
    (r["Ann"], r["Cat"]), (r["Bob"], r["Dan"]) = model.rate(
        [[r["Ann"], r["Cat"]], [r["Bob"], r["Dan"]]], ranks=[1, 0]
    )
    stored = {row.player.name: row for row in PlayerRating.objects.select_related("player")}
    for name, rating in r.items():
        assert stored[name].mu == pytest.approx(rating.mu, abs=1e-9)
        assert stored[name].sigma == pytest.approx(rating.sigma, abs=1e-9)
        assert stored[name].ordinal == pytest.approx(rating.mu - 3 * rating.sigma, abs=1e-9)
        assert stored[name].games == 2
    assert stored["Bob"].ordinal > stored["Ann"].ordinal > stored["Cat"].ordinal
    assert RatingPoint.objects.count() == 8  # four players after each of two games
    assert RatingSnapshot.objects.get(club=club).games == 2


def test_ratings_rebuilt_from_scratch_give_the_same_numbers(club, season, by_name):
    two_games(club, season, by_name)
    rebuild.ratings_rebuild(club_id=club.pk)
    before = sorted(PlayerRating.objects.values_list("player_id", "mu", "sigma", "games"))
    PlayerRating.objects.all().delete()
    RatingPoint.objects.all().delete()
    RatingSnapshot.objects.all().delete()
    rebuild.ratings_rebuild(club_id=club.pk)
    assert sorted(PlayerRating.objects.values_list("player_id", "mu", "sigma", "games")) == before


def test_individual_games_are_rated_each_for_themself(club, season, by_name):
    ann, bob, cat = (by_name[n] for n in ("Ann", "Bob", "Cat"))
    rules = rules_build({"preset": "three-player"})
    game = play(club, season, [ann, bob, cat], [], rules=rules)
    # Three sides of one; hand until somebody reaches 52 with a made bid.
    while game.status != "finished":
        hand_record(
            game=game,
            hand=HandInput(bidder=0, bid=7, tricks=(6, 1, 1), five_hearts=0, three_spades=1),
        )
        game.refresh_from_db()
    rebuild.ratings_rebuild(club_id=club.pk)
    rebuild.standings_rebuild(season_id=season.pk)
    ratings = {row.player.name: row for row in PlayerRating.objects.select_related("player")}
    assert set(ratings) == {"Ann", "Bob", "Cat"}
    assert ratings["Ann"].ordinal > ratings["Bob"].ordinal
    assert not PartnershipStanding.objects.exists()  # nobody had a partner
    assert player_rows(season)["Ann"][:2] == (1, 1)


def test_finishing_a_game_queues_both_rebuilds_after_commit(
    club, season, by_name, alice, django_capture_on_commit_callbacks
):
    ann, bob, cat, dan = (by_name[n] for n in ("Ann", "Bob", "Cat", "Dan"))
    game = play(club, season, [ann, cat, bob, dan], GAME_1[:-1])
    assert not StandingsSnapshot.objects.exists()
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        hand_record(game=game, hand=GAME_1[-1])
    assert len(callbacks) == 1
    assert StandingsSnapshot.objects.get(season=season).games == 1  # eager: already rebuilt
    assert RatingSnapshot.objects.get(club=club).games == 1
    # Correcting a hand of the finished game queues again; an unfinished game does not.
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        hand_correct(game=game, number=1, hand=GAME_1[0], by=alice, reason="recount")
    assert len(callbacks) == 1
    other = play(club, season, [ann, cat, bob, dan], [])
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        hand_record(game=other, hand=GAME_1[0])
    assert callbacks == []


def test_a_broker_that_is_down_never_stops_a_hand(
    club, season, by_name, django_capture_on_commit_callbacks, monkeypatch, caplog
):
    from kombu.exceptions import OperationalError

    from leagues.standings import tasks

    def down(*args, **kwargs):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6390. Connection refused.")

    monkeypatch.setattr(tasks.standings_rebuild, "apply_async", down)
    monkeypatch.setattr(tasks.ratings_rebuild, "apply_async", down)
    ann, bob, cat, dan = (by_name[n] for n in ("Ann", "Bob", "Cat", "Dan"))
    game = play(club, season, [ann, cat, bob, dan], GAME_1[:-1])
    with caplog.at_level(logging.ERROR), django_capture_on_commit_callbacks(execute=True):
        recorded = hand_record(game=game, hand=GAME_1[-1])
    assert recorded.created and Game.objects.get(pk=game.pk).status == "finished"
    assert "broker down" in caplog.text
    assert not StandingsSnapshot.objects.exists()
    # Reconciliation (the beat job) finds the season and the club stale and catches up.
    monkeypatch.undo()
    assert standings_services.derived_data_reconcile() == ([season.pk], [club.pk])
    assert player_rows(season)["Ann"][:2] == (1, 1)
    assert standings_services.derived_data_stale() == ([], [])


def test_the_command_rebuilds_all_one_season_or_one_club(club, season, by_name, capsys):
    two_games(club, season, by_name)
    call_command("standings_rebuild", "--season", str(season.pk))
    assert player_rows(season) == EXPECTED_PLAYERS
    PlayerStanding.objects.all().delete()
    call_command("standings_rebuild", "--club", club.slug)
    assert player_rows(season) == EXPECTED_PLAYERS
    PlayerStanding.objects.all().delete()
    PlayerRating.objects.all().delete()
    call_command("standings_rebuild", "--all")
    assert player_rows(season) == EXPECTED_PLAYERS
    assert PlayerRating.objects.count() == 4
    assert "rebuilt standings of 1 season(s) and ratings of 1 club(s)" in capsys.readouterr().out


def test_the_tasks_are_thin_late_acked_and_retried():
    from django.conf import settings

    from leagues.standings import tasks

    # No task sets its own limits: the settings' apply to every task.
    assert "time_limit" not in tasks.OPTIONS and "soft_time_limit" not in tasks.OPTIONS
    assert 0 < settings.CELERY_TASK_SOFT_TIME_LIMIT < settings.CELERY_TASK_TIME_LIMIT
    for task in (tasks.standings_rebuild, tasks.ratings_rebuild, tasks.derived_data_reconcile):
        assert task.acks_late and task.reject_on_worker_lost
        assert task.time_limit == settings.CELERY_TASK_TIME_LIMIT
        assert task.soft_time_limit == settings.CELERY_TASK_SOFT_TIME_LIMIT
        assert task.autoretry_for and task.retry_backoff
    beat = settings.CELERY_BEAT_SCHEDULE["derived-data-reconcile"]
    assert beat["task"] == tasks.derived_data_reconcile.name


def test_a_real_unreachable_broker_costs_a_hand_at_most_one_connect_timeout(
    club, season, by_name, django_capture_on_commit_callbacks, caplog
):
    """No mock: Celery publishes to a Redis address where nothing listens."""
    from kaiser_league.celery import app as celery_app

    ann, bob, cat, dan = (by_name[n] for n in ("Ann", "Bob", "Cat", "Dan"))
    game = play(club, season, [ann, cat, bob, dan], GAME_1[:-1])

    def fresh_connections() -> None:
        # Publishing reuses pooled connections to the broker configured first: drop them.
        celery_app._pool = None
        celery_app.amqp._producer_pool = None

    conf = celery_app.conf
    saved = (conf.task_always_eager, conf.broker_url, conf.broker_write_url)
    nowhere = "redis://127.0.0.1:9/0"
    conf.update(task_always_eager=False, broker_url=nowhere, broker_write_url=nowhere)
    fresh_connections()
    try:
        started = time.monotonic()
        with caplog.at_level(logging.ERROR), django_capture_on_commit_callbacks(execute=True):
            hand_record(game=game, hand=GAME_1[-1])
        elapsed = time.monotonic() - started
    finally:
        conf.update(task_always_eager=saved[0], broker_url=saved[1], broker_write_url=saved[2])
        fresh_connections()
    assert Game.objects.get(pk=game.pk).status == "finished"
    assert "broker down" in caplog.text
    assert elapsed < 4  # one connect attempt (CELERY_BROKER_TRANSPORT_OPTIONS), not one per job
