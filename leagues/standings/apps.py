from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class StandingsConfig(AppConfig):
    """The standings room as a Django app of its own (label `standings`). Its tables keep the
    names they had when the room was a package of the `leagues` app (`db_table` on every model).
    Its signal receivers are wired by the assembly (`leagues.apps.LeaguesConfig.ready`)."""

    name = "leagues.standings"
    label = "standings"
    verbose_name = _("Standings")
