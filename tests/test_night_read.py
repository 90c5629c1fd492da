"""The night read as tuples (`night_read`, what the projector and the standings page show)
gives the same standings and table results as the night read as model rows (the draw's
reading, `tournament_rounds`): rotating and fixed pairs, sit-outs, a withdrawal, a closed
round cut short, a round played past its end, confirmations, both sit-out rules."""

from __future__ import annotations

import datetime
import random

import pytest
from django.utils import timezone

from leagues.demo import plausible_hand
from leagues.tournaments.models import SitOutScore, TournamentFormat
from leagues.tournaments.night_read import game_totals, night_read
from leagues.tournaments.selectors import (
    Totals,
    standings_of,
    tournament_entries,
    tournament_rounds,
    tournament_standings,
)
from leagues.tournaments.services import (
    entry_register,
    entry_withdraw,
    round_close,
    round_draw,
    tournament_create,
)
from scorecards.models import Game, Hand
from scorecards.selectors import game_scored
from scorecards.services import RoundOver, hand_record

pytestmark = pytest.mark.django_db


def _night(club, players: int, fixed: bool, **kwargs):
    night = tournament_create(
        club=club,
        name="Friday",
        date=datetime.date(2026, 11, 20),
        format=TournamentFormat.ROUND_ROBIN if fixed else TournamentFormat.ROTATING,
        rounds=3,
        hands_per_round=3,
        **kwargs,
    )
    for i in range(0, players, 2 if fixed else 1):
        partner = f"Zoé {i + 1:02d}" if fixed else None
        entry_register(tournament=night, player=f"Élise {i:02d}", partner=partner, checked_in=True)
    return night


def _play(made, rng: random.Random, hands: list[int]) -> None:
    for table, count in zip(made.tables, hands, strict=False):
        for _ in range(count):
            game = Game.objects.get(pk=table.game_id)
            if game.is_finished:
                break
            try:
                hand_record(game=game, hand=plausible_hand(rng, game.rules_value))
            except RoundOver:
                break


def _rows(standings) -> list[tuple]:
    return [
        (
            *(r.key, r.name, r.rank, r.points, r.wins, r.played, r.sitouts, r.sitout_points),
            *(r.head_to_head, r.withdrawn, tuple(r.entry_ids), tuple(sorted(r.beat.items()))),
        )
        for r in standings.rows
    ]


def _results(standings) -> dict[int, list[tuple]]:
    """The table results of `standings` (or of a `NightRead`) as plain values."""
    return {
        number: [
            (
                *(r.table.pk, r.table.number, r.names, r.player_ids, r.rules, r.counted),
                *(r.needed, r.scores, r.done, r.unconfirmed, r.winner, r.first_dealer),
                *(r.state, r.sides),
            )
            for r in results
        ]
        for number, results in standings.results.items()
    }


@pytest.mark.parametrize("fixed", [False, True])
@pytest.mark.parametrize(
    "options",
    [
        {},
        {"hands_need_confirmation": True, "extra_hand_on_tie": False},
        {"sitout_score": SitOutScore.FIXED, "sitout_points": 17},
    ],
)
def test_night_read_gives_the_standings_of_the_models(club, fixed, options) -> None:
    night = _night(club, 22 if fixed else 11, fixed, **options)
    rng = random.Random(7)
    first = round_draw(tournament=night)
    # Tables played to the round's end (asked for more: the round stops them), some cut short
    # by the close.
    _play(first, rng, [3, 5, 1, 3, 4])
    if options.get("hands_need_confirmation"):
        # Setting up: the first hands of two tables confirmed (who may confirm is not the point).
        for table in first.tables[:2]:
            Hand.objects.filter(game_id=table.game_id, number__lte=2).update(
                confirmed_at=timezone.now()
            )
    round_close(round=first.round)
    entry_withdraw(entry=night.entries.order_by("pk").last())
    second = round_draw(tournament=night, confirm=True)
    _play(second, rng, [2, 3, 0])
    assert any(read_sitouts for read_sitouts in night_read(night).sitouts.values())
    for _ in range(2):
        by_models = tournament_standings(night, tournament_entries(night), tournament_rounds(night))
        read = night_read(night)
        by_tuples = standings_of(
            night, read.entries, read.rounds, read.results, read.sitouts, read.name_order
        )
        assert _rows(by_tuples) == _rows(by_models)
        assert _results(by_tuples) == _results(by_models)
        assert by_tuples.sitout_scores == by_models.sitout_scores
        assert [e.pk for e in read.entries] == [e.pk for e in tournament_entries(night)]
        assert {n: sorted(ids) for n, ids in read.sitouts.items() if ids} == {
            r.number: sorted(s.entry_id for s in r.sitouts.all())
            for r in tournament_rounds(night)
            if r.sitouts.exists()
        }
        night.refresh_from_db()
    # The seating panel's read: the open round alone, the same as in the whole read.
    whole, seating = night_read(night), night_read(night, seating=True)
    assert whole.complete and not seating.complete and list(seating.results) == [2]
    assert _results(seating)[2] == _results(whole)[2]
    assert seating.sitouts.get(2) == whole.sitouts.get(2)
    assert [e.pk for e in seating.entries] == [e.pk for e in whole.entries]
    round_close(round=second.round)
    assert night_read(night, seating=True).complete


def test_game_totals_are_the_general_paths(club) -> None:
    """The fast path's totals are the engine's general path's, game by game, and a game it
    does not take (hands not numbered 1..n) is scored by the general path."""
    night = _night(club, 8, False, extra_hand_on_tie=False)
    _play(round_draw(tournament=night), random.Random(3), [3, 2])
    for game in Game.objects.filter(tournament_table__round__tournament=night):
        hands = [(h.number, h.record, False) for h in game.hands.order_by("number")]
        general = Totals.of(game_scored(game))
        fast = game_totals(game.rules, game.first_dealer, hands)
        assert fast.score is None and hands
        assert (fast.rules, [list(a) for a in fast.after], list(fast.scores)) == (
            general.rules,
            [list(a) for a in general.after],
            list(general.scores),
        )
        assert (fast.finished, fast.winner) == (general.finished, general.winner)
        gap = [(number + 1, record, done) for number, record, done in hands]
        assert game_totals(game.rules, game.first_dealer, gap).score is not None
