"""Writes of clubs, members, players and seasons: each checks what it is asked and writes in one
transaction. A change to what counts in a club's standings is announced through
`club_counting_changed` (the standings room listens), so this room never imports the rooms above it.
"""

from __future__ import annotations

import datetime
import logging
import secrets

from django.contrib.auth.models import User
from django.db import IntegrityError, models, transaction
from django.dispatch import Signal
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from kaiser_league.inputs import InputError, name_check
from leagues.clubs.access import club_actor
from leagues.clubs.embed import OriginError, embed_sites_clean
from leagues.clubs.models import (
    Club,
    Invitation,
    InvitationUse,
    Membership,
    Player,
    Season,
)
from leagues.clubs.policy import may
from leagues.clubs.policy.clubs import UNCHANGED, ClubFacts, MemberFacts
from leagues.clubs.roles import (
    CLUB_MANAGE,
    MEMBER_REMOVE,
    MEMBER_ROLE_SET,
    PLAYER_ADD,
    PLAYER_EDIT,
    PLAYERS_MANAGE,
    SEASON_CREATE,
    Role,
    role_invitable,
    role_is_owner,
)
from leagues.clubs.selectors import players_named

log = logging.getLogger(__name__)

# Sent (inside the transaction that changed it) when a club starts or stops asking for hands to
# be confirmed, which changes which games count: keyword arguments `club_id` and `season_ids`.
# Receivers mark what depends on it stale at once and queue their work on commit.
club_counting_changed = Signal()

# Sent inside the transaction that removed a member: keyword arguments `club_id` and `user_id`.
# The rooms that hold what the account may still carry (scorecards: table links remembered in
# its sessions, seat claims) revoke it.
member_removed = Signal()

INVITATION_DAYS = 14


MAX_CLUB_NAME = 100  # Club.name
MAX_PLAYER_NAME = 80  # Player.name
MAX_SEASON_NAME = 100  # Season.name
MAX_SLUG_TRIES = 1000


class LeagueError(ValueError):
    """A refused club, member, player or season change; the message says why (translated);
    `field` names the form field it is about ("" for the whole form)."""

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(message)
        self.field = field


def club_may_check(club_id: int, by: User | None, action: str) -> None:
    """Raise the policy's refusal (LeagueError) unless `by` may take `action` in the club. A
    service called with `by=None` acts for no one (the demo, imports, set-up scripts): only
    the services that act on a member or a season require who asks."""
    if by is None:
        return
    decision = may(club_actor(club_id, by), action, ClubFacts(club_id=club_id))
    if not decision:
        raise LeagueError(decision.reason)


def _name(value: str, field: str, max_length: int) -> str:
    """A checked name (kaiser_league.inputs.name_check), refused as a LeagueError."""
    try:
        return name_check(value, field=field, max_length=max_length)
    except InputError as error:
        raise LeagueError(error.message, field) from None


def club_create(*, name: str, owner: User, slug: str = "") -> Club:
    """A new club owned by `owner`. The short name comes from the name when not given; when it
    is taken (even by a club created at this very moment) the next free `-2`, `-3`... is used.
    An owner who already owns a club of that name (any case) is refused with LeagueError
    naming it: a double-tapped "Create" (or ten at once) makes one club."""
    from django.contrib.auth import get_user_model

    name = _name(name, "name", MAX_CLUB_NAME)
    base = slugify(slug or name)[:50] or "club"
    if base == "new":  # clubs/new/ is the page that creates a club
        base = "new-club"
    n = 1
    while True:
        candidate = base if n == 1 else f"{base}-{n}"
        if not Club.objects.filter(slug=candidate).exists():
            try:
                with transaction.atomic():
                    # One owner's creates take turns (their account row is locked; SQLite
                    # serialises writers anyway), so this check sees a club made a moment ago.
                    get_user_model().objects.select_for_update().filter(pk=owner.pk).first()
                    if Club.objects.filter(
                        memberships__user=owner, memberships__role=Role.OWNER, name__iexact=name
                    ).exists():
                        raise LeagueError(
                            _("You already have a club called %(name)s.") % {"name": name}, "name"
                        )
                    club = Club.objects.create(name=name, slug=candidate)
                    Membership.objects.create(club=club, user=owner, role=Role.OWNER)
                    return club
            except IntegrityError:
                # Another request took this short name between the check and the insert.
                if not Club.objects.filter(slug=candidate).exists() or n > MAX_SLUG_TRIES:
                    raise
        n += 1


