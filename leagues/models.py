"""Clubs, the people in them, and their seasons. Each model guards the invariants of its own row."""

from __future__ import annotations

import unicodedata

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from leagues.roles import Role

# NFKC then case folding can lengthen a name ("ß" is "ss", one ligature is 18 letters). Five
# times a name's 80 characters covers every real name and stays inside PostgreSQL's index row
# limit even in 4-byte characters; a longer key is refused (see Player.save).
NAME_KEY_LENGTH = 400


def name_key(name: str) -> str:
    """The key under which two names are the same person: Unicode NFKC, then full case folding,
    then NFKC again (folding can undo the normal form), with the ends trimmed. "Élise", "élise"
    and "ÉLISE" share a key on every database, unlike SQL's LOWER (SQLite folds ASCII only)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold()).strip()


class Club(models.Model):
    name = models.CharField(_("name"), max_length=100)
    slug = models.SlugField(_("short name"), max_length=60, unique=True)
    standings_public = models.BooleanField(
        _("public standings"),
        default=False,
        help_text=_("Anyone with the link may see the club's standings."),
    )
    hands_need_confirmation = models.BooleanField(
        _("hands need confirming"),
        default=False,
        help_text=_("A player of the other side confirms each hand before the game counts."),
    )
    # Cents each set bid puts in a game's pot, the default of the club's new games; null: none.
    pot_per_set = models.PositiveIntegerField(_("pot per set bid"), null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(pot_per_set__lte=100_000), name="club_pot_per_set_bounded"
            )
        ]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("club_detail", kwargs={"slug": self.slug})


class Membership(models.Model):
    """A user account's role in a club."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(_("role"), max_length=10, choices=Role.choices, default=Role.MEMBER)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="membership_once_per_club"),
            models.CheckConstraint(
                condition=models.Q(role__in=Role.values), name="membership_role_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.role}) @ {self.club}"


class Player(models.Model):
    """A person who plays at a club. Most have no account; one can be linked later."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(_("name"), max_length=80)
    # name_key(name), kept by save(): the unique constraint compares these, not the names.
    name_key = models.CharField(max_length=NAME_KEY_LENGTH, editable=False)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="players",
        verbose_name=_("account"),
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            # "ann", "Ann" and "ＡＮＮ" are the same person at a club table.
            models.UniqueConstraint(fields=["club", "name_key"], name="player_name_key_unique"),
            models.UniqueConstraint(
                fields=["club", "user"],
                condition=models.Q(user__isnull=False),
                name="player_account_once_per_club",
            ),
            models.CheckConstraint(condition=~models.Q(name=""), name="player_name_not_empty"),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs) -> None:
        # The key is part of this row's own invariant, so it is derived here, whoever saves.
        self.name_key = name_key(self.name)
        if len(self.name_key) > NAME_KEY_LENGTH:
            raise ValidationError({"name": _("This name expands to too many letters.")})
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "name" in update_fields:
            kwargs["update_fields"] = {*update_fields, "name_key"}
        super().save(*args, **kwargs)


class Season(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=100)
    starts_on = models.DateField(_("starts on"))
    ends_on = models.DateField(_("ends on"), null=True, blank=True)
    # {"preset": "...", <overrides>} exactly as a kaiser-game/1 record's "rules".
    rules = models.JSONField(_("rules"), default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts_on", "name"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ends_on__isnull=True)
                | models.Q(ends_on__gte=models.F("starts_on")),
                name="season_ends_after_start",
            ),
            models.UniqueConstraint(fields=["club", "name"], name="season_name_unique_in_club"),
        ]

    def __str__(self) -> str:
        return self.name


# Tournament nights -------------------------------------------------------------------------------


class TournamentFormat(models.TextChoices):
    ROTATING = "rotating", _("Rotating partners, individual totals")
    ROUND_ROBIN = "round_robin", _("Fixed pairs, round robin")
    SWISS = "swiss", _("Fixed pairs, Swiss")


class RoundEnd(models.TextChoices):
    HANDS = "hands", _("A fixed number of hands")
    TARGET = "target", _("Play to the target")
    TIME = "time", _("A time limit; the director closes the round")


class SitOutScore(models.TextChoices):
    AVERAGE = "average", _("the round's average")
    FIXED = "fixed", _("a fixed score")


class TournamentStatus(models.TextChoices):
    REGISTRATION = "registration", _("Registration")
    RUNNING = "running", _("Running")
    FINISHED = "finished", _("Finished")


class Tournament(models.Model):
    """A tournament night of a club. Its tables play ordinary games of the season, so results
    feed the season standings like any other game."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="tournaments")
    season = models.ForeignKey(
        Season, on_delete=models.SET_NULL, null=True, blank=True, related_name="tournaments"
    )
    name = models.CharField(_("name"), max_length=100)
    date = models.DateField(_("date"))
    format = models.CharField(
        _("format"), max_length=12, choices=TournamentFormat.choices, default="rotating"
    )
    rounds = models.PositiveSmallIntegerField(_("rounds"), default=4)
    round_end = models.CharField(
        _("a round ends"), max_length=8, choices=RoundEnd.choices, default=RoundEnd.HANDS
    )
    hands_per_round = models.PositiveSmallIntegerField(_("hands per round"), default=10)
    extra_hand_on_tie = models.BooleanField(_("one more hand on a tie"), default=True)
    minutes_per_round = models.PositiveSmallIntegerField(
        _("minutes per round"), null=True, blank=True
    )
    # {"preset": "..."} as a kaiser-game/1 record's "rules"; frozen into each table's game.
    rules = models.JSONField(_("rules"), default=dict)
    hands_need_confirmation = models.BooleanField(_("hands need confirming"), default=False)
    movement = models.BooleanField(
        _("winners up, losers down"),
        default=False,
        help_text=_("Seat each round by the standings instead of spreading partners."),
    )
    sitout_score = models.CharField(
        _("a sit-out scores"),
        max_length=8,
        choices=SitOutScore.choices,
        default=SitOutScore.AVERAGE,
    )
    sitout_points = models.IntegerField(_("fixed sit-out score"), default=0)
    status = models.CharField(
        max_length=12, choices=TournamentStatus.choices, default=TournamentStatus.REGISTRATION
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-date", "-pk"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(rounds__gte=1, rounds__lte=30), name="tournament_rounds_range"
            ),
            models.CheckConstraint(
                condition=models.Q(hands_per_round__gte=1), name="tournament_hands_positive"
            ),
            models.CheckConstraint(
                condition=models.Q(format__in=TournamentFormat.values),
                name="tournament_format_valid",
            ),
            models.CheckConstraint(
                condition=models.Q(round_end__in=RoundEnd.values),
                name="tournament_round_end_valid",
            ),
            models.CheckConstraint(
                condition=models.Q(status__in=TournamentStatus.values),
                name="tournament_status_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.date})"

    def get_absolute_url(self) -> str:
        return reverse("tournament_detail", kwargs={"tournament_id": self.pk})

    @property
    def fixed_pairs(self) -> bool:
        return self.format != TournamentFormat.ROTATING


class TournamentEntry(models.Model):
    """A player registered for the night. In fixed-pairs formats the two partners share a
    `pair_number`. `first_round` > 1 is a late arrival; `last_round` is set on withdrawal (the
    last round played, 0 if none)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="entries")
    pair_number = models.PositiveSmallIntegerField(null=True, blank=True)
    checked_in = models.BooleanField(_("checked in"), default=False)
    first_round = models.PositiveSmallIntegerField(default=1)
    last_round = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "pair_number", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"], name="entry_player_once_per_tournament"
            ),
            models.CheckConstraint(
                condition=models.Q(first_round__gte=1), name="entry_first_round_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} @ {self.tournament}"

    def plays_in(self, number: int) -> bool:
        """Present for round `number`: checked in, arrived, not withdrawn."""
        return (
            self.checked_in
            and self.first_round <= number
            and (self.last_round is None or self.last_round >= number)
        )


class RoundStatus(models.TextChoices):
    PLAYING = "playing", _("Playing")
    CLOSED = "closed", _("Closed")


class TournamentRound(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=8, choices=RoundStatus.choices, default="playing")
    drawn_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_once"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="round_positive"),
            models.CheckConstraint(
                condition=models.Q(status="playing") | models.Q(closed_at__isnull=False),
                name="round_closed_has_time",
            ),
        ]

    def __str__(self) -> str:
        return f"Round {self.number} of {self.tournament}"


class TournamentTable(models.Model):
    """One table of a round: an ordinary game of the club (seats 0 & 2 against 1 & 3)."""

    round = models.ForeignKey(TournamentRound, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    game = models.OneToOneField(
        "scorecards.Game", on_delete=models.PROTECT, related_name="tournament_table"
    )

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_once_per_round")
        ]

    def __str__(self) -> str:
        return f"Table {self.number} of {self.round}"


class TournamentSitOut(models.Model):
    """A player (or, in fixed pairs, each partner of a pair with the bye) sitting out a round.
    What it scores is the tournament's `sitout_score`, derived when standings are read."""

    round = models.ForeignKey(TournamentRound, on_delete=models.CASCADE, related_name="sitouts")
    entry = models.ForeignKey(TournamentEntry, on_delete=models.CASCADE, related_name="sitouts")

    class Meta:
        ordering = ["round", "entry"]
        constraints = [
            models.UniqueConstraint(fields=["round", "entry"], name="sitout_once_per_round")
        ]

    def __str__(self) -> str:
        return f"{self.entry.player} sits out {self.round}"


# --- Invitations, standings and ratings (issue 4) ---------------------------------------------
# Standings and ratings are derived data: snapshot rows written only by leagues.services
# (standings_rebuild / ratings_rebuild), always rebuildable from the stored hands.


class Invitation(models.Model):
    """A link that makes whoever opens it (signed in) a member of the club with `role`."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    token = models.CharField(max_length=43, unique=True)
    role = models.CharField(_("role"), max_length=10, choices=Role.choices, default=Role.MEMBER)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    revoked = models.BooleanField(default=False)
    # How many people the link may bring in (its maker chooses; one by default).
    max_uses = models.PositiveSmallIntegerField(_("uses"), default=1)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(role__in=Role.values), name="invitation_role_valid"
            ),
            # Nobody becomes an owner through a link.
            models.CheckConstraint(
                condition=~models.Q(role=Role.OWNER), name="invitation_not_owner"
            ),
            models.CheckConstraint(
                condition=models.Q(max_uses__gte=1, max_uses__lte=100),
                name="invitation_max_uses_range",
            ),
        ]

    def __str__(self) -> str:
        return f"Invitation to {self.club} as {self.role}"


class InvitationUse(models.Model):
    """Who joined a club through an invitation, and when."""

    invitation = models.ForeignKey(Invitation, on_delete=models.CASCADE, related_name="uses")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    username = models.CharField(max_length=150)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["invitation", "at"]

    def __str__(self) -> str:
        return f"{self.username} used {self.invitation}"


class StandingsSnapshot(models.Model):
    """When a season's standings were last computed, and from how much."""

    season = models.OneToOneField(Season, on_delete=models.CASCADE, related_name="standings")
    computed_at = models.DateTimeField()
    games = models.PositiveIntegerField(default=0)
    hands = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"Standings of {self.season} at {self.computed_at:%Y-%m-%d %H:%M:%S}"


class StandingFigures(models.Model):
    """The figures of one line of the standings (a player, or a partnership of two)."""

    games = models.PositiveIntegerField(_("games"), default=0)
    wins = models.PositiveIntegerField(_("wins"), default=0)
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

    FIGURES = (
        "games",
        "wins",
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
    )

    class Meta:
        abstract = True

    def figures(self) -> dict:
        return {name: getattr(self, name) for name in self.FIGURES}


class PlayerStanding(StandingFigures):
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="player_standings")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="standings")

    class Meta:
        ordering = ["-wins", "player__name"]
        constraints = [
            models.UniqueConstraint(fields=["season", "player"], name="standing_player_once"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.season}"


class PartnershipStanding(StandingFigures):
    """Two players who sat on the same side; `first` has the lower id."""

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="partnership_standings"
    )
    first = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")

    class Meta:
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
