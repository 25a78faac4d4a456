"""Promise 6: nothing secret leaks (R4.4).

Every card the web shows carries a data-card attribute. Through a whole game with a hot-seat
pair on one device, a player on their own device and a stranger, every view, fragment, spectator
view, event-stream message and error page (400 CSRF, 400, 403, 404, 409, 413, 422, 500) is
collected, and its cards are checked against what that browser may see: the public cards (the
top of the discard pile, the laid-down sets) plus the hand the seat may see now. Its visible text
is checked too: no card that is secret to that browser (in the stock, or in another's hand and
never shown this round) is ever named. The stock order and deck files are never served to
players; only the admin sees the first hands of a deck.
"""

from __future__ import annotations

import re

import pytest
from flask import url_for
from support.cards import allowed_cards
from support.figures import record_figures
from support.moves import sensible_move
from support.pages import Page
from support.web import Player

from app import store
from app.games.mason import DRAW_PHASE, FULL_DECK, PLAY_PHASE, ROUND_OVER

CODE_IN_TEXT = re.compile(r"(?<![A-Za-z0-9])([2-9TJQKA][CDHSP])(?![A-Za-z0-9])")
ALL_CODES = {card.code for card in FULL_DECK}


def known_this_round(game) -> set[str]:
    """Cards every player has seen this round: the discard pile, the sets, and every card the
    round's log names (discards, cards taken from the discard pile, the first face-up card)."""
    known = {card.code for card in game.discard}
    for player in game.players:
        for card_set in player.hand.laid_down:
            known.update(card.code for card in card_set.cards)
    for event in game.log:
        known.update(event["cards"])
    return known


class Checker:
    """Checks pages against what each browser may see, from the stored state."""

    def __init__(self, app, slug):
        self.app, self.slug = app, slug
        self.pages = 0
        self.cards_checked = 0

    def state(self):
        with self.app.app_context():
            record = store.find_game(self.slug)
            record.seats  # noqa: B018 - loaded while the session is open
            return record, store.load_state(record)

    def visible_seat(self, record, game, held: set[int]) -> int | None:
        """The one hand this browser may see now: its own-device seat; on a shared device only
        the seat on turn, once its player has pressed "show my hand"."""
        if not held:
            return None
        own = [n for n in held if record.seats[n].device == "own"]
        here = [n for n in held if record.seats[n].device == "here"]
        if game.phase in (DRAW_PHASE, PLAY_PHASE) and game.turn in held:
            if record.seats[game.turn].device == "here" and len(here) > 1 and record.shown_seat != game.turn:
                return None  # the hand-over screen
            return game.turn
        if own:
            return own[0]
        return here[0] if len(here) == 1 else None

    def check(self, html: str, held: set[int], where: str, spectator: bool = False) -> None:
        record, game = self.state()
        seat = None if spectator else self.visible_seat(record, game, held)
        allowed = allowed_cards(game, seat)
        shown = Page(html)
        self.pages += 1
        self.cards_checked += len(shown.cards)
        leaked = set(shown.cards) - allowed
        assert not leaked, f"{where}: shows {sorted(leaked)}, may see {sorted(allowed)}"
        secret = ALL_CODES - allowed - known_this_round(game)
        named = {match for text in shown.readable_text for match in CODE_IN_TEXT.findall(text)}
        assert not named & secret, f"{where}: names secret cards {sorted(named & secret)}"
        stock = [card.code for card in game.stock]
        for i in range(max(0, len(stock) - 2)):
            assert " ".join(stock[i:i + 3]) not in html, f"{where}: shows the stock order"


def play_one_step(app, slug, browsers, checker) -> bool:
    """Make the move of whoever is on turn (hand-over, draw, lay down, discard, next round)."""
    record, game = checker.state()
    if game.is_over():
        return False
    if game.phase == ROUND_OVER:
        return browsers["host"][0].act(slug, "next_round", version=record.version, seat=None).status_code == 200
    label = "host" if game.turn in browsers["host"][1] else "guest"
    player = browsers[label][0]
    if label == "host" and record.shown_seat != game.turn:
        assert player.reveal(slug).status_code == 200
        return True
    response = player.play(slug, sensible_move(game), version=record.version)
    assert response.status_code == 200, response.get_data(as_text=True)[:300]
    return True


