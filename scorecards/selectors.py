"""Reads of games and hands. Scores come from the rules engine, fed the stored hands."""

from __future__ import annotations

from typing import Any

from django.db.models import Exists, OuterRef, QuerySet

from scorecards.models import Game, Hand, HandAction, HandVersion
from scorecards.rules import GameScore, HandInput, game_play, game_score, rules_build


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


def game_record(game: Game) -> dict[str, Any]:
    """The game as a kaiser-game/1 record (what export writes and import reads back)."""
    return {
        "format": "kaiser-game/1",
        "rules": rules_compact(game.rules),
        "seats": seat_names(game),
        "first_dealer": game.first_dealer,
        "hands": [hand.record for hand in game_hands(game)],
    }


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


def game_preview(score: GameScore, hand: HandInput) -> GameScore:
    """`score` (the game so far, from `game_scored`) with `hand` played next: what the sheet
    would show if it were saved. Raises HandError from the engine if the hand is impossible."""
    return game_play(score, hand)
