"""The front door: the home page's tiles, one for every registered game (a picture drawn from the
game's own cards, its players, one line, Play and How to play), joining a table by its code and
the unfinished games on the same page; Mason Rummy's menus at their own address; no shared page
speaks of "Menu A"; and each page loads only the stylesheets and scripts it uses."""

from __future__ import annotations

import os

import pytest
from support.games import admin_login, text
from support.web import Page

import app.games  # noqa: F401  (registers every game)
from app.core import registry
from app.core.protocol import MENUS

GAMES = [definition.key for definition in registry.games()]
PEOPLE = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"]


def tiles(page: Page) -> list:
    return page.find_all("li", cls="tile")


def links(element) -> dict[str, str]:
    """A tile's links: the words a sighted player reads -> the address."""
    found = {}
    for a in element.find_all("a"):
        hidden = "".join(span.text for span in a.find_all("span", cls="sr-only"))
        found[a.text.replace(hidden, "").strip()] = a.get("href")
    return found


def set_up_any(player, key: str, devices: list[str] | None = None) -> str:
    """A table of game ``key`` with its fewest players (the second one a computer player, or on
    its own device with ``devices``), set up the way that game's set-up asks."""
    definition = registry.get(key)
    names = ["Ann"] + ["AI"] * (definition.min_seats - 1)
    if devices and len(names) < 2 <= definition.max_seats:
        names.append("Bob")
    if devices and len(names) >= 2:
        names[1] = "Bob"
    if definition.setup_flow == MENUS:
        return player.start_game(names, devices=devices)
    options = {option.key: ("1" if option.default else "0") if option.kind == "bool" else str(option.default)
               for option in definition.options}
    return player.set_up(key, names, devices=devices, deck="", **options)


# -- the tiles ---------------------------------------------------------------------------------------------


def test_the_home_page_has_one_tile_for_every_registered_game_in_the_registry_s_order(player):
    page = player.page("/")
    shown = [tile.get("data-game") for tile in tiles(page)]
    assert shown == [definition.key for definition in registry.games()]
    assert page.find("h1").text.split()[-2] == str(len(registry.games()))  # "Card Table · N games"


@pytest.mark.parametrize("key", GAMES)
def test_a_tile_pictures_the_game_with_its_own_cards_and_says_players_line_play_and_how_to_play(player, key):
    definition = registry.get(key)
    tile = next(tile for tile in tiles(player.page("/")) if tile.get("data-game") == key)
    picture = tile.find_all(cls="tile-picture")
    assert len(picture) == 1 and picture[0].get("aria-hidden") == "true"  # a picture: the name says the game
    cards = [card.get("data-card") for card in picture[0].find_all(cls="card")]
    assert 3 <= len(cards) <= 4 and tuple(cards) == definition.picture()
    for card in cards:
        assert definition.deck is not None and definition.deck.parse(card).id == card  # cards of its own deck
    assert tile.find_all("h2")[0].text.strip() == definition.name
    players = tile.find_all(cls="tile-players")[0].text
    low, high = definition.min_seats, definition.max_seats
    assert players == (f"{low} player{'s' if low > 1 else ''}" if low == high else
                       f"{low} or {high} players" if high == low + 1 else f"{low} to {high} players")
    assert tile.find_all(cls="tile-line")[0].text == definition.summary
    found = links(tile)
    assert list(found) == ["Play", "How to play", "Learn by playing"]
    play = f"/menus/{key}" if definition.setup_flow == MENUS else f"/setup/{key}"
    assert found["Play"] == play and found["How to play"] == f"/how-to-play/{key}"
    assert found["Learn by playing"] == f"/learn/{key}"  # its guided first game
    # both lead somewhere real, and a screen reader hears which game each is for
    assert player.get(play).status_code == 200 and player.get(found["How to play"]).status_code == 200
    for a in tile.find_all("a"):
        assert definition.name in a.text


def test_r1_2_mason_rummy_s_tile_shows_its_green_fifth_suit(player):
    tile = next(tile for tile in tiles(player.page("/")) if tile.get("data-game") == "mason")
    assert any("suit-P" in card.classes for card in tile.find_all(cls="card"))


def test_a_game_without_a_showcase_is_pictured_by_its_deck_s_highest_cards():
    class Bare(type(registry.get("rummy"))):  # (the same deck, no showcase of its own)
        showcase = ()

    assert Bare().picture() == ("KC", "KD", "KH", "KS")


# -- joining, the unfinished games ---------------------------------------------------------------------------


def test_the_home_page_has_the_join_form(player):
    page = player.page("/")
    form = next(form for form in page.forms if form["action"] == "/join")
    assert form["method"] == "get" and "code" in form["inputs"]
    assert page.find("label", **{"for": "code"}) is not None


def test_the_home_page_lists_the_unfinished_games_to_resume_or_watch(make_player):
    host, other = make_player(), make_player()
    slugs = {key: set_up_any(host, key) for key in GAMES}
    mine, theirs = host.page("/"), other.page("/")
    assert mine.find("h2", id="unfinished-title").text == "Unfinished games"
    for slug in slugs.values():
        assert f'href="/games/{slug}">Resume' in mine.html and f'href="/games/{slug}/watch">Watch' in mine.html
        assert f'href="/games/{slug}/watch">Watch' in theirs.html and f'href="/games/{slug}">Resume' not in theirs.html


