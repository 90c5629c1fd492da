"""Clubs, the people in them, and their seasons. Each model guards the invariants of its own row."""

from __future__ import annotations

import unicodedata

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from leagues.clubs.roles import Role

# NFKC then case folding can lengthen a name ("ß" is "ss", one ligature is 18 letters). Five
# times a name's 80 characters covers every real name and stays inside PostgreSQL's index row
# limit even in 4-byte characters; a longer key is refused (see Player.save).
NAME_KEY_LENGTH = 400


def name_key(name: str) -> str:
    """The key under which two names are the same person: Unicode NFKC, then full case folding,
    then NFKC again (folding can undo the normal form), with the ends trimmed. "Élise", "élise"
    and "ÉLISE" share a key on every database, unlike SQL's LOWER (SQLite folds ASCII only)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold()).strip()


# No season has more club nights than this; a minimum above it would rank nobody.
MAX_MIN_NIGHTS = 100


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
    # When confirmation was last turned on: games finished before then keep counting as they
    # did (their hands were never asked to be confirmed). None while it is off.
    confirmation_since = models.DateTimeField(null=True, blank=True)
    # Cents each set bid puts in a game's pot, the default of the club's new games; null: none.
    pot_per_set = models.PositiveIntegerField(_("pot per set bid"), null=True, blank=True)
    # The sites (origins, one per line) that may show the club's standings widget in a frame;
    # empty: none may.
    embed_sites = models.CharField(
        _("sites that may embed the standings"),
        max_length=500,
        blank=True,
        default="",
        help_text=_("One address per line, such as https://club.example.org."),
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        # Every table keeps its name from when this room was part of the `leagues` app.
        db_table = "leagues_club"
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
        db_table = "leagues_membership"
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
        db_table = "leagues_player"
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
    # Set when a director closes the season: it is then read-only, kept and shown as an archive.
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    # Nights a player must attend to be ranked; players below it are listed apart. 0: no minimum.
    min_nights = models.PositiveSmallIntegerField(
        _("nights to be ranked"),
        default=0,
        help_text=_("Players who attended fewer nights are listed apart. 0: no minimum."),
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "leagues_season"
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
            models.CheckConstraint(
                condition=models.Q(min_nights__lte=MAX_MIN_NIGHTS), name="season_min_nights_bounded"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class PlayerMerge(models.Model):
    """The trace of two players made one: `merged_name` (id `merged_player_id`, now deleted) was
    the same person as `kept`; every seat, claim, entry, rating and standing moved to `kept`."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="player_merges")
    kept = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="merges")
    merged_name = models.CharField(_("merged name"), max_length=80)
    merged_player_id = models.PositiveBigIntegerField()
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    by_name = models.CharField(max_length=150, blank=True)
    # What moved, by kind ({"seats": 4, "entries": 1, ...}), for the trace.
    moved = models.JSONField(default=dict, blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "leagues_playermerge"
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        return f"{self.merged_name} merged into {self.kept}"


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
        db_table = "leagues_invitation"
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
        db_table = "leagues_invitationuse"
        ordering = ["invitation", "at"]

    def __str__(self) -> str:
        return f"{self.username} used {self.invitation}"
