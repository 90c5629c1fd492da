from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClubsConfig(AppConfig):
    """The clubs room as a Django app of its own (label `clubs`). Its tables keep the names they
    had when the room was a package of the `leagues` app (`db_table` on every model)."""

    name = "leagues.clubs"
    label = "clubs"
    verbose_name = _("Clubs and seasons")
