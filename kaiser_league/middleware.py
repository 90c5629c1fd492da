"""Small project-wide middleware."""

from collections.abc import Callable, Iterable

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


def frame_ancestors_policy(origins: Iterable[str]) -> str:
    """Our Content-Security-Policy for the one page other sites may frame (a club's standings
    widget): the same policy with `frame-ancestors` naming `origins` (checked origins, never
    raw input) instead of 'none', and 'none' still when there are none. The middleware above
    keeps a policy a view has set."""
    allowed = " ".join(origins) or "'none'"
    kept = [
        directive.strip()
        for directive in settings.CONTENT_SECURITY_POLICY.split(";")
        if directive.strip() and not directive.strip().startswith("frame-ancestors")
    ]
    return "; ".join([*kept, f"frame-ancestors {allowed}"])


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
