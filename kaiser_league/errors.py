"""Error answers that say what went wrong to the phone's outbox as well as to a browser."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views.csrf import csrf_failure as django_csrf_failure


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """CSRF_FAILURE_VIEW: a JSON client (the hand outbox, `Accept: application/json`) gets a
    403 naming the `csrf` field, as every other refusal of the hand endpoint names its field;
    a browser gets Django's page, which explains the cookie."""
    if "application/json" in request.headers.get("Accept", ""):
        message = _("The security token is missing or out of date: reload the page and send again.")
        return JsonResponse(
            {"status": "forbidden", "message": message, "errors": {"csrf": [message]}}, status=403
        )
    return django_csrf_failure(request, reason=reason)
