"""Links a night's page shows to pages above the tournament room (the hall's file of a finished
night, an assembly page). The tournament room cannot name those pages (its templates link to
its own room and below: tests/test_architecture_reach.py), so the assembly registers what the
page offers (`night_links_register`, wired in `LeaguesConfig.ready`) and the page shows it.
Without a provider, the page offers none."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from leagues.tournaments.models import Tournament


@dataclass(frozen=True)
class NightLink:
    url: str
    label: str
    download: bool = False  # a file to save, not a page


class NightLinks(Protocol):
    def links(self, tournament: Tournament, *, can_run: bool) -> list[NightLink]:
        """The links of `tournament`'s page for someone who runs the night (`can_run`) or
        not; no query beyond what the page read."""
        ...


_providers: list[NightLinks] = []


def night_links_register(provider: NightLinks) -> None:
    """Install the provider (once per process; a second registration replaces it)."""
    _providers[:] = [provider]


def night_links(tournament: Tournament, *, can_run: bool) -> list[NightLink]:
    return _providers[0].links(tournament, can_run=can_run) if _providers else []
