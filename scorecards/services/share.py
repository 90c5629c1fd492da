"""Sharing a finished game: a public read-only record at /s/<token>, and stopping it."""

from __future__ import annotations

import secrets

from django.contrib.auth.models import User
from django.db import transaction

from leagues.clubs.roles import GAME_SHARE
from scorecards.game_state import game_facts, game_now_of
from scorecards.models import Game
from scorecards.services.state import actor_locked, policy_check


def _locked_check(game: Game, by: User | None, table_link: bool) -> Game:
    """The game locked, once the policy lets `by` (or a phone holding the table link) share it.
    Not `game_locked`: a closed season's games are final, yet their records may be shared."""
    locked = Game.objects.select_for_update(of=("self",)).select_related("season").get(pk=game.pk)
    actor = actor_locked(locked, by, table_link=table_link)
    # No actor (a trusted caller) would be judged by the state alone: a share always has one.
    assert actor is not None, "a share is asked by someone"
    policy_check(actor, GAME_SHARE, game_facts(locked, game_now_of(locked, None)))
    return locked


def game_share(*, game: Game, by: User | None, table_link: bool = False) -> str:
    """Give the finished game a public read-only link and return its token; a game shared
    already keeps its link (the same token). NotAllowed without the power (a table link never
    has it), GameClosed when the game is not finished."""
    with transaction.atomic():
        locked = _locked_check(game, by, table_link)
        if locked.share_token:
            token = locked.share_token
        else:
            # 32 random bytes: the link is the only key to the record.
            token = secrets.token_urlsafe(32)
            Game.objects.filter(pk=locked.pk).update(share_token=token)
    game.share_token = token
    return token


def game_share_stop(*, game: Game, by: User | None, table_link: bool = False) -> bool:
    """Stop sharing: the public link answers 404 from now on (a new share makes a new link).
    Returns whether a link was stopped (False: the game was not shared). Same refusals as
    `game_share`."""
    with transaction.atomic():
        locked = _locked_check(game, by, table_link)
        stopped = bool(locked.share_token)
        if stopped:
            Game.objects.filter(pk=locked.pk).update(share_token=None)
    game.share_token = None
    return stopped
