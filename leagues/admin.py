from django.contrib import admin

from leagues.club_removal import club_remove
from leagues.clubs.models import Club, Invitation, Membership, Player, Season
from leagues.standings.models import PlayerRating, PlayerStanding, RebuildFailure, StandingsSnapshot


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "standings_public", "hands_need_confirmation"]
    prepopulated_fields = {"slug": ["name"]}
    search_fields = ["name", "slug"]
    inlines = [MembershipInline]
    # Turning confirmation on decides which finished games wait for it (`confirmation_since`):
    # only the club's settings page does that, through its service.
    readonly_fields = ["hands_need_confirmation", "confirmation_since"]

    # A night's table protects its game (TournamentTable.game): deleting a club that ran a
    # night goes through club_remove, which deletes the nights first, so nothing is protected.
    def get_deleted_objects(self, objs, request):
        deleted, counts, perms_needed, _protected = super().get_deleted_objects(objs, request)
        return deleted, counts, perms_needed, []

    def delete_model(self, request, obj) -> None:
        club_remove(club=obj)

    def delete_queryset(self, request, queryset) -> None:
        for club in queryset:
            club_remove(club=club)


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "user"]
    list_filter = ["club"]
    search_fields = ["name"]
    autocomplete_fields = ["user"]


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "starts_on", "ends_on"]
    list_filter = ["club"]


# Tournament nights (read mostly: directors run them from the site).
from leagues.tournaments.models import Tournament, TournamentEntry, TournamentRound  # noqa: E402


class TournamentEntryInline(admin.TabularInline):
    model = TournamentEntry
    extra = 0
    raw_id_fields = ["player"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "date", "format", "status"]
    list_filter = ["club", "format", "status"]
    inlines = [TournamentEntryInline]


@admin.register(TournamentRound)
class TournamentRoundAdmin(admin.ModelAdmin):
    list_display = ["tournament", "number", "status", "drawn_at", "closed_at"]


# --- Issue 4: invitations and the derived snapshots (read-only: rebuilt from hands) -----------


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = ["club", "role", "created_at", "expires_at", "revoked"]
    list_filter = ["club", "revoked"]
    readonly_fields = ["token"]


class _SnapshotAdmin(admin.ModelAdmin):
    """Standings and ratings are written by the rebuild services only."""

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(PlayerStanding)
class PlayerStandingAdmin(_SnapshotAdmin):
    list_display = ["player", "season", "games", "wins", "points_for", "streak"]
    list_filter = ["season"]


@admin.register(PlayerRating)
class PlayerRatingAdmin(_SnapshotAdmin):
    list_display = ["player", "club", "ordinal", "games"]
    list_filter = ["club"]


@admin.register(StandingsSnapshot)
class StandingsSnapshotAdmin(_SnapshotAdmin):
    list_display = ["season", "computed_at", "games", "hands"]


@admin.register(RebuildFailure)
class RebuildFailureAdmin(_SnapshotAdmin):
    """Rebuilds that failed or left games out: written by the rebuild services, gone after the
    next clean rebuild of the same season or club."""

    list_display = ["failed_at", "kind", "club", "season", "error"]
    list_filter = ["kind", "club"]
    readonly_fields = ["kind", "club", "season", "error", "games_left_out", "failed_at"]
