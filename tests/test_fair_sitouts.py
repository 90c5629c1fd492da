"""Fair nights: who sits out a round (a late arrival is not benched before those who have played
more), and the projector's standings in screenfuls that list every row."""

from __future__ import annotations

import datetime
import re
from collections import Counter

import pytest
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from leagues.clubs.models import Season
from leagues.tournaments.board_views import PROJECTOR_ROWS
from leagues.tournaments.seating import History, rotating_draw, sitout_order, swiss_draw
from leagues.tournaments.services import (
    entry_register,
    entry_withdraw,
    round_draw,
    tournament_create,
    tournament_finish,
)

# The rule, case by case: players (in entry order), rounds played, sit-outs, preference ->
# the order in which they sit out.
SITOUT_CASES = [
    # Nobody has played: entry order.
    ([1, 2, 3], {}, {}, {}, [1, 2, 3]),
    # The most rounds played first: the late arrival (4, nothing played) comes last.
    ([1, 2, 3, 4], {1: 1, 2: 1, 3: 1}, {}, {}, [1, 2, 3, 4]),
    ([4, 1, 2, 3], {1: 1, 2: 1, 3: 1}, {}, {}, [1, 2, 3, 4]),
    # Level on rounds played: the fewest sit-outs first.
    ([1, 2, 3], {1: 2, 2: 2, 3: 2}, {1: 1, 2: 0, 3: 1}, {}, [2, 1, 3]),
    # A player who sat out round 1 (played 1 of 2) waits behind those who played both...
    ([1, 2, 3], {1: 1, 2: 2, 3: 2}, {1: 1}, {}, [2, 3, 1]),
    # ...and the late arrival of round 2 (played 0, never sat out) waits behind everyone who
    # played, but before the one who sat out and also played 0 (fewer sit-outs first).
    ([1, 2, 3], {2: 1}, {1: 1}, {}, [2, 3, 1]),
    # Rounds played outrank sit-outs: 1 sat out twice but played 3, 2 never sat out, played 2.
    ([1, 2], {1: 3, 2: 2}, {1: 2}, {}, [1, 2]),
    # Level on both: the format's preference (lowest first), then entry order.
    ([1, 2, 3, 4], {}, {}, {3: -1, 4: 0, 1: 2, 2: 2}, [3, 4, 1, 2]),
    ([1, 2, 3], {1: 1, 2: 1, 3: 0}, {}, {3: -1}, [1, 2, 3]),
]


@pytest.mark.parametrize(("players", "played", "sitouts", "preference", "order"), SITOUT_CASES)
def test_sitout_order_case_by_case(players, played, sitouts, preference, order) -> None:
    assert sitout_order(players, played, sitouts, preference) == order


def test_a_late_arrival_is_not_benched_on_arrival_whatever_the_seed() -> None:
    # 10 players, two sit out round 1; the late arrival makes 11 for round 2 (three sit out):
    # eight players have played a round, so the three come from them.
    for seed in range(200):
        history = History()
        first = rotating_draw(list(range(1, 11)), history, seed=seed)
        history.add(first)
        second = rotating_draw(list(range(1, 12)), history, seed=seed)
        assert 11 not in second.sitouts, seed
        assert not set(second.sitouts) & set(first.sitouts), seed


def _fair(present: list[int], sitouts: tuple[int, ...], history: History) -> None:
    """Whoever sits out has played at least as many rounds as anyone seated; level on rounds
    played, has sat out no more often."""
    seated = [p for p in present if p not in sitouts]
    for out in sitouts:
        for p in seated:
            assert history.played[out] >= history.played[p], (out, p)
            if history.played[out] == history.played[p]:
                assert history.sitouts[out] <= history.sitouts[p], (out, p)


@settings(max_examples=80, deadline=None)
@given(
    start=st.integers(min_value=4, max_value=30),
    rounds=st.integers(min_value=1, max_value=9),
    seed=st.integers(0, 10_000),
    movement=st.booleans(),
    data=st.data(),
)
def test_any_arrivals_and_withdrawals_keep_sitouts_fair(
    start: int, rounds: int, seed: int, movement: bool, data: st.DataObject
) -> None:
    present = list(range(1, start + 1))
    newcomer = start + 1
    history = History()
    since: dict[int, int] = {p: 0 for p in present}  # the round from which a player is present
    for number in range(rounds):
        arrivals = data.draw(st.integers(0, 3), label="arrivals")
        present += list(range(newcomer, newcomer + arrivals))
        since.update({p: number for p in range(newcomer, newcomer + arrivals)})
        newcomer += arrivals
        leaving = data.draw(st.integers(0, max(0, min(3, len(present) - 4))), label="leaving")
        for _ in range(leaving):
            present.remove(data.draw(st.sampled_from(present), label="leaver"))
        ranking = sorted(present, key=lambda p: (p * 7919 + number) % 97) if movement else None
        draw = rotating_draw(present, history, seed=seed, ranking=ranking)
        assert len(draw.sitouts) == len(present) % 4
        _fair(present, draw.sitouts, history)
        history.add(draw)
        # Players present for the same rounds never differ by more than one round played.
        groups: dict[int, list[int]] = {}
        for p in present:
            groups.setdefault(since[p], []).append(p)
        for group in groups.values():
            counts = [history.played[p] for p in group]
            assert max(counts) - min(counts) <= 1, groups


