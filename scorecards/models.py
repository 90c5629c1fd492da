"""Games, their seats and hands as stored. Scores are never stored as truth: they are derived by
the rules engine from the hands (the cached totals on Game are rebuilt by the same code)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from scorecards.hooks import place_annotations, uncounted_games
from scorecards.rules import BID_KINDS, HandInput, Rules
from scorecards.rules_kept import rules_of

MAX_SEATS = 6
POT_MAX = 100_000  # cents a set bid may put in the pot (scorecards.habits.POT_MAX)


class GameStatus(models.TextChoices):
    IN_PROGRESS = "in_progress", _("In progress")
    FINISHED = "finished", _("Finished")
    ABANDONED = "abandoned", _("Abandoned")


class FinishReason(models.TextChoices):
    TARGET = "target", _("reached the target")
    MINUS = "minus", _("fell to the losing score")
    KAISER = "kaiser", _("kaiser bid")
    HEART = "heart", _("bid-out side took the five of hearts")
    # A tournament table whose round closed: the round, not the engine, ended the game.
    ROUND = "round", _("end of the round")


class GameQuerySet(models.QuerySet["Game"]):
    """The one definition of which games count and which wait for confirmations: the
    standings, the ratings, the pot balances and the player pages all read `counted()` (or
    `with_counted()`), never a condition of their own."""

    def awaiting_confirmation(self) -> GameQuerySet:
        """Games with a hand still waiting for the other side's confirmation, where one is
        asked: the club asks it (of every game not finished before it turned confirmation on,
        `Club.confirmation_since`; since always when that is not known), or the game is a table
        of a tournament night that asks it of all its tables (scorecards.hooks).
        `Game.club_asks_confirmation` is the same rule read on one game in memory."""
        unconfirmed = models.Exists(
            Hand.objects.filter(game=models.OuterRef("pk"), confirmed_at__isnull=True)
        )
        asks = models.Q(club__hands_need_confirmation=True) & (
            models.Q(club__confirmation_since__isnull=True)
            | models.Q(finished_at__isnull=True)
            | models.Q(finished_at__gte=models.F("club__confirmation_since"))
        )
        games = self
        night = place_annotations().get("_place_confirms")
        if night is not None:
            games = games.annotate(_night_confirms=night)
            asks |= models.Q(_night_confirms=True)
        return games.filter(asks & unconfirmed)

    def counted(self) -> GameQuerySet:
        """Games that count for standings and ratings: finished, and not awaiting a
        confirmation. (The engine has the last word: a counted game it does not find finished
        is still left out by the standings.)"""
        # Correlated, so that asking about one game looks at that game alone (PostgreSQL
        # otherwise builds the set of every waiting game first).
        waiting = Game.objects.filter(pk=models.OuterRef("pk")).awaiting_confirmation()
        counted = self.filter(status=GameStatus.FINISHED).exclude(models.Exists(waiting))
        # Tables of a night that was called off never count (scorecards.hooks).
        never = uncounted_games()
        return counted if never is None else counted.exclude(never)

    def with_counted(self) -> GameQuerySet:
        """These games, each with `counted` (True when `counted()` holds for it), in the same
        query: for a list that shows every game and says which count."""
        counted = Game.objects.filter(pk=models.OuterRef("pk")).counted()
        return self.annotate(counted=models.Exists(counted))


class Game(models.Model):
    club = models.ForeignKey(
        "clubs.Club", on_delete=models.CASCADE, null=True, blank=True, related_name="games"
    )
    season = models.ForeignKey(
        "clubs.Season", on_delete=models.SET_NULL, null=True, blank=True, related_name="games"
    )
    table_label = models.CharField(_("table"), max_length=40, blank=True)
    # Every setting, frozen at the start (Rules.as_dict()): a season's later rules re-score nothing.
    rules = models.JSONField(_("rules"))
    first_dealer = models.PositiveSmallIntegerField(_("first dealer"), default=0)
    # Table habits of the record's top level (scorecards/habits.py); no score depends on them.
    passing = models.CharField(_("card passing"), max_length=20, blank=True)
    kitty = models.CharField(_("kitty"), max_length=20, blank=True)
    # Cents each set bid puts in the pot; null: the game keeps no pot.
    pot_per_set = models.PositiveIntegerField(_("pot per set bid"), null=True, blank=True)
    status = models.CharField(
        max_length=12, choices=GameStatus.choices, default=GameStatus.IN_PROGRESS
    )
    winner = models.PositiveSmallIntegerField(_("winning side"), null=True, blank=True)
    finish_reason = models.CharField(max_length=8, choices=FinishReason.choices, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # The day the game was played at the table (an imported game may not say: None). Games sort
    # by it in the season, the player pages and the exports; kaiser-game/1 carries it as
    # `played_on`.
    played_on = models.DateField(_("played on"), null=True, blank=True)
    # Why a scorer or director stopped the game (abandoned games never count for standings).
    abandon_reason = models.CharField(_("reason"), max_length=200, blank=True)
    # Cached from the engine by every service that writes a hand (scorecards.services), never
    # edited by hand; game_rescore derives them again from the hands.
    scores = models.JSONField(default=list)
    target = models.PositiveSmallIntegerField(default=0)
    next_dealer = models.PositiveSmallIntegerField(null=True, blank=True)
    hand_count = models.PositiveIntegerField(default=0)
    # The table link's secret: whoever opens /t/<token>/ may enter and confirm hands of this game
    # (and nothing else) until it is revoked (set to None).
    table_token = models.CharField(max_length=43, unique=True, null=True, blank=True)
    # The token of the game's read-only share link; null until someone shares it.
    share_token = models.CharField(max_length=43, unique=True, null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="games_started",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = GameQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("game")
        verbose_name_plural = _("games")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(status__in=GameStatus.values), name="game_status_valid"
            ),
            models.CheckConstraint(
                condition=models.Q(first_dealer__lt=MAX_SEATS), name="game_first_dealer_seat"
            ),
            models.CheckConstraint(
                condition=models.Q(pot_per_set__lte=POT_MAX), name="game_pot_per_set_bounded"
            ),
            models.CheckConstraint(
                condition=models.Q(status=GameStatus.IN_PROGRESS)
                | models.Q(finished_at__isnull=False),
                name="game_finished_has_time",
            ),
            models.CheckConstraint(
                condition=~models.Q(status="abandoned") | ~models.Q(abandon_reason=""),
                name="game_abandoned_has_reason",
            ),
        ]
        # On (season or club, updated_at): the games changed since a time, whatever the size.
        indexes = [models.Index(fields=["club", "status", "-finished_at"])] + [
            models.Index(fields=[f, "updated_at"], name=f"game_{f}_changed")
            for f in ("season", "club")
        ]

    def __str__(self) -> str:
        label = f" {self.table_label}" if self.table_label else ""
        return f"Game {self.pk}{label}"

    def get_absolute_url(self) -> str:
        return reverse("game_sheet", kwargs={"game_id": self.pk})

    @property
    def rules_value(self) -> Rules:
        return rules_of(self.rules)

    @property
    def is_finished(self) -> bool:
        return self.status == GameStatus.FINISHED

    @property
    def is_over(self) -> bool:
        """Finished or abandoned: its hands change only through a correction."""
        return self.status != GameStatus.IN_PROGRESS

    def club_asks_confirmation(self) -> bool:
        """Whether the game's club asks the other side to confirm each of its hands: its club
        has confirmation on, and the game was not finished before it was turned on (games
        finished before keep counting as they did). The club half of
        `GameQuerySet.awaiting_confirmation`, read from the loaded club (no query then)."""
        club = self.club
        if club is None or not club.hands_need_confirmation:
            return False
        since = club.confirmation_since
        return since is None or self.finished_at is None or self.finished_at >= since


class Seat(models.Model):
    """One player in one seat of a game. The name is kept as it was at the table."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=80)
    player = models.ForeignKey(
        "clubs.Player",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="seats",
    )

    class Meta:
        ordering = ["game", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="seat_once_per_game"),
            models.UniqueConstraint(
                fields=["game", "player"],
                condition=models.Q(player__isnull=False),
                name="player_once_per_game",
            ),
            models.CheckConstraint(condition=models.Q(seat__lt=MAX_SEATS), name="seat_in_range"),
            models.CheckConstraint(condition=~models.Q(name=""), name="seat_name_not_empty"),
        ]

    def __str__(self) -> str:
        return f"{self.name} (seat {self.seat})"


