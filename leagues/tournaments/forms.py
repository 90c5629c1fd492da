"""Forms of tournament nights: they read and validate input; services do the writing."""

from __future__ import annotations

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from kaiser_league.collation import NameOrderedModelChoiceField
from kaiser_league.inputs import NameField, ObjectChoiceField, WholeNumberField, model_choice_field
from leagues.clubs.models import Player, Season
from leagues.clubs.selectors import club_current_season
from leagues.tournaments.models import RoundEnd, SitOutScore, TournamentFormat

MAX_SITOUT_POINTS = 1000


class TournamentForm(forms.Form):
    name = NameField(label=_("Name"), max_length=100)
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))
    format = forms.ChoiceField(label=_("Format"), choices=TournamentFormat.choices)
    rounds = WholeNumberField(label=_("Rounds"), min_value=1, max_value=30, initial=4)
    round_end = forms.ChoiceField(label=_("A round ends"), choices=RoundEnd.choices)
    hands_per_round = WholeNumberField(
        label=_("Hands per round"), min_value=1, max_value=50, initial=10
    )
    extra_hand_on_tie = forms.BooleanField(
        label=_("One more hand on a tie"), required=False, initial=True
    )
    minutes_per_round = WholeNumberField(
        label=_("Minutes per round"), min_value=1, max_value=600, required=False
    )
    # The rules come from scorecards.rules_form.RulesForm, shown beside this one.
    hands_need_confirmation = forms.BooleanField(
        label=_("Hands need confirming by the other side"), required=False
    )
    movement = forms.BooleanField(
        label=_("Winners up, losers down (rotating partners)"), required=False
    )
    sitout_score = forms.ChoiceField(label=_("A sit-out scores"), choices=SitOutScore.choices)
    # A sit-out scores what a side can score in a game at most, either way.
    sitout_points = WholeNumberField(
        label=_("Fixed sit-out score"),
        min_value=-MAX_SITOUT_POINTS,
        max_value=MAX_SITOUT_POINTS,
        initial=0,
        required=False,
    )
    season = ObjectChoiceField(label=_("Season"), queryset=Season.objects.none(), required=False)

    def __init__(self, *args, club, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # A closed season is an archive: no night starts in it.
        model_choice_field(self.fields, "season").queryset = Season.objects.filter(
            club=club, closed_at__isnull=True
        )
        # A night is usually set up on the day, in the season being played.
        self.fields["date"].initial = timezone.localdate
        current = club_current_season(club)
        self.fields["season"].initial = current.pk if current else None


class EntryForm(forms.Form):
    """A member picked from the club's players, or a walk-in by name; in fixed pairs, a partner
    too."""

    player = NameOrderedModelChoiceField(
        label=_("Member"), queryset=Player.objects.none(), required=False
    )
    name = NameField(label=_("or walk-in name"), max_length=80, required=False)
    partner = NameOrderedModelChoiceField(
        label=_("Partner"), queryset=Player.objects.none(), required=False
    )
    partner_name = NameField(label=_("or partner's name"), max_length=80, required=False)
    checked_in = forms.BooleanField(label=_("Here now (checked in)"), required=False)

    def __init__(self, *args, tournament, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        players = Player.objects.filter(club=tournament.club).exclude(
            entries__tournament=tournament
        )
        model_choice_field(self.fields, "player").queryset = players
        model_choice_field(self.fields, "partner").queryset = players
        self.pairs = tournament.fixed_pairs
        if not self.pairs:
            del self.fields["partner"]
            del self.fields["partner_name"]

    def clean(self) -> dict:
        super().clean()
        data = self.cleaned_data
        data["who"] = data.get("player") or (data.get("name") or "").strip()
        if not data["who"]:
            raise forms.ValidationError(_("Pick a member or write a walk-in's name."))
        if self.pairs:
            data["with"] = data.get("partner") or (data.get("partner_name") or "").strip()
            if not data["with"]:
                raise forms.ValidationError(_("Fixed pairs register two partners together."))
        return data
