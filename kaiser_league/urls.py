from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from kaiser_league import views
from leagues.clubs.account_forms import PasswordResetForm
from scorecards import import_views, share_views, start_views
from scorecards import views as scorecard_views

# A database or broker fault raised outside a view answers 503 (see kaiser_league.errors).
handler500 = "kaiser_league.errors.server_error"

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
    path("sw.js", views.service_worker, name="service_worker"),
    path("offline/", views.offline, name="offline"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("robots.txt", views.robots_txt, name="robots_txt"),
    path("admin/", admin.site.urls),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    # Password reset: the e-mail goes through EMAIL_BACKEND (console by default).
    path(
        "accounts/password-reset/",
        # Restored accounts have no usable password; this form lets them set one.
        auth_views.PasswordResetView.as_view(form_class=PasswordResetForm),
        name="password_reset",
    ),
    path(
        "accounts/password-reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "accounts/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "accounts/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("i18n/", include("django.conf.urls.i18n")),
    path("games/", include("scorecards.urls")),
    path("tournaments/", include("leagues.tournaments.urls")),
    path("t/<str:token>/", scorecard_views.game_table_join, name="game_table_join"),
    # A shared game's public read-only record (no sign-in): the token is the access.
    path("s/<str:token>", share_views.game_shared, name="game_shared"),
    path(
        "clubs/<slug:slug>/games/import",
        import_views.club_game_import,
        name="club_game_import",
    ),
    path("", include("leagues.clubs.urls")),
    path("", include("leagues.standings.urls")),
    path("clubs/<slug:slug>/games/new", start_views.club_game_new, name="club_game_new"),
    path("", include("leagues.urls")),
    path("", include("leagues.hall.urls")),
]
