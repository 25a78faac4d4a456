"""Page weight (a benchmark, not a test): bytes of the table page and of every htmx
fragment an action answers with, the requests a first visit makes, and the assets' cache headers.

    .venv/bin/python bench/weight.py [--turns 150]

The server is started as the README serves it (bench/harness.py's ``bench_server``: gunicorn, gevent,
WORKERS=2, SQLite in a temporary instance folder) with gunicorn's access log on, so the requests
that reach the server are counted too.

1. Bytes: three tables (hot-seat 2 players, LAN 2 and 3 players) are set up through the forms and
   played (bench/harness.py's players) for ``--turns`` form posts each, through game ends and
   rematches. Every response is measured: the fragments of draw, lay down, discard, the hand-over
   reveal and the next round (what htmx swaps in), the refresh a waiting player fetches, and -
   every fifth post - the full table page (GET /games/<slug>) of every browser at the table.
   Bytes are the HTML before compression (what the targets are about, so they hold for a browser
   that accepts no compression); the server compresses every page and fragment for a browser that
   accepts it (Flask-Compress: brotli at level 4, else gzip), and for the largest of each kind the
   size brotli makes of it (what chromium is sent) and gzip's are printed too. The table answers
   a real browser's request compressed: its Content-Encoding and bytes on the wire are printed.
   Targets: full page under 25 KB, an action fragment under 8 KB.
2. First visit: Debian's chromium through Playwright (headless, a new profile: empty cache), to
   Menu A and then - a new profile again, holding a seat - to a table page; every request the
   browser makes until the page has loaded and settled for 1.5 s (the live event stream counts:
   it is a request). The same page visited again shows what the cache saves. Target: at most 6.
3. Assets: each stylesheet and script the pages link, with its URL, size and Cache-Control.
   Target: versioned URLs (a content hash) cached for a long time (immutable, a year).
"""

from __future__ import annotations

import argparse
import gzip
import urllib.request

import brotli
import os
import re
import statistics
import sys
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import harness  # noqa: E402  (bench/harness.py: the server, browsers and tables)

FULL_PAGE_TARGET = 25 * 1024
FRAGMENT_TARGET = 8 * 1024
FIRST_VISIT_TARGET = 6
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ASSET = re.compile(r'<(?:link rel="stylesheet" href|script src)="([^"]+)"')


def measure_bytes(server: harness.LiveServer, posts: int) -> tuple[harness.Stats, list[harness.Table]]:
    tables = [harness.Table(server, number, kind) for number, kind in enumerate(harness.KINDS)]
    for table in tables:
        table.set_up()
    stats = harness.Stats()
    for table in tables:
        for count in range(posts):
            table.step(stats, 0.0)
            if count % 5 == 0:
                for browser in table.browsers:
                    answer = browser.get(f"/games/{table.slug}")
                    stats.add("full table page", answer.seconds, answer.body)
    menu = tables[0].host.get("/")
    stats.add("Menu A page", menu.seconds, menu.body)
    return stats, tables


def first_visits(server: harness.LiveServer, table: harness.Table) -> dict:
    """Requests chromium makes on a first and a second visit: {(page, visit): (paths, hits)},
    hits being the requests that reached the server (its access log; the event stream, still
    open, is not logged yet)."""
    from playwright.sync_api import sync_playwright

    results = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for label, path, cookies in (("Menu A", "/", {}),
                                         ("table page", f"/games/{table.slug}", table.host.cookies)):
                context = browser.new_context()  # a new profile: nothing cached
                context.add_cookies([{"name": name, "value": value, "url": server.url}
                                     for name, value in cookies.items()])
                page = context.new_page()
                recorded: list[str] = []
                page.on("request", lambda request: recorded.append(request.url))
                for visit in ("first visit", "second visit"):
                    recorded.clear()
                    hits = server_hits(server)
                    page.goto(server.url + path, wait_until="load")
                    page.wait_for_timeout(1500)
                    results[(label, visit)] = ([urllib.parse.urlsplit(url).path for url in recorded],
                                               server_hits(server) - hits)
                    page.goto("about:blank")
                context.close()
        finally:
            browser.close()
    return results


