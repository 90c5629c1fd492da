"""A season's life after it is created: what its page shows, and editing, closing, reopening
and deleting it. Assembly (CONTRIBUTING.md): each decision reads the season's games
(scorecards) and nights (tournaments), two rooms above the clubs room that owns the season.

A closed season (`Season.closed_at`) is an archive: no game or night starts in it
(`scorecards.services.game_start`, `leagues.clubs.selectors.club_current_season`), its games
take no hand, undo, correction or confirmation (`scorecards.services.state.game_locked`), and
its standings stay shown. Each service checks who asks (`leagues.clubs.roles`) and refuses with
a `LeagueError` that says why.
"""

from __future__ import annotations

import datetime
import logging
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from kaiser_league.inputs import InputError, name_check
from leagues.clubs.access import club_actor
from leagues.clubs.models import MAX_MIN_NIGHTS, Season
from leagues.clubs.policy import Actor, Decision, may
from leagues.clubs.policy.clubs import UNCHANGED, SeasonFacts
from leagues.clubs.roles import SEASON_CLOSE, SEASON_DELETE, SEASON_EDIT, SEASON_REOPEN
from leagues.clubs.services import MAX_SEASON_NAME, LeagueError
from leagues.tournaments.models import Tournament
from leagues.tournaments.night_state import night_is_over
from scorecards.models import Game, GameStatus
from scorecards.rules import KaiserError, rules_build
from scorecards.selectors import games_by_day, games_where

log = logging.getLogger(__name__)

# The season page lists this many of its games, latest first (the standings count them all).
GAMES_SHOWN = 100


@dataclass(frozen=True)
class SeasonContents:
    """What a season holds, as its page and its services see it."""

    games: list[Game]  # the latest GAMES_SHOWN, with their seats
    game_count: int
    in_progress: int  # games still being played
    waiting: int  # finished games whose hands wait for a confirmation (they do not count)
    nights: list[Tournament]

    @property
    def nights_going_on(self) -> list[Tournament]:
        """Nights set up or running: neither ended nor cancelled."""
        return [night for night in self.nights if not night_is_over(night)]

    @property
    def close_refusal(self) -> str:
        """Why the season cannot be closed now (empty when it can)."""
        if self.in_progress:
            return ngettext(
                "%(count)s game of this season is still being played: finish or abandon it "
                "before closing the season.",
                "%(count)s games of this season are still being played: finish or abandon "
                "them before closing the season.",
                self.in_progress,
            ) % {"count": self.in_progress}
        going_on = self.nights_going_on
        if going_on:
            return _(
                "The night %(name)s has not ended: end or cancel it before closing the season."
            ) % {"name": going_on[0].name}
        return ""

    @property
    def delete_refusal(self) -> str:
        """Why the season cannot be deleted (empty when it holds no game and no night)."""
        if not self.game_count and not self.nights:
            return ""
        games = ngettext("%(count)s game", "%(count)s games", self.game_count) % {
            "count": self.game_count
        }
        nights = ngettext("%(count)s night", "%(count)s nights", len(self.nights)) % {
            "count": len(self.nights)
        }
        return _(
            "This season holds %(games)s and %(nights)s: only an empty season is deleted. "
            "Close it to keep it as an archive."
        ) % {"games": games, "nights": nights}


def season_contents(season: Season, *, games_shown: int = GAMES_SHOWN) -> SeasonContents:
    """The season's games (the latest `games_shown` with their seats), their counts and its
    nights, in five queries whatever the season's size."""
    games = games_where(season=season)
    counts = games.aggregate(
        total=Count("pk"),
        playing=Count("pk", filter=Q(status=GameStatus.IN_PROGRESS)),
    )
    shown = list(games_by_day(games.prefetch_related("seats"))[:games_shown]) if games_shown else []
    return SeasonContents(
        games=shown,
        game_count=counts["total"],
        in_progress=counts["playing"],
        waiting=games.filter(status=GameStatus.FINISHED).awaiting_confirmation().count(),
        nights=list(Tournament.objects.filter(season=season).order_by("-date", "-pk")),
    )


def season_facts(
    season: Season, contents: SeasonContents | None = None, *, held: bool = True
) -> SeasonFacts:
    """The season as the policy reads it: closed or not, and why it cannot be closed or
    deleted now (its contents, read here unless given; `held=False` when the action asked
    about does not depend on them: editing, reopening)."""
    if not held:
        return SeasonFacts(club_id=season.club_id, closed=season.closed_at is not None)
    if contents is None:
        contents = season_contents(season, games_shown=0)
    return SeasonFacts(
        club_id=season.club_id,
        closed=season.closed_at is not None,
        close_refusal=contents.close_refusal,
        delete_refusal=contents.delete_refusal,
    )


