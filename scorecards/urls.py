from django.urls import path

from scorecards import (
    hand_views,
    history_views,
    print_views,
    seat_views,
    share_views,
    start_views,
    table_views,
    views,
)

urlpatterns = [
    path("new", start_views.quick_game_new, name="quick_game_new"),
    path("<int:game_id>/", table_views.game_sheet, name="game_sheet"),
    path("<int:game_id>/record.json", views.game_record_download, name="game_record_download"),
    path("<int:game_id>/poll", table_views.game_poll, name="game_poll"),
    path("<int:game_id>/hands/all", history_views.game_history, name="game_history"),
    path("<int:game_id>/print", print_views.game_print, name="game_print"),
    path("<int:game_id>/table-link", hand_views.game_table_link, name="game_table_link"),
    path("<int:game_id>/seat", hand_views.game_seat_claim, name="game_seat_claim"),
    path("<int:game_id>/seat/release", seat_views.game_seat_release, name="game_seat_release"),
    path("<int:game_id>/abandon", hand_views.game_abandon_view, name="game_abandon"),
    path("<int:game_id>/delete", hand_views.game_delete_view, name="game_delete"),
    path("<int:game_id>/share", share_views.game_share_view, name="game_share"),
    path("<int:game_id>/hands/", table_views.hand_submit, name="hand_submit"),
    path("<int:game_id>/hands/preview", table_views.hand_preview, name="hand_preview"),
    path("<int:game_id>/hands/undo", hand_views.hand_undo_last, name="hand_undo"),
    path("<int:game_id>/hands/<int:number>/", hand_views.hand_detail, name="hand_detail"),
    path(
        "<int:game_id>/hands/<int:number>/confirm",
        hand_views.hand_confirm_view,
        name="hand_confirm",
    ),
]
