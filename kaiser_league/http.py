"""The request as our views see it: django-htmx's middleware adds `request.htmx`."""

from django.conf import settings
from django.contrib.auth.models import User
from django.forms import BaseForm
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


def form_status(request: HttpRequest, *forms: BaseForm) -> int:
    """The status of a page that shows `forms` again: 422 when a posted form was refused (it
    shows why), 200 otherwise. Every refused form answers 422, whatever the page."""
    refused = request.method == "POST" and any(form.is_bound and form.errors for form in forms)
    return 422 if refused else 200


def absolute_url(request: HttpRequest, path: str) -> str:
    """`path` (absolute, from `reverse`) as a link another device can open: under
    `PUBLIC_BASE_URL` when set (a hall laptop, whose own browser came in on 127.0.0.1), else on
    the address the request came in on."""
    if settings.PUBLIC_BASE_URL:
        return settings.PUBLIC_BASE_URL + path
    return request.build_absolute_uri(path)