def club_settings_update(
    *,
    club: Club,
    name: str,
    standings_public: bool,
    hands_need_confirmation: bool,
    pot_per_set: int | None = None,
    embed_sites: str | None = None,
    by: User | None = None,
) -> Club:
    """Change the club's name and switches, and the pot its new games keep (cents per set
    bid, None: no pot), and the sites that may frame its standings widget (`embed_sites`, one
    origin a line; None: unchanged; LeagueError naming the field for a line that is not an
    origin). A change of what counts re-queues the rebuilds.

    Turning `hands_need_confirmation` on sets `Club.confirmation_since` to now: games finished
    before keep counting as they did, games in progress and new games count once every hand
    is confirmed. Turning it off clears it (every finished game counts again). `by`, when
    given, must be allowed CLUB_MANAGE."""
    club_may_check(club.pk, by, CLUB_MANAGE)
    if pot_per_set is not None and not 0 <= pot_per_set <= 100_000:
        raise LeagueError(_("The pot per set bid is at most 1000."), "pot_per_set")
    name = _name(name, "name", MAX_CLUB_NAME)
    fields = ["name", "standings_public", "hands_need_confirmation", "confirmation_since"]
    if embed_sites is not None:
        try:
            sites = embed_sites_clean(embed_sites)
        except OriginError as error:
            raise LeagueError(str(error), "embed_sites") from None
        if len(sites) > 500:
            raise LeagueError(_("The sites take at most 500 characters."), "embed_sites")
        club.embed_sites = sites
        fields.append("embed_sites")
    with transaction.atomic():
        counting_changed = club.hands_need_confirmation != hands_need_confirmation
        club.name = name
        club.standings_public = standings_public
        club.hands_need_confirmation = hands_need_confirmation
        if counting_changed:
            club.confirmation_since = timezone.now() if hands_need_confirmation else None
        club.pot_per_set = pot_per_set
        club.save(update_fields=[*fields, "pot_per_set"])
        if counting_changed:
            season_ids = list(club.seasons.values_list("pk", flat=True))
            club_counting_changed.send(sender=Club, club_id=club.pk, season_ids=season_ids)
    return club


def _club_lock(club_id: int) -> Club:
    """Lock the club row: every change to who holds which role in a club goes through it, so
    two changes never decide on the same stale picture (two owners demoting each other)."""
    return Club.objects.select_for_update().get(pk=club_id)


def invitation_create(
    *,
    club: Club,
    role: str = Role.MEMBER,
    created_by: User | None = None,
    max_uses: int = 1,
    days: int = INVITATION_DAYS,
) -> Invitation:
    """A link that lets up to `max_uses` people (1 to 100; one by default) join `club` as `role`
    (not owner) within `days` (1 to 60). `created_by`, when given, must be allowed to invite
    (PLAYERS_MANAGE)."""
    club_may_check(club.pk, created_by, PLAYERS_MANAGE)
    if not role_invitable(role):
        raise LeagueError(_("Invitations are for directors, scorers and members."))
    if not 1 <= max_uses <= 100:
        raise LeagueError(_("An invitation is used by 1 to 100 people."))
    if not 1 <= days <= 60:
        raise LeagueError(_("An invitation lasts 1 to 60 days."))
    return Invitation.objects.create(
        club=club,
        token=secrets.token_urlsafe(24),
        role=role,
        created_by=created_by,
        max_uses=max_uses,
        expires_at=timezone.now() + datetime.timedelta(days=days),
    )


