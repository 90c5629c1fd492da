from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    """The tournaments room as a Django app of its own (label `tournaments`). Its tables keep
    the names they had when the room was a package of the `leagues` app (`db_table` on every
    model). Its hooks into the sheet and the standings are wired by the assembly
    (`leagues.apps.LeaguesConfig.ready`)."""

    name = "leagues.tournaments"
    label = "tournaments"
    verbose_name = _("Tournament nights")
