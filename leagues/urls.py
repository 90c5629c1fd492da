from django.urls import path

from leagues import season_views, views
from leagues.players import views as player_views

urlpatterns = [
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
