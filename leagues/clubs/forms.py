"""Forms of the club pages (accounts, clubs, members, players, seasons). They validate input only;
services do the writing."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from kaiser_league.collation import NameOrderedModelChoiceField
from kaiser_league.inputs import NameField, WholeNumberField, model_choice_field
from leagues.clubs.embed import OriginError, embed_sites_clean
from leagues.clubs.models import MAX_MIN_NIGHTS, Club
from leagues.clubs.roles import Role, role_invitable


class SignUpForm(UserCreationForm):
    email = forms.EmailField(label=_("E-mail"), required=True)

    class Meta(UserCreationForm.Meta):  # type: ignore[name-defined]
        model = get_user_model()
        fields = ("username", "email")


class ClubForm(forms.Form):
    name = NameField(label=_("Club name"), max_length=100)


class PotField(forms.DecimalField):
    """An amount of money per set bid, typed in units (1.50), cleaned to cents (150) or None."""

    def __init__(self, **kwargs) -> None:
        kwargs.setdefault("label", _("Pot: each set bid puts in"))
        kwargs.setdefault("help_text", _("Empty: no pot. The winners collect it."))
        super().__init__(
            required=False,
            min_value=Decimal("0.01"),
            max_value=1000,
            decimal_places=2,
            max_digits=6,
            **kwargs,
        )
        self.localize = True
        self.widget.is_localized = True
        self.widget.attrs["inputmode"] = "decimal"

    def clean(self, value):
        amount = super().clean(value)
        return None if amount is None else int(amount * 100)


class ClubSettingsForm(forms.Form):
    name = NameField(label=_("Club name"), max_length=100)
    standings_public = forms.BooleanField(label=_("Public standings"), required=False)
    hands_need_confirmation = forms.BooleanField(label=_("Hands need confirming"), required=False)
    pot_per_set = PotField()
    embed_sites = forms.CharField(
        label=_("Sites that may embed the standings"),
        help_text=_(
            "One address per line, such as https://club.example.org: only these sites may "
            "show the standings widget (when the standings are public)."
        ),
        required=False,
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 3, "autocomplete": "off", "spellcheck": "false"}),
    )

    def __init__(self, *args: Any, club: Club, in_progress: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["hands_need_confirmation"].help_text = confirmation_help(club, in_progress)

    def clean_embed_sites(self) -> str:
        try:
            return embed_sites_clean(self.cleaned_data["embed_sites"])
        except OriginError as error:
            raise forms.ValidationError(str(error), code="origin") from None


def confirmation_help(club: Club, in_progress: int) -> str:
    """What turning confirmation on or off does to the club's games, said before saving:
    finished games keep counting, the `in_progress` games and new ones wait for every hand
    to be confirmed (`leagues.clubs.services.club_settings_update`)."""
    if not club.hands_need_confirmation:
        return " ".join(
            (
                gettext("Turning this on: games already finished keep counting."),
                ngettext(
                    "%(count)s game is in progress now.",
                    "%(count)s games are in progress now.",
                    in_progress,
                )
                % {"count": in_progress},
                gettext(
                    "Games in progress and new games count in the standings once a player of "
                    "the other side has confirmed every hand."
                ),
            )
        )
    off = gettext("Turning this off: every finished game counts, confirmed or not.")
    if club.confirmation_since is None:
        return " ".join(
            (gettext("Every game of the club waits for its hands to be confirmed."), off)
        )
    since = date_format(timezone.localtime(club.confirmation_since), "SHORT_DATETIME_FORMAT")
    on = gettext(
        "Hands need confirming since %(since)s: games finished before then count as they are, "
        "the others once every hand is confirmed."
    ) % {"since": since}
    return " ".join((on, off))


INVITABLE_ROLES = [(r.value, r.label) for r in Role if role_invitable(r)]


class InvitationForm(forms.Form):
    role = forms.ChoiceField(label=_("Role"), choices=INVITABLE_ROLES, initial=Role.MEMBER)
    max_uses = forms.IntegerField(
        label=_("How many people may use it"),
        min_value=1,
        max_value=100,
        initial=1,
        required=False,
    )
    days = forms.IntegerField(
        label=_("Valid for (days)"), min_value=1, max_value=60, initial=14, required=False
    )


class RoleForm(forms.Form):
    role = forms.ChoiceField(label=_("Role"), choices=Role.choices)


class PlayerForm(forms.Form):
    name = NameField(label=_("Name"), max_length=80)


class PlayerLinkForm(forms.Form):
    user = NameOrderedModelChoiceField(
        queryset=get_user_model().objects.none(), required=False, label=_("Account")
    )

    def __init__(self, *args, club: Club, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        model_choice_field(self.fields, "user").queryset = (
            get_user_model().objects.filter(memberships__club=club).order_by("username")
        )


class SeasonForm(forms.Form):
    name = NameField(label=_("Name"), max_length=100)
    starts_on = forms.DateField(
        label=_("Starts on"), widget=forms.DateInput(attrs={"type": "date"})
    )
    ends_on = forms.DateField(
        label=_("Ends on"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    # The rules come from scorecards.rules_form.RulesForm, shown beside this one.


class SeasonEditForm(SeasonForm):
    """A season's form once it exists: also the nights a player must attend to be ranked."""

    min_nights = WholeNumberField(
        label=_("Nights to be ranked"),
        help_text=_(
            "Players who attended fewer of the season’s club nights are listed apart in the "
            "standings. 0: no minimum."
        ),
        min_value=0,
        max_value=MAX_MIN_NIGHTS,
        required=False,
    )
