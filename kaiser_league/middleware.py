"""Small project-wide middleware."""

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse


class ContentSecurityPolicyMiddleware:
    """Send our Content-Security-Policy: only our own scripts and styles, no inline code.

    Django 5.2 has no CSP support of its own, and the policy is one fixed string.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", settings.CONTENT_SECURITY_POLICY)
        return response


class SignInRequired(Exception):
    """Raised by an access helper when a signed-out visitor asks for a page that only members
    see: the answer is the login page (coming back here after), never a 404 that would leave a
    member wondering where their club went."""


class SignInRedirectMiddleware:
    """Turn `SignInRequired` into a redirect to the login page with `next` set."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, SignInRequired):
            from django.contrib.auth.views import redirect_to_login

            return redirect_to_login(request.get_full_path())
        return None
