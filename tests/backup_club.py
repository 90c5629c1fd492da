"""A club with every kind of object a backup carries, and a summary of everything that must come
back equal after a restore. Used in-process by the backup tests and, through `python -m
tests.backup_club build|restore`, in a separate process on the other database (SQLite when the
tests run on PostgreSQL), so one test can cross databases both ways."""

from __future__ import annotations

import datetime
import json
import os
import random
import sys
from typing import Any


def full_club_build():
    """An owner, a director linked to a player, accented and case-different names, a season, a
    tournament night wanting confirmation (one table confirmed, one waiting, a sit-out), an
    invitation, a corrected and a confirmed hand in an ordinary game; standings and ratings
    rebuilt."""
    from django.contrib.auth import get_user_model

    from leagues.clubs import services as club_services
    from leagues.clubs.models import Club, Membership, Player, Season
    from leagues.clubs.roles import Role
    from leagues.demo import demo_game_play
    from leagues.tournaments.services import (
        entry_register,
        round_close,
        round_draw,
        tournament_create,
    )
    from scorecards.rules import HandInput, rules_build
    from scorecards.services import (
        game_abandon,
        game_start,
        hand_correct,
        hand_record,
        hand_undo,
    )

    users = get_user_model()
    owner = users.objects.create_user("olga", email="olga@example.org", first_name="Olga")
    director = users.objects.create_user("dora", first_name="Dóra")
    club = Club.objects.create(
        name="Café Kaiser", slug="cafe-kaiser", standings_public=True, pot_per_set=150
    )
    Membership.objects.create(club=club, user=owner, role=Role.OWNER)
    Membership.objects.create(club=club, user=director, role=Role.DIRECTOR)
    season = Season.objects.create(
        club=club, name="Saison 2026", starts_on=datetime.date(2026, 9, 1)
    )
    names = ["Élise", "elise", "Zoé", "zoe", "Ångström", "Ann", "bob", "Çelik", "Dana"]
    players = [Player.objects.create(club=club, name=name) for name in names]
    Player.objects.filter(pk=players[5].pk).update(user=director)

    night = tournament_create(
        club=club,
        name="Vendredi",
        date=datetime.date(2026, 11, 20),
        hands_need_confirmation=True,
        season=season,
        sitout_points=12,
        created_by=director,
    )
    for player in players:
        entry_register(tournament=night, player=player, checked_in=True)
    drawn = round_draw(tournament=night, by=director)
    tables = drawn.tables
    for number, table in enumerate(tables):
        demo_game_play(table.game, random.Random(number), max_hands=night.hands_per_round)
    # The director closes the round: its tables' games are over as they stand.
    round_close(round=tables[0].round)
    for table in tables:
        table.game.refresh_from_db()
    for hand in tables[0].game.hands.all():
        confirm_from_the_other_side(tables[0].game, hand.number)

    invitation = club_services.invitation_create(
        club=club, role=Role.MEMBER, created_by=owner, max_uses=3
    )
    newcomer = users.objects.create_user("ulla", first_name="Ulla")
    club_services.invitation_accept(invitation=invitation, user=newcomer)

    game = game_start(
        seats=players[:4], rules=rules_build({"preset": "standard"}), club=club, season=season
    )
    first = HandInput(bidder=0, bid=7, tricks=(7, 1), five_hearts=0, three_spades=1)
    hand_record(game=game, hand=first, entered_by=owner, entered_by_name="Olga")
    hand_correct(
        game=game,
        number=1,
        hand=HandInput(bidder=0, bid=8, tricks=(8, 0), five_hearts=0, three_spades=0),
        by=director,
        by_name="Dóra",
        reason="the tricks were miscounted",
    )
    # A hand is confirmed only where confirmation is asked: the club asks it for that moment.
    Club.objects.filter(pk=club.pk).update(hands_need_confirmation=True)
    confirm_from_the_other_side(game, 1)
    Club.objects.filter(pk=club.pk).update(hands_need_confirmation=False)
    demo_game_play(game, random.Random(11))

    # A game given up after a hand was taken back (its key stays spent), with a pot and habits.
    dropped = game_start(
        seats=players[4:8],
        rules=rules_build({"preset": "standard"}),
        club=club,
        season=season,
        created_by=owner,
        habits={"passing": "across", "pot": {"per_set": 150}},
    )
    demo_game_play(dropped, random.Random(12), max_hands=2)
    # A phone claimed a seat and the owner released it (its trace travels with the club).
    from scorecards.services import seat_claim, seat_release

    seat_claim(game=dropped, seat=2, phone="a-lost-phone")
    seat_release(game=dropped, seat=2, by=owner, by_name="Olga")
    hand_undo(game=dropped, by=owner, by_name="Olga")
    game_abandon(game=dropped, by=owner, reason="the hall closed early")
    derived_rebuild(club)
    return club


