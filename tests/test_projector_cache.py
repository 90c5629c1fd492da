"""The hall projector's panels kept rendered (`leagues.tournaments.board_cache`): every kind of
write that changes what a panel shows is on the next panel, exactly as a fresh render shows it;
the panels kept are the same for every member, never for an outsider, a signed-out visitor or a
member removed since; each language and each panel are kept apart."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.urls import reverse

from leagues.clubs.models import Membership, Player
from leagues.clubs.player_services import player_rename
from leagues.clubs.roles import PLAYER_EDIT
from leagues.demo import plausible_hand
from leagues.players.merge import player_merge
from leagues.tournaments.board_cache import KEPT, _kept, panels_forget
from leagues.tournaments.lifecycle import tournament_cancel
from leagues.tournaments.models import Tournament, TournamentEntry
from leagues.tournaments.services import (
    entry_register,
    entry_withdraw,
    round_close,
    round_draw,
    tournament_finish,
)
from scorecards.models import Game
from scorecards.services import (
    GameClosed,
    RoundOver,
    hand_correct,
    hand_record,
    hand_undo,
)
from tests.backup_club import confirm_from_the_other_side
from tests.test_tournament_views import _play, _tournament

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
ASKED = [(show, htmx) for show in ("seating", "standings") for htmx in (False, True)]


@pytest.fixture(autouse=True)
def _nothing_kept() -> Iterator[None]:
    panels_forget()
    yield
    panels_forget()


def _panels(client, night) -> dict[tuple[str, bool], str]:
    """Each panel, as a page and as htmx's fragment."""
    url = reverse("tournament_projector", args=[night.pk])
    pages = {}
    for show, htmx in ASKED:
        response = client.get(url, {"show": show}, **(HTMX if htmx else {}))
        assert response.status_code == 200
        pages[show, htmx] = response.content.decode()
    return pages


def _shown_after(client, night, write: Callable[[], object]) -> dict[tuple[str, bool], str]:
    """The panels after `write`, checked to be what a fresh render shows and to differ from
    the panels kept before it."""
    before = _panels(client, night)
    assert _panels(client, night) == before  # kept: the same again
    write()
    after = _panels(client, night)
    panels_forget()
    assert after == _panels(client, night), "a panel kept from before the write"
    assert after != before, "the write changed nothing shown"
    return after


def _playing(club, players: int = 9, **options) -> tuple[Tournament, list[Game]]:
    """A night of `players` in its first round, a hand played at each table."""
    night = _tournament(
        club, players, hands_per_round=4, rounds=3, extra_hand_on_tie=False, **options
    )
    made = round_draw(tournament=night)
    _play(night, made, hands=1)
    return night, [table.game for table in made.tables]


def _hand(game: Game, seed: int):
    return plausible_hand(random.Random(seed), Game.objects.get(pk=game.pk).rules_value)


def _correct(game: Game, alice) -> None:
    """Correct hand 1 of `game` (with a reason) into one that scores otherwise."""
    before = Game.objects.get(pk=game.pk).scores
    for seed in range(100, 200):
        hand_correct(game=game, number=1, hand=_hand(game, seed), by=alice, reason="recount")
        if Game.objects.get(pk=game.pk).scores != before:
            return
    raise AssertionError("no correction changed the score")


def _to_the_end(game: Game) -> None:
    """Hands at `game` until it finishes, or until its round takes no more."""
    for seed in range(10, 200):
        try:
            hand_record(game=game, hand=_hand(game, seed))
        except (GameClosed, RoundOver):
            return
    raise AssertionError("the game never ended")


WRITES: dict[str, Callable[[Tournament, list[Game], Any], object]] = {
    "hand entered": lambda night, games, alice: hand_record(game=games[0], hand=_hand(games[0], 3)),
    "hand corrected with a reason": lambda night, games, alice: _correct(games[1], alice),
    "hand undone": lambda night, games, alice: hand_undo(game=games[0], by=alice),
    "last hand of the round": lambda night, games, alice: _to_the_end(games[1]),
    "round closed": lambda night, games, alice: round_close(round=night.round_set.get()),
    "round drawn": lambda night, games, alice: round_draw(tournament=night, confirm=True),
    "late arrival": lambda night, games, alice: entry_register(tournament=night, player="Zoe"),
    "withdrawal": lambda night, games, alice: entry_withdraw(entry=night.entries.latest("pk")),
    "player renamed": lambda night, games, alice: player_rename(
        player=night.entries.earliest("pk").player, name="Renamed", by=alice, action=PLAYER_EDIT
    ),
    "night finished": lambda night, games, alice: tournament_finish(tournament=night),
    "night's settings": lambda night, games, alice: Tournament.objects.filter(pk=night.pk).update(
        sitout_score="fixed", sitout_points=7
    ),
}


@pytest.mark.parametrize("write", list(WRITES))
def test_each_write_is_on_the_next_panel(as_bob, club, alice, write) -> None:
    night, games = _playing(club)
    _shown_after(as_bob, night, lambda: WRITES[write](night, games, alice))


