"""Reads of games and hands. Scores come from the rules engine, fed the stored hands."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Exists, OuterRef, QuerySet
from django.utils.translation import gettext as _

from scorecards.habits import game_habits_record
from scorecards.models import Game, Hand, HandAction, HandVersion
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
    """The game as a kaiser-game/1 record (what export writes and import reads back), with its
    table habits (scorecards.habits) where the game keeps them."""
    record = {
        "format": "kaiser-game/1",
        "rules": rules_compact(game.rules),
        "seats": seat_names(game),
        "first_dealer": game.first_dealer,
    }
    record.update(game_habits_record(game))
    record["hands"] = [hand_record_export(hand) for hand in game_hands(game)]
    return record


def game_fully_confirmed(game: Game) -> bool:
    """True when every hand of the game has been confirmed (a game without hands is)."""
    return not game.hands.filter(confirmed_at__isnull=True).exists()


def game_needs_confirmation(game: Game) -> bool:
    """True when a player of the other side confirms each hand of this game: its club asks it
    of every game, or it is a table of a tournament night that asks it. No query when the game
    was read through `scorecards.access.game_for_member` (which annotates the second case)."""
    if game.club_id is None:
        return False
    if game.club.hands_need_confirmation:
        return True
    annotated = getattr(game, "_tournament_confirms", None)
    if annotated is not None:
        return bool(annotated)
    return Game.objects.filter(
        pk=game.pk, tournament_table__round__tournament__hands_need_confirmation=True
    ).exists()


def game_counts_for_standings(game: Game) -> bool:
    """A finished game counts for standings unless it needs its hands confirmed
    (`game_needs_confirmation`) and some are not yet."""
    if not game.is_finished:
        return False
    if game_needs_confirmation(game):
        return game_fully_confirmed(game)
    return True


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


@dataclass(frozen=True)
class TablePlace:
    """Where a tournament table stands in its round, as its sheet says it."""

    round_number: int
    hands_per_round: int | None  # None: the round runs to the target or a time limit
    needed: int | None  # the round's hands, one more when tied after the last (tie-break)
    played: int
    round_closed: bool  # the director closed the round (or drew the next)
    night_over: bool

    @property
    def tie_break(self) -> bool:
        return self.needed is not None and self.needed > (self.hands_per_round or 0)

    @property
    def round_over(self) -> bool:
        return (
            self.round_closed
            or self.night_over
            or (self.needed is not None and self.played >= self.needed)
        )

    @property
    def next_hand(self) -> int:
        return self.played + 1

    @property
    def over_message(self) -> str:
        return _(
            "Round over: every hand of round %(round)s is in. Wait for the director's next draw."
        ) % {"round": self.round_number}


def table_place(game: Game, score: GameScore | None = None) -> TablePlace | None:
    """The tournament round of `game` and how far its table is in it (None when the game is
    not a tournament table). One query; `score` saves scoring the hands again."""
    from leagues.tournaments.models import (
        RoundStatus,
        Tournament,
        TournamentStatus,
        TournamentTable,
    )
    from leagues.tournaments.selectors import hands_needed

    if hasattr(game, "_place_round"):
        # Read with the game by scorecards.access (no query).
        if game._place_round is None:
            return None
        number, round_status = game._place_round, game._place_round_status
        tournament = Tournament(
            status=game._place_night_status,
            round_end=game._place_round_end,
            hands_per_round=game._place_hands_per_round,
            extra_hand_on_tie=game._place_extra,
        )
    else:
        table = (
            TournamentTable.objects.select_related("round__tournament")
            .filter(game_id=game.pk)
            .first()
        )
        if table is None:
            return None
        number, round_status = table.round.number, table.round.status
        tournament = table.round.tournament
    if score is None:
        score = game_scored(game)
    needed = hands_needed(tournament, score)
    return TablePlace(
        round_number=number,
        hands_per_round=tournament.hands_per_round if needed is not None else None,
        needed=needed,
        played=len(score.hands),
        round_closed=round_status == RoundStatus.CLOSED,
        night_over=tournament.status == TournamentStatus.FINISHED,
    )


def game_pot_of(game: Game, score: GameScore) -> PotAccount | None:
    """Who fed the game's pot and who collects it (the engine's account), or None when the game
    keeps no pot."""
    if game.pot_per_set is None:
        return None
    return pot_account(score, Pot(per_set=game.pot_per_set))


def season_pot_balances(season) -> list[tuple[str, int]]:
    """Each player's pot balance over the season's finished games that keep a pot: what they
    collected less what their set bids put in, in cents; best first, then by name. Three
    queries, whatever the number of games."""
    from collections import Counter

    from scorecards.models import GameStatus

    games = (
        Game.objects.filter(season=season, pot_per_set__isnull=False, status=GameStatus.FINISHED)
        .prefetch_related("seats__player", "hands")
        .order_by("pk")
    )
    balances: Counter[str] = Counter()
    for game in games:
        hands = sorted(game.hands.all(), key=lambda h: h.number)
        pot = game_pot_of(game, game_scored(game, hands))
        for seat in game.seats.all():
            balances[seat.player.name if seat.player else seat.name] += pot.balance[seat.seat]
    return sorted(balances.items(), key=lambda item: (-item[1], item[0].lower()))
