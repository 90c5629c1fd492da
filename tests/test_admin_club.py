"""The admin's club page leaves confirmation to the club's settings page, whose service decides
which finished games wait for a confirmation (`Club.confirmation_since`)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from leagues.clubs.models import Club

PASSWORD = "a-long-admin-pass-7"


def test_the_admin_shows_confirmation_but_does_not_switch_it(club: Club) -> None:
    root = get_user_model().objects.create_superuser("root", "root@example.com", PASSWORD)
    client = Client()
    client.force_login(root)
    url = reverse(f"admin:{Club._meta.app_label}_club_change", args=[club.pk])
    page = client.get(url).content.decode()
    assert 'name="hands_need_confirmation"' not in page
    saved = client.post(
        url,
        {
            "name": club.name,
            "slug": club.slug,
            "hands_need_confirmation": "on",
            "memberships-TOTAL_FORMS": "0",
            "memberships-INITIAL_FORMS": "0",
        },
    )
    assert saved.status_code == 302  # the form was valid and saved
    club.refresh_from_db()
    assert not club.hands_need_confirmation and club.confirmation_since is None
