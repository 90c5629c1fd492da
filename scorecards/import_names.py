"""Who the names of an imported record are, when a name only looks like a player of the club.

A record's seat name that is a player of the club (under `name_key`) is that player; a name that
looks like nobody is a new player. A name that differs from a player's only by its accents, case
or spacing ("Jerome Pelletier" beside "Jérôme Pelletier") is never silently made a second player:
the import page asks (its answers come back as `same`: name -> the chosen player's id, or "new"),
and `manage.py game_import` takes the one player it looks like (`alike_match`), or refuses when
it looks like several.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext

from leagues.clubs.models import Club, Player
from leagues.clubs.name_match import players_alike
from scorecards.list_words import semicolon_join
from scorecards.models import MAX_SEATS
from scorecards.rules import RecordError

NEW = "new"  # the answer "a new player, not the one it looks like"


class PlayersAlike(RecordError):
    """Names of the record that look like players of the club, with no answer saying who they
    are. `alike` is each such name with the players it looks like (the import page asks)."""

    def __init__(self, alike: Mapping[str, Sequence[Player]], *, several_only: bool = False):
        self.alike = {name: list(players) for name, players in alike.items()}
        described = semicolon_join(
            gettext("“%(name)s” looks like %(players)s")
            % {"name": name, "players": ", ".join(player.name for player in players)}
            for name, players in self.alike.items()
        )
        if several_only:
            message = gettext(
                "%(names)s, several players of the club: merge or rename them first"
            ) % {"names": described}
        else:
            message = gettext("%(names)s: say whether each is the club's player or a new one") % {
                "names": described
            }
        super().__init__("seats", message)


def players_settle(
    club: Club, names: Sequence[str], *, same: Mapping[str, str], alike_match: bool
) -> dict[str, Player]:
    """For each of `names` (not players of `club`) that looks like players of the club: the
    player it is, by the answer in `same` (a player's id among those it looks like; NEW leaves
    it out: a new player), or with `alike_match` the one player it looks like. Raises
    PlayersAlike for the names still in doubt. One query."""
    settled: dict[str, Player] = {}
    doubts: dict[str, list[Player]] = {}
    several = False
    for name, players in players_alike(club, names).items():
        answer = same.get(name, "")
        if answer == NEW:
            continue
        picked = next((player for player in players if answer == str(player.pk)), None)
        if picked is None and alike_match and len(players) == 1:
            picked = players[0]
        if picked is not None:
            settled[name] = picked
        else:
            doubts[name] = players
            several = several or len(players) > 1
    if doubts:
        raise PlayersAlike(doubts, several_only=alike_match and several)
    return settled


def answers_read(data: Mapping[str, Any], limit: int = MAX_SEATS) -> dict[str, str]:
    """The answers of the import page's question: `same_<n>_for` is a name, `same_<n>` who it
    is (a player's id, or NEW), for n below `limit` (a game's seats; a night's players). Only
    text is read."""
    answers = {}
    for index in range(limit):
        name, answer = data.get(f"same_{index}_for"), data.get(f"same_{index}")
        if isinstance(name, str) and isinstance(answer, str) and name.strip():
            answers[name.strip()] = answer.strip()
    return answers


def record_text(record: Mapping[str, Any]) -> str:
    """The record as compact JSON text, to show it again in the import form while the page
    asks who a name is (a file cannot be sent back; the text can)."""
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))
