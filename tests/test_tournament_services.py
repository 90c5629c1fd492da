"""Tournament services and the night's standings (SQLite and PostgreSQL alike)."""

from __future__ import annotations

import datetime
import random

import pytest

from leagues.clubs.models import Player, Season
from leagues.demo import plausible_hand
from leagues.tournaments.models import TournamentFormat, TournamentStatus
from leagues.tournaments.selectors import round_results, tournament_rounds, tournament_standings
from leagues.tournaments.services import (
    RoundUnfinished,
    TournamentError,
    entry_check_in,
    entry_register,
    entry_withdraw,
    round_close,
    round_draw,
    tournament_create,
    tournament_finish,
)
from scorecards.models import Game
from scorecards.rules import HandInput
from scorecards.services import RoundOver, hand_record

NAMES = [f"P{i:02d}" for i in range(1, 61)]


def _night(club, n, *, format=TournamentFormat.ROTATING, rounds=3, **kwargs):
    season = Season.objects.create(club=club, name="S", starts_on=datetime.date(2026, 9, 1))
    t = tournament_create(
        club=club,
        name="Friday",
        date=datetime.date(2026, 11, 20),
        format=format,
        rounds=rounds,
        season=season,
        **kwargs,
    )
    names = NAMES[:n]
    if t.fixed_pairs:
        for a, b in zip(names[::2], names[1::2], strict=True):
            entry_register(tournament=t, player=a, partner=b, checked_in=True)
    else:
        for name in names:
            entry_register(tournament=t, player=name, checked_in=True)
    return t


def _play_round(tournament, made, rng, hands=None):
    for table in made.tables:
        game = table.game
        for _ in range(hands or tournament.hands_per_round):
            game.refresh_from_db()
            if game.is_finished:
                break
            try:
                hand_record(game=game, hand=plausible_hand(rng, game.rules_value))
            except RoundOver:
                break  # the table played its round (a tie-break included)


def test_rotating_night_seats_everyone_and_sits_out_the_rest(club):
    t = _night(club, 10)
    made = round_draw(tournament=t)
    assert len(made.tables) == 2 and len(made.sitouts) == 2
    t.refresh_from_db()
    assert t.status == TournamentStatus.RUNNING
    game = made.tables[0].game
    assert game.season_id == t.season_id and game.club_id == club.pk
    assert game.table_token and game.table_label == "Round 1 · Table 1"
    seated = {s.player_id for table in made.tables for s in table.game.seats.all()}
    assert len(seated) == 8


def test_next_draw_warns_while_tables_play_and_draws_on_confirm(club):
    t = _night(club, 8)
    made = round_draw(tournament=t)
    _play_round(t, made, random.Random(1), hands=3)
    with pytest.raises(RoundUnfinished) as caught:
        round_draw(tournament=t)
    assert len(caught.value.tables) == 2
    assert t.round_set.count() == 1
    second = round_draw(tournament=t, confirm=True)
    assert second.round.number == 2
    first = t.round_set.get(number=1)
    assert first.status == "closed"


def test_round_of_fixed_hands_counts_ten_hands_and_one_more_on_a_tie(club):
    t = _night(club, 8, hands_per_round=2)
    made = round_draw(tournament=t)
    tied, clear = made.tables
    # Each side makes the same bid with the same cards: level after two hands, one more needed.
    for bidder, tricks in ((0, (7, 1)), (1, (1, 7))):
        side = bidder % 2
        hand_record(
            game=tied.game,
            hand=HandInput(
                bidder=bidder, bid=7, tricks=tricks, five_hearts=side, three_spades=side
            ),
        )
    results = {r.table.pk: r for r in round_results(t, tournament_rounds(t)[0])}
    assert results[tied.pk].needed == 3 and not results[tied.pk].done
    hand_record(
        game=tied.game,
        hand=HandInput(bidder=2, bid=7, tricks=(8, 0), five_hearts=0, three_spades=0),
    )
    _play_round(t, made, random.Random(2), hands=2)
    results = {r.table.pk: r for r in round_results(t, tournament_rounds(t)[0])}
    assert results[tied.pk].done and results[tied.pk].winner == 0
    assert results[clear.pk].counted == 2
    # A hand after the round's end is refused, never silently not counted.
    with pytest.raises(RoundOver):
        hand_record(game=clear.game, hand=plausible_hand(random.Random(3), clear.game.rules_value))
    assert clear.game.hands.count() == 2
    again = {r.table.pk: r for r in round_results(t, tournament_rounds(t)[0])}
    assert again[clear.pk].scores == results[clear.pk].scores


