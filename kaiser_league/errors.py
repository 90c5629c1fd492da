"""Error answers that say what went wrong to the phone's outbox as well as to a browser."""

from __future__ import annotations

import sys

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views.csrf import csrf_failure as django_csrf_failure
from django.views.defaults import server_error as django_server_error

from kaiser_league.ops_middleware import fault_answer, is_fault


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


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: an error raised outside a view (a middleware reading the session or the
    account) because the database or the broker is down answers 503 with Retry-After, as
    `FaultMiddleware` does for a view; any other error gets the 500 page."""
    fault = sys.exc_info()[1]
    if fault is not None and is_fault(fault):
        return fault_answer(request, fault)
    return django_server_error(request)
