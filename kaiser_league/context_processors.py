"""What every page's template may read about the server's settings."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def signup(request: HttpRequest) -> dict[str, bool]:
    """`signup_open`: whether anyone may create an account, so a page offers "Sign up" only where
    the sign-up page would take a stranger (an invitation link offers it on its own page)."""
    return {"signup_open": bool(settings.SIGNUP_OPEN)}
