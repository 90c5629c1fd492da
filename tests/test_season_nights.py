"""Tournament nights count in the season: a table its round ended is won on points (or drawn
when level), counts in the season standings and the ratings, whether the standings are
rebuilt by hand or by the rebuilds that closing a round queues; and the season standings count
the nights each player played and won."""

from __future__ import annotations

import datetime

import pytest
from django.core.management import call_command
from django.urls import reverse

from leagues.clubs.models import Player, Season
from leagues.standings import rebuild
from leagues.standings.derived import ratings_compute
from leagues.standings.models import (
    GameSummary,
    PartnershipStanding,
    PlayerRating,
    PlayerStanding,
    RatingPoint,
    StandingsSnapshot,
)
from leagues.standings.summaries import counted_results
from leagues.tournaments.models import Tournament, TournamentStatus
from leagues.tournaments.selectors import tournament_standings
from leagues.tournaments.services import (
    entry_register,
    round_close,
    round_draw,
    tournament_create,
    tournament_finish,
)
from scorecards.models import FinishReason, Game, GameStatus
from scorecards.services import hand_record
from tests.leagues_helpers import GAME_1, play, trump

pytestmark = pytest.mark.django_db

# Standard rules, seats 0 & 2 against 1 & 3. Side 0 bids 7 and takes 7 tricks and the five of
# hearts (12 points), side 1 keeps the three of spades: +12 / -2. MIRROR is the same for side 1.
LEAD = trump(0, 7, (7, 1), 0, 1)
MIRROR = trump(1, 7, (1, 7), 1, 0)
WON = [LEAD, LEAD]  # 24 to -4: side 0 ahead when the round closes
DRAWN = [LEAD, MIRROR]  # 10 to 10: level when the round closes
NAMES = ["Ann", "Bea", "Cal", "Dot", "Eve", "Fay", "Gus"]
WALK_IN = "Walker"


def _season(club) -> Season:
    return Season.objects.create(club=club, name="2026", starts_on=datetime.date(2026, 9, 1))


def _night(club, season) -> Tournament:
    """Seven players for a night of three rounds of two hands (no tie-break hand)."""
    night = tournament_create(
        club=club,
        name="Friday",
        date=datetime.date(2026, 11, 20),
        rounds=3,
        hands_per_round=2,
        extra_hand_on_tie=False,
        season=season,
    )
    for name in NAMES:
        entry_register(tournament=night, player=name, checked_in=True)
    return night


def _play(made, drawn_first: bool = False) -> list[Game]:
    games = []
    for number, table in enumerate(made.tables):
        hands = DRAWN if drawn_first and number == 0 else WON
        for hand in hands:
            hand_record(game=table.game, hand=hand)
        games.append(table.game)
    return games


def _run_night(club, season) -> tuple[Tournament, list[Game]]:
    """Round 1: one table of the seven (the first drawn), three sit out; then a walk-in arrives
    and rounds 2 and 3 seat all eight at two tables. Every table plays its two hands and its
    round ends it (closed by the next draw, the last by the night's end)."""
    night = _night(club, season)
    games = _play(round_draw(tournament=night), drawn_first=True)
    entry_register(tournament=night, player=WALK_IN)
    games += _play(round_draw(tournament=night))
    games += _play(round_draw(tournament=night))
    tournament_finish(tournament=night)
    return night, games


def _rows(season) -> dict[str, PlayerStanding]:
    return {
        row.player.name: row
        for row in PlayerStanding.objects.filter(season=season).select_related("player")
    }