class Hand(models.Model):
    """One hand: the kaiser-game/1 hand exactly as entered (`record`), the engine's reading of it
    in typed columns (for constraints, the admin and queries), and who entered it and when."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveIntegerField()
    # As entered, normalised by HandInput.to_dict(): what export writes back.
    record = models.JSONField()
    # The engine's reading of `record` (bidder, bid and kind may come from an auction).
    dealer = models.PositiveSmallIntegerField()
    thrown_in = models.BooleanField(default=False)
    bidder = models.PositiveSmallIntegerField(null=True, blank=True)
    bid = models.PositiveSmallIntegerField(null=True, blank=True)
    kind = models.CharField(max_length=8, blank=True)
    tricks = models.JSONField(null=True, blank=True)
    five_hearts = models.PositiveSmallIntegerField(null=True, blank=True)
    three_spades = models.PositiveSmallIntegerField(null=True, blank=True)
    # Client-generated, so a phone that resends after a dropped connection gets the same hand back.
    idempotency_key = models.UUIDField(unique=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    entered_by_name = models.CharField(max_length=80, blank=True)
    # The seat the server knows entered the hand (the phone's seat claim, or the signed-in
    # player's seat); None when nobody seated entered it. Confirmations come from the other side.
    entered_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    # The phone (its random id, kept in its session) that entered the hand: a phone never
    # confirms a hand it entered itself, with or without an account.
    entered_phone = models.CharField(max_length=43, blank=True, default="")
    entered_at = models.DateTimeField(auto_now_add=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    confirmed_by_name = models.CharField(max_length=80, blank=True)
    # The seat whose claim (or account) the confirmation came from, shown in the hand's history.
    confirmed_seat = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="hand_number_once_per_game"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="hand_number_positive"),
            models.CheckConstraint(
                condition=models.Q(kind="") | models.Q(kind__in=BID_KINDS), name="hand_kind_valid"
            ),
            models.CheckConstraint(
                condition=models.Q(thrown_in=True, bidder__isnull=True, kind="")
                | models.Q(thrown_in=False, bidder__isnull=False, bid__isnull=False)
                & ~models.Q(kind=""),
                name="hand_thrown_in_or_played",
            ),
            models.CheckConstraint(
                condition=models.Q(dealer__lt=MAX_SEATS), name="hand_dealer_seat"
            ),
        ]

    def __str__(self) -> str:
        return f"Hand {self.number} of game {self.game_id}"

    def as_input(self) -> HandInput:
        """The hand as the rules engine takes it (`hand_input`)."""
        return hand_input(self.number, self.record)


def hand_input(number: int, record: dict[str, Any]) -> HandInput:
    """Hand `number` as the rules engine takes it, from its stored `record`. The dealer is left
    for the engine to derive, so that a correction of an earlier hand may move it."""
    data = {key: value for key, value in record.items() if key != "dealer"}
    # Hands stored before the format said so leave a kaiser 40's unplayed card out.
    return HandInput.from_dict(data, number, legacy=True)


class HandAction(models.TextChoices):
    ENTER = "enter", _("entered")
    CORRECT = "correct", _("corrected")
    UNDO = "undo", _("undone")
    CONFIRM = "confirm", _("confirmed")


class HandVersion(models.Model):
    """The trace of every change to a game's hands: who, when, before and after. Keyed by
    game and hand number rather than by Hand row, so an undone hand keeps its history."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="hand_versions")
    number = models.PositiveIntegerField()
    action = models.CharField(max_length=8, choices=HandAction.choices)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    by_name = models.CharField(max_length=80, blank=True)
    # Why a hand of a game that is over was corrected (required then).
    reason = models.CharField(max_length=200, blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "number", "at", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(action__in=HandAction.values), name="hand_version_action_valid"
            )
        ]

    def __str__(self) -> str:
        return f"Hand {self.number} {self.action} at {self.at:%Y-%m-%d %H:%M}"


