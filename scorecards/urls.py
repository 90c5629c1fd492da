from django.urls import path

from scorecards import views

urlpatterns = [
    path("<int:game_id>/", views.game_sheet, name="game_sheet"),
    path("<int:game_id>/record.json", views.game_record_download, name="game_record_download"),
]