def test_a_night_of_tables_ended_by_the_round_counts_in_the_season(
    club, django_capture_on_commit_callbacks
):
    season = _season(club)
    other = play(
        club, season, [Player.objects.create(club=club, name=n) for n in ("Q", "R", "S", "T")], []
    )
    for hand in GAME_1:
        hand_record(game=other, hand=hand)
    # No manual rebuild: closing each round (and ending the night) queues them (eager here).
    with django_capture_on_commit_callbacks(execute=True):
        _tournament, games = _run_night(club, season)
    assert len(games) == 5
    for game in games:
        game.refresh_from_db()
        assert (game.status, game.finish_reason) == (GameStatus.FINISHED, FinishReason.ROUND)
        assert game.hand_count == 2
    queued = StandingsSnapshot.objects.get(season=season)
    assert queued.games == 1 + 5 and queued.hands == len(GAME_1) + 10
    walker = Player.objects.get(club=club, name=WALK_IN)
    rating = PlayerRating.objects.get(player=walker)
    assert rating.games == 2
    assert RatingPoint.objects.filter(player=walker).count() == 2
    queued_rows = {name: row.figures() for name, row in _rows(season).items()}
    # The same from nothing, as `manage.py standings_rebuild --all` gives it.
    GameSummary.objects.all().delete()
    call_command("standings_rebuild", "--all")
    assert StandingsSnapshot.objects.get(season=season).games == 6
    rows = _rows(season)
    assert {name: row.figures() for name, row in rows.items()} == queued_rows
    assert rows[WALK_IN].games == 2
    # Everyone at the night played a counted game of it.
    assert all(rows[name].nights == 1 for name in [*NAMES, WALK_IN])
    assert all(rows[name].nights == 0 for name in "QRST")
    # Each game a player played counted: points for are their sides' totals.
    for name in [*NAMES, WALK_IN]:
        row = rows[name]
        assert row.wins + row.draws + (row.games - row.wins - row.draws) == row.games
        assert row.win_pct == round(100 * row.wins / row.games, 1)


def test_a_drawn_table_is_a_draw_for_all_four(club):
    season = _season(club)
    _tournament, games = _run_night(club, season)
    rebuild.standings_rebuild(season_id=season.pk)
    drawn = games[0]
    drawn.refresh_from_db()
    assert drawn.scores == [10, 10] and drawn.winner is None
    seated = list(drawn.seats.order_by("seat").values_list("player_id", flat=True))
    rows = {row.player_id: row for row in PlayerStanding.objects.filter(season=season)}
    for player in seated:
        assert rows[player].draws == 1  # every other table of the night was won
    everyone = PlayerStanding.objects.filter(season=season)
    assert sum(row.draws for row in everyone) == 4
    # The drawn game's two partnerships drew, scoring 10 for and 10 against.
    first, second = (sorted(seated[side::2]) for side in (0, 1))
    for pair in (first, second):
        row = PartnershipStanding.objects.get(season=season, first_id=pair[0], second_id=pair[1])
        assert (row.games, row.wins, row.draws) == (1, 0, 1)
        assert (row.points_for, row.points_against, row.win_pct, row.streak) == (10, 10, 0.0, 0)
    # The ratings rank the level sides as a tie: partners move alike, and from the same start
    # both sides move the same way.
    rebuild.ratings_rebuild(club_id=club.pk)
    point = {
        p.player_id: p.mu for p in RatingPoint.objects.filter(game=drawn, player_id__in=seated)
    }
    assert len(point) == 4 and len({round(mu, 9) for mu in point.values()}) == 1


def test_night_wins_go_to_the_first_of_the_finished_night(club):
    season = _season(club)
    night, _games = _run_night(club, season)
    rebuild.standings_rebuild(season_id=season.pk)
    first = {
        entry.player.name
        for row in tournament_standings(night).rows
        if row.rank == 1
        for entry in night.entries.filter(pk__in=row.entry_ids).select_related("player")
    }
    assert first
    rows = _rows(season)
    assert {name for name, row in rows.items() if row.night_wins} == first
    assert all(rows[name].night_wins == 1 for name in first)


def test_a_night_not_over_has_no_winner_and_finishing_it_queues_the_rebuild(
    club, django_capture_on_commit_callbacks
):
    season = _season(club)
    night = _night(club, season)
    _play(round_draw(tournament=night))
    # The round is closed by hand, then the night ended: no game changes at its end.
    round_close(round=night.round_set.get(number=1))
    rebuild.standings_rebuild(season_id=season.pk)
    assert sum(row.nights for row in PlayerStanding.objects.filter(season=season)) == 4
    assert not any(row.night_wins for row in PlayerStanding.objects.filter(season=season))
    with django_capture_on_commit_callbacks(execute=True):
        tournament_finish(tournament=night)
    assert sum(row.night_wins for row in PlayerStanding.objects.filter(season=season)) >= 2


