"""A browser never forgets a seat while its game is unfinished, however many tables it sits at:
its cookie carries one key, and its seats are rows on the server (app/tables/holdings.py); the
cookie's copy of its latest tables only saves a query. Against the real server (gunicorn, 2
gevent workers), on the suite's database.
"""

from __future__ import annotations

from support.client import Browser
from support.figures import record_figures
from support.moves import sensible_move
from support.pages import Page

TABLES = 50
# (game, its set-up form's fields beside the seats, seats: this browser's player, then computers)
KINDS = [("twentyone", {"rounds": "5"}, 1), ("mason", {}, 2), ("rummy", {"target": "100"}, 2),
         ("points", {"deals": "2"}, 2), ("seahaven", {"deal": "7"}, 1)]


def set_up(browser: Browser, key: str, options: dict, seats: int, name: str) -> str:
    form = {"seats": str(seats), **options}
    for number in range(seats):
        form[f"name{number}"] = name if number == 0 else "AI"
        form[f"device{number}"] = "here"
    if key == "mason":  # Mason Rummy is set up through its menus (R2)
        return browser.start_game([name, "AI"])
    response = browser.post(f"/setup/{key}", form)
    assert response.status == 303, response.page.alerts or response.body[:500]
    return response.headers["Location"].rstrip("/").rsplit("/", 1)[1]


def play_a_move(server, browser: Browser, slug: str) -> None:
    """The browser's player makes the move its game's computer player would (between two of 21's
    rounds, the table's next deal, which only a browser at the table may make)."""
    state = server.state(slug)
    assert not state.is_over() and state.to_move() in (0, None), (slug, state.to_move())
    version = Page(browser.table(slug).body).table_version
    response = browser.act(slug, sensible_move(state), version)
    assert response.status == 200, (slug, response.page.alerts or response.body[:500])
    assert response.table_version > version


def test_a_browser_at_50_tables_keeps_every_seat(make_live_server, database_url):
    """One browser sets up 50 games (every game, in turn; its player against the computer) and
    plays a move at each; then it plays a move at each again, its first table first, long out of
    the cookie's copy of its latest 12 tables: every one still knows the browser's seat. (Before
    seats were rows, a cookie kept at most 12 tables and the first ones were lost.)"""
    server = make_live_server(GAMES_PER_HOUR=TABLES + 10)
    browser = Browser(server.url, "player", keep_alive=True)
    slugs = []
    for number in range(TABLES):
        key, options, seats = KINDS[number % len(KINDS)]
        slug = set_up(browser, key, options, seats, f"Ann {number + 1}")
        play_a_move(server, browser, slug)
        slugs.append(slug)
    for slug in slugs:
        play_a_move(server, browser, slug)
    # the home page lists the browser's unfinished games as its own, the first among them
    assert f"/games/{slugs[0]}" in browser.get("/").body
    cookie = sum(len(name) + len(value) for name, value in browser.cookies.items())
    record_figures(database_url, "seats_at_50_tables", tables=TABLES, moves_after_the_50th=TABLES, cookie_bytes=cookie)
