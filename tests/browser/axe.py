"""axe-core, from the npm package pinned in package.json (`make test` installs it with `npm ci`),
run on the page a browser test has open.

The script is evaluated through the DevTools protocol rather than added as a <script> tag, so
the page keeps its Content-Security-Policy: a test still notices anything the policy blocks."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"


@cache
def _source() -> str:
    if not AXE.exists():
        raise RuntimeError(f"{AXE} is missing: run `make test` (it runs `npm ci`)")
    return AXE.read_text(encoding="utf-8")


def axe_violations(page: Any) -> list[dict[str, Any]]:
    """The violations axe-core finds on `page` as it stands (WCAG 2.x A and AA rules and axe's
    best practices), each with its rule id, impact, help text and the offending nodes."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.evaluate(_source())
    return page.evaluate(
        """async () => {
            const results = await window.axe.run(document, {resultTypes: ["violations"]});
            return results.violations.map((v) => ({
                id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.map((n) => n.target.join(" ")),
            }));
        }"""
    )


def axe_report(violations: list[dict[str, Any]]) -> str:
    """The violations in a few readable lines, for an assertion message."""
    return "\n".join(
        f"{v['id']} ({v['impact']}): {v['help']} at {', '.join(v['nodes'][:5])}" for v in violations
    )


def assert_accessible(page: Any, what: str) -> None:
    """axe-core finds nothing to fix on `page`; otherwise fail naming each rule and node."""
    violations = axe_violations(page)
    assert violations == [], f"{what}:\n{axe_report(violations)}"