@settings(max_examples=40, deadline=None)
@given(pairs=st.integers(min_value=4, max_value=15), rounds=st.integers(1, 3), data=st.data())
def test_swiss_gives_the_bye_to_a_pair_that_played_most(
    pairs: int, rounds: int, data: st.DataObject
) -> None:
    field_ = list(range(1, pairs + 1))
    played: list[tuple[int, int]] = []
    byes: Counter = Counter()
    for number in range(rounds):
        if number == 1:
            field_.append(pairs + 1)  # a late pair
        ranked = data.draw(st.permutations(field_), label="ranking")
        draw = swiss_draw(ranked, played, byes)
        tables = Counter(p for match in played for p in match)
        for bye in draw.sitouts:
            assert all(tables[bye] >= tables[p] for p in field_ if p not in draw.sitouts)
        played.extend(draw.tables)
        byes.update(draw.sitouts)


def test_swiss_late_pair_is_not_the_bye_on_arrival() -> None:
    # Four pairs played round 1; a fifth, ranked last, arrives: the bye goes to the lowest of
    # those who played.
    draw = swiss_draw([1, 2, 3, 4, 5], played=[(1, 2), (3, 4)])
    assert draw.sitouts == (4,)


# The night at the club: the 11 players with a late arrival and a leaver.

NAMES = [f"P{i:02d}" for i in range(1, 61)]


def _night(club, n: int, *, rounds: int = 3, name: str = "Friday"):
    season, _ = Season.objects.get_or_create(
        club=club, name="S", defaults={"starts_on": datetime.date(2026, 9, 1)}
    )
    night = tournament_create(
        club=club, name=name, date=datetime.date(2026, 11, 20), rounds=rounds, season=season
    )
    for player in NAMES[:n]:
        entry_register(tournament=night, player=player, checked_in=True)
    return night


@pytest.mark.django_db
def test_player_registered_after_round_one_does_not_sit_out_round_two(club) -> None:
    # Several nights, each with its own seed (the night's id), so the rule is not met by luck.
    for index in range(6):
        night = _night(club, 11, name=f"Night {index}")
        first = round_draw(tournament=night)
        assert len(first.sitouts) == 3
        late = entry_register(tournament=night, player=f"Late {index}")[0]
        assert late.first_round == 2
        # A player who played round 1 leaves: 11 present again, three sit out round 2.
        sat_out = {e.pk for e in first.sitouts}
        leaver = next(e for e in night.entries.order_by("pk") if e.pk not in sat_out)
        entry_withdraw(entry=leaver)
        second = round_draw(tournament=night, confirm=True)
        benched = {e.pk for e in second.sitouts}
        assert len(benched) == 3
        assert late.pk not in benched, index
        # Eight players who played round 1 are present: the three come from them.
        assert not benched & sat_out, index


@pytest.mark.django_db
def test_projector_final_standings_of_eleven_list_every_row_across_pages(as_bob, club) -> None:
    night = _night(club, 11, rounds=1)
    round_draw(tournament=night)
    tournament_finish(tournament=night)
    url = reverse("tournament_projector", args=[night.pk])
    first = as_bob.get(url).content.decode()
    pages = int(re.search(r'data-pages="(\d+)"', first).group(1))
    # A screenful that fits 1280 x 720 as well as 1920 x 1080 (tests/browser measure it).
    assert pages == -(-11 // PROJECTOR_ROWS) == 2
    shown: list[str] = []
    for page in range(1, pages + 1):
        html = as_bob.get(url, {"show": "standings", "page": page}).content.decode()
        shown += re.findall(r"<td>(P\d\d)", html)
        # Every screenful can be reached without JavaScript: a link to each of them.
        for other in range(1, pages + 1):
            assert f'href="?show=standings&amp;page={other}"' in html
        # The wall moves on by itself: to the next screenful, then back to the first.
        following = "" if page == pages else f"&amp;page={page + 1}"
        assert f'data-next="?show=standings{following}"' in html
    assert sorted(shown) == NAMES[:11]