def test_what_each_write_shows(as_bob, club, alice) -> None:
    """The writes' own marks on the wall, one after the other on one night."""
    night, _games = _playing(club)
    entry = night.entries.latest("pk")
    shown = _shown_after(as_bob, night, lambda: entry_withdraw(entry=entry))
    assert "(withdrawn)" in shown["standings", False]
    player = night.entries.earliest("pk").player
    rename = lambda: player_rename(player=player, name="Yvette", by=alice, action=PLAYER_EDIT)  # noqa: E731
    shown = _shown_after(as_bob, night, rename)
    assert "Yvette" in shown["standings", True]
    settings = lambda: Tournament.objects.filter(pk=night.pk).update(  # noqa: E731
        sitout_score="fixed", sitout_points=7
    )
    assert "A round sat out scores 7." in _shown_after(as_bob, night, settings)["standings", True]
    shown = _shown_after(as_bob, night, lambda: entry_register(tournament=night, player="Zoe"))
    assert "Zoe" in shown["standings", False] and "Zoe" not in shown["seating", False]
    shown = _shown_after(as_bob, night, lambda: round_draw(tournament=night, confirm=True))
    assert "Round 2 of 3" in shown["seating", False] and "Zoe" in shown["seating", False]
    shown = _shown_after(as_bob, night, lambda: tournament_finish(tournament=night))
    assert all("Final standings" in page for page in shown.values())


def test_a_confirmation_is_on_the_next_panel(as_bob, club) -> None:
    """A table whose hands are all in waits for their confirmation; the last one confirmed,
    it is done."""
    night, games = _playing(club, hands_need_confirmation=True)
    _to_the_end(games[0])
    last = Game.objects.get(pk=games[0].pk).hand_count
    for number in range(1, last):
        confirm_from_the_other_side(games[0], number)
    waiting = _panels(as_bob, night)["seating", False]
    assert "state-waiting" in waiting
    shown = _shown_after(as_bob, night, lambda: confirm_from_the_other_side(games[0], last))
    assert shown["seating", False].count("state-waiting") == waiting.count("state-waiting") - 1


def test_a_table_with_no_hand_abandoned_by_the_close_is_on_the_next_panel(as_bob, club, alice):
    night, games = _playing(club)
    hand_undo(game=games[0], by=alice)
    shown = _shown_after(as_bob, night, lambda: round_close(round=night.round_set.get()))
    assert Game.objects.get(pk=games[0].pk).status == "abandoned"
    assert "show-standings" in shown["seating", False]


def test_a_game_finished_is_on_the_next_panel(as_bob, club) -> None:
    """Played to the target: the engine finishes the game, and the wall says so."""
    night, games = _playing(club, round_end="target")
    _shown_after(as_bob, night, lambda: _to_the_end(games[0]))
    assert Game.objects.get(pk=games[0].pk).is_finished


def test_a_cancelled_night_is_on_the_next_panel(as_bob, club, alice) -> None:
    night, _games = _playing(club)
    shown = _shown_after(as_bob, night, lambda: tournament_cancel(tournament=night, by=alice))
    assert 'class="projector show-standings"' in shown["seating", False]


def test_a_merge_of_two_players_is_on_the_next_panel(as_bob, club, alice) -> None:
    night, _games = _playing(club)
    merged = night.entries.earliest("pk").player
    kept = Player.objects.create(club=club, name="Keeper")
    _shown_after(as_bob, night, lambda: player_merge(kept=kept, merged=merged, by=alice))
    assert TournamentEntry.objects.filter(tournament=night, player=kept).exists()


def test_kept_panels_are_for_members_alone(client, as_alice, as_bob, as_charlie, club, bob):
    night, _games = _playing(club)
    url = reverse("tournament_projector", args=[night.pk])
    owner = as_alice.get(url).content
    # Every member sees the same panel, kept once.
    assert as_bob.get(url).content == owner
    assert as_charlie.get(url).status_code == 404
    response = client.get(url)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    Membership.objects.filter(club=club, user=bob).delete()
    assert as_bob.get(url).status_code == 404
    assert as_alice.get(url).content == owner


def test_a_kept_panel_asks_for_its_version_alone(as_bob, club, django_assert_max_num_queries):
    night, _games = _playing(club)
    url = reverse("tournament_projector", args=[night.pk])
    first = as_bob.get(url, {"show": "standings"}).content
    # The session, the user, the night, the membership; the night's rows (one query): no game
    # read again.
    with django_assert_max_num_queries(5):
        assert as_bob.get(url, {"show": "standings"}).content == first


def test_languages_and_panels_are_kept_apart(as_bob, club) -> None:
    night, _games = _playing(club)
    url = reverse("tournament_projector", args=[night.pk])
    english = as_bob.get(url, {"show": "standings"}).content.decode()
    french = as_bob.get(url, {"show": "standings"}, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Standings" in english and "Classement" in french
    assert as_bob.get(url, {"show": "standings"}).content.decode() == english
    seating = as_bob.get(url, {"show": "seating"}).content.decode()
    assert "show-seating" in seating and "show-standings" in english
    second = as_bob.get(url, {"show": "standings", "page": "2"}).content.decode()
    # A page that does not exist shows the first, as a fresh render does.
    panels_forget()
    assert as_bob.get(url, {"show": "standings", "page": "2"}).content.decode() == second


def test_the_panels_kept_are_bounded(as_bob, club) -> None:
    night, _games = _playing(club)
    url = reverse("tournament_projector", args=[night.pk])
    for page in range(1, KEPT + 10):
        as_bob.get(url, {"show": "standings", "page": str(page)})
    assert len(_kept) == KEPT
