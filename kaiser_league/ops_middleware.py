"""Middleware of operations: the request id, the health check answered before the host check,
the Permissions-Policy header, and "try again" (503) when the database or the broker is down."""

from __future__ import annotations

import logging
import re
import uuid
from collections.abc import Callable

from django.conf import settings
from django.core.signals import request_finished
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template import loader
from django.utils.translation import gettext as _
from kombu.exceptions import OperationalError as BrokerError

from kaiser_league.logs import request_id_var

logger = logging.getLogger(__name__)

REQUEST_ID_HEADER = "X-Request-ID"
# What the proxy may hand us (Caddy's {http.request.uuid}, nginx's $request_id): short, and of
# characters that cannot forge a log line or a header.
_SANE_REQUEST_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{7,63}")

HEALTHZ_PATH = "/healthz"


def request_id_from(request: HttpRequest) -> str:
    """The proxy's X-Request-ID when it is sane (8 to 64 letters, digits, `.`, `_`, `:`, `-`),
    else a new random one (32 hex digits)."""
    incoming = request.META.get("HTTP_X_REQUEST_ID", "")
    if _SANE_REQUEST_ID.fullmatch(incoming):
        return incoming
    return uuid.uuid4().hex


class RequestIdMiddleware:
    """First of all: give the request its id (`request.request_id`), put it on every log line
    written while it is served (kaiser_league.logs) and on the response's X-Request-ID."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request_id = request_id_from(request)
        request.request_id = request_id  # type: ignore[attr-defined]
        # Kept until the response is closed (request_finished), not only while the middleware
        # runs: Django logs a 4xx/5xx response ("Not Found: ...") after the middleware is done.
        request_id_var.set(request_id)
        response = self.get_response(request)
        response[REQUEST_ID_HEADER] = request_id
        return response


def _request_id_forget(**kwargs: object) -> None:
    """Lines logged between requests (by this thread) carry no request's id."""
    request_id_var.set("-")


request_finished.connect(_request_id_forget, dispatch_uid="kaiser_request_id_forget")


# Answers a room gives before the session, the account and CSRF are read (the sheet's
# "nothing changed" poll, `scorecards.poll`), registered at start; None: not this request's.
_early_answers: list[Callable[[HttpRequest], HttpResponse | None]] = []


def early_answer_register(answer: Callable[[HttpRequest], HttpResponse | None]) -> None:
    """Let `answer` answer requests before the rest of the chain (it checks the Host itself)."""
    if answer not in _early_answers:
        _early_answers.append(answer)


class HealthCheckMiddleware:
    """Answer /healthz before anything reads the Host header: a probe from 127.0.0.1 (systemd,
    a load balancer, `curl localhost`) names no allowed host, and would otherwise get a 400 and
    a logged traceback. Nothing else of the site is reachable this way; the registered early
    answers (`early_answer_register`) come next, as cheap as the health check."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response: HttpResponse | None = None
        if request.path_info == HEALTHZ_PATH:
            from kaiser_league.views import healthz

            response = healthz(request)
        for answer in _early_answers:
            if response is not None:
                break
            response = answer(request)
        if response is not None:
            # The headers of every page, though the middleware that sets them is skipped.
            response.headers.setdefault("Content-Security-Policy", settings.CONTENT_SECURITY_POLICY)
            response.headers.setdefault("Permissions-Policy", settings.PERMISSIONS_POLICY)
            response.headers.setdefault("X-Frame-Options", settings.X_FRAME_OPTIONS)
            return response
        return self.get_response(request)


class PermissionsPolicyMiddleware:
    """Send the Permissions-Policy: the site uses no camera, microphone, location, payment or
    other powerful feature, and says so, so that nothing injected could ask for them."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault("Permissions-Policy", settings.PERMISSIONS_POLICY)
        return response


# A database that cannot be reached or lost its connection (stopped, restarting, a failover),
# and a broker that cannot take a message: the request may well succeed a moment later.
FAULTS: tuple[type[BaseException], ...] = (OperationalError, InterfaceError, BrokerError)
# SQLite reports a bug of ours (a missing table or column, bad SQL) as an OperationalError too:
# that is a 500 for the admins, not a "try again".
_NOT_A_FAULT = ("no such table", "no such column", "has no column", "syntax error")


def is_fault(error: BaseException | None) -> bool:
    """True for a database or broker that is down or busy (FAULTS), not for a bug."""
    if not isinstance(error, FAULTS):
        return False
    text = str(error).lower()
    return not any(marker in text for marker in _NOT_A_FAULT)


# Seconds a client waits before sending again: about what a database restart takes. The
# phone's outbox keeps the hand and resends it.
RETRY_AFTER_SECONDS = 10


def fault_answer(request: HttpRequest, fault: BaseException) -> HttpResponse:
    """503 with Retry-After: JSON for a JSON client (the hand outbox, `Accept:
    application/json`) or an htmx request, else the styled error page. Touches no database,
    session or account (they may be what is down). Logged once, as a warning naming the
    fault: an outage is for the health check and the logs, not a traceback mailed per
    request."""
    logger.warning(
        "%s %s: service unavailable (%s: %s)",
        request.method,
        request.path,
        type(fault).__name__,
        str(fault)[:200],
    )
    message = _("The server is briefly unavailable. Please try again in a moment.")
    wants_json = "application/json" in request.headers.get("Accept", "") or (
        request.headers.get("HX-Request") == "true"
    )
    response: HttpResponse
    if wants_json:
        response = JsonResponse(
            {"status": "unavailable", "message": message, "retry_after": RETRY_AFTER_SECONDS},
            status=503,
        )
    else:
        response = HttpResponse(loader.render_to_string("503.html"), status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    # Never kept by a cache or the service worker: the next try must reach the server.
    response["Cache-Control"] = "no-store"
    # Django would log every 5xx again as an error (django.request): the warning above says it.
    response._has_been_logged = True  # type: ignore[attr-defined]
    return response


class FaultMiddleware:
    """A view that fails because the database or the broker is down (`is_fault`) answers 503
    with Retry-After (`fault_answer`), not 500. A fault raised by another middleware (the
    session, the account) reaches `kaiser_league.errors.server_error`, which answers the same."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not is_fault(exception):
            return None
        return fault_answer(request, exception)
