"""What a night's page offers of the hall (`leagues.tournaments.night_links`): the file of a
finished night, for whoever runs it, to carry to the club's server."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _

from leagues.tournaments.models import Tournament, TournamentStatus
from leagues.tournaments.night_links import NightLink


class HallNightLinks:
    def links(self, tournament: Tournament, *, can_run: bool) -> list[NightLink]:
        if not can_run or tournament.status != TournamentStatus.FINISHED:
            return []
        url = reverse("night_bundle", args=[tournament.pk])
        return [NightLink(url, _("File for the club's server"), download=True)]
