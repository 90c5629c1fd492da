"""The accounts a restore gives the club: never an existing account by its name alone.

Each account the document names (its members, and the former members its rows link to) becomes
a new account with no usable password, under the document's username when it is free (ignoring
case) and otherwise under a new one made from it (`olga-2`, `olga-3`, ...). An existing account
takes a document's place only when the operator names the pair (`accounts={"olga": "olga"}`),
and never a superuser's or a staff account: a backup cannot lend the site's power to anyone."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth import get_user_model

from leagues.backup.fields import BackupError

_USERNAME_MAX = 150


def accounts_check(accounts: Mapping[str, str] | None, named: set[str]) -> dict[str, Any]:
    """The operator's mapping (document username -> existing username) as {document username:
    existing account}, or BackupError naming `accounts.<name>`: a name the document does not
    give, an account that does not exist, a superuser or staff account, or one account given
    for two names."""
    found: dict[str, Any] = {}
    seen: set[int] = set()
    for source, target in (accounts or {}).items():
        path = f"accounts.{source}"
        if source not in named:
            raise BackupError(path, "the backup names no such account")
        user = get_user_model().objects.filter(username=target).first()
        if user is None:
            raise BackupError(path, f"no account named {target!r} on this server")
        if user.is_superuser or user.is_staff:
            raise BackupError(path, f"{target!r} is a staff account; a restore never uses one")
        if user.pk in seen:
            raise BackupError(path, f"{target!r} is given for two accounts of the backup")
        seen.add(user.pk)
        found[source] = user
    return found


def accounts_restore(listed: list[Mapping[str, Any]], mapped: Mapping[str, Any]) -> dict[str, Any]:
    """{document username: account} for every account `listed` (dicts with username and,
    optionally, email, first_name, last_name): the mapped one, else a new account with no
    usable password under a name no one has."""
    user_model = get_user_model()
    # Names given in this restore, and the backup's own names (a derived name must not take
    # one the backup brings: olga becoming olga-2 while the backup has an olga-2 too).
    taken: set[str] = set()
    brought = {entry["username"].casefold() for entry in listed if entry["username"] not in mapped}
    users: dict[str, Any] = dict(mapped)
    for entry in listed:
        if entry["username"] in mapped:
            continue
        username = _free_name(
            entry["username"], taken | (brought - {entry["username"].casefold()}), user_model
        )
        taken.add(username.casefold())
        user = user_model(
            username=username,
            email=entry.get("email", ""),
            first_name=entry.get("first_name", ""),
            last_name=entry.get("last_name", ""),
        )
        user.set_unusable_password()
        user.save()
        users[entry["username"]] = user
    return users


def _free_name(wanted: str, taken: set[str], user_model: Any) -> str:
    """`wanted`, or `wanted-2`, `wanted-3`, ... : the first no account has, ignoring case."""
    number = 1
    candidate = wanted
    while (
        candidate.casefold() in taken
        or user_model.objects.filter(username__iexact=candidate).exists()
    ):
        number += 1
        suffix = f"-{number}"
        candidate = wanted[: _USERNAME_MAX - len(suffix)] + suffix
    return candidate
