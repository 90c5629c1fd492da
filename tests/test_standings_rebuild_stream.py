"""The rebuild's reading of games as values (`scoring.GameRow`) and of their hands as a stream
of records (`selectors.games_records_stream`) gives what the models and the ORM give: the same
records, and the same summaries, for the games the fast path takes and for those it leaves to
the general path (a pot, hands not numbered 1..n, no hand at all)."""

from __future__ import annotations

import datetime
import signal
from contextlib import contextmanager

import pytest
from django.db import connection

from leagues.standings import scoring
from leagues.standings.derived import COUNTERS, games_scored
from leagues.standings.summaries import summary_of
from scorecards.models import Game, Hand
from scorecards.records_stream import StreamBusy, rows_streamed
from scorecards.selectors import games_records_stream
from tests.leagues_helpers import GAME_1, GAME_2, play

pytestmark = pytest.mark.django_db
FIELDS = ("players", "sides", "winner", "scores", "hands", "seat_counts", "side_counts")


def _summaries(scored) -> dict:
    return {
        game.pk: {name: getattr(summary_of(game, "v", players, score), name) for name in FIELDS}
        for game, players, score in scored
    }


def _row(game: Game) -> scoring.GameRow:
    return scoring.GameRow(
        game.pk, game.rules, game.first_dealer, game.finish_reason, game.pot_per_set
    )


@pytest.fixture
def games(club, players) -> list[Game]:
    ann, cat, bob, dan = players
    common = play(club, None, [ann, cat, bob, dan], GAME_1)
    with_pot = play(club, None, [ann, bob, cat, dan], GAME_2)
    Game.objects.filter(pk=with_pot.pk).update(pot_per_set=25)
    gap = play(club, None, [ann, cat, bob, dan], GAME_1)
    Hand.objects.filter(game=gap, number=2).delete()
    empty = play(club, None, [ann, cat, bob, dan], [])
    last = play(club, None, [dan, bob, cat, ann], GAME_2)
    return [Game.objects.get(pk=game.pk) for game in (common, with_pot, gap, empty, last)]


def test_the_stream_reads_the_records_the_orm_reads(games):
    common, with_pot, gap, empty, last = games
    read = dict(games_records_stream([game.pk for game in reversed(games)]))
    assert list(read) == sorted(read)  # in id order
    for game in (common, with_pot, last):
        assert read[game.pk] == [
            hand.record for hand in Hand.objects.filter(game=game).order_by("number")
        ]
    assert read[gap.pk] is None  # hands 1, 3, 4...: the caller reads it otherwise
    assert empty.pk not in read


def test_games_read_as_values_give_the_summaries_of_the_models(games, monkeypatch):
    general: list[int] = []
    real = scoring.games_scored

    def spy(batch, left_out=None):
        assert all(isinstance(game, Game) for game in batch)
        general.extend(game.pk for game in batch)
        return real(batch, left_out)

    monkeypatch.setattr(scoring, "games_scored", spy)
    left_rows: list = []
    as_rows = _summaries(scoring.games_scored_fast([_row(game) for game in games], left_rows))
    left_models: list = []
    as_models = _summaries(games_scored(games, left_models))
    assert as_rows == as_models
    assert left_rows == left_models
    common, with_pot, gap, _empty, last = games
    # The pot and the hands out of their place are the general path's.
    assert with_pot.pk in general and gap.pk in general
    assert common.pk not in general and last.pk not in general


def test_games_read_by_their_query_are_those_read_by_their_ids(games, club, players):
    common, with_pot, gap, empty, last = games
    # Another game of the club, in the query but not to score: passed over.
    other = play(club, None, list(players), GAME_1)
    chosen = [_row(game) for game in (last, gap, common, empty, with_pot)]
    left_by_ids: list = []
    by_ids = _summaries(scoring.games_scored_fast(chosen, left_by_ids))
    left_among: list = []
    among = _summaries(
        scoring.games_scored_among(chosen, Game.objects.filter(club=club), left_among)
    )
    assert among == by_ids
    assert left_among == left_by_ids
    assert other.pk not in among


def test_hands_stored_out_of_their_order_are_read_in_it(games):
    """The database joins a game's records in the order it reads its rows, which need not be
    the hands' (a correction, an undo and a hand entered again): they come back in order."""
    common, *_others, last = games
    expected = {
        game.pk: [hand.record for hand in Hand.objects.filter(game=game).order_by("number")]
        for game in (common, last)
    }
    rows = list(Hand.objects.filter(game=common).order_by("-number"))
    Hand.objects.filter(game=common).delete()
    for hand in rows:  # stored again from the last: each a newer row than the next hand's
        hand.pk = None
        hand.save()
    read = dict(games_records_stream([common.pk, last.pk]))
    assert read == expected


