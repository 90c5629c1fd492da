from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from kaiser_league import views
from scorecards import start_views
from scorecards import views as scorecard_views

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("games/", include("scorecards.urls")),
    path("t/<str:token>/", scorecard_views.game_table_join, name="game_table_join"),
    path("clubs/<slug:slug>/games/new", start_views.club_game_new, name="club_game_new"),
    path("", include("leagues.urls")),
]