def test_a_cancelled_night_counts_nothing(club):
    season = _season(club)
    night, _games = _run_night(club, season)
    rebuild.standings_rebuild(season_id=season.pk)
    rebuild.ratings_rebuild(club_id=club.pk)
    assert StandingsSnapshot.objects.get(season=season).games == 5
    Tournament.objects.filter(pk=night.pk).update(status=TournamentStatus.CANCELLED)
    rebuild.standings_rebuild(season_id=season.pk)
    rebuild.ratings_rebuild(club_id=club.pk)
    assert StandingsSnapshot.objects.get(season=season).games == 0
    assert not PlayerStanding.objects.filter(season=season).exists()
    assert not PlayerRating.objects.filter(club=club).exists()
    assert not Game.objects.counted().filter(pk__in=[g.pk for g in _games]).exists()


def test_a_game_dated_before_the_last_rated_one_is_rated_in_its_place(club, players):
    """Game order is the day played first: a game played (and dated) earlier but finished
    later is rated before the others, by a full rebuild rather than added at the end."""
    season = _season(club)
    late = play(club, season, players, GAME_1)
    Game.objects.filter(pk=late.pk).update(played_on=datetime.date(2026, 10, 2))
    rebuild.ratings_rebuild(club_id=club.pk)
    early = play(club, season, players[::-1], GAME_1)
    Game.objects.filter(pk=early.pk).update(played_on=datetime.date(2026, 10, 1))
    rebuild.ratings_rebuild(club_id=club.pk, game_id=early.pk)
    assert [r.game_id for r in counted_results(club)] == [early.pk, late.pk]
    final, history, _count = ratings_compute(counted_results(club))
    stored = {
        (p.player_id, p.game_id): (p.seq, p.mu, p.sigma)
        for p in RatingPoint.objects.filter(player__club=club)
    }
    assert stored == {(a.player_id, a.game_id): (a.seq, a.mu, a.sigma) for a in history}
    assert {p.player_id: p.games for p in PlayerRating.objects.filter(club=club)} == {
        pk: row["games"] for pk, row in final.items()
    }


def test_closing_a_round_of_several_tables_queues_one_rebuild_of_each(
    club, django_capture_on_commit_callbacks, monkeypatch
):
    season = _season(club)
    night = _night(club, season)
    entry_register(tournament=night, player=WALK_IN, checked_in=True)
    made = round_draw(tournament=night)
    assert len(made.tables) == 2
    _play(made)
    calls: list[str] = []
    standings, ratings = rebuild.standings_rebuild, rebuild.ratings_rebuild
    monkeypatch.setattr(
        rebuild, "standings_rebuild", lambda **kw: calls.append("standings") or standings(**kw)
    )
    monkeypatch.setattr(
        rebuild, "ratings_rebuild", lambda **kw: calls.append("ratings") or ratings(**kw)
    )
    with django_capture_on_commit_callbacks(execute=True):
        round_close(round=night.round_set.get(number=1))
    assert sorted(calls) == ["ratings", "standings"]
    assert StandingsSnapshot.objects.get(season=season).games == 2
    assert PlayerRating.objects.filter(club=club).count() == 8


def test_the_sheet_says_the_game_was_ended_by_the_round(club, as_alice):
    season = _season(club)
    _tournament, games = _run_night(club, season)
    drawn, won = games[0], games[1]
    page = as_alice.get(reverse("game_sheet", kwargs={"game_id": drawn.pk}))
    assert page.status_code == 200
    assert "Ended by the round: drawn on points (10 – 10)." in page.content.decode()
    page = as_alice.get(reverse("game_sheet", kwargs={"game_id": won.pk})).content.decode()
    names = " &amp; ".join(won.seats.order_by("seat").values_list("name", flat=True)[::2])
    assert f"Ended by the round: {names} win on points (24 – -4)." in page
