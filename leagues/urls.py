from django.urls import path

from leagues import views

urlpatterns = [
    path("", views.home, name="home"),
    path("clubs/<slug:slug>/", views.club_detail, name="club_detail"),
]
