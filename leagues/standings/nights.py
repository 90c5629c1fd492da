"""Tournament nights in the season standings: at how many nights of the season each player
played, and how many they won.

The standings room does not read nights itself (tournaments sit beside it and the two never
import each other, CONTRIBUTING.md): the tournament room registers a source
(`nights_source_register`, wired in `LeaguesConfig.ready`) that tells, for a season, the games
each of its nights played at its tables and who placed first once the night is over. Without a
source, no game is a night's.

- nights: the nights (not cancelled) at which the player played at least one counted game;
- night wins: those of them that are finished and where the player placed first in the final
  standings (a tie for first counts for each player in it; a pair's win counts for both).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable, Sequence
from typing import Protocol

from leagues.standings.derived import GameResult

# The PlayerStanding fields this module fills, besides StandingFigures.FIGURES.
NIGHT_FIGURES = ("nights", "night_wins")


class SeasonNight(Protocol):
    """One night of a season, as the nights source tells it."""

    @property
    def games(self) -> Collection[int]:
        """The ids of the games played at the night's tables."""
        ...

    @property
    def winners(self) -> Collection[int]:
        """The players placed first in the night's final standings; empty while not over."""
        ...


class NightsSource(Protocol):
    def season_nights(self, season_id: int) -> Sequence[SeasonNight]:
        """The nights whose tables played games of season `season_id`, cancelled ones left
        out. A fixed number of queries whatever the number of nights."""
        ...


_sources: list[NightsSource] = []


def nights_source_register(source: NightsSource) -> None:
    """Install the nights source (once per process; a second registration replaces it)."""
    _sources[:] = [source]


def season_nights(season_id: int) -> Sequence[SeasonNight]:
    return _sources[0].season_nights(season_id) if _sources else []


def nights_compute(
    nights: Iterable[SeasonNight], results: Iterable[GameResult]
) -> dict[int, dict[str, int]]:
    """{player id: {"nights": n, "night_wins": w}} for every player who played a counted game
    (`results`) at one of `nights` (players without such a game are left out)."""
    seated: dict[int, set[int]] = {
        game.game_id: {player for player in game.players if player is not None} for game in results
    }
    figures: dict[int, dict[str, int]] = defaultdict(lambda: dict.fromkeys(NIGHT_FIGURES, 0))
    for night in nights:
        played: set[int] = set()
        for game_id in night.games:
            played |= seated.get(game_id, set())
        winners = set(night.winners)
        for player in played:
            figures[player]["nights"] += 1
            figures[player]["night_wins"] += player in winners
    return dict(figures)
