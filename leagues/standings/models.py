"""Standings and ratings: derived data, snapshot rows written only by
`leagues.standings.rebuild` (standings_rebuild / ratings_rebuild), always rebuildable from the
stored hands."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from leagues.clubs.models import Club, Player, Season


class StandingsSnapshot(models.Model):
    """When a season's standings were last computed, and from how much."""

    season = models.OneToOneField(Season, on_delete=models.CASCADE, related_name="standings")
    computed_at = models.DateTimeField()
    games = models.PositiveIntegerField(default=0)
    hands = models.PositiveIntegerField(default=0)
    # The stored summaries of the season's games deleted since its rows were last updated, as
    # the rows still count them (a list of their fields, `leagues.standings.gone`), or None:
    # the next update takes them off. (Their own rows went with their games.)
    gone = models.JSONField(null=True, blank=True)
    # How many times games of the season were deleted while it had standings: a rebuild that
    # sees it change while it reads the games may have counted a deleted one, and stores nothing.
    # (The database's default too: a process of the release before, still running while the
    # new one migrates, writes snapshots without it.)
    deletions = models.PositiveIntegerField(default=0, db_default=0)

    class Meta:
        db_table = "leagues_standingssnapshot"

    def __str__(self) -> str:
        return f"Standings of {self.season} at {self.computed_at:%Y-%m-%d %H:%M:%S}"


class StandingFigures(models.Model):
    """The figures of one line of the standings (a player, or a partnership of two)."""

    games = models.PositiveIntegerField(_("games"), default=0)
    wins = models.PositiveIntegerField(_("wins"), default=0)
    # Games drawn: a tournament table whose round closed with the sides level.
    draws = models.PositiveIntegerField(_("draws"), default=0)
    win_pct = models.FloatField(_("win %"), default=0)
    points_for = models.IntegerField(_("points for"), default=0)
    points_against = models.IntegerField(_("points against"), default=0)
    hands = models.PositiveIntegerField(_("hands"), default=0)
    avg_points = models.FloatField(_("avg points per hand"), default=0)
    bids_made = models.PositiveIntegerField(_("bids made"), default=0)
    bids_attempted = models.PositiveIntegerField(_("bids attempted"), default=0)
    nt_bids_made = models.PositiveIntegerField(_("no-trump bids made"), default=0)
    times_set = models.PositiveIntegerField(_("times set"), default=0)
    kaisers = models.PositiveIntegerField(_("kaisers"), default=0)
    # Signed: +3 is three wins in a row, -2 two losses (the latest games of the season).
    streak = models.IntegerField(_("streak"), default=0)
    # The day of the latest game counted (`derived.game_day`); None only on a line with no
    # game, or one stored before this figure was (`services.derived_data_stale`).
    last_played = models.DateField(_("last game"), null=True, blank=True)
    # The latest game counted (its id; derived data, no key): one game's update of the line
    # follows on from it (`runs.line_runs`).
    last_game = models.BigIntegerField(null=True, blank=True)

    FIGURES = (
        "games",
        "wins",
        "draws",
        "win_pct",
        "points_for",
        "points_against",
        "hands",
        "avg_points",
        "bids_made",
        "bids_attempted",
        "nt_bids_made",
        "times_set",
        "kaisers",
        "streak",
        "last_played",
    )
    # What one game's update follows on from, beside the figures: a game's id, which a restore
    # numbers anew (so not a figure a backup compares).
    LINE = ("last_game",)

    class Meta:
        abstract = True

    def figures(self) -> dict:
        return {name: getattr(self, name) for name in self.FIGURES}


