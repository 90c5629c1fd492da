"""URLs of the club pages (included before leagues.urls: `clubs/new/` first)."""

from django.urls import path

from leagues.clubs import player_views, views

urlpatterns = [
    path("accounts/signup/", views.signup, name="signup"),
    path("clubs/new/", views.club_create, name="club_create"),
    path("join/<str:token>/", views.invitation_accept, name="invitation_accept"),
    path("clubs/<slug:slug>/members/", views.club_members, name="club_members"),
    path(
        "clubs/<slug:slug>/members/<int:membership_id>/role/",
        views.membership_role,
        name="membership_role",
    ),
    path(
        "clubs/<slug:slug>/members/<int:membership_id>/remove/",
        views.membership_remove,
        name="membership_remove",
    ),
    path("clubs/<slug:slug>/invitations/", views.invitation_create, name="invitation_create"),
    path(
        "clubs/<slug:slug>/invitations/<int:invitation_id>/revoke/",
        views.invitation_revoke,
        name="invitation_revoke",
    ),
    path("clubs/<slug:slug>/players/<int:player_id>/edit/", views.player_edit, name="player_edit"),
    path(
        "clubs/<slug:slug>/players/<int:player_id>/rename/",
        player_views.player_rename_page,
        name="player_rename",
    ),
]
