"""The app's own URLs, then the two floor views (bench only: served under
`bench.floor.settings`, never by `kaiser_league.urls`)."""

from django.urls import path

from bench.floor import views
from kaiser_league.urls import handler500 as handler500
from kaiser_league.urls import urlpatterns as app_urlpatterns

urlpatterns = [
    *app_urlpatterns,
    path("_bench/floor/", views.floor_get, name="bench_floor_get"),
    path("_bench/floor-post/", views.floor_post, name="bench_floor_post"),
]
