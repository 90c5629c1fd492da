"""Club pages: sign-up, creating a club, its members and invitations, a player's account link.
Thin function views: access helper, form, service. The settings, players and seasons pages show
or link other rooms too: they are the assembly's (`leagues.club_pages`)."""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import Resolver404, resolve, reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from kaiser_league.collation import sorted_by_name
from kaiser_league.http import absolute_url, form_status, signed_in
from kaiser_league.inputs import choice_field
from leagues.clubs import services
from leagues.clubs.access import club_for_member, player_for_member
from leagues.clubs.forms import (
    ClubForm,
    InvitationForm,
    PlayerForm,
    PlayerLinkForm,
    RoleForm,
    SignUpForm,
)
from leagues.clubs.models import Invitation, Membership
from leagues.clubs.player_services import player_rename
from leagues.clubs.policy import Actor, may
from leagues.clubs.policy.clubs import MemberFacts
from leagues.clubs.roles import (
    CLUB_MANAGE,
    MEMBER_REMOVE,
    MEMBER_ROLE_SET,
    PLAYERS_MANAGE,
    role_is_owner,
)

# --- Accounts and clubs -----------------------------------------------------------------------


def _invited(next_url: str | None) -> bool:
    """Whether `next_url` is the path of an invitation link that can still bring someone in."""
    path = urlsplit(next_url or "").path
    if not path.startswith("/"):
        return False
    try:
        match = resolve(path)
    except Resolver404:
        return False
    return (
        match.url_name == "invitation_accept"
        and services.invitation_valid(match.kwargs.get("token", "")) is not None
    )


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """A new account. With SIGNUP_OPEN off (a club server's default) only for someone coming
    from a live invitation link (`next`); anyone else is told to ask a club for one (403)."""
    if request.user.is_authenticated:
        return redirect("home")
    invited_by = request.POST.get("next") or request.GET.get("next")
    if not settings.SIGNUP_OPEN and not _invited(invited_by):
        return render(request, "registration/signup_closed.html", status=403)
    form = SignUpForm(request.POST or None)
    user = None
    if request.method == "POST" and form.is_valid():
        try:
            user = services.account_create(
                username=form.cleaned_data["username"],
                email=form.cleaned_data["email"],
                password=form.cleaned_data["password1"],
            )
        except services.LeagueError as exc:
            form.add_error("username", str(exc))
    if user is not None:
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        nxt = request.POST.get("next", "")
        safe = url_has_allowed_host_and_scheme(
            nxt, allowed_hosts={request.get_host()}, require_https=request.is_secure()
        )
        return redirect(nxt if nxt and safe else "home")
    return render(
        request,
        "registration/signup.html",
        {"form": form, "next": request.GET.get("next", "")},
        status=form_status(request, form),
    )


@login_required
@require_http_methods(["GET", "POST"])
def club_create(request: HttpRequest) -> HttpResponse:
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            club = services.club_create(name=form.cleaned_data["name"], owner=signed_in(request))
        except services.LeagueError as exc:
            form.add_error("name", str(exc))
        else:
            return redirect(club)
    return render(
        request, "leagues/club_create.html", {"form": form}, status=form_status(request, form)
    )


# --- Members and invitations ----------------------------------------------------------------


def member_offers(actor: Actor, membership: Membership, other_owners: int) -> dict[str, bool]:
    """What the members page offers `actor` for `membership`: changing its role (to another
    one), removing it."""
    facts = MemberFacts(club_id=membership.club_id, role=membership.role, other_owners=other_owners)
    return {
        "role": bool(may(actor, MEMBER_ROLE_SET, facts)),
        "remove": bool(may(actor, MEMBER_REMOVE, facts)),
    }


@require_GET
def club_members(request: HttpRequest, slug: str) -> HttpResponse:
    access = club_for_member(request, slug, PLAYERS_MANAGE)
    club = access.club
    memberships = sorted_by_name(
        club.memberships.select_related("user"), lambda m: m.user.get_username()
    )
    owners = sum(1 for m in memberships if role_is_owner(m.role))
    invitations = list(
        club.invitations.filter(revoked=False).prefetch_related("uses").order_by("-created_at")[:20]
    )
    return render(
        request,
        "leagues/club_members.html",
        {
            "access": access,
            "club": club,
            "memberships": memberships,
            "member_rows": [
                (m, member_offers(access.actor, m, owners - role_is_owner(m.role)))
                for m in memberships
            ],
            "invitations": invitations,
            "invite_form": InvitationForm(),
            "now": timezone.now(),
            "role_choices": choice_field(RoleForm.base_fields, "role").choices,
        },
    )


