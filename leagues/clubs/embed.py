"""The sites a club lets show its standings widget in a frame (`Club.embed_sites`): one web
origin a line, such as https://club.example.org or http://localhost:8080.

An origin is exactly what a browser compares for `frame-ancestors`: a scheme (https or http), a
host, an optional port, and nothing else (no path, query, user or wildcard), so a line can never
widen the policy or inject another directive into the header it is written to."""

from __future__ import annotations

import re

from django.utils.translation import gettext as _

# A host name of letters, digits and hyphens (IDN already in punycode), or an IPv4 address.
_ORIGIN = re.compile(
    r"(?P<scheme>https?)://"
    r"(?P<host>(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)"
    r"(?::(?P<port>[0-9]{1,5}))?/?",
    re.ASCII,
)


class OriginError(ValueError):
    """A line of the sites that is not an origin; the message names the line and the field."""


def origin_clean(line: str) -> str | None:
    """`line` as an origin (scheme and host in lower case, no trailing slash), None when it is
    not one."""
    text = line.strip().lower()
    match = _ORIGIN.fullmatch(text)
    if match is None:
        return None
    port = match["port"]
    if port is not None and not 0 < int(port) <= 65535:
        return None
    return f"{match['scheme']}://{match['host']}" + (f":{port}" if port else "")


def embed_sites_clean(text: str) -> str:
    """The sites as they are stored: one origin a line, cleaned, blank lines and repeats
    dropped. OriginError saying which line is not an origin."""
    origins: list[str] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        origin = origin_clean(line)
        if origin is None:
            raise OriginError(
                _(
                    "Sites that may embed the standings: line %(number)s (“%(line)s”) is not a "
                    "site address such as https://club.example.org (no path after the name)."
                )
                % {"number": number, "line": line.strip()[:80]}
            )
        if origin not in origins:
            origins.append(origin)
    return "\n".join(origins)


def embed_origins(text: str) -> list[str]:
    """The origins of stored sites, any line that is not one left out (a row written before
    the check, or by hand, never reaches a header)."""
    origins = (origin_clean(line) for line in text.splitlines())
    return list(dict.fromkeys(origin for origin in origins if origin))