def test_a_summary_holds_every_counter_in_its_order(games):
    """Each seat's and side's counters are a row of whole numbers, one for each of COUNTERS
    (the JSON stored)."""
    summaries = _summaries(scoring.games_scored_fast([_row(game) for game in games], []))
    assert summaries
    for summary in summaries.values():
        for row in (*summary["seat_counts"], *summary["side_counts"]):
            assert type(row) is list and len(row) == len(COUNTERS)
            assert all(type(value) is int for value in row)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_season_rebuilt_from_nothing_streams_its_hands_in_one_statement(club, players):
    """On PostgreSQL the rebuild reads a season's hands as the server makes them: one
    statement, no cursor fetched from (whose fetch waited for the whole result), no
    transaction around it; and it is counted as any other statement."""
    from django.test.utils import CaptureQueriesContext

    from leagues.clubs.models import Season
    from leagues.standings import rebuild
    from leagues.standings.models import GameSummary

    season = Season.objects.create(club=club, name="S", starts_on=datetime.date(2026, 9, 1))
    ann, cat, bob, dan = players
    play(club, season, [ann, cat, bob, dan], GAME_1)
    play(club, season, [ann, bob, cat, dan], GAME_2)
    GameSummary.objects.filter(game__season=season).delete()  # (the games' own rebuilds ran)
    with CaptureQueriesContext(connection) as captured:
        assert rebuild.standings_rebuild(season_id=season.pk).games == 2
    statements = [query["sql"] for query in captured]
    assert len([sql for sql in statements if "STRING_AGG" in sql]) == 1
    assert not [sql for sql in statements if sql.startswith(("DECLARE", "FETCH"))]
    assert len(GameSummary.objects.filter(game__season=season)) == 2


@contextmanager
def _within(seconds: float):
    """The block, or TimeoutError if it takes longer (a wait on a lock is interrupted)."""

    def expired(*_args):
        raise TimeoutError

    before = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_statement_while_rows_are_streamed_is_refused_and_the_connection_is_left_usable(games):
    """While a stream's rows are being read, another statement on the connection is refused at
    once (psycopg would wait forever for the stream's lock). Closed half-read, the rest of the
    statement is cancelled and the connection goes on."""
    from django.db.models import Value
    from django.db.models.functions import Repeat

    hands = Hand.objects.order_by("pk").values_list("pk", "number")
    expected = list(hands)
    assert len(expected) > 20
    # Rows of 100 kB: the server is still sending when the stream is closed.
    big = Hand.objects.order_by("pk").annotate(big=Repeat(Value("x"), 100_000))
    big = big.values_list("pk", "big")
    with _within(20):
        streamed = rows_streamed(hands, size=2)
        assert next(streamed) == expected[0]
        with pytest.raises(StreamBusy):
            Hand.objects.count()
        assert next(streamed) == expected[1]
        streamed.close()
        assert Hand.objects.count() == len(expected)
        assert list(rows_streamed(hands)) == expected  # read through, again
        assert list(rows_streamed(hands.filter(pk__lt=0))) == []
        # Each value as the ORM reads it (JSON decoded by its field, a UUID, a moment).
        fields = ("pk", "record", "tricks", "idempotency_key", "entered_at", "confirmed_at")
        records = Hand.objects.order_by("pk").values_list(*fields)
        assert list(rows_streamed(records)) == list(records)
        with pytest.raises(ValueError):  # tuples alone
            next(rows_streamed(records.values("pk")))
        streamed = rows_streamed(big, size=1)
        assert next(streamed)[0] == expected[0][0]
        streamed.close()
        assert Hand.objects.count() == len(expected)


def test_a_number_past_the_fast_decoder_is_read_as_the_orm_reads_it(games):
    """The stream decodes by orjson, which reads a whole number past 64 bits as a float: a
    record holding one (stored by hand: the app writes none) is read as the ORM reads it, and
    the game's summary, or what it is left out for, is the general path's."""
    text = '{"bidder": 0, "bid": 18446744073709551617}'
    common, *_others, last = games
    hand = Hand.objects.filter(game=common, number=1)
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {Hand._meta.db_table} SET record = %s WHERE id = %s",
            [text, hand.get().pk],
        )
    streamed = dict(games_records_stream([common.pk, last.pk]))
    for game in (common, last):
        read = [hand.record for hand in Hand.objects.filter(game=game).order_by("number")]
        assert streamed[game.pk] == read
    assert type(streamed[common.pk][0]["bid"]) is int
    left_fast: list = []
    fast = _summaries(scoring.games_scored_fast([_row(common), _row(last)], left_fast))
    left_general: list = []
    general = _summaries(games_scored([common, last], left_general))
    assert fast == general
    assert left_fast == left_general and [item.game_id for item in left_fast] == [common.pk]