def confirm_from_the_other_side(game, number: int) -> None:
    """Confirm hand `number` from a phone seated on the side that did not enter it (each of two
    phones claims a seat of its own side once)."""
    from scorecards.services import NotAllowed, hand_confirm, seat_claim

    for seat in (0, 1):
        phone = f"phone-{game.pk}-{seat}"
        seat_claim(game=game, seat=seat, phone=phone)
        try:
            hand_confirm(game=game, number=number, phone=phone)
        except NotAllowed:
            continue
        return
    raise AssertionError(f"no seat could confirm hand {number}")


def derived_rebuild(club) -> None:
    from leagues.standings import rebuild

    for season in club.seasons.all():
        rebuild.standings_rebuild(season_id=season.pk)
    rebuild.ratings_rebuild(club_id=club.pk)


def _plain(figures: dict) -> dict:
    """A line's figures as JSON carries them (the day last played as its ISO text), so that a
    summary made in another process compares equal."""
    return {k: v.isoformat() if isinstance(v, datetime.date) else v for k, v in figures.items()}


def club_summary(club) -> dict[str, Any]:
    """Everything a person would compare: the backup document itself (games, scores, hands,
    versions, tournaments, invitations, settings), the standings, the ratings, and which games
    count. Keyed by names and positions, never by database ids."""
    from leagues.backup import club_export
    from leagues.standings.models import (
        PartnershipStanding,
        PlayerRating,
        PlayerStanding,
        RatingPoint,
    )
    from scorecards.models import Game

    games = list(Game.objects.filter(club=club).order_by("created_at", "pk"))
    position = {game.pk: i for i, game in enumerate(games)}
    return {
        "document": club_export(club),
        "counts": [
            game.pk in set(Game.objects.filter(club=club).counted().values_list("pk", flat=True))
            for game in games
        ],
        "scores": [[list(g.scores), g.winner, g.hand_count, g.status] for g in games],
        "standings": sorted(
            [s.season.name, s.player.name, _plain(s.figures())]
            for s in PlayerStanding.objects.filter(season__club=club).select_related(
                "season", "player"
            )
        ),
        "partnerships": sorted(
            # The pair is stored lower id first: ids differ after a restore, names do not.
            [s.season.name, *sorted([s.first.name, s.second.name]), _plain(s.figures())]
            for s in PartnershipStanding.objects.filter(season__club=club).select_related(
                "season", "first", "second"
            )
        ),
        "ratings": sorted(
            [r.player.name, r.mu, r.sigma, r.ordinal, r.games]
            for r in PlayerRating.objects.filter(club=club).select_related("player")
        ),
        "rating_points": sorted(
            [p.player.name, position[p.game_id], p.mu, p.sigma, p.ordinal]
            for p in RatingPoint.objects.filter(player__club=club).select_related("player")
        ),
    }


def _main(argv: list[str]) -> int:
    """`build`: make the club, print its summary as JSON. `restore`: read a document on standard
    input, restore it, rebuild the derived data, print the summary."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kaiser_league.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    if argv[0] == "build":
        club = full_club_build()
    else:
        from leagues.backup import club_import

        club = club_import(data=json.load(sys.stdin))
        derived_rebuild(club)
    json.dump(club_summary(club), sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
