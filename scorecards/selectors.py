"""Reads of games and hands. Scores come from the rules engine, fed the stored hands."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Generator, Sequence
from typing import Any

from django.db import connection
from django.db.models import (
    Exists,
    F,
    Max,
    OuterRef,
    Prefetch,
    QuerySet,
    Subquery,
    Value,
)

from kaiser_league.collation import sorted_by_name
from scorecards.habits import game_habits_record
from scorecards.hooks import TablePlace, place_annotations, place_from, place_values
from scorecards.models import (
    Game,
    GameQuerySet,
    GameStatus,
    Hand,
    HandAction,
    HandVersion,
    Seat,
    hand_input,
)
from scorecards.records_stream import records_concatenated, records_joined
from scorecards.rules import (
    GameScore,
    HandInput,
    Pot,
    PotAccount,
    game_play,
    game_score,
    pot_account,
    rules_build,
)


def game_with_seats(game_id: int) -> Game:
    """The game with its seats and club loaded (raises Game.DoesNotExist)."""
    return (
        Game.objects.select_related("club", "season")
        .prefetch_related("seats__player")
        .get(pk=game_id)
    )


def game_hands(game: Game) -> QuerySet[Hand]:
    """The game's hands in order, each with `corrected` (changed after it was entered), read in
    the same query."""
    corrected = HandVersion.objects.filter(
        game=OuterRef("game"), number=OuterRef("number"), action=HandAction.CORRECT
    )
    return game.hands.annotate(corrected=Exists(corrected)).order_by("number")


def game_corrected_numbers(game: Game) -> set[int]:
    """The numbers of the game's hands changed after they were entered (what `game_hands`
    marks `corrected`), in one query."""
    return set(
        HandVersion.objects.filter(game=game, action=HandAction.CORRECT)
        .values_list("number", flat=True)
        .distinct()
    )


def game_scored(game: Game, hands: list[Hand] | None = None) -> GameScore:
    """The engine's full scoring of the game from its stored hands."""
    hands = list(game_hands(game)) if hands is None else hands
    return game_score(game.rules_value, [h.as_input() for h in hands], game.first_dealer)


def seat_names(game: Game) -> list[str]:
    return [seat.name for seat in sorted(game.seats.all(), key=lambda s: s.seat)]


def rules_compact(rules: dict[str, Any]) -> dict[str, Any]:
    """A full rules snapshot written as its preset plus only the settings that differ from it."""
    preset = rules.get("preset", "standard")
    base = rules_build({"preset": preset}).as_dict()
    return {"preset": preset} | {
        key: value for key, value in rules.items() if key != "preset" and base.get(key) != value
    }


def hand_record_export(hand: Hand) -> dict[str, Any]:
    """A stored hand as kaiser-game/1 writes it today: read by the engine (older hands left a
    kaiser 40's unplayed card out) and written back, so such a card is `null`, never absent."""
    return HandInput.from_dict(hand.record, hand.number, legacy=True).to_dict()


def game_record(game: Game) -> dict[str, Any]:
    """The game as a kaiser-game/1 record (what export writes and import reads back), with the
    day it was played (`played_on`, left out when not known) and its table habits
    (scorecards.habits) where the game keeps them."""
    record: dict[str, Any] = {
        "format": "kaiser-game/1",
        "rules": rules_compact(game.rules),
        "seats": seat_names(game),
        "first_dealer": game.first_dealer,
    }
    if game.played_on is not None:
        record["played_on"] = game.played_on.isoformat()
    record.update(game_habits_record(game))
    record["hands"] = [hand_record_export(hand) for hand in game_hands(game)]
    return record


def _place_read(game: Game) -> dict[str, Any]:
    """The table-context values of `game` (scorecards.hooks): from its own query when it was
    read with them, else one query (kept on the game for the next reader)."""
    values = place_values(game)
    if values is None:
        names = place_annotations()
        values = (
            Game.objects.filter(pk=game.pk).annotate(**names).values(*names).first() or {}
            if names
            else {}
        )
        for name, value in values.items():
            setattr(game, name, value)
    return values


def game_needs_confirmation(game: Game) -> bool:
    """True when a player of the other side confirms each hand of this game: its club asks it
    (`Game.club_asks_confirmation`: not of games finished before confirmation was turned on),
    or it is a table of a tournament night that asks it. No query when the game was read
    through `scorecards.access.game_for_member` (which annotates the second case)."""
    if game.club is None:
        return False
    if game.club_asks_confirmation():
        return True
    return bool(_place_read(game).get("_place_confirms"))


def hand_versions(game: Game, number: int) -> QuerySet[HandVersion]:
    """The history of hand `number`: every entry, correction, undo and confirmation, oldest
    first."""
    return HandVersion.objects.filter(game=game, number=number).order_by("at", "pk")


