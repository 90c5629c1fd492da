"""What counts, read once (`Game.objects.counted()`): the standings, the ratings, the pot balances
(derived with the standings, never scored again on the page) and the "last played" dates all
follow it; a tie at the target is a draw; and a stored summary of an older format, or one that
cannot be read, is computed again from the hands instead of failing."""

from __future__ import annotations

import datetime
import zlib

import pytest
from django.urls import reverse
from django.utils import timezone

from leagues.clubs.models import Season
from leagues.standings import rebuild, selectors, summaries
from leagues.standings.derived import COUNTER_AT, COUNTERS
from leagues.standings.models import (
    GameSummary,
    PartnershipStanding,
    PlayerRating,
    PlayerStanding,
    RebuildFailure,
)
from scorecards.models import Game, GameStatus, Hand
from scorecards.rules import rules_build
from scorecards.services import game_start, hand_record
from tests.leagues_helpers import GAME_1, GAME_2, play, trump
from tests.player_page_queries import PLAYER_PAGE_QUERIES

pytestmark = pytest.mark.django_db

# The counters as the format before named ones stored them: a list per seat and per side.
POSITIONAL = ("hands", "bids_attempted", "bids_made", "nt_bids_made", "kaisers", "times_set")
POT = {"pot": {"per_set": 200}}


@pytest.fixture
def season(club):
    return Season.objects.create(club=club, name="2026", starts_on=datetime.date(2026, 9, 1))


@pytest.fixture
def by_name(players):
    return {p.name: p for p in players}


def figures(season) -> tuple[dict, dict]:
    players = {
        row.player.name: (row.figures(), row.pot_balance)
        for row in PlayerStanding.objects.filter(season=season).select_related("player")
    }
    pairs = {
        (row.first_id, row.second_id): row.figures()
        for row in PartnershipStanding.objects.filter(season=season)
    }
    return players, pairs


def games_with_a_pot(club, season, by_name) -> list[Game]:
    """GAME_1 and GAME_2 (tests.leagues_helpers), each keeping a pot of 2.00 per set bid."""
    ann, bob, cat, dan = (by_name[n] for n in ("Ann", "Bob", "Cat", "Dan"))
    games = []
    for seats, hands in (([ann, cat, bob, dan], GAME_1), ([ann, bob, cat, dan], GAME_2)):
        game = game_start(seats=seats, rules=rules_build({"preset": "standard"}), club=club,
                          season=season, habits=POT)  # fmt: skip
        for hand in hands:
            hand_record(game=game, hand=hand)
        games.append(game)
    return games


def confirm_all(game: Game) -> None:
    """Every hand of `game` confirmed (who confirms is the policy's matter, tested elsewhere)."""
    Hand.objects.filter(game=game).update(confirmed_at=timezone.now())


def old_version(game: Game) -> str:
    """The fingerprint the format before named counters wrote (`v2`, no pot in it)."""
    fields = ("updated_at", "_last_change", "hand_count", "first_dealer", "_rules_text")
    versioned = summaries.games_versioned(Game.objects.filter(pk=game.pk))
    updated_at, last_change, hand_count, first_dealer, rules_text, reason = versioned.values_list(
        *fields, "finish_reason"
    ).get()
    rules = zlib.crc32(rules_text.encode())
    return (
        f"v2/{updated_at.timestamp():.6f}/{last_change or 0}/{hand_count}"
        f"/{first_dealer}/{rules:x}/{reason or '-'}"
    )


def positional(rows: list[list[int]]) -> list[list[int]]:
    return [[row[COUNTER_AT[name]] for name in POSITIONAL] for row in rows]


def named(rows: list[list[int]]) -> list[dict[str, int]]:
    """Rows of counters as the format before this one stored them: an object naming each."""
    return [dict(zip(COUNTERS, row, strict=True)) for row in rows]


def whole_rows(rows: list) -> bool:
    """Whether `rows` are rows of this format's counters: lists of as many whole numbers."""
    return all(
        type(row) is list and len(row) == len(COUNTERS) and all(type(v) is int for v in row)
        for row in rows
    )