class PlayerStanding(StandingFigures):
    # No index of its own: the unique constraint's, season first, serves every read by season
    # (a second one only slowed the writes of a season's rows).
    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="player_standings", db_index=False
    )
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="standings")
    # Tournament nights of the season the player played a game at, and won (first place).
    nights = models.PositiveIntegerField(_("nights"), default=0)
    night_wins = models.PositiveIntegerField(_("night wins"), default=0)
    # What the player collected from the pots of the season's counted games less what their
    # set bids put in, in cents (derived from the game summaries like every other figure).
    pot_balance = models.IntegerField(_("pot balance"), default=0)

    class Meta:
        # Every table keeps its name from when this room was part of the `leagues` app.
        db_table = "leagues_playerstanding"
        ordering = ["-wins", "player__name"]
        constraints = [
            models.UniqueConstraint(fields=["season", "player"], name="standing_player_once"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.season}"


class PartnershipStanding(StandingFigures):
    """Two players who sat on the same side; `first` has the lower id."""

    # No index of its own, as PlayerStanding's.
    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="partnership_standings", db_index=False
    )
    first = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")

    class Meta:
        db_table = "leagues_partnershipstanding"
        ordering = ["-wins", "first__name"]
        constraints = [
            models.UniqueConstraint(
                fields=["season", "first", "second"], name="standing_partnership_once"
            ),
            models.CheckConstraint(
                condition=models.Q(first__lt=models.F("second")), name="partnership_ordered"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.first} & {self.second} in {self.season}"


class RatingSnapshot(models.Model):
    """When a club's ratings were last computed, and from how many games."""

    club = models.OneToOneField(Club, on_delete=models.CASCADE, related_name="ratings")
    computed_at = models.DateTimeField()
    games = models.PositiveIntegerField(default=0)
    # The last game rated (in game order) and how many players have a rating: a newly finished
    # game after it is added on its own when nothing else changed (rebuild.ratings_append).
    last_finished_at = models.DateTimeField(null=True, blank=True)
    last_game_id = models.PositiveBigIntegerField(null=True, blank=True)
    rated_players = models.PositiveIntegerField(default=0)

    class Meta:
        db_table = "leagues_ratingsnapshot"

    def __str__(self) -> str:
        return f"Ratings of {self.club} at {self.computed_at:%Y-%m-%d %H:%M:%S}"


class PlayerRating(models.Model):
    """A player's OpenSkill rating after every counted game of the club; shown as `ordinal`
    (mu - 3 sigma), the conservative number."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="player_ratings")
    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="rating")
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(_("rating"))
    games = models.PositiveIntegerField(_("games"), default=0)

    class Meta:
        db_table = "leagues_playerrating"
        ordering = ["-ordinal"]

    def __str__(self) -> str:
        return f"{self.player}: {self.ordinal:.1f}"


class RatingPoint(models.Model):
    """A player's rating right after one game: the rating-over-time chart."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_points")
    game = models.ForeignKey("scorecards.Game", on_delete=models.CASCADE, related_name="+")
    seq = models.PositiveIntegerField()  # the game's place in the club's game order
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()

    class Meta:
        db_table = "leagues_ratingpoint"
        ordering = ["player", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["player", "game"], name="rating_point_once"),
        ]

    def __str__(self) -> str:
        return f"{self.player} after game {self.game_id}: {self.ordinal:.1f}"


class RebuildKind(models.TextChoices):
    STANDINGS = "standings", _("standings")
    RATINGS = "ratings", _("ratings")


class RebuildFailure(models.Model):
    """A standings (one season) or ratings (one club) rebuild that could not finish, or left out
    games the rules engine could not score. Kept until the next clean rebuild of the same
    season or club; shown in the admin and to the club's directors on the standings page."""

    kind = models.CharField(_("kind"), max_length=10, choices=RebuildKind.choices)
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="rebuild_failures")
    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, null=True, blank=True, related_name="rebuild_failures"
    )
    error = models.TextField(_("error"))
    # Games left out because the engine raised on them (the rest was counted and stored).
    games_left_out = models.JSONField(_("games left out"), default=list, blank=True)
    failed_at = models.DateTimeField(_("failed at"))

    class Meta:
        db_table = "leagues_rebuildfailure"
        ordering = ["-failed_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["season"],
                condition=models.Q(kind="standings"),
                name="rebuild_failure_once_per_season",
            ),
            models.UniqueConstraint(
                fields=["club"],
                condition=models.Q(kind="ratings"),
                name="rebuild_failure_once_per_club",
            ),
            models.CheckConstraint(
                condition=models.Q(kind="standings", season__isnull=False)
                | models.Q(kind="ratings", season__isnull=True),
                name="rebuild_failure_kind_matches",
            ),
        ]

    def __str__(self) -> str:
        what = self.season if self.season_id else self.club
        return f"{self.get_kind_display()} of {what}: {self.error[:80]}"


class GameSummary(models.Model):
    """What the standings need of one game, taken from the engine's score of its hands
    (`leagues.standings.summaries`): derived data, never edited, rebuilt whenever `version` no
    longer matches the game (`summaries.game_version`), and safe to delete at any time.

    Per seat and per side, a row of counters (`derived.COUNTERS`, a list in that order: what
    the game adds to the figures of whoever sat there, its outcome and pot balance included), and
    `version` starts with the summary's format: a summary of another format, or one that cannot
    be read, is computed again from the hands (`summaries.summary_readable`). `winner` None is
    a draw for a game that counts (its `games` counter), see `summaries.counted_results`."""

    game = models.OneToOneField(
        "scorecards.Game", on_delete=models.CASCADE, related_name="standings_summary"
    )
    # The game's fingerprint when this was computed (its hands, rules, seats): see game_version.
    version = models.CharField(max_length=100)
    players = models.JSONField(default=list)  # player id (or None: a guest) by seat
    sides = models.JSONField(default=list)  # the seats of each side, side 0 first
    winner = models.PositiveSmallIntegerField(null=True, blank=True)  # None: not won
    scores = models.JSONField(default=list)  # final score by side
    hands = models.PositiveIntegerField(default=0)  # every hand, throw-ins included
    seat_counts = models.JSONField(default=list)  # a row of counters (COUNTERS' order) by seat
    side_counts = models.JSONField(default=list)  # a row of counters (COUNTERS' order) by side

    class Meta:
        db_table = "leagues_gamesummary"

    def __str__(self) -> str:
        return f"Summary of game {self.game_id}"
