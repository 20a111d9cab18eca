"""axe-core in the browser tests: its WCAG 2.0–2.2 level A and AA rules and its best practices (headings,
landmarks, names that match labels, …) on the page as shown, in the theme shown.

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
    # A theme switched just now starts its transitions only at a later style update — on a loaded machine
    # not always within two frames — so wait until two frames in a row have none running.
    page.evaluate("""async () => {
        const frames = () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
        const running = () => document.getAnimations()
            .filter((animation) => animation.effect?.getTiming().iterations !== Infinity
                                   && animation.playState !== "finished");
        for (let quiet = 0; quiet < 2;) {
            await frames();
            const now = running();
            quiet = now.length ? 0 : quiet + 1;
            await Promise.all(now.map((animation) => animation.finished.catch(() => null)));
        }
    }""")


# axe's tags for WCAG 2.0, 2.1 and 2.2 at levels A and AA, and its best-practice rules.
RULE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]


def axe_violations(page: Page, within: str | None = None, rules: list[str] | None = None) -> list[dict[str, Any]]:
    """Every element (inside the `within` selector, else the page) that breaks one of the rules (`rules`:
    axe rule ids; by default every rule of RULE_TAGS), as {rule, target, html, summary}."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.evaluate(_axe_source())
    settle_transitions(page)
    run_only = {"type": "rule", "values": rules} if rules else {"type": "tag", "values": RULE_TAGS}
    result = page.evaluate("""async ([within, runOnly]) => {
        const context = within ? document.querySelector(within) : document;
        const result = await window.axe.run(context, { runOnly, resultTypes: ["violations"] });
        return result.violations.flatMap((violation) => violation.nodes.map((node) => ({
            rule: violation.id, target: node.target.join(" "), html: node.html.slice(0, 160),
            summary: node.failureSummary,
        })));
    }""", [within, run_only])
    return list(result)

