"""Login throttling on top of django-axes: failures are limited per username and address (axes'
own lockout parameter) and, with a higher limit, per address across usernames (one password
tried against many accounts). The client address is axes' own (django-ipware, honouring
`AXES_IPWARE_PROXY_COUNT`, see deploy/README.md); a locked-out person is told how long to wait."""

from __future__ import annotations

import math

from axes.attempts import get_cool_off_threshold
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_cool_off, get_failure_limit
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Max, Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone


def _address_attempts(request: HttpRequest):
    return AccessAttempt.objects.filter(
        ip_address=getattr(request, "axes_ip_address", None),
        attempt_time__gte=get_cool_off_threshold(request),
    )


class KaiserAxesHandler(AxesDatabaseHandler):
    """Axes' database handler, plus a limit per address across usernames."""

    def get_failures(self, request: HttpRequest, credentials: dict | None = None) -> int:
        failures = super().get_failures(request, credentials)
        across = _address_attempts(request).aggregate(n=Sum("failures_since_start"))["n"] or 0
        if across >= settings.KAISER_LOGIN_ADDRESS_LIMIT:
            # The address is throttled whatever username it tries next.
            return max(failures, get_failure_limit(request, credentials))
        return failures


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials=None
) -> HttpResponse:
    """AXES_LOCKOUT_CALLABLE: a 429 page saying how many minutes are left before the next try
    (counted from the latest failure from this address)."""
    cool_off = get_cool_off(request)
    latest = _address_attempts(request).aggregate(at=Max("attempt_time"))["at"]
    minutes = 1
    if cool_off is not None and latest is not None:
        left = (latest + cool_off - timezone.now()).total_seconds()
        minutes = max(1, math.ceil(left / 60))
    response = render(request, "registration/locked_out.html", {"minutes": minutes}, status=429)
    response["Retry-After"] = str(minutes * 60)
    return response