class SeatClaim(models.Model):
    """A phone (identified by a random id kept in its session) that said which seat holds it.

    One seat per phone and one phone per seat in a game, kept on the server: a confirmation
    counts only from a phone whose claim puts it on the other side before it confirms."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seat_claims")
    seat = models.PositiveSmallIntegerField()
    phone = models.CharField(max_length=43)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="seat_claim_once_per_seat"),
            models.UniqueConstraint(fields=["game", "phone"], name="seat_claim_once_per_phone"),
            models.CheckConstraint(
                condition=models.Q(seat__lt=MAX_SEATS), name="seat_claim_seat_in_range"
            ),
        ]

    def __str__(self) -> str:
        return f"Seat {self.seat} of game {self.game_id} claimed"


class SeatRelease(models.Model):
    """The trace of a seat claim given back by its phone or released by a scorer or director:
    which seat, who had held it since when, and who let it go."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seat_releases")
    seat = models.PositiveSmallIntegerField()
    claimed_at = models.DateTimeField()
    holder_name = models.CharField(max_length=150, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    by_name = models.CharField(max_length=150, blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "at"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(seat__lt=MAX_SEATS), name="seat_release_seat_in_range"
            ),
        ]

    def __str__(self) -> str:
        return f"Seat {self.seat} of game {self.game_id} released"


class SpentKey(models.Model):
    """The idempotency key of a hand that was taken back: it stays spent, so a late resend of the
    same hand is refused (naming who took it back and when) instead of entering it again."""

    key = models.UUIDField(unique=True)
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="spent_keys")
    number = models.PositiveIntegerField()
    by_name = models.CharField(max_length=80, blank=True)
    at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"Spent key of hand {self.number} of game {self.game_id}"