def check_views(checker, slug, browsers, step, everything: bool) -> None:
    """The table as each browser sees it (page and live fragment); with ``everything``, also the
    htmx page load, the polling fragment, Menu A and the spectator views."""
    for label, (player, held) in browsers.items():
        views = [(f"/games/{slug}", False), (f"/games/{slug}/table", True)]
        if everything:
            views += [(f"/games/{slug}", True), (f"/games/{slug}/table?since=0", True), ("/", False)]
        for url, htmx in views:
            response = player.get(url, htmx=htmx)
            assert response.status_code == 200
            checker.check(response.get_data(as_text=True), held, f"{label} {url} htmx={htmx} step {step}")
        if everything or not held:
            for url in (f"/games/{slug}/watch", f"/games/{slug}/table?watch=1"):
                response = player.get(url, htmx=url.endswith("1"))
                checker.check(response.get_data(as_text=True), held, f"{label} {url}", spectator=True)
        if not held and everything:
            assert player.get(f"/games/{slug}/seats/2/invite").status_code == 403


def check_error_pages(app, checker, slug, browsers, monkeypatch) -> set[int]:
    """Every kind of error page, as each browser gets it, shows no card it may not see."""
    record, game = checker.state()
    statuses = set()
    for label, (player, held) in browsers.items():
        other = next(n for n in range(3) if n not in held)
        headers = {True: {"HX-Request": "true"}, False: {}}
        attempts = [
            ("403", lambda h: player.act(slug, "draw_stock", version=record.version, seat=other, htmx=h)),
            ("409", lambda h: player.act(slug, "draw_stock", version=record.version - 1, seat=game.turn, htmx=h)),
            ("400", lambda h: player.act(slug, "discard", ["ZZ"], version=record.version, seat=game.turn, htmx=h)),
            ("400 csrf", lambda h: player.client.post(f"/games/{slug}/act", data={"action": "draw_stock"},
                                                      headers=headers[h])),
            ("404", lambda h: player.get("/games/nosuchgame", htmx=h)),
            ("404 act", lambda h: player.act("nosuchgame", "draw_stock", version=1, seat=0, htmx=h)),
            ("413", lambda h: player.client.post(f"/games/{slug}/act", headers=headers[h], data={
                "csrf_token": player.csrf_token(), "cards": "x" * (app.config["MAX_CONTENT_LENGTH"] + 10)})),
        ]
        if held and game.turn in held and game.phase == PLAY_PHASE:
            attempts.append(("422", lambda h: player.act(
                slug, "lay_down", [c.code for c in game.current_player.hand.cards[:2]],
                version=record.version, seat=game.turn, htmx=h)))
        for name, attempt in attempts:
            for htmx in (False, True):
                response = attempt(htmx)
                if response.status_code == 303 and not htmx:  # a refused plain form: back to the table
                    checker.check(response.get_data(as_text=True), held, f"{label} redirect {name}")
                    response = player.get(response.headers["Location"])
                    assert response.status_code == 200 and Page(response.get_data(as_text=True)).alerts, name
                    checker.check(response.get_data(as_text=True), held, f"{label} error {name} followed")
                    continue
                assert 400 <= response.status_code < 500, (name, response.status_code)
                statuses.add(response.status_code)
                checker.check(response.get_data(as_text=True), held, f"{label} error {name} htmx={htmx}")

    # a 500: the table view fails with the hands in the exception's message
    from app.tables import pages

    def broken(record, game, held, **kwargs):
        raise RuntimeError("boom: " + " ".join(c.code for p in game.players for c in p.hand.cards))

    monkeypatch.setattr(pages, "table_view", broken)
    for label, (player, held) in browsers.items():
        for htmx in (False, True):
            response = player.get(f"/games/{slug}", htmx=htmx)
            assert response.status_code == 500
            body = response.get_data(as_text=True)
            assert "boom" not in body and "Traceback" not in body
            checker.check(body, set(), f"{label} error 500")
            statuses.add(500)
    monkeypatch.undo()
    return statuses


def read_events(player, slug, version) -> list[str]:
    """The first messages of the table's event stream (it stops after EVENTS_MAX_SECONDS)."""
    response = player.get(f"/games/{slug}/events?v={version}", buffered=False)
    assert response.status_code == 200
    assert response.mimetype == "text/event-stream"
    chunks = []
    for chunk in response.response:
        chunks.append(chunk.decode() if isinstance(chunk, bytes) else chunk)
        if "event: changed" in "".join(chunks):
            break
    response.close()
    return "".join(chunks).split("\n\n")