def test_standings_add_engine_totals_and_sitouts_score_the_round_average(club):
    t = _night(club, 9, rounds=2)
    made = round_draw(tournament=t)
    _play_round(t, made, random.Random(4))
    standings = tournament_standings(t)
    results = standings.results[1]
    totals = [side for r in results for side in r.scores]
    average = standings.sitout_scores[1]
    assert min(totals) <= average <= max(totals)
    by_name = {row.name: row for row in standings.rows}
    sitter = made.sitouts[0].player.name
    assert by_name[sitter].points == average and by_name[sitter].sitouts == 1
    for result in results:
        for seat, name in enumerate(result.names):
            assert by_name[name].points == result.scores[seat % 2]
            assert by_name[name].played == 1
    points = [row.points for row in standings.rows]
    assert points == sorted(points, reverse=True)


def test_fixed_sitout_score(club):
    t = _night(club, 5 * 4 + 1, rounds=1, sitout_score="fixed", sitout_points=12)
    made = round_draw(tournament=t)
    standings = tournament_standings(t)
    row = next(r for r in standings.rows if r.entry_ids == [made.sitouts[0].pk])
    assert row.points == 12 and standings.sitout_scores[1] == 12


def test_late_arrival_and_withdrawal_between_rounds(club):
    t = _night(club, 8)
    round_draw(tournament=t)
    late = entry_register(tournament=t, player="Latecomer")[0]
    assert late.first_round == 2 and late.checked_in
    gone = t.entries.get(player__name="P01")
    entry_withdraw(entry=gone)
    made = round_draw(tournament=t, confirm=True)
    seated = {s.player.name for table in made.tables for s in table.game.seats.all()}
    assert "Latecomer" in seated and "P01" not in seated
    assert len(seated) == 8 and not made.sitouts
    rows = {row.name: row for row in tournament_standings(t).rows}
    assert rows["P01"].withdrawn


def test_not_checked_in_players_are_not_seated(club):
    t = _night(club, 8)
    entry_check_in(entry=t.entries.get(player__name="P08"), checked_in=False)
    made = round_draw(tournament=t)
    assert len(made.tables) == 1 and len(made.sitouts) == 3


def test_round_robin_pairs_meet_everyone(club):
    t = _night(club, 10, format=TournamentFormat.ROUND_ROBIN, rounds=5)
    met = set()
    rng = random.Random(5)
    for _ in range(5):
        made = round_draw(tournament=t, confirm=True)
        assert len(made.tables) == 2 and len(made.sitouts) == 2  # 5 pairs: one bye
        for table in made.tables:
            seats = list(table.game.seats.all())
            pairs = {
                seats[0].player.entries.get().pair_number,
                seats[1].player.entries.get().pair_number,
            }
            assert (
                seats[0].player.entries.get().pair_number
                == seats[2].player.entries.get().pair_number
            )
            met.add(frozenset(pairs))
        _play_round(t, made, rng, hands=2)
    assert len(met) == 10
    with pytest.raises(TournamentError):
        round_draw(tournament=t, confirm=True)


def test_swiss_never_rematches_and_ranks_pairs_by_wins(club):
    t = _night(club, 12, format=TournamentFormat.SWISS, rounds=3)
    met = set()
    rng = random.Random(6)
    for _ in range(3):
        made = round_draw(tournament=t, confirm=True)
        for table in made.tables:
            seats = list(table.game.seats.all())
            key = frozenset(s.player.entries.get().pair_number for s in seats)
            assert key not in met
            met.add(key)
        _play_round(t, made, rng)
    standings = tournament_standings(t)
    assert standings.tiebreaks[0].startswith("wins")
    wins = [row.wins for row in standings.rows]
    assert wins == sorted(wins, reverse=True)
    tournament_finish(tournament=t)
    t.refresh_from_db()
    assert t.status == "finished"


def test_tournament_games_belong_to_the_season(club):
    t = _night(club, 8, rounds=1)
    round_draw(tournament=t)
    assert Game.objects.filter(season=t.season).count() == 2


def test_refusals(club, players):
    t = _night(club, 4, rounds=1)
    with pytest.raises(TournamentError):
        entry_register(tournament=t, player="p01")  # same player, other case
    with pytest.raises(TournamentError):
        tournament_create(club=club, name="x", date=datetime.date.today(), preset="three-player")
    round_draw(tournament=t)
    with pytest.raises(TournamentError):
        round_draw(tournament=t, confirm=True)
    round_close(round=t.round_set.get())
    other = Player.objects.create(club=club, name="Zed")
    assert other.entries.count() == 0


def test_the_night_joins_the_season_it_falls_in(club):
    season = Season.objects.create(
        club=club,
        name="2026-2027",
        starts_on=datetime.date(2026, 9, 1),
        ends_on=datetime.date(2027, 5, 31),
    )
    t = tournament_create(club=club, name="x", date=datetime.date(2026, 11, 20))
    assert t.season == season
    summer = tournament_create(club=club, name="y", date=datetime.date(2027, 7, 1))
    assert summer.season is None


def test_round_robin_refuses_late_pairs(club):
    t = _night(club, 8, format=TournamentFormat.ROUND_ROBIN)
    round_draw(tournament=t)
    with pytest.raises(TournamentError):
        entry_register(tournament=t, player="Late", partner="Later")