def game_preview(
    score: GameScore, hand: HandInput, *, seat_names: Sequence[str] | None = None
) -> GameScore:
    """`score` (the game so far, from `game_scored`) with `hand` played next: what the sheet
    would show if it were saved. Raises HandError from the engine if the hand is impossible,
    naming sides and seats by `seat_names` when given."""
    return game_play(score, hand, seat_names=seat_names)


def table_place(game: Game, score: GameScore | None = None) -> TablePlace | None:
    """The tournament round of `game` and how far its table is in it (None when the game is
    not a tournament table). No query when the game was read with its place annotated
    (scorecards.access, the services' locked read), else one; `score` saves scoring the hands
    again."""
    values = _place_read(game)
    if values.get("_place_table") is None:
        return None
    if score is None:
        score = game_scored(game)
    return place_from(values, score)


def game_pot_of(game: Game, score: GameScore) -> PotAccount | None:
    """Who fed the game's pot and who collects it (the engine's account), or None when the game
    keeps no pot."""
    if game.pot_per_set is None:
        return None
    return pot_account(score, Pot(per_set=game.pot_per_set))


# --- Reads for the rooms above (standings, tournaments): they read games only through these.


def games_where(
    *, club: Any = None, season: Any = None, ids: Sequence[int] | None = None
) -> GameQuerySet:
    """Games, of a club, a season or by id (each filter only when given); `.counted()` and
    `.awaiting_confirmation()` say which count. Also usable as a subquery (`OuterRef`)."""
    found = Game.objects.all()
    if club is not None:
        found = found.filter(club=club)
    if season is not None:
        found = found.filter(season=season)
    if ids is not None:
        found = found.filter(pk__in=list(ids))
    return found


def games_by_day(games: QuerySet[Game], *, latest_first: bool = True) -> QuerySet[Game]:
    """`games` in the order they were played: by the day played, then by the time they
    finished (a game still going comes after those finished that day), then by when they were
    started. Games whose day is not known come last either way."""
    if latest_first:
        return games.order_by(
            F("played_on").desc(nulls_last=True),
            F("finished_at").desc(nulls_first=True),
            "-created_at",
            "-pk",
        )
    return games.order_by(
        F("played_on").asc(nulls_last=True),
        F("finished_at").asc(nulls_last=True),
        "created_at",
        "pk",
    )


def games_of_player(player: Any) -> GameQuerySet:
    """The games where `player` has a seat."""
    return Game.objects.filter(seats__player=player)


def games_seats_and_inputs(
    ids: Sequence[int],
) -> tuple[dict[int, dict[int, int | None]], dict[int, list[HandInput]]]:
    """For the games `ids`: the player id of each seat ({game: {seat: player or None}}) and
    their hands in order as the engine takes them ({game: [hand]}). Two queries, and no model
    rows: a season's rebuild reads hundreds of thousands of hands."""
    seats: dict[int, dict[int, int | None]] = defaultdict(dict)
    # (In no order: Seat's own joins and sorts by its game's start, for a dict.)
    for game_id, seat, player_id in (
        Seat.objects.filter(game_id__in=ids).order_by().values_list("game_id", "seat", "player_id")
    ):
        seats[game_id][seat] = player_id
    hands: dict[int, list[HandInput]] = defaultdict(list)
    for game_id, number, record in (
        Hand.objects.filter(game_id__in=ids)
        .order_by("game_id", "number")
        .values_list("game_id", "number", "record")
    ):
        hands[game_id].append(hand_input(number, record))
    return seats, hands


def _of_games(games: Sequence[int] | QuerySet[Game]) -> dict[str, Any]:
    """The filter of the rows of `games`: by their ids, or by a query of them (a subquery, no
    id sent: a season's)."""
    if isinstance(games, QuerySet):
        return {"game__in": games.order_by().values("pk")}
    return {"game_id__in": list(games)}


def games_seats(games: Sequence[int] | QuerySet[Game]) -> dict[int, dict[int, int | None]]:
    """The player id of each seat of `games` (ids, or a query of games) ({game: {seat: player
    or None}}). One query, tuples only, in no order: Seat's own (its game's, which is by the
    game's start) joined the games and sorted every seat of a season, for a dict."""
    seats: dict[int, dict[int, int | None]] = defaultdict(dict)
    for game_id, seat, player_id in (
        Seat.objects.filter(**_of_games(games))
        .order_by()
        .values_list("game_id", "seat", "player_id")
    ):
        seats[game_id][seat] = player_id
    return seats


