"""The draw of a night's next round from its rounds so far: the players' history for a rotating
night, the pairs' for a Swiss or round robin (the seating itself is `seating`)."""

from __future__ import annotations

from collections import Counter

from leagues.tournaments.models import (
    Tournament,
    TournamentEntry,
    TournamentFormat,
    TournamentRound,
)
from leagues.tournaments.seating import Draw, History, rotating_draw, round_robin_draw, swiss_draw
from leagues.tournaments.selectors import tournament_entries


def rotating(
    tournament: Tournament,
    present: list[TournamentEntry],
    rounds: list[TournamentRound],
    standings_order: list[int],
) -> Draw:
    by_player = {e.player_id: e.pk for e in tournament_entries(tournament)}
    history = History()
    for round_ in rounds:
        tables = []
        for table in round_.tables.all():
            seats = sorted(table.game.seats.all(), key=lambda s: s.seat)
            tables.append(tuple(by_player[seated(s.player_id)] for s in seats))
        history.add(Draw(tuple(tables), tuple(s.entry_id for s in round_.sitouts.all())))
    ids = [e.pk for e in present]
    ranking = standings_order if tournament.movement and rounds else None
    return rotating_draw(ids, history, seed=tournament.pk, ranking=ranking)


def seated(value: int | None) -> int:
    """A seat's player (or an entry's pair) at a tournament table, which always has one."""
    assert value is not None, "a tournament table seats club players in pairs"
    return value


def pairs_draw(
    tournament: Tournament,
    present: list[TournamentEntry],
    rounds: list[TournamentRound],
    standings_order: list[int],
    entries: list[TournamentEntry],
) -> Draw:
    pair_of_player = {e.player_id: seated(e.pair_number) for e in entries}
    pair_of_entry = {e.pk: seated(e.pair_number) for e in entries}
    here = sorted({seated(e.pair_number) for e in present})
    # A pair plays only with both partners present.
    counts = Counter(e.pair_number for e in present)
    here = [p for p in here if counts[p] == 2]
    number = len(rounds) + 1
    if tournament.format == TournamentFormat.ROUND_ROBIN:
        if rounds:
            field_: set[int] = set()
            for table in rounds[0].tables.all():
                field_.update(pair_of_player[seated(s.player_id)] for s in table.game.seats.all())
            field_.update(pair_of_entry[s.entry_id] for s in rounds[0].sitouts.all())
            field_list = sorted(field_)
        else:
            field_list = here
        absent = [p for p in field_list if p not in here]
        return round_robin_draw(field_list, number, absent=absent)
    played: list[tuple[int, int]] = []
    byes: Counter = Counter()
    for round_ in rounds:
        for table in round_.tables.all():
            seats = sorted(table.game.seats.all(), key=lambda s: s.seat)
            first, second = (pair_of_player[seated(seat.player_id)] for seat in seats[:2])
            played.append((first, second))
        byes.update({pair_of_entry[s.entry_id] for s in round_.sitouts.all()})
    position = {key: i for i, key in enumerate(standings_order)}
    ranked = sorted(here, key=lambda p: position.get(p, len(position)))
    return swiss_draw(ranked, played, byes)
