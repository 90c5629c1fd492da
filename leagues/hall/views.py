"""The night's bundle, downloaded from the hall laptop's night page and uploaded on the club's
server (see `leagues.hall`)."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods

from kaiser_league.http import HtmxHttpRequest, signed_in
from kaiser_league.inputs import ObjectChoiceField, model_choice_field
from leagues.clubs.access import club_for_member
from leagues.clubs.models import Club, Season
from leagues.clubs.roles import TOURNAMENTS_RUN
from leagues.clubs.services import LeagueError
from leagues.hall.bundle import (
    MAX_BUNDLE_BYTES,
    MAX_PLAYERS,
    BundleError,
    bundle_read,
    night_bundle,
)
from leagues.hall.upload import night_upload
from leagues.tournaments.access import tournament_for_member
from scorecards.import_names import PlayersAlike, answers_read
from scorecards.importing import message_shorten


@require_GET
def night_bundle_download(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    """The finished night as a `kaiser-night/1` file; for a night still going on, back to its
    page with the reason (the page offers the file only once the night is over)."""
    night = tournament_for_member(request, tournament_id, TOURNAMENTS_RUN).tournament
    try:
        document = night_bundle(night)
    except BundleError as error:
        messages.error(request, error.message)
        return redirect(night)
    response = HttpResponse(
        json.dumps(document, ensure_ascii=False, indent=1),
        content_type="application/json; charset=utf-8",
    )
    name = f"night-{night.date.isoformat()}-{night.pk}.kaiser-night.json"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


class NightUploadForm(forms.Form):
    """The bundle file (or, when the page asks who a name is, the bundle sent back as text) and
    the season its games count for."""

    file = forms.FileField(label=gettext_lazy("Night file (.kaiser-night.json)"), required=False)
    bundle = forms.CharField(required=False, widget=forms.HiddenInput, max_length=MAX_BUNDLE_BYTES)
    season = ObjectChoiceField(
        label=gettext_lazy("Season"), queryset=Season.objects.none(), required=False
    )

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        season = model_choice_field(self.fields, "season")
        season.queryset = Season.objects.filter(club=club, closed_at__isnull=True)
        season.empty_label = _("no season")

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        if self.errors:
            return cleaned
        upload = cleaned.get("file")
        if upload is not None:
            if upload.size > MAX_BUNDLE_BYTES:
                raise ValidationError(_("The file is larger than a night bundle can be."))
            data = upload.read()
        elif cleaned.get("bundle"):
            data = cleaned["bundle"].encode()
        else:
            raise ValidationError(_("Choose the night's file."))
        try:
            cleaned["night"] = bundle_read(data)
        except BundleError as error:
            raise ValidationError(
                _("This file cannot be uploaded: %(reason)s")
                % {"reason": message_shorten(f"{error.field}: {error.message}")}
            ) from None
        cleaned["text"] = data.decode()
        return cleaned


@require_http_methods(["GET", "POST"])
def night_upload_page(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """GET: the form. POST: upload, then go to the night's page; a name that only looks like a
    player of the club is asked about first; a refused file answers 422, nothing written."""
    club = club_for_member(request, slug, TOURNAMENTS_RUN).club
    asks: list[tuple[str, list]] = []
    status = 200
    if request.method == "POST":
        form = NightUploadForm(request.POST, request.FILES, club=club)
        if form.is_valid():
            try:
                night, added = night_upload(
                    club=club,
                    bundle=form.cleaned_data["night"],
                    by=signed_in(request),
                    season=form.cleaned_data["season"],
                    same=answers_read(request.POST, MAX_PLAYERS),
                )
            except PlayersAlike as exc:
                asks = list(exc.alike.items())
                season = form.cleaned_data["season"]
                form = NightUploadForm(
                    initial={
                        "bundle": form.cleaned_data["text"],
                        "season": season.pk if season else None,
                    },
                    club=club,
                )
            except LeagueError as exc:
                form.add_error(None, str(exc))
            else:
                if added:
                    messages.success(request, _("The night is on the club's server now."))
                else:
                    messages.info(request, _("This night was uploaded already: nothing changed."))
                return redirect(night)
        status = 200 if asks else 422
    else:
        form = NightUploadForm(club=club)
    template = "leagues/night_upload.html"
    if request.htmx:
        template += "#upload-form"
    return render(request, template, {"club": club, "form": form, "asks": asks}, status=status)
