"""URLs of the standings pages: season standings, ratings, a player's record, a season's pot."""

from django.urls import path

from leagues.standings import award_views, views, widget_views

urlpatterns = [
    path("clubs/<slug:slug>/players/<int:player_id>/", views.player_detail, name="player_detail"),
    path("clubs/<slug:slug>/seasons/<int:season_id>/pot/", views.season_pot, name="season_pot"),
    path(
        "clubs/<slug:slug>/seasons/<int:season_id>/awards/",
        award_views.season_awards_page,
        name="season_awards",
    ),
    path(
        "clubs/<slug:slug>/seasons/<int:season_id>/widget/",
        widget_views.standings_widget,
        name="standings_widget",
    ),
    path("clubs/<slug:slug>/standings/", views.standings, name="standings"),
    path(
        "clubs/<slug:slug>/standings/partnerships/",
        views.standings_partnerships,
        name="standings_partnerships",
    ),
    path("clubs/<slug:slug>/standings/refresh/", views.standings_refresh, name="standings_refresh"),
    path("clubs/<slug:slug>/ratings/", views.ratings, name="ratings"),
]
