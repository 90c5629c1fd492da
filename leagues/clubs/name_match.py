"""Names that look like the same person: "Jerome Pelletier" and "Jérôme Pelletier".

A club tells its players apart by `leagues.clubs.models.name_key` (case folded, accents kept:
"Élise" and "Elise" may be two people). A name typed at a table or read from an import that
differs from a player's only by its accents, case or spacing is, far more often, that player
typed on a keyboard without accents. Such a name is never silently made a second player: the
pages ask, showing the player it looks like (`players_alike`), and renames refuse it
(`name_taken_by`)."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence

from django.utils.translation import gettext as _

from leagues.clubs.models import Club, Player, name_key

# Letters NFKD does not split into a base letter and an accent.
_FOLDS = str.maketrans(
    {"ø": "o", "đ": "d", "ł": "l", "ħ": "h", "ı": "i", "æ": "ae", "œ": "oe", "þ": "th"}
)


def likeness_key(name: str) -> str:
    """The key under which two names look like the same person: case folded, accents and other
    combining marks dropped, runs of spaces made one. "Jérôme  PELLETIER" and "jerome pelletier"
    share it."""
    folded = unicodedata.normalize("NFKD", name.casefold())
    bare = "".join(char for char in folded if not unicodedata.combining(char))
    return " ".join(bare.translate(_FOLDS).split())


def players_alike(club: Club, names: Iterable[str]) -> dict[str, list[Player]]:
    """For each of `names` that is not already a player of `club` (under `name_key`) but looks
    like one or more of them (under `likeness_key`), those players in name order; names that
    are a player, or look like nobody, are left out. One query, whatever the number of names."""
    wanted = {name: likeness_key(name) for name in names if name and name.strip()}
    if not wanted:
        return {}
    exact: set[str] = set()
    by_likeness: dict[str, list[Player]] = {}
    for player in Player.objects.filter(club=club).only("pk", "name", "name_key", "club_id"):
        exact.add(player.name_key)
        by_likeness.setdefault(likeness_key(player.name), []).append(player)
    found = {}
    for name, key in wanted.items():
        if name_key(name) in exact or key not in by_likeness:
            continue
        found[name] = sorted(by_likeness[key], key=lambda player: (player.name, player.pk))
    return found


def name_taken_by(club: Club, name: str, *, other_than: Player | None = None) -> Player | None:
    """The player of `club` (other than `other_than`) whose name is `name` or looks like it
    (case, accents, spacing), or None: a rename to such a name would make two of one person."""
    key = likeness_key(name)
    players = Player.objects.filter(club=club).only("pk", "name", "name_key", "club_id")
    if other_than is not None:
        players = players.exclude(pk=other_than.pk)
    for player in players.order_by("pk"):
        if likeness_key(player.name) == key:
            return player
    return None


def alike_message(name: str, players: Sequence[Player]) -> str:
    """Says that `name` looks like `players` of the club, and what a director may do."""
    return _(
        "“%(name)s” looks like %(players)s, already a player of the club (only accents, case "
        "or spaces differ). If it is someone else, add %(name)s anyway."
    ) % {"name": name, "players": ", ".join(player.name for player in players)}
