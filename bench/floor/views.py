"""The floor views (bench only; see `bench/floor/__init__.py`): the least a signed-in page of
this server can do, so that a page's time reads as "this many times the floor" in one run.

Both go through every middleware the app's pages go through (sessions, locale, CSRF, auth,
security headers, GZip, ...), as function views behind `login_required`:

- `floor_get`: one indexed SELECT (the signed-in user's first membership row, by `user_id`, an
  indexed foreign key), then a small standalone template (one variable and a form carrying
  `{% csrf_token %}`) rendered through the project's template engine and context processors,
  as `render` does for every page.
- `floor_post`: a form post whose CSRF token the middleware checks, the same SELECT, one INSERT
  in its own transaction, and the same template.

The INSERT: there is no bench model in the app, so the row goes into a table every deployment
already has and nothing of the game reads, Django admin's history (`django_admin_log`): an
"addition" by the signed-in user naming no object. It is a real write to the main database,
committed like a hand (on SQLite: the write lock, the WAL; on PostgreSQL: the WAL), to a table
with a primary key and two indexed foreign keys, so it is a fair floor for one saved row and
cheaper than a hand (fewer indexes and constraints, no derived data). A TEMP table was not
chosen: it is not written to the main database (no WAL on either vendor, no SQLite write lock),
so it would understate any write. The rows go with their user (ON DELETE CASCADE): the benches
delete their user afterwards, and their SQLite databases are thrown away.
"""

from __future__ import annotations

from django.contrib.admin.models import ADDITION, LogEntry
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET, require_POST

from leagues.clubs.models import Membership

TEMPLATE = "bench_floor/floor.html"


def _user_id(request: HttpRequest) -> int:
    """The signed-in user's id (`login_required` lets no one else through)."""
    user_id = request.user.pk
    assert user_id is not None
    return user_id


def _role(request: HttpRequest) -> str | None:
    """The one indexed SELECT: the user's first membership row (its role only)."""
    return (
        Membership.objects.filter(user_id=_user_id(request))
        .order_by("pk")
        .values_list("role", flat=True)
        .first()
    )


@require_GET
@login_required
def floor_get(request: HttpRequest) -> HttpResponse:
    """200 with the small page for a signed-in user (a redirect to the login page otherwise)."""
    return render(request, TEMPLATE, {"role": _role(request)})


@require_POST
@login_required
def floor_post(request: HttpRequest) -> HttpResponse:
    """200 with the small page once the form's CSRF token passed and one row was inserted in a
    transaction (403 without the token, a redirect to the login page when signed out)."""
    role = _role(request)
    with transaction.atomic():
        LogEntry.objects.create(
            user_id=_user_id(request),
            action_flag=ADDITION,
            object_repr=request.POST.get("note", "")[:200],
            change_message="",
        )
    return render(request, TEMPLATE, {"role": role})
