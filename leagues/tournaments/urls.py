from django.urls import path

from leagues.tournaments import board_views, calendar_views, night_views, views

urlpatterns = [
    path("club/<slug:slug>/", views.tournament_list, name="tournament_list"),
    path(
        "club/<slug:slug>/nights.ics",
        calendar_views.club_nights_calendar,
        name="club_nights_calendar",
    ),
    path("<int:tournament_id>/", views.tournament_detail, name="tournament_detail"),
    path("<int:tournament_id>/entries/", views.entry_add, name="tournament_entry_add"),
    path(
        "<int:tournament_id>/entries/<int:entry_id>/check-in/",
        views.entry_check_in_view,
        name="tournament_entry_check_in",
    ),
    path(
        "<int:tournament_id>/entries/<int:entry_id>/withdraw/",
        views.entry_withdraw_view,
        name="tournament_entry_withdraw",
    ),
    path("<int:tournament_id>/draw/", views.round_draw_view, name="tournament_draw"),
    path(
        "<int:tournament_id>/rounds/<int:number>/close/",
        views.round_close_view,
        name="tournament_round_close",
    ),
    path(
        "<int:tournament_id>/rounds/<int:number>/cards/",
        views.round_cards,
        name="tournament_cards",
    ),
    path("<int:tournament_id>/finish/", views.tournament_finish_view, name="tournament_finish"),
    path("<int:tournament_id>/console/", views.tournament_console, name="tournament_console"),
    path(
        "<int:tournament_id>/call-off/",
        night_views.tournament_call_off,
        name="tournament_call_off",
    ),
    path(
        "<int:tournament_id>/cancel/", night_views.tournament_cancel_view, name="tournament_cancel"
    ),
    path(
        "<int:tournament_id>/delete/", night_views.tournament_delete_view, name="tournament_delete"
    ),
    path(
        "<int:tournament_id>/standings/",
        board_views.tournament_standings_view,
        name="tournament_standings",
    ),
    path(
        "<int:tournament_id>/projector/",
        board_views.tournament_projector,
        name="tournament_projector",
    ),
    path(
        "<int:tournament_id>/tables/<int:table_id>/",
        board_views.table_detail,
        name="tournament_table",
    ),
    path(
        "<int:tournament_id>/tables/<int:table_id>/undo/",
        board_views.table_hand_undo,
        name="tournament_table_undo",
    ),
]
