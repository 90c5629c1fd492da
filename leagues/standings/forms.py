"""The filter of the standings pages. It validates input only."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from kaiser_league.inputs import ObjectChoiceField, WholeNumberField, model_choice_field
from leagues.clubs.models import Club, Season


class StandingsFilterForm(forms.Form):
    season = ObjectChoiceField(
        queryset=Season.objects.none(), required=False, empty_label=None, label=_("Season")
    )
    min_games = WholeNumberField(
        min_value=0, max_value=10000, required=False, label=_("Minimum games")
    )

    def __init__(self, *args, club: Club, seasons: list[Season] | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        field = model_choice_field(self.fields, "season")
        field.queryset = club.seasons.all()
        if seasons is not None:
            # The seasons are already loaded: no second query for the choices.
            field.choices = [(s.pk, str(s)) for s in seasons]