def test_a_summary_of_the_older_positional_format_is_computed_again(
    club, season, by_name, django_capture_on_commit_callbacks
) -> None:
    games = games_with_a_pot(club, season, by_name)
    rebuild.standings_rebuild(season_id=season.pk)
    expected = figures(season)
    assert expected[0]["Ann"][1] != 0  # the pot is among the figures compared
    # The summaries as the format before this one wrote them: positional counters, `v2`.
    for game in games:
        summary = GameSummary.objects.get(game=game)
        summary.version = old_version(game)
        summary.seat_counts = positional(summary.seat_counts)
        summary.side_counts = positional(summary.side_counts)
        summary.save()
    PlayerStanding.objects.filter(season=season).delete()
    PartnershipStanding.objects.filter(season=season).delete()

    assert rebuild.standings_rebuild(season_id=season.pk) is not None
    assert figures(season) == expected
    assert not RebuildFailure.objects.exists()
    for summary in GameSummary.objects.all():
        assert summary.version.startswith(f"v{summaries.SUMMARY_FORMAT}/")
        assert whole_rows(summary.seat_counts + summary.side_counts)

    # The same through the update a finished game queues (the services' hook, eager Celery).
    for game in games:
        summary = GameSummary.objects.get(game=game)
        summary.version = old_version(game)
        summary.seat_counts = positional(summary.seat_counts)
        summary.side_counts = positional(summary.side_counts)
        summary.save()
    ann, bob, cat, dan = (by_name[n] for n in ("Ann", "Bob", "Cat", "Dan"))
    third = play(club, season, [ann, cat, bob, dan], GAME_1[:-1])
    with django_capture_on_commit_callbacks(execute=True):
        hand_record(game=third, hand=GAME_1[-1])
    players, _pairs = figures(season)
    assert players["Ann"][0]["games"] == 3 and players["Ann"][0]["wins"] == 2
    assert players["Ann"][1] == expected[0]["Ann"][1]  # the third game keeps no pot
    assert not RebuildFailure.objects.exists()
    assert all(whole_rows(s.seat_counts + s.side_counts) for s in GameSummary.objects.all())


def test_a_summary_of_the_named_format_before_this_one_is_computed_again(
    club, season, by_name
) -> None:
    """The format before this one (`v3`) named each counter: its summaries are computed again,
    never read by place."""
    games = games_with_a_pot(club, season, by_name)
    rebuild.standings_rebuild(season_id=season.pk)
    expected = figures(season)
    for game in games:
        summary = GameSummary.objects.get(game=game)
        summary.version = "v3/" + summary.version.split("/", 1)[1]
        summary.seat_counts = named(summary.seat_counts)
        summary.side_counts = named(summary.side_counts)
        summary.save()
    PlayerStanding.objects.filter(season=season).delete()

    assert rebuild.standings_rebuild(season_id=season.pk) is not None
    assert figures(season) == expected
    assert all(whole_rows(s.seat_counts + s.side_counts) for s in GameSummary.objects.all())
    assert not RebuildFailure.objects.exists()


@pytest.mark.parametrize(
    "row",
    [
        lambda counts: [1] * len(POSITIONAL),
        lambda counts: [1] * (len(COUNTERS) + 1),
        lambda counts: [*counts[:-1], True],
        lambda counts: dict(zip(COUNTERS, counts, strict=True)),
    ],
    ids=["shorter", "longer", "a bool", "named"],
)
def test_a_summary_that_cannot_be_read_is_computed_again_not_left_failing(
    club, season, by_name, row
) -> None:
    """A summary whose fingerprint matches but whose counters are not this format's (a counter
    added without the format changed, a value that is no whole number, names where a row is
    expected): computed again."""
    games = games_with_a_pot(club, season, by_name)
    rebuild.standings_rebuild(season_id=season.pk)
    expected = figures(season)
    for game in games:
        summary = GameSummary.objects.get(game=game)
        summary.seat_counts = [row(counts) for counts in summary.seat_counts]
        summary.side_counts = [row(counts) for counts in summary.side_counts]
        summary.save()
    PlayerStanding.objects.filter(season=season).delete()

    assert rebuild.standings_rebuild(season_id=season.pk) is not None
    assert figures(season) == expected
    assert not RebuildFailure.objects.exists()
    assert rebuild.ratings_rebuild(club_id=club.pk) is not None
    assert not RebuildFailure.objects.exists()