def invitation_valid(token: str) -> Invitation | None:
    """The invitation behind `token` while it can still bring someone in (not revoked, not
    expired, uses left); None otherwise."""
    invitation = (
        Invitation.objects.select_related("club")
        .annotate(used=models.Count("uses"))
        .filter(token=token, revoked=False, expires_at__gt=timezone.now())
        .first()
        if token
        else None
    )
    if invitation is None or invitation.used >= invitation.max_uses:
        return None
    return invitation


@transaction.atomic
def invitation_accept(*, invitation: Invitation, user: User) -> Membership:
    """Make `user` a member of the invitation's club (an existing member keeps their role and
    uses nothing). Each newcomer uses the link once, kept with their name; a link used up,
    revoked or expired is refused (LeagueError), also when two people race for its last use."""
    _club_lock(invitation.club_id)
    locked = Invitation.objects.select_for_update().get(pk=invitation.pk)
    existing = Membership.objects.filter(club_id=locked.club_id, user=user).first()
    if existing is not None:
        return existing
    if locked.revoked or locked.expires_at <= timezone.now():
        raise LeagueError(_("This invitation no longer works: ask for a new one."))
    if locked.uses.count() >= locked.max_uses:
        raise LeagueError(_("This invitation has been used up: ask for a new one."))
    membership = Membership.objects.create(club_id=locked.club_id, user=user, role=locked.role)
    InvitationUse.objects.create(invitation=locked, user=user, username=user.get_username())
    return membership


def invitation_revoke(*, invitation: Invitation, by: User | None = None) -> None:
    """Stop the link from bringing anyone in (`by`, when given, must be allowed to invite)."""
    club_may_check(invitation.club_id, by, PLAYERS_MANAGE)
    Invitation.objects.filter(pk=invitation.pk).update(revoked=True)


def _member_facts(locked: Membership, new_role: str | None = None) -> MemberFacts:
    """The member acted on, as the policy reads it, on the locked picture."""
    others = Membership.objects.filter(club_id=locked.club_id).exclude(pk=locked.pk)
    roles = others.values_list("role", flat=True)
    return MemberFacts(
        club_id=locked.club_id,
        role=locked.role,
        other_owners=sum(1 for role in roles if role_is_owner(role)),
        new_role=new_role,
    )


@transaction.atomic
def membership_role_set(*, membership: Membership, role: str, by: User | None) -> Membership:
    """Give a member another role, if the policy lets `by` (an owner) do it: the club always
    keeps at least one owner. The club row is locked first, so concurrent changes are decided
    one after the other on the same picture. Giving the role a member has changes nothing."""
    if role not in Role.values:
        raise LeagueError(_("Unknown role."))
    _club_lock(membership.club_id)
    locked = Membership.objects.filter(pk=membership.pk).first()
    if locked is None:
        raise LeagueError(_("This person is no longer a member."))
    decision = may(club_actor(locked.club_id, by), MEMBER_ROLE_SET, _member_facts(locked, role))
    if decision.status == UNCHANGED:
        return locked
    if not decision:
        raise LeagueError(decision.reason)
    locked.role = role
    locked.save(update_fields=["role"])
    return locked


@transaction.atomic
def membership_remove(*, membership: Membership, by: User | None) -> None:
    """Remove a member from the club, if the policy lets `by` do it (owners remove anyone,
    directors anyone but an owner; the last owner stays). Every power over the club's games
    ends with it (access goes through the membership), the club's players linked to the
    account are unlinked, and `member_removed` is announced (scorecards revokes the table
    links and seat claims the account holds in the club's games)."""
    _club_lock(membership.club_id)
    locked = Membership.objects.filter(pk=membership.pk).first()
    if locked is None:
        return  # removed already: nothing more to do
    decision = may(club_actor(locked.club_id, by), MEMBER_REMOVE, _member_facts(locked))
    if not decision:
        raise LeagueError(decision.reason)
    Player.objects.filter(club_id=locked.club_id, user_id=locked.user_id).update(user=None)
    locked.delete()
    member_removed.send(sender=Membership, club_id=locked.club_id, user_id=locked.user_id)


