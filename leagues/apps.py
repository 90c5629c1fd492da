from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeaguesConfig(AppConfig):
    name = "leagues"
    verbose_name = _("Clubs and seasons")

    def ready(self) -> None:
        # The rooms are wired here, where every room may be imported: clubs announce a change of
        # what counts and the standings room rebuilds. Celery looks for tasks only in
        # `<app>.tasks`; importing the standings tasks registers them under their fixed names.
        from leagues.clubs.services import club_counting_changed
        from leagues.standings import tasks  # noqa: F401
        from leagues.standings.services import club_counting_changed_receive

        club_counting_changed.connect(
            club_counting_changed_receive, dispatch_uid="standings_counting_changed"
        )