def games_records_stream(
    games: Sequence[int] | QuerySet[Game],
) -> Generator[tuple[int, list[Any] | None]]:
    """The hands of `games` (ids, or a query of games) as their stored records, for a reader
    that scores whole records (`scorecards.rules.record_quick`): each game that has hands, in
    id order, with its records in hand order (new objects, the caller's own), or None when its
    hands are not numbered 1..n or cannot be read together (the caller reads that game
    otherwise).

    One query, a row a game (its records joined by the database: `scorecards.records_stream`),
    streamed, and each game's records decoded by one `json.loads`: a season rebuilt from
    nothing reads every hand, and decoding its records one by one cost more than reading
    them."""
    hands = Hand.objects.filter(**_of_games(games))
    if connection.vendor == "postgresql":
        return records_joined(hands)
    return records_concatenated(hands)


def game_last_change() -> Subquery:
    """For a Game queryset (OuterRef "pk"): the id of the game's latest hand version, which
    every entry, correction, undo and confirmation writes."""
    return Subquery(
        HandVersion.objects.filter(game=OuterRef("pk")).order_by("-pk").values("pk")[:1]
    )


def game_prefetches(prefix: str) -> list[Prefetch]:
    """Prefetches of the seats (in seat order) and hands (in order) of the games reached by
    `prefix` (e.g. "tables__game")."""
    return [
        Prefetch(f"{prefix}__seats", queryset=Seat.objects.order_by("seat")),
        Prefetch(f"{prefix}__hands", queryset=Hand.objects.order_by("number")),
    ]


def club_games_in_progress(club: Any) -> int:
    """How many of the club's games are being played now (neither finished nor abandoned)."""
    return Game.objects.filter(club=club, status=GameStatus.IN_PROGRESS).count()


def club_players_recent_first(club: Any) -> list[Any]:
    """The club's players, those who sat at a table most recently first, then in name order
    (`name_key`: accents sort with their letter). Scorecards' read: recency is its seats'."""
    players = list(
        club.players.annotate(last_played=Max("seats__game__created_at"))
        .order_by(F("last_played").desc(nulls_last=True))
        .only("pk", "name", "club_id")
    )
    # Stable sorts: by name first, then by recency, so equal recency (never played) keeps names.
    players = sorted_by_name(players, lambda p: p.name)
    played = [p for p in players if p.last_played is not None]
    played.sort(key=lambda p: p.last_played, reverse=True)
    return played + [p for p in players if p.last_played is None]


def games_seated_ordered(
    season_id: int, player_ids: Sequence[int], order: Sequence[Any], *, together: bool = False
) -> QuerySet[Any]:
    """The games of season `season_id` where any of `player_ids` sat (`together`: where all of
    them sat; two at most), in `order` (expressions and names read from a seat: `game__...`),
    as a lazy values list of (game id, day played, finished time); a game several of them sat
    at may come once per seat. Driven by the players' seats (their index), never by a walk
    over the season's games, so its cost follows the players' games, not the season's."""
    ids = list(player_ids)
    if together and len(ids) == 2:
        # The second player's seat at the same game: the (game, player) unique index.
        seats = Seat.objects.filter(player_id=ids[0], game__seats__player_id=ids[1])
    else:
        seats = Seat.objects.filter(player_id__in=ids)
    # `+ 0`: a season compared without its index, which both databases would otherwise walk
    # (every game of the season) instead of the players' seats.
    return (
        seats.annotate(_season=F("game__season_id") + Value(0))
        .filter(_season=season_id)
        .order_by(*order)
        .values_list("game_id", "game__played_on", "game__finished_at")
    )


def games_night_rows(
    ids: Sequence[int],
) -> dict[int, tuple[Any, int, list[str], list[int | None], list[tuple[int, Any, bool]]]]:
    """The games `ids` as a page over many games reads them to score them: {game: (stored
    rules, first dealer, seat names and seat player ids by seat, hands in order as (number,
    stored record, confirmed))}. Three queries of tuples, no model rows: a night's projector
    reads every game, seat and hand of the night on each screen."""
    names: dict[int, list[str]] = defaultdict(list)
    players: dict[int, list[int | None]] = defaultdict(list)
    seats = Seat.objects.filter(game_id__in=ids).order_by("game_id", "seat")
    for game_id, name, player_id in seats.values_list("game_id", "name", "player_id"):
        names[game_id].append(name)
        players[game_id].append(player_id)
    hands: dict[int, list[tuple[int, Any, bool]]] = defaultdict(list)
    rows = Hand.objects.filter(game_id__in=ids).order_by("game_id", "number")
    for game_id, number, record, at in rows.values_list(
        "game_id", "number", "record", "confirmed_at"
    ):
        hands[game_id].append((number, record, at is not None))
    games = Game.objects.filter(pk__in=ids).values_list("pk", "rules", "first_dealer")
    return {
        pk: (rules, first_dealer, names[pk], players[pk], hands[pk])
        for pk, rules, first_dealer in games
    }
