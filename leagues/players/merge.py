"""Two players of a club who are one person, made one: `player_merge` and its `merge_preview`.

Everything that points at the merged player moves to the kept one in ONE transaction: the seats
of their games, their tournament entries (with the sit-outs of those entries), the linked
account when only the merged player has one, and the trace of earlier merges. The derived data
(standings of every season a moved game or row belongs to, the club's ratings, the per-game
summaries of moved games) is not moved by hand but marked stale and rebuilt from the hands after
the commit, so the standings after a merge are exactly a rebuild from nothing. The merge is
recorded as a `PlayerMerge` row (who, when, what moved) and the merged player is deleted.

A merge is refused, naming why, when the two are plainly two people: they sat in the same game,
played the same tournament night, or are linked to two different accounts.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from leagues.clubs.access import club_actor
from leagues.clubs.models import Club, Player, PlayerMerge
from leagues.clubs.policy import may
from leagues.clubs.policy.clubs import PlayerFacts
from leagues.clubs.roles import PLAYERS_MERGE
from leagues.clubs.services import LeagueError
from leagues.standings.models import (
    GameSummary,
    PartnershipStanding,
    PlayerRating,
    PlayerStanding,
)
from leagues.standings.services import derived_data_mark_stale
from leagues.tournaments.models import TournamentEntry
from scorecards.models import Game, Seat


@dataclass
class MergePreview:
    """What a merge of `merged` into `kept` would move, and why it cannot be done (`refusal`,
    "" when it can)."""

    kept: Player
    merged: Player
    seats: int = 0
    entries: int = 0
    standings: int = 0
    partnerships: int = 0
    rating: bool = False
    account: User | None = None  # the merged player's account, which moves to the kept one
    refusal: str = ""
    season_ids: list[int] = field(default_factory=list)

    @property
    def moved(self) -> dict[str, int]:
        """The counts kept in the PlayerMerge row."""
        return {
            "seats": self.seats,
            "entries": self.entries,
            "standings": self.standings,
            "partnerships": self.partnerships,
            "ratings": int(self.rating),
            "account": int(self.account is not None),
        }


def _game_named(game: Game) -> str:
    day = game.played_on or game.created_at.date()
    label = game.table_label or _("game %(id)s") % {"id": game.pk}
    return _("%(game)s of %(day)s") % {"game": label, "day": date_format(day, "SHORT_DATE_FORMAT")}


def _refusal(kept: Player, merged: Player) -> str:
    """Why `merged` cannot be made one with `kept` ("" when it can)."""
    if kept.pk == merged.pk:
        return _("Choose another player: a player is not merged with themselves.")
    if kept.club_id != merged.club_id:
        return _("Only two players of the same club can be merged.")
    names = {"kept": kept.name, "merged": merged.name}
    if kept.user_id is not None and merged.user_id is not None:
        return (
            _(
                "%(kept)s and %(merged)s are linked to two different accounts: unlink one of them "
                "first (one person has one account)."
            )
            % names
        )
    shared = (
        Seat.objects.filter(player=kept, game__seats__player=merged)
        .select_related("game")
        .order_by("game__created_at", "game_id")
        .first()
    )
    if shared is not None:
        return _(
            "%(kept)s and %(merged)s both sat at the table in %(game)s: they are two people."
        ) % {**names, "game": _game_named(shared.game)}
    night = (
        TournamentEntry.objects.filter(player=kept, tournament__entries__player=merged)
        .select_related("tournament")
        .order_by("tournament__date", "tournament_id")
        .first()
    )
    if night is not None:
        return _(
            "%(kept)s and %(merged)s both played the night %(night)s of %(day)s: they are two "
            "people."
        ) % {
            **names,
            "night": night.tournament.name,
            "day": date_format(night.tournament.date, "SHORT_DATE_FORMAT"),
        }
    return ""


def merge_preview(*, kept: Player, merged: Player) -> MergePreview:
    """What `player_merge(kept=kept, merged=merged)` would move now, or why it is refused."""
    preview = MergePreview(kept=kept, merged=merged, refusal=_refusal(kept, merged))
    if preview.refusal:
        return preview
    seats = Seat.objects.filter(player=merged)
    preview.seats = seats.count()
    preview.entries = TournamentEntry.objects.filter(player=merged).count()
    standing_seasons = set(
        PlayerStanding.objects.filter(player=merged).values_list("season_id", flat=True)
    )
    preview.standings = len(standing_seasons)
    preview.partnerships = PartnershipStanding.objects.filter(
        Q(first=merged) | Q(second=merged)
    ).count()
    preview.rating = PlayerRating.objects.filter(player=merged).exists()
    if merged.user_id is not None and kept.user_id is None:
        preview.account = merged.user
    game_seasons = Game.objects.filter(seats__player=merged, season__isnull=False).values_list(
        "season_id", flat=True
    )
    night_seasons = TournamentEntry.objects.filter(
        player=merged, tournament__season__isnull=False
    ).values_list("tournament__season_id", flat=True)
    preview.season_ids = sorted(standing_seasons | set(game_seasons) | set(night_seasons))
    return preview


def player_merge(*, kept: Player, merged: Player, by: User | None) -> PlayerMerge:
    """Make `merged` one with `kept` (see the module docstring) and return the record of it.

    `by` must be a member of the club allowed PLAYERS_MERGE. Refused with LeagueError naming
    why (and nothing changes) when the two sat in the same game or played the same night, are
    linked to different accounts, are of different clubs, or one of them no longer exists
    (merged or deleted by another request a moment ago). Merges and renames of a club take
    turns (the club row is locked), and a game or night that seats both players while the
    merge runs makes it refuse rather than fail."""
    with transaction.atomic():
        Club.objects.select_for_update().filter(pk=kept.club_id).first()
        actor = club_actor(kept.club_id, by)
        if not may(actor, PLAYERS_MERGE, PlayerFacts(club_id=kept.club_id)):
            raise LeagueError(_("Only an owner or a director merges players."))
        locked = {
            player.pk: player
            # Only the player rows are locked: PostgreSQL refuses FOR UPDATE on the nullable
            # side of the outer join to the account.
            for player in Player.objects.select_for_update(of=("self",))
            .select_related("user")
            .filter(pk__in=[kept.pk, merged.pk])
        }
        if kept.pk not in locked or merged.pk not in locked:
            raise LeagueError(_("One of these players no longer exists (merged or deleted)."))
        kept, merged = locked[kept.pk], locked[merged.pk]
        preview = merge_preview(kept=kept, merged=merged)
        facts = PlayerFacts(club_id=kept.club_id, merge_refusal=preview.refusal)
        decision = may(actor, PLAYERS_MERGE, facts)
        if not decision:
            raise LeagueError(decision.reason)
        game_ids = list(Seat.objects.filter(player=merged).values_list("game_id", flat=True))
        try:
            # A savepoint: a rival request seating both players in one game, or entering both
            # in one night, between the check and here hits a unique constraint.
            with transaction.atomic():
                preview.seats = Seat.objects.filter(player=merged).update(player=kept)
                preview.entries = TournamentEntry.objects.filter(player=merged).update(player=kept)
        except IntegrityError:
            why = _refusal(kept, merged) or _("The players changed meanwhile: try again.")
            raise LeagueError(why) from None
        PlayerMerge.objects.filter(kept=merged).update(kept=kept)
        if preview.account is not None:
            account = preview.account
            merged.user = None
            merged.save(update_fields=["user"])
            kept.user = account
            kept.save(update_fields=["user"])
        # Derived rows: the summaries name the merged player's id by seat; they, the merged
        # player's standings and rating (deleted with them) are rebuilt after the commit.
        GameSummary.objects.filter(game_id__in=game_ids).delete()
        record = PlayerMerge.objects.create(
            club_id=kept.club_id,
            kept=kept,
            merged_name=merged.name,
            merged_player_id=merged.pk,
            by=by,
            by_name=by.get_username() if by is not None else "",
            moved=preview.moved,
        )
        merged.delete()
        derived_data_mark_stale(season_ids=preview.season_ids, club_ids=[kept.club_id])
    return record