def on_the_wire(server: harness.LiveServer, table: harness.Table) -> dict:
    """Bytes of the table page and its fragment as sent to a browser that accepts compression."""
    found = {}
    cookie = "; ".join(f"{name}={value}" for name, value in table.host.cookies.items())
    for label, headers in (("full table page", {}), ("fragment", {"HX-Request": "true"})):
        request = urllib.request.Request(f"{server.url}/games/{table.slug}", headers={
            "Accept-Encoding": "gzip, deflate, br, zstd", "Cookie": cookie, **headers})
        with urllib.request.urlopen(request, timeout=10) as answer:
            found[label] = (answer.headers.get("Content-Encoding"), len(answer.read()))
    return found


def server_hits(server: harness.LiveServer) -> int:
    """Requests logged by gunicorn so far (the access log has a line per finished request)."""
    try:
        with open(server.access_log) as log:
            return sum(1 for line in log if "/events" not in line)
    except OSError:
        return 0


def asset_headers(table: harness.Table) -> list[tuple[str, int, str]]:
    page = table.host.get(f"/games/{table.slug}").body
    found = []
    for url in ASSET.findall(page):
        answer = table.host.get(url.replace("&amp;", "&"))
        found.append((url, len(answer.body.encode()), answer.headers.get("Cache-Control", "(none)")))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=150, help="form posts played at each table")
    args = parser.parse_args()

    server = harness.bench_server(2, prefix="mason-weight-bench-", access_log=True)
    server.start()
    try:
        stats, tables = measure_bytes(server, args.turns)
        wire = on_the_wire(server, tables[1])
        visits = first_visits(server, tables[1])
        assets = asset_headers(tables[1])
        for table in tables:
            table.close()
    finally:
        server.stop()

    print(f"Bytes of HTML as sent ({args.turns} form posts at each of 3 tables: {', '.join(harness.KINDS)})")
    print(f"  {'response':<18} {'n':>5} {'median':>8} {'p90':>8} {'max':>8}  {'max, br':>8} {'max, gzip':>9}  target")
    verdicts = []
    for kind in ("full table page", "draw", "lay_down", "discard", "reveal", "next_round", "refresh", "Menu A page"):
        values = stats.sizes.get(kind)
        if not values:
            continue
        target = FULL_PAGE_TARGET if kind == "full table page" else FRAGMENT_TARGET if kind != "Menu A page" else None
        verdict = "" if target is None else f"< {target // 1024} KB: {'meets' if max(values) < target else 'MISSES'}"
        if target is not None:
            verdicts.append(max(values) < target)
        p90 = sorted(values)[int(0.9 * (len(values) - 1))]
        gzipped = len(gzip.compress(stats.largest[kind], compresslevel=6))
        brotlied = len(brotli.compress(stats.largest[kind], quality=4))
        print(f"  {kind:<18} {len(values):>5} {statistics.median(values):>8.0f} {p90:>8} {max(values):>8}  "
              f"{brotlied:>8} {gzipped:>9}  {verdict}")

    print("\nA table page and fragment as a browser gets them (Accept-Encoding: gzip, deflate, br, zstd)")
    for label, (encoding, sent) in wire.items():
        print(f"  {label:<18} Content-Encoding: {encoding or '(none)'}, {sent} bytes on the wire")
    print("\nRequests on a visit (chromium, new profile; the browser's count / requests that reached the server)")
    for (label, visit), (paths, hits) in visits.items():
        print(f"  {label + ', ' + visit:<26} {len(paths):>2} / {hits:<2}  {' '.join(paths)}")
        if visit == "first visit":
            verdicts.append(len(paths) <= FIRST_VISIT_TARGET)
    print(f"  target: a first visit makes at most {FIRST_VISIT_TARGET} requests")

    print("\nAssets linked by the pages")
    for url, size, cache in assets:
        versioned = "?v=" in url or re.search(r"[.-][0-9a-f]{8,}\.", url)
        long_lived = "immutable" in cache or any(int(m) >= 30 * 24 * 3600 for m in re.findall(r"max-age=(\d+)", cache))
        verdicts.append(bool(versioned and long_lived))
        print(f"  {url:<48} {size:>7} bytes  Cache-Control: {cache}  "
              f"({'versioned, long-lived' if versioned and long_lived else 'NOT versioned + long-lived'})")
    print(f"\nall targets met: {all(verdicts)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