def test_pot_balances_are_derived_from_the_counted_games_only(
    club, season, by_name, as_alice, django_assert_max_num_queries
) -> None:
    """Balances are the engine's pot account of each counted game, stored with the standings
    (incrementally and from nothing alike). A game waiting for a confirmation does not count
    (before, the pot page counted every finished game); a guest has no standings line."""
    club.hands_need_confirmation = True
    club.save()
    ann, bob, cat, dan = (by_name[n] for n in ("Ann", "Bob", "Cat", "Dan"))
    counted = game_start(seats=[ann, cat, bob, dan], rules=rules_build({"preset": "standard"}),
                         club=club, season=season, habits=POT)  # fmt: skip
    for hand in GAME_1:
        hand_record(game=counted, hand=hand)
    confirm_all(counted)
    # Waiting for confirmations: finished, not counted.
    waiting = game_start(seats=[ann, "Guest", cat, dan], rules=rules_build({"preset": "standard"}),
                         club=club, season=season, habits=POT)  # fmt: skip
    for hand in GAME_2:
        hand_record(game=waiting, hand=hand)
    waiting.refresh_from_db()
    assert waiting.status == GameStatus.FINISHED
    assert list(Game.objects.counted().values_list("pk", flat=True)) == [counted.pk]

    rebuild.standings_rebuild(season_id=season.pk)
    # GAME_1: Bob's 9 was set (-2.00); Ann & Bob won the 2.00 in the pot (1.00 each).
    stored = dict(
        PlayerStanding.objects.filter(season=season).values_list("player__name", "pot_balance")
    )
    assert stored == {"Ann": 100, "Bob": -100, "Cat": 0, "Dan": 0}
    with django_assert_max_num_queries(8):
        page = as_alice.get(reverse("season_pot", args=[club.slug, season.pk]))
    text = page.content.decode()
    assert "+1.00" in text and "-1.00" in text and "<td>Guest</td>" not in text
    assert "Guests (seats without a club player) are not listed." in text

    # Once its hands are confirmed it counts. GAME_2: Ann's 12 no (-2.00) and Cat's two
    # (-4.00) were set; the guest and Dan won the 6.00 (3.00 each).
    confirm_all(waiting)
    rebuild.standings_rebuild(season_id=season.pk)
    after = dict(
        PlayerStanding.objects.filter(season=season).values_list("player__name", "pot_balance")
    )
    summary = GameSummary.objects.get(game=waiting)
    assert [row[COUNTER_AT["pot_balance"]] for row in summary.seat_counts] == [-200, 300, -400, 300]
    assert after == {"Ann": -100, "Bob": -100, "Cat": -400, "Dan": 300}
    lines = [(line.name, line.cents) for line in selectors.season_pot_lines(season)]
    assert lines == [("Dan", 300), ("Ann", -100), ("Bob", -100), ("Cat", -400)]


def test_the_pot_page_says_when_no_balance_moved(club, season, by_name, as_bob) -> None:
    ann, bob, cat, dan = (by_name[n] for n in ("Ann", "Bob", "Cat", "Dan"))
    play(club, season, [ann, cat, bob, dan], GAME_1)  # keeps no pot
    rebuild.standings_rebuild(season_id=season.pk)
    page = as_bob.get(reverse("season_pot", args=[club.slug, season.pk])).content.decode()
    assert "No counted game of this season has moved a player" in page
    assert 'id="pot-balances"' not in page


def test_a_tie_at_the_target_counts_as_a_draw(club, season, by_name) -> None:
    """`both_cross` tie: both sides reach the target on the same hand and nobody wins. The engine
    ends the game without a winner; the standings count it as drawn for all four, the ratings
    rate it, and the players' last-played day is that game's."""
    ann, bob, cat, dan = (by_name[n] for n in ("Ann", "Bob", "Cat", "Dan"))
    rules = rules_build(
        {"preset": "standard", "target": 10, "bid_out": None, "nt_target": None,
         "both_cross": "tie"}
    )  # fmt: skip
    hands = [trump(0, 7, (5, 3), 0, 0), trump(1, 7, (3, 5), 1, 1)]
    game = play(club, season, [ann, cat, bob, dan], hands, rules=rules)
    assert (game.status, game.winner, game.scores) == (GameStatus.FINISHED, None, [10, 10])

    rebuild.standings_rebuild(season_id=season.pk)
    rows = {
        row.player.name: (row.games, row.wins, row.draws, row.streak)
        for row in PlayerStanding.objects.filter(season=season).select_related("player")
    }
    assert rows == dict.fromkeys(("Ann", "Bob", "Cat", "Dan"), (1, 0, 1, 0))
    assert PartnershipStanding.objects.filter(season=season, draws=1).count() == 2
    assert last_played(season)[ann.pk] == game.played_on

    rebuild.ratings_rebuild(club_id=club.pk)
    assert sorted(PlayerRating.objects.values_list("games", flat=True)) == [1, 1, 1, 1]
    ordinals = {round(r.ordinal, 6) for r in PlayerRating.objects.all()}
    # Level scores: the two sides tie, so all four move alike.
    assert len(ordinals) == 1


