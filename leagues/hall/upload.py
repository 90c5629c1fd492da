"""Uploading a night bundle into a club (see the package docstring for the contract)."""

from __future__ import annotations

from collections.abc import Mapping

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from leagues.clubs.models import Club, Membership, Player, Season, name_key
from leagues.clubs.roles import TOURNAMENTS_RUN, role_can
from leagues.clubs.selectors import players_by_name
from leagues.clubs.services import LeagueError
from leagues.hall.bundle import NightBundle
from leagues.tournaments.models import (
    RoundStatus,
    Tournament,
    TournamentEntry,
    TournamentRound,
    TournamentSitOut,
    TournamentStatus,
    TournamentTable,
)
from leagues.tournaments.season_nights import night_changed_announce
from scorecards.import_names import players_settle
from scorecards.importing import game_import
from scorecards.models import Hand
from scorecards.services import game_abandon, game_close_by_round


def night_uploaded(club: Club, bundle: NightBundle) -> Tournament | None:
    """The night of `club` that `bundle` was uploaded as already, or None. LeagueError when its
    games are another club's (the hands' keys are unique on the whole server)."""
    keys = [key for game in bundle.games for key in game["keys"]]
    if not keys:
        return None
    hand = (
        Hand.objects.filter(idempotency_key__in=keys)
        .select_related("game__tournament_table__round__tournament")
        .first()
    )
    if hand is None:
        return None
    if hand.game.club_id != club.pk:
        raise LeagueError(_("This night was uploaded into another club."))
    table = getattr(hand.game, "tournament_table", None)
    if table is None:
        raise LeagueError(
            _("The games of this night are in the club already, as games of no night.")
        )
    return table.round.tournament


def _may_upload(club: Club, by: User | None) -> bool:
    if by is None:
        return False
    role = Membership.objects.filter(club=club, user=by).values_list("role", flat=True).first()
    return role_can(role, TOURNAMENTS_RUN)


def _players(
    club: Club, names: list[str], same: Mapping[str, str], alike_match: bool
) -> dict[str, Player]:
    """Every name of the night as a player of the club: the player of that name, the one it was
    said to be (`same`), or a new one. PlayersAlike (nothing written) for a name in doubt."""
    found = players_by_name(club, names)
    missing = [name for name in names if name_key(name) not in found]
    settled = players_settle(club, missing, same=same, alike_match=alike_match)
    players = {}
    for name in names:
        player = found.get(name_key(name)) or settled.get(name)
        if player is None:
            player = Player.objects.create(club=club, name=name)
            found[name_key(name)] = player
        players[name] = player
    return players


def night_upload(
    *,
    club: Club,
    bundle: NightBundle,
    by: User | None,
    season: Season | None = None,
    same: Mapping[str, str] | None = None,
    alike_match: bool = False,
) -> tuple[Tournament, bool]:
    """Make the night of `bundle` a finished night of `club` (in `season`), with its games,
    entries, rounds, tables and sit-outs; its games count for the season like games played on
    this server. Returns the night and whether it was added (False: it was there already, and
    nothing changed). Only a director or owner of the club uploads (LeagueError); a season of
    another club or a closed one is refused; a name that only looks like a player of the club
    raises PlayersAlike (a RecordError naming `seats`) until `same` says who it is. One
    transaction: a refusal leaves nothing behind."""
    same = same or {}
    with transaction.atomic():
        # Uploads into one club are decided one after the other, so the same file sent twice
        # at once is added once.
        Club.objects.select_for_update().filter(pk=club.pk).first()
        if not _may_upload(club, by):
            raise LeagueError(_("Only a director or an owner of the club uploads a night."))
        if season is not None and season.club_id != club.pk:
            raise LeagueError(_("The season belongs to another club."))
        if season is not None and season.closed_at is not None:
            raise LeagueError(_("The season is closed: choose an open season."))
        existing = night_uploaded(club, bundle)
        if existing is not None:
            return existing, False
        players = _players(club, [name.strip() for name in bundle.players], same, alike_match)
        games = []
        for game_data in bundle.games:
            game = game_import(
                club=club,
                record=game_data["record"],
                season=season,
                created_by=by,
                same=same,
                alike_match=alike_match,
                hand_keys=game_data["keys"],
            )
            if game_data["ended"] == "round" or (
                game_data["ended"] == "abandoned" and not game_data["keys"]
            ):
                game = game_close_by_round(game=game)
            elif game_data["ended"] == "abandoned":
                game = game_abandon(
                    game=game, by=by, reason=_("Abandoned at the night on the hall laptop.")
                )
            games.append(game)
        night = Tournament.objects.create(
            club=club,
            season=season,
            created_by=by,
            status=TournamentStatus.FINISHED,
            **bundle.night,
        )
        now = timezone.now()
        rounds = {
            number: TournamentRound.objects.create(
                tournament=night, number=number, status=RoundStatus.CLOSED, closed_at=now
            )
            for number in bundle.rounds
        }
        entries = [
            TournamentEntry.objects.create(
                tournament=night,
                player=players[bundle.players[entry["player"]].strip()],
                pair_number=entry["pair_number"],
                checked_in=entry["checked_in"],
                first_round=entry["first_round"],
                last_round=entry["last_round"],
            )
            for entry in bundle.entries
        ]
        TournamentTable.objects.bulk_create(
            TournamentTable(
                round=rounds[table["round"]], number=table["number"], game=games[table["game"]]
            )
            for table in bundle.tables
        )
        TournamentSitOut.objects.bulk_create(
            TournamentSitOut(round=rounds[sitout["round"]], entry=entries[sitout["entry"]])
            for sitout in bundle.sitouts
        )
        # The standings count the night's players and winners, and its games.
        night_changed_announce(tournament=night, games_count_changed=True)
    return night, True
