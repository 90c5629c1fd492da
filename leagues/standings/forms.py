"""The filter of the standings pages. It validates input only."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from kaiser_league.inputs import ObjectChoiceField, WholeNumberField, model_choice_field
from leagues.clubs.models import Club, Player, Season


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


class PlayerGamesFilterForm(forms.Form):
    """The filter of a player's games (GET): season, partner, opponent, result."""

    season = ObjectChoiceField(
        queryset=Season.objects.none(),
        required=False,
        label=_("Season"),
        empty_label=_("All seasons"),
    )
    partner = ObjectChoiceField(
        queryset=Player.objects.none(), required=False, label=_("Partner"), empty_label=_("Anyone")
    )
    opponent = ObjectChoiceField(
        queryset=Player.objects.none(), required=False, label=_("Opponent"), empty_label=_("Anyone")
    )
    result = forms.ChoiceField(
        required=False,
        label=_("Result"),
        choices=[
            ("", _("Any result")),
            ("won", _("won")),
            ("lost", _("lost")),
            ("drawn", _("drawn")),
            ("abandoned", _("abandoned")),
            ("playing", _("in progress")),
        ],
    )

    def __init__(self, *args, club: Club, seasons: list[Season], players: list, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        season = model_choice_field(self.fields, "season")
        season.queryset = club.seasons.all()
        # Loaded already: no query for the choices; the queryset validates a choice only when
        # one is made.
        season.choices = [("", _("All seasons")), *((s.pk, str(s)) for s in seasons)]
        for name in ("partner", "opponent"):
            field = model_choice_field(self.fields, name)
            field.queryset = Player.objects.filter(club=club)
            field.choices = [("", _("Anyone")), *((p.pk, p.name) for p in players)]