@pytest.mark.slow
def test_no_view_fragment_event_or_error_page_shows_a_card_the_browser_may_not_see(app, monkeypatch):
    """R4.4 through a game: hot-seat pair (Ann, Bob) on the host's device, Cid on his own, and a
    stranger who only watches."""
    host, guest, stranger = Player(app), Player(app), Player(app)
    # quick_out.deck: Ann goes out in her first turn, so round summaries come early (R5.7)
    slug = host.start_game(["Ann", "Bob", "Cid"], deck="quick_out.deck", devices=["here", "here", "own"])
    with app.app_context():
        code = store.find_game(slug).seats[2].join_code
    # the join pages, before the seat is taken, show no cards
    for page in (f"/join?code={code}", f"/join/{code}", f"/games/{slug}/seats/2/invite"):
        response = host.get(page)
        assert response.status_code == 200
        Checker(app, slug).check(response.get_data(as_text=True), set(), page, spectator=True)
    assert guest.post("/join", {"code": code}).status_code == 303
    browsers = {"host": (host, {0, 1}), "guest": (guest, {2}), "stranger": (stranger, set())}
    checker = Checker(app, slug)

    statuses: set[int] = set()
    events_checked = 0
    phases_seen, movers = set(), set()
    for step in range(45):
        record, game = checker.state()
        phase = (game.phase, record.shown_seat == game.turn)
        check_views(checker, slug, browsers, step, everything=phase not in phases_seen or step % 6 == 0)
        if (step == 0 or (game.phase == PLAY_PHASE and 422 not in statuses and game.turn in browsers["host"][1]
                          and phase[1]) or (game.phase == ROUND_OVER and phase not in phases_seen)):
            statuses |= check_error_pages(app, checker, slug, browsers, monkeypatch)
        if phase not in phases_seen:
            for label, (player, held) in browsers.items():
                for message in read_events(player, slug, 0):
                    data = [line[5:].strip() for line in message.splitlines() if line.startswith("data:")]
                    assert all(value.isdigit() for value in data), message  # a version number, never a card
                    assert not CODE_IN_TEXT.search(message.replace("event: changed", "")), message
                    events_checked += 1
        phases_seen.add(phase)
        if game.phase in (DRAW_PHASE, PLAY_PHASE):
            movers.add(game.turn)
        if not play_one_step(app, slug, browsers, checker):
            break
    assert {400, 403, 404, 409, 413, 422, 500} <= statuses, statuses
    assert ROUND_OVER in {phase for phase, _shown in phases_seen}
    assert (DRAW_PHASE, False) in phases_seen and (DRAW_PHASE, True) in phases_seen  # hand-over and after
    assert movers == {0, 1, 2}  # both hot-seat players and the own-device player had turns
    record_figures(app.config["SQLALCHEMY_DATABASE_URI"], "leaks", pages_checked=checker.pages,
                   cards_checked=checker.cards_checked, event_messages_checked=events_checked,
                   error_statuses_checked=sorted(statuses))


def test_deck_files_and_the_stock_order_are_never_served_to_players(app, player, decks_folder):
    """No route serves decks/ to a player; the admin's preview of first hands needs admin."""
    deck_text = (decks_folder / "quick_out.deck").read_text()
    first_line = deck_text.splitlines()[0]
    slug = player.start_game(["Ann", "AI"], deck="quick_out.deck")
    for path in ("/decks/quick_out.deck", "/static/quick_out.deck", "/static/../decks/quick_out.deck",
                 "/static/%2e%2e/decks/quick_out.deck", "/quick_out.deck", "/static/decks/quick_out.deck",
                 "/admin/decks/quick_out.deck", "/setup/quick_out.deck"):
        response = player.get(path)
        assert response.status_code in (404, 405), path
        assert first_line not in response.get_data(as_text=True)
    static = app.static_folder
    import os

    assert not [name for _root, _dirs, files in os.walk(static) for name in files if name.endswith(".deck")]

    # every GET page a player can reach: no deck file content, and the stock's order never
    with app.app_context():
        game = store.load_state(store.find_game(slug))
    samples = {"slug": slug, "number": 1, "code": "ABCDEF", "name": "quick_out.deck", "token": "x", "filename": "css/app.css",
               "key": "rummy", "item": "1-open"}
    stock = " ".join(card.code for card in game.stock[:3])
    checked = 0
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods or rule.endpoint == "static" or rule.endpoint.startswith("admin."):
            continue
        with app.test_request_context():
            url = url_for(rule.endpoint, **{name: samples[name] for name in rule.arguments})
        response = player.get(url)
        body = response.get_data(as_text=True) if response.mimetype != "text/event-stream" else ""
        response.close()
        assert first_line not in body and stock not in body, url
        assert set(Page(body).cards) <= allowed_cards(game, 0), url
        checked += 1
    assert checked >= 8

    # the admin preview shows first hands only to the admin
    stranger = Player(app)
    response = stranger.get("/admin")
    assert response.status_code in (302, 303) and "/admin/login" in response.headers["Location"]
    assert not Page(stranger.get("/admin/login").get_data(as_text=True)).cards
    assert stranger.post("/admin/login", {"password": app.config["ADMIN_PASSWORD"]}).status_code == 303
    assert set(Page(stranger.get("/admin").get_data(as_text=True)).cards) >= set(first_line.split())
