"""The accessibility check itself: axe-core from the npm package is really run and really finds
a fault, also on a page whose Content-Security-Policy forbids inline scripts."""

from __future__ import annotations

import pytest

from tests.browser.axe import axe_violations

pytestmark = pytest.mark.browser


def test_axe_finds_an_image_without_text_and_passes_a_clean_page(page) -> None:
    page.set_content(
        '<html lang="en"><title>t</title><main><h1>Kaiser</h1><img src="x.png"></main></html>'
    )
    assert [v["id"] for v in axe_violations(page)] == ["image-alt"]
    page.set_content('<html lang="en"><title>t</title><main><h1>Kaiser</h1></main></html>')
    assert axe_violations(page) == []


def test_axe_runs_under_the_apps_content_security_policy(page, live_server) -> None:
    response = page.goto(live_server.url + "/accounts/login/")
    assert "script-src" in (response.headers.get("content-security-policy") or "")
    assert isinstance(axe_violations(page), list)
