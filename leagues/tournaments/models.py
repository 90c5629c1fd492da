"""Tournament nights: the night, its entries, rounds, tables and sit-outs. Each model guards
its own row; the night's writes are in `leagues.tournaments.services`."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from leagues.clubs.models import Club, Player, Season


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
    # Called off before it counted: its games (if any) no longer count.
    CANCELLED = "cancelled", _("Cancelled")


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
        # Every table keeps its name from when this room was part of the `leagues` app.
        db_table = "leagues_tournament"
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

    @property
    def over_message(self) -> str:
        """Why the night takes no more registration or draw: it is over, or was cancelled
        (empty while it goes on)."""
        if self.status == TournamentStatus.CANCELLED:
            return str(_("This night was cancelled."))
        if self.status == TournamentStatus.FINISHED:
            return str(_("The tournament is over."))
        return ""


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
        db_table = "leagues_tournamententry"
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
        db_table = "leagues_tournamentround"
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
        db_table = "leagues_tournamenttable"
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
        db_table = "leagues_tournamentsitout"
        ordering = ["round", "entry"]
        constraints = [
            models.UniqueConstraint(fields=["round", "entry"], name="sitout_once_per_round")
        ]

    def __str__(self) -> str:
        return f"{self.entry.player} sits out {self.round}"