def player_save(
    *, club: Club, name: str, player: Player | None = None, by: User | None = None
) -> Player:
    """Add a player to the club, or rename `player`. Names are unique in a club under their
    case-folded key: a clash, even with a player added at this very moment, raises LeagueError
    naming it. `by`, when given, must be allowed to add and edit players."""
    club_may_check(club.pk, by, PLAYER_EDIT if player is not None else PLAYER_ADD)
    name = _name(name, "name", MAX_PLAYER_NAME)
    clash = players_named(club, [name])
    if player is not None:
        clash = clash.exclude(pk=player.pk)
    taken = LeagueError(_("The club already has a player called %(name)s.") % {"name": name})
    if clash.exists():
        raise taken
    try:
        with transaction.atomic():
            if player is None:
                return Player.objects.create(club=club, name=name)
            player.name = name
            player.save(update_fields=["name"])
            return player
    except IntegrityError:
        # The database's unique constraint caught a rival request that won the race.
        if clash.exists():
            raise taken from None
        raise


@transaction.atomic
def player_link(*, player: Player, user: User | None, by: User | None = None) -> Player:
    """Link the player to an account that is a member of the club (None unlinks). `by`, when
    given, must be allowed to edit players."""
    club_may_check(player.club_id, by, PLAYER_EDIT)
    if user is not None:
        if not Membership.objects.filter(club_id=player.club_id, user=user).exists():
            raise LeagueError(_("Only a member of the club can be linked to one of its players."))
        if Player.objects.filter(club_id=player.club_id, user=user).exclude(pk=player.pk).exists():
            raise LeagueError(_("That account is already linked to another player."))
    player.user = user
    player.save(update_fields=["user"])
    return player


def season_create(
    *,
    club: Club,
    name: str,
    starts_on: datetime.date,
    ends_on: datetime.date | None = None,
    rules: dict | None = None,
    by: User | None = None,
) -> Season:
    """A new season of the club with a rules preset (validated by the engine). `by`, when
    given, must be allowed to manage seasons."""
    club_may_check(club.pk, by, SEASON_CREATE)
    from scorecards.rules import KaiserError, rules_build

    name = _name(name, "name", MAX_SEASON_NAME)
    if ends_on is not None and ends_on < starts_on:
        raise LeagueError(_("A season cannot end before it starts."))
    taken = LeagueError(_("The club already has a season called %(name)s.") % {"name": name})
    if Season.objects.filter(club=club, name=name).exists():
        raise taken
    rules = dict(rules or {"preset": "standard"})
    try:
        rules_build(rules)
    except KaiserError as exc:
        raise LeagueError(str(exc)) from exc
    try:
        with transaction.atomic():
            return Season.objects.create(
                club=club, name=name, starts_on=starts_on, ends_on=ends_on, rules=rules
            )
    except IntegrityError:
        if Season.objects.filter(club=club, name=name).exists():
            raise taken from None
        raise


def account_create(*, username: str, email: str, password: str) -> User:
    """A new account (the sign-up page has validated the fields). A username taken meanwhile,
    by a sign-up at this very moment, raises LeagueError naming it."""
    from django.contrib.auth import get_user_model

    model = get_user_model()
    taken = LeagueError(_("A user with that username already exists."))
    if model.objects.filter(username__iexact=username).exists():
        raise taken
    try:
        with transaction.atomic():
            return model.objects.create_user(username=username, email=email, password=password)
    except IntegrityError:
        if model.objects.filter(username=username).exists():
            raise taken from None
        raise