def season_offers(actor: Actor, facts: SeasonFacts) -> dict[str, Decision]:
    """What the season page offers `actor`: each action's decision, by its name."""
    actions = (SEASON_EDIT, SEASON_CLOSE, SEASON_REOPEN, SEASON_DELETE)
    return {action: may(actor, action, facts) for action in actions}


def _allowed(season: Season, by: User | None, action: str) -> bool:
    """Ask the policy on the locked season: False when it is already as asked (nothing to
    do), LeagueError with the policy's reason when refused."""
    held = action in (SEASON_CLOSE, SEASON_DELETE)
    decision = may(club_actor(season.club_id, by), action, season_facts(season, held=held))
    if decision.status == UNCHANGED:
        return False
    if not decision:
        raise LeagueError(decision.reason)
    return True


def _locked(season: Season) -> Season:
    return Season.objects.select_for_update().get(pk=season.pk)


@transaction.atomic
def season_update(
    *,
    season: Season,
    by: User | None,
    name: str,
    starts_on: datetime.date,
    ends_on: datetime.date | None,
    rules: dict | None = None,
    min_nights: int | None = None,
) -> Season:
    """Rename the season, change its dates and the nights to be ranked (`min_nights`, 0 to
    MAX_MIN_NIGHTS; None: unchanged); `rules` (a record's "rules": a preset and its
    changes) only while no game was started in it: its games keep the rules they started with.
    Owners and directors; a closed season changes only once reopened. LeagueError naming the
    field otherwise (a name the club has, an end before the start, rules the engine refuses)."""
    locked = _locked(season)
    _allowed(locked, by, SEASON_EDIT)
    try:
        name = name_check(name, field="name", max_length=MAX_SEASON_NAME)
    except InputError as error:
        raise LeagueError(error.message, "name") from None
    if ends_on is not None and ends_on < starts_on:
        raise LeagueError(_("A season cannot end before it starts."), "ends_on")
    taken = LeagueError(
        _("The club already has a season called %(name)s.") % {"name": name}, "name"
    )
    if Season.objects.filter(club_id=locked.club_id, name=name).exclude(pk=locked.pk).exists():
        raise taken
    fields = ["name", "starts_on", "ends_on"]
    if min_nights is not None:
        if not 0 <= min_nights <= MAX_MIN_NIGHTS:
            raise LeagueError(
                _("The nights to be ranked are 0 to %(most)s.") % {"most": MAX_MIN_NIGHTS},
                "min_nights",
            )
        locked.min_nights = min_nights
        fields.append("min_nights")
    if rules is not None and rules != locked.rules:
        if games_where(season=locked).exists():
            raise LeagueError(
                _(
                    "A game was played in this season: its rules no longer change (its games "
                    "keep the rules they started with)."
                )
            )
        try:
            rules_build(rules)
        except KaiserError as exc:
            raise LeagueError(str(exc)) from exc
        locked.rules = dict(rules)
        fields.append("rules")
    locked.name, locked.starts_on, locked.ends_on = name, starts_on, ends_on
    try:
        with transaction.atomic():
            locked.save(update_fields=fields)
    except IntegrityError:
        raise taken from None
    return locked


@transaction.atomic
def season_close(*, season: Season, by: User | None) -> Season:
    """Close the season: from now on an archive (see the module's docstring). Owners and
    directors, once no game of it is being played and each of its nights ended or was
    cancelled (LeagueError saying which). Closing a closed season changes nothing."""
    locked = _locked(season)
    if not _allowed(locked, by, SEASON_CLOSE):
        return locked
    locked.closed_at = season.closed_at = timezone.now()
    locked.save(update_fields=["closed_at"])
    # The trace of who closed it: the schema keeps only when.
    log.info("season %s of club %s closed by user %s", locked.pk, locked.club_id, by and by.pk)
    return locked


@transaction.atomic
def season_reopen(*, season: Season, by: User | None) -> Season:
    """Reopen a closed season: its games may be corrected and new games start in it again.
    Owners only (LeagueError). Reopening an open season changes nothing."""
    locked = _locked(season)
    if not _allowed(locked, by, SEASON_REOPEN):
        return locked
    locked.closed_at = season.closed_at = None
    locked.save(update_fields=["closed_at"])
    log.info("season %s of club %s reopened by user %s", locked.pk, locked.club_id, by and by.pk)
    return locked


@transaction.atomic
def season_delete(*, season: Season, by: User | None) -> None:
    """Delete a season that holds no game and no night (created by mistake), with its empty
    standings. Owners and directors; a season with games or nights is refused, saying what it
    holds (close it instead)."""
    locked = _locked(season)
    _allowed(locked, by, SEASON_DELETE)
    locked.delete()
