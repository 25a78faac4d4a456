"""axe-core (vendored in tests/browser/vendor) run on a Playwright page: its serious and critical
findings, for the browser tests' accessibility scans."""

from __future__ import annotations

from pathlib import Path

AXE = Path(__file__).resolve().parents[1] / "browser" / "vendor" / "axe-core-4.14.1.min.js"


def axe_scan(page, label: str) -> list[str]:
    """The serious and critical violations axe-core finds on the page (an empty list is a pass)."""
    page.evaluate(AXE.read_text())
    result = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    found = []
    for violation in result["violations"]:
        if violation["impact"] in ("serious", "critical"):
            targets = [node["target"] for node in violation["nodes"]][:3]
            found.append(f"{label}: {violation['id']} ({violation['impact']}): {violation['help']} {targets}")
    return found
