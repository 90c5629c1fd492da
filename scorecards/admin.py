from django.contrib import admin

from scorecards.models import Game, Hand, HandVersion, Seat
from scorecards.services import games_delete


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    raw_id_fields = ["player"]


class HandInline(admin.TabularInline):
    """Read-only: hands change only through the services, which re-score the game."""

    model = Hand
    extra = 0
    can_delete = False
    fields = (
        "number",
        "dealer",
        "thrown_in",
        "bidder",
        "bid",
        "kind",
        "tricks",
        "entered_by_name",
    )
    readonly_fields = fields

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["pk", "club", "table_label", "status", "scores", "hand_count", "created_at"]
    list_filter = ["status", "club"]
    readonly_fields = ["scores", "target", "next_dealer", "hand_count", "winner", "finish_reason"]
    inlines = [SeatInline, HandInline]

    # A deleted game leaves the standings and ratings it counted in: through the service, which
    # announces the deletion so they are rebuilt.
    def delete_model(self, request, obj: Game) -> None:
        games_delete(games=[obj])

    def delete_queryset(self, request, queryset) -> None:
        games_delete(games=list(queryset))


@admin.register(HandVersion)
class HandVersionAdmin(admin.ModelAdmin):
    list_display = ["game", "number", "action", "by_name", "at"]
    list_filter = ["action"]
    readonly_fields = ["game", "number", "action", "before", "after", "by", "by_name", "at"]
