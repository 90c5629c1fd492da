"""A season's standings updated by the games that changed alone (`leagues.standings.delta`)
equal a rebuild from nothing after any sequence of finishes, corrections, undos,
confirmations, abandons, deletions and player deletions; a change the update cannot read
falls back to the rebuild; the games of one round end are applied in one update, and updates
queued one by one merge into the first to run; and an update lost to a crash is repaired by
the reconciliation job."""

from __future__ import annotations

import datetime
import re
from collections import Counter

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from leagues.clubs.models import Player, Season
from leagues.standings import rebuild, runs, tasks
from leagues.standings.models import (
    GameSummary,
    PartnershipStanding,
    PlayerStanding,
    StandingsSnapshot,
)
from leagues.standings.services import derived_data_held
from scorecards.models import Game
from scorecards.rules import rules_build
from scorecards.services import game_start, hand_correct, hand_record
from tests.leagues_helpers import GAME_1, GAME_2, play
from tests.test_standings_summaries import ACTIONS, Table

pytestmark = pytest.mark.django_db
GAME_RULES = rules_build({"preset": "standard"})


def stored(season: Season) -> tuple:
    players = {
        row.player_id: (row.figures(), row.last_game, row.nights, row.night_wins, row.pot_balance)
        for row in PlayerStanding.objects.filter(season=season)
    }
    pairs = {
        (row.first_id, row.second_id): (row.figures(), row.last_game)
        for row in PartnershipStanding.objects.filter(season=season)
    }
    snapshot = StandingsSnapshot.objects.filter(season=season).values_list("games", "hands")
    return players, pairs, snapshot.first() or (0, 0)


_from_nothing = [False]


def from_nothing(season: Season) -> tuple:
    """Every derived row of the season deleted and rebuilt, read, and rolled back."""
    _from_nothing[0] = True
    with transaction.atomic():
        GameSummary.objects.filter(game__season=season).delete()
        StandingsSnapshot.objects.filter(season=season).delete()
        PlayerStanding.objects.filter(season=season).delete()
        PartnershipStanding.objects.filter(season=season).delete()
        rebuild.standings_rebuild(season_id=season.pk)
        fresh = stored(season)
        transaction.set_rollback(True)
    _from_nothing[0] = False
    return fresh


@pytest.fixture
def paths(monkeypatch) -> Counter:
    """How each standings job ended: "delta" (updated by its games) or "full" (rebuilt)."""
    seen: Counter = Counter()
    update, write = rebuild.standings_update, rebuild._standings_write

    def spy_update(season_id, game_ids):
        result = update(season_id, game_ids)
        seen["delta" if result is not None else "fell back"] += 1
        seen["games"] += len(list(game_ids))
        return result

    def spy_write(season_id, left_out):
        seen["full"] += not _from_nothing[0]
        return write(season_id, left_out)

    monkeypatch.setattr(rebuild, "standings_update", spy_update)
    monkeypatch.setattr(rebuild, "_standings_write", spy_write)
    return seen


STEPS = st.lists(
    st.tuples(st.sampled_from(ACTIONS), st.integers(0, 2**32)), min_size=1, max_size=10
)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(first=st.integers(0, 2**32), steps=STEPS)
def test_the_update_by_games_equals_a_rebuild_from_nothing(
    club, alice, django_capture_on_commit_callbacks, paths, first, steps
):
    table = Table(club, alice)
    with django_capture_on_commit_callbacks(execute=True):
        table.act("start", first)
        table.act("finish", first + 1)
    for action, seed in steps:
        # The services' hooks hand the changed games over on commit (run here, in the caller).
        with django_capture_on_commit_callbacks(execute=True):
            table.act(action, seed)
        assert stored(table.season) == from_nothing(table.season), action
    event(f"updated by their games: {'some' if paths['delta'] else 'none'}")