def last_played(season) -> dict:
    """The day each player of the season last played, as the standings rows keep it."""
    rows = PlayerStanding.objects.filter(season=season)
    return dict(rows.values_list("player_id", "last_played"))


def test_last_played_follows_counted(club, season, by_name) -> None:
    """A finished game that waits for a confirmation does not date its players (it does not
    count), whatever summary it has from when it counted."""
    ann, bob, cat, dan = (by_name[n] for n in ("Ann", "Bob", "Cat", "Dan"))
    game = play(club, season, [ann, cat, bob, dan], GAME_1)
    rebuild.standings_rebuild(season_id=season.pk)
    assert last_played(season)[ann.pk] == game.played_on
    club.hands_need_confirmation = True
    club.confirmation_since = None
    club.save()
    assert not Game.objects.counted().exists()
    rebuild.standings_rebuild(season_id=season.pk)
    assert last_played(season) == {}


def test_guest_seat_is_kept_out_of_the_stored_balances(club, season, by_name) -> None:
    ann, cat, dan = (by_name[n] for n in ("Ann", "Cat", "Dan"))
    game = game_start(seats=[ann, cat, "Guest", dan], rules=rules_build({"preset": "standard"}),
                      club=club, season=season, habits=POT)  # fmt: skip
    for hand in GAME_1:
        hand_record(game=game, hand=hand)
    rebuild.standings_rebuild(season_id=season.pk)
    stored = dict(
        PlayerStanding.objects.filter(season=season).values_list("player__name", "pot_balance")
    )
    # The guest (seat 2) set a 9: -2.00; Ann and the guest shared the 2.00 they won.
    assert stored == {"Ann": 100, "Cat": 0, "Dan": 0}
    summary = GameSummary.objects.get(game=game)
    assert [row[COUNTER_AT["pot_balance"]] for row in summary.seat_counts] == [100, 0, -100, 0]


def test_a_new_format_rebuilds_without_waiting_for_a_change(
    club, season, by_name, django_capture_on_commit_callbacks
) -> None:
    """After a release that changes the format, the reconciliation (the beat job) finds the
    seasons and clubs with summaries of the older one and rebuilds them: the pot balances a
    release adds appear without any game changing. A summary of a game that no longer counts
    is dropped, so the same season is not found again and again."""
    from leagues.standings import services

    games = games_with_a_pot(club, season, by_name)
    rebuild.standings_rebuild(season_id=season.pk)
    rebuild.ratings_rebuild(club_id=club.pk)
    expected = figures(season)
    assert services.derived_data_stale() == ([], [])
    for game in games:
        summary = GameSummary.objects.get(game=game)
        summary.version = old_version(game)
        summary.seat_counts = positional(summary.seat_counts)
        summary.side_counts = positional(summary.side_counts)
        summary.save()
    # As the release before stored them: no pot balance yet. Nothing else changed.
    PlayerStanding.objects.filter(season=season).update(pot_balance=0)
    assert services.derived_data_stale() == ([season.pk], [club.pk])
    # The second game stops counting (its club now asks confirmations): its summary stays.
    club.hands_need_confirmation = True
    club.save()
    confirm_all(games[0])
    assert services.derived_data_stale() == ([season.pk], [club.pk])

    with django_capture_on_commit_callbacks(execute=True):
        assert services.derived_data_reconcile() == ([season.pk], [club.pk])
    players, _pairs = figures(season)
    assert players["Ann"][1] == 100  # GAME_1's pot only: GAME_2 waits for confirmations
    assert expected[0]["Ann"][1] != players["Ann"][1]
    assert list(GameSummary.objects.values_list("game_id", flat=True)) == [games[0].pk]
    assert services.derived_data_stale() == ([], [])


def test_the_player_page_says_which_finished_games_do_not_count(
    club, season, by_name, as_bob, django_assert_max_num_queries
) -> None:
    ann, bob, cat, dan = (by_name[n] for n in ("Ann", "Bob", "Cat", "Dan"))
    counted = play(club, season, [ann, cat, bob, dan], GAME_1)
    club.hands_need_confirmation = True
    club.save()
    confirm_all(counted)
    play(club, season, [ann, bob, cat, dan], GAME_2)  # finished, waiting for confirmations
    url = reverse("player_detail", args=[club.slug, ann.pk])
    with django_assert_max_num_queries(PLAYER_PAGE_QUERIES):
        page = as_bob.get(url).content.decode()
    assert page.count("not counted") == 1
    confirm_all(Game.objects.exclude(pk=counted.pk).get())
    assert "not counted" not in as_bob.get(url).content.decode()
