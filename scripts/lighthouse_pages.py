"""The pages scripts/lighthouse scores, and the scoring: a server of this checkout (the tests'
launcher), a game of every game set up through HTTP (scripts/table_browser.py), then Lighthouse
on each page with that browser's cookie, so a table is scored as its player sees it."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests"))

from support.browsing import finished_game  # noqa: E402
from support.live import LiveServer  # noqa: E402
from table_browser import Browser, play_one_action, set_up_every_game, set_up_form_game  # noqa: E402

CHROME_FLAGS = ("--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking "
                "--disable-component-update --disable-sync")
ACCESSIBILITY_GOAL = 1.0
PERFORMANCE_GOAL = 0.98


def pages_to_score(browser: Browser, server: LiveServer) -> list[tuple[str, bool]]:
    """(path, with the player's cookie) for every page: the home page's links, each game's set-up,
    table (player and spectator), a host's table with a seat to join and that seat's invitation,
    a table's whole game's log, every game's scores page, a
    finished game's replay, and Menu A's stacked-deck prompt."""
    pages: dict[str, bool] = {"/": False}
    tables = set_up_every_game(browser)
    for _how, table in tables:
        play_one_action(browser, table)
        pages[table] = True
        pages[table + "/watch"] = False
    if tables:
        pages[tables[0][1] + "/log"] = True
    # a host's table with a seat nobody has joined: the invitations and the seat's badge, and the
    # seat's invitation page (its link and big QR code)
    invited = set_up_form_game(browser, "/setup/rummy", {"name1": "Bob", "device1": "own"})
    pages[invited] = True
    pages[invited + "/seats/1/invite"] = True
    home = browser.get("/")
    for link in home.links:
        parts = urllib.parse.urlsplit(link)
        if not parts.netloc and parts.path.startswith("/") and not parts.path.startswith(("/static/", "/games/")):
            pages.setdefault(parts.path, False)
    for link in browser.get("/scores").links:  # every game's scores page
        path = urllib.parse.urlsplit(link).path
        if path.startswith("/scores/") and not path.endswith(".csv"):
            pages.setdefault(path, False)
    finished_game(server.database_url, server.decks_folder, Path(tempfile.mkdtemp(prefix="lighthouse-game-")))
    replays = (urllib.parse.urlsplit(link).path for link in browser.get("/finished").links)
    pages[next(path for path in replays if path.endswith("/replay"))] = False
    # Menu A (a game's menus, its tile's Play) and the stacked set-up its option 4 leads to
    home = browser.get("/")
    paths = (urllib.parse.urlsplit(link).path for link in home.links)
    menus = next(path for path in paths if path.startswith("/menus/"))
    pages[menus] = False
    menu = browser.get(menus)
    _status, prompt = browser.submit(menu.forms[0], next(b for b in menu.forms[0].buttons if b[1] == "4"))
    pages[urllib.parse.urlsplit(prompt.url).path + "?" + urllib.parse.urlsplit(prompt.url).query] = True
    return list(pages.items())


def cookie_header(browser: Browser) -> str:
    handler = next(h for h in browser.opener.handlers if hasattr(h, "cookiejar"))
    return "; ".join(f"{cookie.name}={cookie.value}" for cookie in handler.cookiejar)


def score(lighthouse: str, url: str, cookie: str | None, report: Path) -> dict[str, float]:
    command = [lighthouse, url, "--chrome-path=/usr/bin/chromium", f"--chrome-flags={CHROME_FLAGS}",
               "--only-categories=accessibility,performance", "--output=json", f"--output-path={report}", "--quiet"]
    if cookie:
        command.append("--extra-headers=" + json.dumps({"Cookie": cookie}))
    subprocess.run(command, check=True, timeout=180)
    data = json.loads(report.read_text())
    failing = [audit["id"] for audit in data["audits"].values()
               if audit.get("scoreDisplayMode") == "binary" and audit.get("score") == 0
               and audit["id"] in {ref["id"] for ref in data["categories"]["accessibility"]["auditRefs"]}]
    return {"accessibility": data["categories"]["accessibility"]["score"],
            "performance": data["categories"]["performance"]["score"], "failing": failing}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lighthouse", required=True)
    parser.add_argument("--keep", type=Path, help="keep each page's JSON report in this folder")
    args = parser.parse_args()
    server = LiveServer()
    server.start()
    worst = 0
    try:
        browser = Browser(server.url)
        folder = args.keep or Path(tempfile.mkdtemp(prefix="lighthouse-"))
        folder.mkdir(parents=True, exist_ok=True)
        print(f"{'page':<40} {'accessibility':>13} {'performance':>11}")
        for index, (path, as_player) in enumerate(pages_to_score(browser, server)):
            result = score(args.lighthouse, server.url + path, cookie_header(browser) if as_player else None,
                           folder / f"{index:02d}.json")
            ok = result["accessibility"] >= ACCESSIBILITY_GOAL and result["performance"] >= PERFORMANCE_GOAL
            worst = worst or (0 if ok else 1)
            label = path + (" (player)" if as_player else "")
            note = "" if ok else "  <- under the goal " + " ".join(result["failing"])
            print(f"{label:<40} {result['accessibility'] * 100:>13.0f} {result['performance'] * 100:>11.0f}{note}",
                  flush=True)
        print(f"goals: accessibility {ACCESSIBILITY_GOAL * 100:.0f}, performance {PERFORMANCE_GOAL * 100:.0f} or more")
    finally:
        server.stop()
    return worst


if __name__ == "__main__":
    sys.exit(main())
