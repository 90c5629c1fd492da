"""One finished game's update of a big season's standings and ratings (what the background
thread or the worker does after the response; the hand that finishes it until both count it;
the ratings task alone), and the raw read of the season's hands that a rebuild from nothing is
measured against. Run by bench/standings_bench.py, in its season."""

from __future__ import annotations

import time

from bench.harness import median, result


def raw_read(season) -> int:
    """Every hand of the season read as tuples, as a rebuild must read them: the yardstick of
    the rebuild from nothing."""
    from scorecards.models import Hand

    count = 0
    for _row in (
        Hand.objects.filter(game__season=season)
        .order_by("game_id", "number")
        .values_list("game_id", "number", "record")
        .iterator(chunk_size=5000)
    ):
        count += 1
    return count


def update_one_more(club, season, key: str, services, sequence_pool) -> float:
    """The background thread's part when one more game finishes (what the request no longer
    waits for): the season's standings updated by that game (`standings_rebuild` with its id:
    `leagues.standings.delta`) and the club's ratings with it added, timed together, median of
    five games. The games are played with the services' announcement unheard."""
    from leagues.clubs.models import Player
    from leagues.standings.models import RatingPoint, StandingsSnapshot
    from leagues.standings.services import game_result_changed_receive
    from scorecards.hooks import game_result_changed
    from scorecards.rules import rules_build
    from scorecards.services import game_start, hand_record

    seconds: list[float] = []
    cpu: list[float] = []
    for attempt in range(5):
        sequence, _score = sequence_pool(1, 20, seed=20 + attempt)[0]
        game_result_changed.disconnect(dispatch_uid="standings_game")
        try:
            game = game_start(
                seats=list(Player.objects.filter(club=club).order_by("pk")[8 + 4 * attempt :][:4]),
                rules=rules_build({"preset": "standard"}),
                club=club,
                season=season,
                table_label=f"Update {attempt}",
            )
            for hand in sequence:
                hand_record(game=game, hand=hand)
        finally:
            game_result_changed.connect(game_result_changed_receive, dispatch_uid="standings_game")
        before = StandingsSnapshot.objects.get(season=season).games
        started, started_cpu = time.perf_counter(), time.thread_time()
        services.standings_rebuild(season_id=season.pk, game_ids=[game.pk])
        services.ratings_rebuild(club_id=club.pk, game_id=game.pk)
        seconds.append(time.perf_counter() - started)
        cpu.append(time.thread_time() - started_cpu)
        # At least this game: an update also applies the season's games left waiting (a game
        # an earlier step finished with only its ratings updated).
        assert StandingsSnapshot.objects.get(season=season).games >= before + 1
        assert RatingPoint.objects.filter(game=game).exists()
    took, spent = median(seconds), median(cpu)
    print(
        f"  one finished game's update (standings + ratings): {took * 1000:.1f} ms "
        f"(cpu {spent * 1000:.1f} ms; median of 5)"
    )
    result(f"{key}.one_game_update", took * 1000, "ms")
    result(f"{key}.one_game_update.cpu", spent * 1000, "ms")
    return took


def finish_one_more(club, season, key: str, sequence_pool, time_limit: float = 120.0) -> float:
    """Play one more game of the season through the hand service and time the hand that
    finishes it until the club's ratings (and the season's standings) count that game."""
    from leagues.clubs.models import Player
    from leagues.standings.models import RatingPoint, StandingsSnapshot
    from scorecards.rules import rules_build
    from scorecards.services import game_start, hand_record

    rules = rules_build({"preset": "standard"})
    sequence, _score = sequence_pool(1, 20, seed=11)[0]
    game = game_start(
        seats=list(Player.objects.filter(club=club).order_by("pk")[:4]),
        rules=rules,
        club=club,
        season=season,
        table_label="One more",
    )
    for hand in sequence[:-1]:
        hand_record(game=game, hand=hand)
    games_before = StandingsSnapshot.objects.get(season=season).games
    started = time.perf_counter()
    recorded = hand_record(game=game, hand=sequence[-1])
    submit = time.perf_counter() - started
    assert recorded.score.finished, "the last hand of the sequence finishes the game"
    rated = standing = None
    while time.perf_counter() - started < time_limit:
        now = time.perf_counter() - started
        if rated is None and RatingPoint.objects.filter(game=game).exists():
            rated = now
        if (
            standing is None
            and StandingsSnapshot.objects.filter(season=season, games=games_before + 1).exists()
        ):
            standing = now
        if rated is not None and standing is not None:
            break
        time.sleep(0.005)
    print(f"  the finishing hand's submit returned after {submit:.3f} s")
    if rated is None or standing is None:
        print(f"  NOT CURRENT after {time_limit:.0f} s: ratings {rated}, standings {standing}")
        return float("inf")
    print(f"  ratings count the new game after {rated:.3f} s, standings after {standing:.3f} s")
    result(f"{key}.finish_submit", submit, "s")
    result(f"{key}.finish_to_ratings_current", rated, "s")
    result(f"{key}.finish_to_standings_current", standing, "s")
    return rated


def rate_one_more(club, season, key: str, services, sequence_pool) -> float:
    """The worker's part when one more game finishes: the ratings task for that game
    (`ratings_rebuild(club_id, game_id)`), timed alone. The game is played with the services'
    announcement unheard, so that nothing else has run for it yet."""
    from leagues.clubs.models import Player
    from leagues.standings.models import RatingPoint
    from leagues.standings.services import game_result_changed_receive
    from scorecards.hooks import game_result_changed
    from scorecards.rules import rules_build
    from scorecards.services import game_start, hand_record

    sequence, _score = sequence_pool(1, 20, seed=12)[0]
    game_result_changed.disconnect(dispatch_uid="standings_game")
    try:
        game = game_start(
            seats=list(Player.objects.filter(club=club).order_by("pk")[4:8]),
            rules=rules_build({"preset": "standard"}),
            club=club,
            season=season,
            table_label="And one more",
        )
        for hand in sequence:
            hand_record(game=game, hand=hand)
    finally:
        game_result_changed.connect(game_result_changed_receive, dispatch_uid="standings_game")
    started = time.perf_counter()
    services.ratings_rebuild(club_id=club.pk, game_id=game.pk)
    seconds = time.perf_counter() - started
    assert RatingPoint.objects.filter(game=game).exists(), "the ratings count the new game"
    print(f"  the ratings task for one more finished game took {seconds * 1000:.1f} ms")
    result(f"{key}.ratings_one_game", seconds, "s")
    return seconds
