"""axe-core in the browser tests: runs the WCAG 2 AA colour-contrast rule on the page as shown.

axe-core comes from the front end's node_modules (npm `axe-core`, pinned in frontend/package.json) and
is evaluated through the DevTools protocol, which the page's Content-Security-Policy does not apply to.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from playwright.sync_api import Page

from tests.support.server import REPO_ROOT

AXE = REPO_ROOT / "frontend" / "node_modules" / "axe-core" / "axe.min.js"


@cache
def _axe_source() -> str:
    return AXE.read_text()


def settle_transitions(page: Page) -> None:
    """Wait for running transitions to end (infinite animations, such as a pulsing dot, are left alone):
    colours measured or shown mid-transition, just after a theme switch, would be neither theme's."""
    page.evaluate("""() => Promise.all(document.getAnimations()
        .filter((animation) => animation.effect?.getTiming().iterations !== Infinity)
        .map((animation) => animation.finished.catch(() => null)))""")


def contrast_violations(page: Page, within: str | None = None) -> list[dict[str, Any]]:
    """Every element (inside the `within` selector, else the page) whose text fails WCAG AA contrast,
    as {target, html, summary}."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.evaluate(_axe_source())
    settle_transitions(page)
    result = page.evaluate("""async (within) => {
        const context = within ? document.querySelector(within) : document;
        const result = await window.axe.run(context, { runOnly: { type: "rule", values: ["color-contrast"] },
                                                        resultTypes: ["violations"] });
        return result.violations.flatMap((violation) => violation.nodes.map((node) => ({
            target: node.target.join(" "), html: node.html.slice(0, 160), summary: node.failureSummary,
        })));
    }""", within)
    return list(result)
