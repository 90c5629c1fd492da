"""The request as our views see it: django-htmx's middleware adds `request.htmx`."""

from django.contrib.auth.models import User
from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    """An HttpRequest that went through HtmxMiddleware (for type checking only)."""

    htmx: HtmxDetails


def signed_in(request: HttpRequest) -> User:
    """The account of a request that must be signed in (the view is behind login_required or an
    access helper that refused anyone else)."""
    user = request.user
    assert isinstance(user, User), "a view that needs an account let a visitor through"
    return user