def test_a_game_finished_corrected_or_undone_updates_by_that_game_alone(
    club, players, alice, django_capture_on_commit_callbacks, paths
):
    season = Season.objects.create(club=club, name="S", starts_on=datetime.date(2026, 9, 1))
    ann, cat, bob, dan = players
    with django_capture_on_commit_callbacks(execute=True):
        first = play(club, season, [ann, cat, bob, dan], GAME_1)
    assert paths["full"] == 1  # the first game: no standings yet to update
    with django_capture_on_commit_callbacks(execute=True):
        play(club, season, [ann, bob, cat, dan], GAME_2)
    assert (paths["delta"], paths["full"]) == (1, 1)
    assert stored(season) == from_nothing(season)
    # A correction of the older game: its old figures out, its new ones in, streaks read again.
    with django_capture_on_commit_callbacks(execute=True):
        hand_correct(
            game=first, number=9, hand=GAME_2[3], by=alice, reason="recounted"
        )  # the game no longer ends: it stops counting
    assert (paths["delta"], paths["full"]) == (2, 1)
    assert stored(season) == from_nothing(season)
    assert not GameSummary.objects.filter(game=first).exists()
    ann_row = PlayerStanding.objects.get(season=season, player=ann)
    assert (ann_row.games, ann_row.wins, ann_row.streak) == (1, 0, -1)


def _season_of_one_game(club, players, capture) -> Season:
    """A season whose standings count one finished game (GAME_1)."""
    season = Season.objects.create(club=club, name="S", starts_on=datetime.date(2026, 9, 1))
    with capture(execute=True):
        play(club, season, list(players), GAME_1)
    return season


def test_the_games_of_one_round_end_are_applied_in_one_update(
    club, players, django_capture_on_commit_callbacks, paths
):
    season = _season_of_one_game(club, players, django_capture_on_commit_callbacks)
    ann, cat, bob, dan = players
    games = []
    for seats in ([ann, cat, bob, dan], [dan, bob, cat, ann], [cat, ann, dan, bob]):
        game = game_start(seats=seats, rules=GAME_RULES, club=club, season=season, table_label="T")
        for hand in GAME_1[:-1]:
            hand_record(game=game, hand=hand)
        games.append(game)
    before = Counter(paths)
    # The last hands of three tables, committed together (a round that ends at once).
    with django_capture_on_commit_callbacks(execute=True), derived_data_held():
        for game in games:
            hand_record(game=game, hand=GAME_1[-1])
    assert paths["delta"] - before["delta"] == 1
    assert paths["games"] - before["games"] == 3
    assert paths["full"] == before["full"]
    assert StandingsSnapshot.objects.get(season=season).games == 4
    assert stored(season) == from_nothing(season)


def test_updates_queued_one_by_one_merge_into_the_first_to_run(
    club, players, django_capture_on_commit_callbacks, paths
):
    """A worker's queue: three tables finish in three transactions and their updates run
    afterwards, one by one. The first applies the three games; the other two find their game
    counted and write no standings row."""
    season = _season_of_one_game(club, players, django_capture_on_commit_callbacks)
    ann, cat, bob, dan = players
    games = []
    for seats in ([ann, cat, bob, dan], [dan, bob, cat, ann], [cat, ann, dan, bob]):
        with django_capture_on_commit_callbacks(execute=False):  # queued, not yet run
            games.append(play(club, season, seats, GAME_1))
    first, *later = games
    rebuild.standings_rebuild(season_id=season.pk, game_ids=[first.pk])
    assert StandingsSnapshot.objects.get(season=season).games == 4
    assert stored(season) == from_nothing(season)
    rows = stored(season)
    for game in later:
        with CaptureQueriesContext(connection) as queries:
            rebuild.standings_rebuild(season_id=season.pk, game_ids=[game.pk])
        written = [
            q["sql"]
            for q in queries.captured_queries
            # (A statement run over several rows is captured as "N times: ...".)
            if re.sub(r"^\d+ times: ", "", q["sql"]).startswith(("UPDATE", "INSERT", "DELETE"))
            and ("playerstanding" in q["sql"] or "partnershipstanding" in q["sql"])
        ]
        assert written == []
        assert stored(season) == rows
    assert paths["full"] == 1 and paths["delta"] == 3


