from django.urls import path

from leagues.hall import views

urlpatterns = [
    path(
        "tournaments/<int:tournament_id>/bundle/",
        views.night_bundle_download,
        name="night_bundle",
    ),
    path("clubs/<slug:slug>/upload-night/", views.night_upload_page, name="night_upload"),
]