@require_POST
def invitation_create(request: HttpRequest, slug: str) -> HttpResponse:
    access = club_for_member(request, slug, PLAYERS_MANAGE)
    form = InvitationForm(request.POST)
    if form.is_valid():
        invitation = services.invitation_create(
            club=access.club,
            role=form.cleaned_data["role"],
            created_by=signed_in(request),
            max_uses=form.cleaned_data["max_uses"] or 1,
            days=form.cleaned_data["days"] or services.INVITATION_DAYS,
        )
        link = absolute_url(request, reverse("invitation_accept", args=[invitation.token]))
        messages.success(request, _("Invitation link: %(link)s") % {"link": link})
    else:
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, str(error))
    return redirect("club_members", slug=access.club.slug)


@require_POST
def invitation_revoke(request: HttpRequest, slug: str, invitation_id: int) -> HttpResponse:
    access = club_for_member(request, slug, PLAYERS_MANAGE)
    invitation = Invitation.objects.filter(club=access.club, pk=invitation_id).first()
    if invitation is None:
        raise Http404("No such invitation")
    services.invitation_revoke(invitation=invitation, by=signed_in(request))
    messages.success(request, _("Invitation revoked."))
    return redirect("club_members", slug=access.club.slug)


@require_http_methods(["GET", "POST"])
def invitation_accept(request: HttpRequest, token: str) -> HttpResponse:
    """The invitation link. Anyone holding it sees the club's name; joining needs an account."""
    invitation = services.invitation_valid(token)
    if invitation is None:
        raise Http404("No such invitation")
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"{reverse('login')}?next={request.path}")
        try:
            services.invitation_accept(invitation=invitation, user=request.user)
        except services.LeagueError as exc:
            messages.error(request, str(exc))
            return redirect("home")
        messages.success(request, _("Welcome to %(club)s.") % {"club": invitation.club.name})
        return redirect(invitation.club)
    return render(request, "leagues/invitation_accept.html", {"invitation": invitation})


@require_POST
def membership_role(request: HttpRequest, slug: str, membership_id: int) -> HttpResponse:
    access = club_for_member(request, slug, CLUB_MANAGE)
    membership = Membership.objects.filter(club=access.club, pk=membership_id).first()
    if membership is None:
        raise Http404("No such member")
    form = RoleForm(request.POST)
    if form.is_valid():
        try:
            services.membership_role_set(
                membership=membership, role=form.cleaned_data["role"], by=signed_in(request)
            )
        except services.LeagueError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, _("Role changed."))
    return redirect("club_members", slug=access.club.slug)


@require_http_methods(["GET", "POST"])
def membership_remove(request: HttpRequest, slug: str, membership_id: int) -> HttpResponse:
    """Remove a member (owners and directors), after a confirmation page."""
    access = club_for_member(request, slug, PLAYERS_MANAGE)
    membership = (
        Membership.objects.filter(club=access.club, pk=membership_id).select_related("user").first()
    )
    if membership is None:
        raise Http404("No such member")
    if request.method == "POST":
        try:
            services.membership_remove(membership=membership, by=signed_in(request))
        except services.LeagueError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(
                request,
                _("%(name)s is no longer a member.") % {"name": membership.user.get_username()},
            )
        return redirect("club_members", slug=access.club.slug)
    other_owners = 0  # read only where it matters: removing an owner
    if role_is_owner(membership.role):
        owners = Membership.objects.filter(club=access.club).exclude(pk=membership.pk)
        other_owners = sum(
            1 for role in owners.values_list("role", flat=True) if role_is_owner(role)
        )
    offers = member_offers(access.actor, membership, other_owners)
    return render(
        request,
        "leagues/membership_remove.html",
        {"access": access, "club": access.club, "membership": membership, "offers": offers},
    )


# --- Players --------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def player_edit(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    """Rename a player or link them to a member's account (directors)."""
    access, player = player_for_member(request, slug, player_id, PLAYERS_MANAGE)
    club = access.club
    form = PlayerForm(request.POST or None, initial={"name": player.name})
    link_form = PlayerLinkForm(request.POST or None, club=club, initial={"user": player.user_id})
    if request.method == "POST" and form.is_valid() and link_form.is_valid():
        try:
            if form.cleaned_data["name"] != player.name:
                # The rename's rule: no name that only differs from another's by accents.
                player_rename(
                    player=player,
                    name=form.cleaned_data["name"],
                    by=signed_in(request),
                    action=PLAYERS_MANAGE,
                )
            services.player_link(
                player=player, user=link_form.cleaned_data["user"], by=signed_in(request)
            )
        except services.LeagueError as exc:
            form.add_error(exc.field or None, str(exc))
        else:
            messages.success(request, _("Player saved."))
            return redirect("club_players", slug=club.slug)
    return render(
        request,
        "leagues/player_edit.html",
        {"access": access, "club": club, "player": player, "form": form, "link_form": link_form},
        status=form_status(request, form, link_form),
    )