def test_an_update_lost_in_a_crash_is_repaired_by_the_reconciliation(
    club, players, django_capture_on_commit_callbacks
):
    season = Season.objects.create(club=club, name="S", starts_on=datetime.date(2026, 9, 1))
    ann, cat, bob, dan = players
    with django_capture_on_commit_callbacks(execute=True):
        play(club, season, [ann, cat, bob, dan], GAME_1)
    # The process dies between the commit of the finishing hand and its update: the hand is
    # stored, the callbacks that would hand the game over never run.
    with django_capture_on_commit_callbacks(execute=False):
        play(club, season, [ann, bob, cat, dan], GAME_2)
    assert StandingsSnapshot.objects.get(season=season).games == 1  # wrong: two count
    assert stored(season) != from_nothing(season)
    # The periodic job (beat, or the embedded default's background thread) repairs it.
    tasks.derived_data_reconcile()
    assert StandingsSnapshot.objects.get(season=season).games == 2
    assert stored(season) == from_nothing(season)
    assert PlayerStanding.objects.get(season=season, player=dan).games == 2


def test_a_deleted_player_leaves_the_update_whole(
    club, players, django_capture_on_commit_callbacks, paths
):
    season = Season.objects.create(club=club, name="S", starts_on=datetime.date(2026, 9, 1))
    ann, cat, bob, dan = players
    with django_capture_on_commit_callbacks(execute=True):
        first = play(club, season, [ann, cat, bob, dan], GAME_1)
    Player.objects.filter(pk=bob.pk).delete()  # the admin's delete: the seat keeps the name
    with django_capture_on_commit_callbacks(execute=True):
        play(club, season, [ann, cat, dan, "Bo"], GAME_2)
    assert paths["delta"] >= 1
    assert stored(season) == from_nothing(season)
    assert Game.objects.filter(pk=first.pk).exists()


def test_a_later_game_follows_on_from_the_lines_and_an_earlier_one_reads_them_again(
    club, players, alice, django_capture_on_commit_callbacks, paths, monkeypatch
):
    """A game later than every counted game of its players takes their stored streaks, days
    and latest games on (no walk back through the season); a game dated before them, or a
    correction, reads the lines it touches again. Both equal a rebuild from nothing."""
    walked: list[list] = []
    walk = runs._lines_walked
    monkeypatch.setattr(
        runs, "_lines_walked", lambda season, keys: walked.append(keys) or walk(season, keys)
    )
    season = Season.objects.create(club=club, name="S", starts_on=datetime.date(2026, 9, 1))
    ann, cat, bob, dan = players
    with django_capture_on_commit_callbacks(execute=True):
        play(club, season, [ann, cat, bob, dan], GAME_1)
    with django_capture_on_commit_callbacks(execute=True):
        second = play(club, season, [ann, bob, cat, dan], GAME_2)
    assert (paths["delta"], walked) == (1, [])
    assert stored(season) == from_nothing(season)
    ann_row = PlayerStanding.objects.get(season=season, player=ann)
    assert (ann_row.last_game, ann_row.last_played) == (second.pk, second.played_on)

    earlier = second.played_on - datetime.timedelta(days=7)
    with django_capture_on_commit_callbacks(execute=True):
        game = game_start(
            seats=[ann, cat, bob, dan], rules=GAME_RULES, club=club, season=season,
            played_on=earlier,
        )  # fmt: skip
        for hand in GAME_1:
            hand_record(game=game, hand=hand)
    assert paths["delta"] == 2
    assert len(walked) == 1  # the players' lines and the partnerships', read together
    assert {ann.pk, bob.pk, cat.pk, dan.pk} <= set(walked[0])
    assert any(isinstance(key, tuple) for key in walked[0])
    assert stored(season) == from_nothing(season)
    ann_row.refresh_from_db()
    assert (ann_row.last_game, ann_row.last_played) == (second.pk, second.played_on)
