"""Compliance pages of home games (mounted under /compliance/home/)."""

from django.urls import path

from tables.views import home_compliance

app_name = "home-compliance"

urlpatterns = [
    path("games/<int:game_id>/", home_compliance.game_timeline, name="game"),
    path("games/<int:game_id>/record.json", home_compliance.game_record_download, name="game-record"),
    path("hands/<int:hand_id>/", home_compliance.hand_timeline, name="hand"),
    path("players/<int:player_id>/", home_compliance.player_in_game, name="player"),
]
