"""A demo club to explore the app with: built by `manage.py demo_club` (and `make run`)."""

from __future__ import annotations

import datetime
import random

from django.contrib.auth import get_user_model
from django.db import transaction

from leagues.clubs.models import Club, Membership, Player, Season
from leagues.clubs.roles import Role
from scorecards.models import Game
from scorecards.rules import HandInput, Rules, rules_build
from scorecards.services import game_start, hand_record

DEMO_SLUG = "demo"
DEMO_USERNAME = "demo"
DEMO_PASSWORD = "kaiser-demo"
DEMO_PLAYERS = [
    "Ann", "Bob", "Cat", "Dan", "Élise", "Frank",
    "Gaston", "Hélène", "Ivan", "Josée", "Ken", "Louise",
]  # fmt: skip


def plausible_hand(rng: random.Random, rules: Rules) -> HandInput:
    """A random hand a real table could have played (standard four-seat game)."""
    bidder = rng.randrange(4)
    side = bidder % 2
    kind = "no" if rng.random() < 0.15 else "trump"
    bid = rng.choice([7, 7, 8, 8, 9, 10]) if kind == "trump" else 7
    taken = rng.choice([3, 4, 5, 6, 6, 7, 7, 8])
    tricks = [0, 0]
    tricks[side], tricks[1 - side] = taken, 8 - taken
    holders = [s for s in (0, 1) if tricks[s] > 0]
    return HandInput(
        bidder=bidder,
        bid=max(bid, rules.min_bid),
        kind=kind,
        tricks=tuple(tricks),
        five_hearts=rng.choice(holders),
        three_spades=rng.choice(holders),
    )


def demo_game_play(game: Game, rng: random.Random, max_hands: int | None = None) -> None:
    """Enter random plausible hands until the game ends (or `max_hands` are entered)."""
    rules = game.rules_value
    entered = 0
    while game.status != "finished" and (max_hands is None or entered < max_hands):
        hand_record(game=game, hand=plausible_hand(rng, rules), entered_by_name="demo")
        game.refresh_from_db()
        entered += 1


@transaction.atomic
def demo_club_create() -> tuple[Club, bool]:
    """Create the demo club, its owner account, 12 players, a season with three finished games
    and one in progress. Returns (club, created); an existing demo club is left as it is."""
    existing = Club.objects.filter(slug=DEMO_SLUG).first()
    if existing is not None:
        return existing, False
    user_model = get_user_model()
    user = user_model.objects.filter(username=DEMO_USERNAME).first()
    if user is None:
        user = user_model.objects.create_user(DEMO_USERNAME, password=DEMO_PASSWORD)
    club = Club.objects.create(name="Club Kaiser de Gravelbourg", slug=DEMO_SLUG)
    Membership.objects.create(club=club, user=user, role=Role.OWNER)
    players = [Player.objects.create(club=club, name=name) for name in DEMO_PLAYERS]
    rules = rules_build({"preset": "standard"})
    season = Season.objects.create(
        club=club,
        name="2026-2027",
        starts_on=datetime.date(2026, 9, 1),
        ends_on=datetime.date(2027, 5, 31),
        rules={"preset": "standard"},
    )
    rng = random.Random(52)
    for table in range(4):
        seated = rng.sample(players, 4)
        game = game_start(
            seats=seated,
            rules=rules,
            club=club,
            season=season,
            first_dealer=table % 4,
            table_label=f"Table {table + 1}",
            created_by=user,
        )
        # The last table is still playing.
        demo_game_play(game, rng, max_hands=5 if table == 3 else None)
    return club, True


def demo_night_create(
    *, club: Club, players: int = 9, rounds: int = 3, hands_per_round: int = 3, seed: int = 9
):
    """A tournament night of `club` in full swing, for the screenshots and the page tests:
    `players` of the club's players registered and checked in, round 1 played out, round 2
    drawn with its first table finished and the others part-way. Returns the tournament."""
    from django.utils import timezone

    from leagues.tournaments.services import entry_register, round_draw, tournament_create

    rng = random.Random(seed)
    night = tournament_create(
        club=club,
        name="Vendredi soir",
        date=timezone.localdate(),
        rounds=rounds,
        hands_per_round=hands_per_round,
        extra_hand_on_tie=False,
    )
    for player in list(club.players.order_by("pk"))[:players]:
        entry_register(tournament=night, player=player, checked_in=True)
    for number in (1, 2):
        made = round_draw(tournament=night, confirm=True)
        for index, table in enumerate(made.tables):
            wanted = hands_per_round if number == 1 or index == 0 else 1
            demo_game_play(table.game, rng, max_hands=wanted)
    return night
