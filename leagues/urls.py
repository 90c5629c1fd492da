from django.urls import path

from leagues import club_pages, season_views, views
from leagues.players import views as player_views

urlpatterns = [
    path("clubs/<slug:slug>/settings/", club_pages.club_settings, name="club_settings"),
    path("clubs/<slug:slug>/players/", club_pages.club_players, name="club_players"),
    path("clubs/<slug:slug>/seasons/", club_pages.club_seasons, name="club_seasons"),
    path(
        "clubs/<slug:slug>/players/<int:player_id>/merge/",
        player_views.player_merge_page,
        name="player_merge",
    ),
    path("", views.home, name="home"),
    path("clubs/<slug:slug>/", views.club_detail, name="club_detail"),
    path("clubs/<slug:slug>/delete/", views.club_delete, name="club_delete"),
    path(
        "clubs/<slug:slug>/seasons/<int:season_id>/",
        season_views.season_detail,
        name="season_detail",
    ),
    path(
        "clubs/<slug:slug>/seasons/<int:season_id>/edit/",
        season_views.season_edit,
        name="season_edit",
    ),
    path(
        "clubs/<slug:slug>/seasons/<int:season_id>/close/",
        season_views.season_close_view,
        name="season_close",
    ),
    path(
        "clubs/<slug:slug>/seasons/<int:season_id>/reopen/",
        season_views.season_reopen_view,
        name="season_reopen",
    ),
    path(
        "clubs/<slug:slug>/seasons/<int:season_id>/delete/",
        season_views.season_delete_view,
        name="season_delete",
    ),
]
