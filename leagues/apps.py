from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    """The assembly: it holds no model of its own (the rooms `clubs`, `standings` and
    `tournaments` are apps of their own), only the wiring, the admin, backups, the demo club,
    management commands and template tags."""

    name = "leagues"

    def ready(self) -> None:
        # The rooms are wired here, where every room may be imported: clubs and scorecards
        # announce, the standings and tournament rooms listen. Celery looks for tasks only in
        # `<app>.tasks`; importing the standings tasks registers them under their fixed names.
        from leagues.backup import tasks as backup_tasks  # noqa: F401
        from leagues.clubs.services import club_counting_changed
        from leagues.hall.links import HallNightLinks
        from leagues.standings import tasks  # noqa: F401
        from leagues.standings.nights import nights_source_register
        from leagues.standings.services import (
            club_counting_changed_receive,
            game_result_changed_receive,
            games_deleted_receive,
            night_changed_receive,
        )
        from leagues.tournaments.night_links import night_links_register
        from leagues.tournaments.season_nights import SeasonNights, night_changed
        from leagues.tournaments.table_context import TournamentTableContext
        from scorecards.hooks import game_result_changed, games_deleted, table_context_register

        club_counting_changed.connect(
            club_counting_changed_receive, dispatch_uid="standings_counting_changed"
        )
        # Scorecards announces, the rooms above listen (scorecards.hooks).
        game_result_changed.connect(game_result_changed_receive, dispatch_uid="standings_game")
        games_deleted.connect(games_deleted_receive, dispatch_uid="standings_games_deleted")
        table_context_register(TournamentTableContext())
        # The finished sheet shows each rated player's change, which the standings keep.
        from leagues.standings.game_ratings import GameRatingChanges
        from scorecards.hooks import game_ratings_register

        game_ratings_register(GameRatingChanges())
        # The season standings count the nights each player played and won.
        nights_source_register(SeasonNights())
        night_changed.connect(night_changed_receive, dispatch_uid="standings_night_changed")
        # A night's page offers the hall's file of the night (an assembly page).
        night_links_register(HallNightLinks())
