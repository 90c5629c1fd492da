"""Writes about one player of a club: renaming. (Merging two players moves rows of several rooms,
so it lives in the assembly layer: `leagues.players.merge`.)"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from kaiser_league.inputs import InputError, name_check
from leagues.clubs.access import club_actor
from leagues.clubs.models import Club, Player
from leagues.clubs.name_match import name_taken_by
from leagues.clubs.policy import may
from leagues.clubs.policy.clubs import PlayerFacts
from leagues.clubs.services import MAX_PLAYER_NAME, LeagueError


def _clash(player: Player, name: str) -> LeagueError:
    return LeagueError(
        _(
            "The club already has a player called %(name)s: a name that differs only by its "
            "accents or case is the same person."
        )
        % {"name": player.name},
        "name",
    )


def player_rename(*, player: Player, name: str, by: User | None, action: str) -> Player:
    """Give `player` the name `name`. `by` must be a member of the player's club allowed
    `action` (LeagueError else). A name that is another player's, or differs from one only by
    accents, case or spacing ("Jerome" beside "Jérôme"), is refused naming that player and the
    field `name`, also when the other player is added at this very moment. The player's seats
    keep the names they were given at the table."""
    try:
        name = name_check(name, field="name", max_length=MAX_PLAYER_NAME)
    except InputError as error:
        raise LeagueError(error.message, "name") from None
    if not may(club_actor(player.club_id, by), action, PlayerFacts(club_id=player.club_id)):
        raise LeagueError(_("Only an owner or a director renames players."))
    try:
        with transaction.atomic():
            # One rename or merge of the club at a time: the clash check sees the names as
            # they are, not as they were before a rival request committed.
            Club.objects.select_for_update().filter(pk=player.club_id).first()
            locked = Player.objects.select_for_update().filter(pk=player.pk).first()
            if locked is None:
                raise LeagueError(_("This player no longer exists (merged or deleted)."))
            other = name_taken_by(locked.club, name, other_than=locked)
            if other is not None:
                raise _clash(other, name)
            locked.name = name
            try:
                locked.save(update_fields=["name"])
            except ValidationError as error:
                raise LeagueError(" ".join(error.messages), "name") from None
    except IntegrityError:
        # A player with this very name was added (not through a rename) meanwhile.
        other = name_taken_by(player.club, name, other_than=player)
        if other is not None:
            raise _clash(other, name) from None
        raise
    player.name = locked.name
    player.name_key = locked.name_key
    return player