# -- Mason Rummy's menus at their own address ------------------------------------------------------------------


def test_mason_rummy_s_menu_a_is_its_own_page_with_a_way_to_every_game(player):
    page = player.page("/menus/mason")
    assert "Main menu" in page.html and "Menu A" not in page.html
    assert [form["action"] for form in page.forms] == ["/menus/mason"]
    assert 'href="/"' in page.html and 'href="/how-to-play/mason"' in page.html
    assert "Menu A" not in player.page("/").html


@pytest.mark.parametrize("key", [key for key in GAMES if registry.get(key).setup_flow != MENUS] + ["nosuchgame"])
def test_only_the_game_set_up_through_menus_has_menus(player, key):
    assert player.get(f"/menus/{key}").status_code == 404
    assert player.post(f"/menus/{key}", {"choice": "2"}).status_code == 404


# -- no shared page speaks of Menu A ------------------------------------------------------------------------


def shared_pages(make_player) -> dict[str, str]:
    """Every page the games share, rendered: the home page, the scores, the finished games, the
    guides, the set-up forms, the tables (with a seat waiting to be joined, and abandoned), a
    replay, the join page, the admin's pages, an error page, Quit's goodbye."""
    host, other = make_player(), make_player()
    pages = {path: text(host.get(path)) for path in ["/", "/scores", "/finished", "/join", "/join?code=NOSUCH",
                                                      "/admin/login", "/no/such/page"]}
    for key in GAMES:
        pages[f"/scores/{key}"] = text(host.get(f"/scores/{key}"))
        pages[f"/how-to-play/{key}"] = text(host.get(f"/how-to-play/{key}"))
        if registry.get(key).setup_flow != MENUS:
            pages[f"/setup/{key}"] = text(host.get(f"/setup/{key}"))
        devices = ["here", "own"] if registry.get(key).max_seats > 1 else None
        slug = set_up_any(host, key, devices=devices)
        pages[f"{key} table"] = text(host.get(f"/games/{slug}"))
        pages[f"{key} watched"] = text(other.get(f"/games/{slug}/watch"))
        assert host.post(f"/games/{slug}/abandon", {"confirmed": "1"}).status_code in (200, 303)
        pages[f"{key} abandoned"] = text(host.get(f"/games/{slug}"))
        pages[f"{key} replay"] = text(host.get(f"/games/{slug}/replay"))
    admin = make_player()
    admin_login(admin)
    pages["/admin"] = text(admin.get("/admin"))
    pages["goodbye"] = text(host.post("/quit"))
    return pages


def test_no_shared_page_speaks_of_menu_a(make_player):
    pages = shared_pages(make_player)
    assert "Waiting for Bob to join" in pages["rummy table"]  # (the join hint is among them)
    assert "This game was abandoned" in pages["rummy abandoned"]
    for name, html in pages.items():
        assert "Menu A" not in html, name
        assert "<nav" in html and '<a href="/">Games</a>' in html, name


# -- each page loads only what it uses --------------------------------------------------------------------------


def assets(html: str) -> list[str]:
    """What a browser fetches for a page besides the page: its stylesheets, scripts and icons
    (a data: address is no request)."""
    page = Page(html)
    found = [link.get("href") for link in page.find_all("link") if link.get("href")]
    found += [script.get("src") for script in page.find_all("script") if script.get("src")]
    return [url for url in found if not url.startswith("data:")]


def test_a_first_visit_of_the_home_page_loads_at_most_six_files(player):
    files = assets(text(player.get("/")))
    assert 1 + len(files) <= 6, files  # the page itself and what it loads
    assert [url.split("?")[0] for url in files] == ["/static/css/app.css", "/static/js/theme.js",
                                                    "/static/js/htmx-2.0.11.min.js", "/static/js/app.js"]
    assert not any("/games/" in url for url in files)


@pytest.mark.parametrize("key", GAMES)
def test_a_table_loads_its_own_game_s_stylesheet_and_script_and_no_other_game_s(player, app, key):
    slug = set_up_any(player, key)
    own = {f"/static/{kind}/games/{key}.{kind}" for kind in ("css", "js")
           if os.path.isfile(os.path.join(app.static_folder, kind, "games", f"{key}.{kind}"))}
    assert own  # (every game has a stylesheet or a script of its own)
    for path in (f"/games/{slug}", f"/games/{slug}/watch"):
        files = [url.split("?")[0] for url in assets(text(player.get(path)))]
        assert {url for url in files if "/games/" in url} == own, files
        # the shared files, the live updates' extension, and the game's own: nothing else
        assert set(files) == own | {"/static/js/theme.js", "/static/css/app.css", "/static/js/htmx-2.0.11.min.js",
                                    "/static/js/htmx-ext-sse-2.2.4.min.js", "/static/js/app.js"}, files
    for url in assets(text(player.get(f"/games/{slug}"))):
        response = player.get(url)
        assert response.status_code == 200, url
        response.close()


def test_a_page_of_no_game_loads_no_game_s_files(player):
    for path in ("/scores", "/finished", "/how-to-play/rummy", "/setup/rummy", "/menus/mason"):
        files = assets(text(player.get(path)))
        assert not any("/games/" in url or "sse" in url for url in files), (path, files)

