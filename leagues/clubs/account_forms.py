"""Forms of the account pages that differ from Django's."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.contrib.auth import forms as auth_forms
from django.contrib.auth import get_user_model


class PasswordResetForm(auth_forms.PasswordResetForm):
    """Django's reset form, also for active accounts that have no usable password yet.

    Django leaves those out (`PasswordResetForm.get_users`) for sites whose accounts log in
    elsewhere (LDAP, single sign-on). Here such an account is one restored from a club backup,
    which never carries passwords: the ordinary reset page is how its owner sets one. The
    e-mail match stays Django's (case-insensitive, then compared as Unicode), and inactive
    accounts are still left out."""

    def get_users(self, email: str) -> Iterator[Any]:
        user_model = get_user_model()
        email_field = user_model.get_email_field_name()
        candidates = user_model._default_manager.filter(
            **{f"{email_field}__iexact": email, "is_active": True}
        )
        return (
            user
            for user in candidates
            if auth_forms._unicode_ci_compare(email, getattr(user, email_field))  # type: ignore[attr-defined]
        )
