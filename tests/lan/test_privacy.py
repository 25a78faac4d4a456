"""Privacy at a LAN table (R4.4): a browser sees only the hands of the seats it holds.

For every browser at a table (each own-device player, the host's device, a spectator) the table
page, the live fragment, the watch page and the error answers (409 stale, 409 out of turn,
422 refused, 403 wrong seat) are rendered at every step of whole games, and every card code they
show - data-card attributes, and any card-code-looking token in the text or the attributes - must
be in that browser's shown hand or public (the discard top, the laid-down sets, the cards named
by this round's log). Never another seat's hand, never the stock.
"""

from __future__ import annotations

import re

import pytest

from app.games.mason import ROUND_OVER, Game, judge_lay_down
from app.games.mason.melds import Refusal
from support.cards import hand_of, public_cards, secret_cards, table_cards
from support.moves import sensible_move
from support.pages import Page

# A card code standing alone (R1.3: displays use upper case): "7D", "TP"; not inside "A7DX".
CODE_TOKEN = re.compile(r"(?<![A-Za-z0-9])[2-9TJQKA][CDHSP](?![A-Za-z0-9])")
# Attribute values that are random or encoded, never something a player reads.
NOT_SHOWN_ATTRIBUTES = {"hx-headers", "src", "content"}


def assert_private(html: str, game: Game, held: set[int], *, where: str) -> int | None:
    """Check one rendered page for a browser holding ``held``; return the seat whose hand it shows.

    R4.4: at most one hand is shown, of a held seat, exactly as stored; every card code shown is
    in that hand or public; card faces (data-card) only for that hand and the table cards."""
    page = Page(html)
    tokens = page.tokens(CODE_TOKEN, NOT_SHOWN_ATTRIBUTES)
    seat = page.seat if page.hand else None
    if page.hand:
        assert seat in held, f"{where}: shows the hand of seat {seat}, which this browser does not hold"
        assert page.hand == hand_of(game, seat), f"{where}: the hand shown is not seat {seat}'s hand"
    hand = set(hand_of(game, seat)) if seat is not None else set()
    faces = hand | table_cards(game)
    allowed = hand | public_cards(game)
    assert set(page.cards) <= faces, f"{where}: card faces {sorted(set(page.cards) - faces)} leaked"
    leaked = set(tokens) - allowed
    assert not leaked, f"{where}: card codes {sorted(leaked)} leaked (seat shown: {seat})"
    assert not set(tokens) & secret_cards(game, seat)
    return seat


# -- driving a table ----------------------------------------------------------------------------


class Table:
    """One game and the browsers around it: ``seats`` maps each human seat to the Player
    (browser) holding it; ``others`` are browsers holding no seat (host without a seat,
    spectators)."""

    def __init__(self, slug: str, seats: dict, others: list, spectator):
        self.slug = slug
        self.seats = seats
        self.others = others
        self.spectator = spectator

    def browsers(self) -> list[tuple[object, set[int]]]:
        found = {}
        for seat, browser in self.seats.items():
            found.setdefault(id(browser), (browser, set()))[1].add(seat)
        for browser in self.others:
            found.setdefault(id(browser), (browser, set()))
        return list(found.values())

    def state(self) -> tuple[Game, int]:
        return self.spectator.state(self.slug)

    def check_views(self, where: str) -> None:
        game, version = self.state()
        slug = self.slug
        for browser, held in self.browsers():
            for url, htmx in ((f"/games/{slug}", False), (f"/games/{slug}/table", True),
                              (f"/games/{slug}/table?watch=1", True)):
                response = browser.get(url, htmx=htmx)
                assert response.status_code == 200
                seat = assert_private(response.get_data(as_text=True), game, held,
                                      where=f"{where} {url} for seats {sorted(held)}")
                if "watch" in url:
                    assert seat is None
        response = self.spectator.get(f"/games/{slug}/watch")
        assert response.status_code == 200
        assert assert_private(response.get_data(as_text=True), game, set(), where=f"{where} watch") is None

    def check_error_pages(self, where: str) -> None:
        """R4.4 on refusals: each seat's 409/422/403 answers show only what that seat may see."""
        game, version = self.state()
        before = version
        for browser, held in self.browsers():
            if not held:
                continue
            seat = min(held)
            other = next(s for s in range(len(game.players)) if s not in held)
            mine = hand_of(game, seat)
            plain = browser.act(self.slug, "discard" if mine else "draw_stock", mine[:1], version=version - 1,
                                seat=seat, htmx=False)  # stale, plain form post: back to the whole page
            answers = [
                browser.act(self.slug, "draw_stock", version=version - 1, seat=seat),  # stale: 409
                browser.act(self.slug, "draw_stock", version=version, seat=other),  # wrong seat: 403
                browser.followed(plain, to=f"/games/{self.slug}"),  # (the table the redirect leads to)
            ]
            expected = [409, 403, 200]
            if game.phase not in (ROUND_OVER,) and not game.is_over() and game.turn not in held:
                answers.append(browser.act(self.slug, "draw_stock", version=version, seat=seat))  # out of turn
                expected.append(409)
            if game.phase == "play" and game.turn in held:
                refused = refused_selection(game, game.turn)
                if refused:
                    answers.append(browser.act(self.slug, "lay_down", refused, version=version, seat=game.turn))
                    expected.append(422)
            statuses = [answer.status_code for answer in answers]
            assert statuses == expected, f"{where}: {statuses}"
            for answer in answers:
                assert Page(answer.get_data(as_text=True)).alerts, "a refusal says why"
                assert_private(answer.get_data(as_text=True), game, held,
                               where=f"{where} error {answer.status_code} for seats {sorted(held)}")
        assert self.state()[1] == before, "a refused action changed the game"

    def reveal_if_needed(self, seat: int) -> None:
        """Hot-seat: press the hand-over button when the device shows it."""
        browser = self.seats[seat]
        page = browser.table(self.slug)
        if page.has_button("show my hand"):
            assert browser.reveal(self.slug).status_code == 200

    def play(self, check=lambda where: None, errors_every: int = 1) -> int:
        """Play the whole game through the browsers, one action a step, each the computer
        player's choice (support.moves); ``check`` (and every ``errors_every`` steps the error
        answers) runs before every step and at the end."""
        steps = 0
        last_seat = None  # the seat that made the last move of this round
        while True:
            game, version = self.state()
            where = f"round {game.round_number} {game.phase} seat {game.turn} v{version}"
            check(where)
            if steps % errors_every == 0:
                self.check_error_pages(where)
            if game.is_over():
                return steps
            if game.phase == ROUND_OVER:
                browser = next(iter(self.seats.values()))
                choice = sensible_move(game)
                assert choice.seat is None and choice.name == "next_round", choice
                response = browser.play(self.slug, choice, version=version)
                assert response.status_code == 200, Page(response.get_data(as_text=True)).alerts
                steps += 1
                last_seat = None
                continue
            seat = game.turn
            if seat != last_seat:  # a new turn: on a shared device, the hand-over first
                self.reveal_if_needed(seat)
                game, version = self.state()
            last_seat = seat
            response = self.seats[seat].play(self.slug, sensible_move(game), version=version)
            assert response.status_code == 200, Page(response.get_data(as_text=True)).alerts
            steps += 1


def refused_selection(game: Game, seat: int) -> list[str] | None:
    """One hand card that R6.3 refuses as a lay-down (a lone card that fits none of the seat's sets)."""
    player = game.players[seat]
    for card in player.hand.cards:
        if isinstance(judge_lay_down((card,), player.hand.laid_down), Refusal):
            return [card.code]
    return None


def own_device_table(make_player, names: list[str], deck: str) -> Table:
    """A host sets up a game where every human seat is on its own device; each player claims
    their seat with the join code; a spectator watches."""
    host = make_player()
    slug = host.start_game(names, deck=deck, devices=["own"] * len(names))
    seats = {}
    for number, code in join_codes(host, slug).items():
        browser = make_player()
        response = browser.post("/join", {"code": code})
        assert response.status_code == 303
        seats[number] = browser
    return Table(slug, seats, [host], make_player())


def join_codes(browser, slug: str) -> dict[int, str]:
    from app import store

    with browser.app.app_context():
        record = store.find_game(slug)
        return {seat.number: seat.join_code for seat in record.seats if seat.join_code}


# -- the tests ----------------------------------------------------------------------------------


def test_card_token_finder_sees_codes_in_text_and_attributes():
    """The checker itself: it must find codes in text, titles and data-card, not in longer words."""
    shown = Page('<p title="TP (ten of Patriots)">Ann discarded 7D. AI 10 cards ABC3D</p>'
                 '<span data-card="QS"></span><input name="csrf_token" value="x-AS-y">')
    assert sorted(shown.tokens(CODE_TOKEN, NOT_SHOWN_ATTRIBUTES)) == ["7D", "QS", "TP"]
    assert shown.cards == ["QS"]


def test_the_privacy_check_catches_a_hand_shown_to_the_wrong_browser(make_player):
    """The checker itself: Ann's page judged as if Bob's browser had received it must fail, and
    a page with one of Ann's cards slipped into the text must fail for Bob even without a hand."""
    table = own_device_table(make_player, ["Ann", "Bob"], "quick_out.deck")
    game, _version = table.state()
    ann_html = table.seats[0].get(f"/games/{table.slug}").get_data(as_text=True)
    assert assert_private(ann_html, game, {0}, where="Ann") == 0
    with pytest.raises(AssertionError, match="^Ann's page for Bob: shows the hand of seat 0, which this browser does not hold"):
        assert_private(ann_html, game, {1}, where="Ann's page for Bob")
    watch_html = table.spectator.get(f"/games/{table.slug}/watch").get_data(as_text=True)
    assert_private(watch_html, game, {1}, where="watch")
    with pytest.raises(AssertionError, match=rf"^a code in the text: card codes \['{hand_of(game, 0)[0]}'\] leaked"):
        assert_private(watch_html.replace("</main>", f"<p>{hand_of(game, 0)[0]}</p></main>"), game, {1},
                       where="a code in the text")
    with pytest.raises(AssertionError, match=rf"^the stock top as a face: card faces \['{game.stock[0].code}'\] leaked"):
        assert_private(watch_html.replace("</main>", f"<i data-card='{game.stock[0].code}'></i></main>"),
                       game, {1}, where="the stock top as a face")


@pytest.mark.slow
def test_every_view_of_every_seat_is_private_through_a_whole_game(make_player):
    """R4.4 at every step of a 3-round game on own devices: table page,
    fragment, watch page and error answers for each player, the host and a spectator."""
    table = own_device_table(make_player, ["Ann", "Bob"], "ai_showcase.deck")
    game, _version = table.state()
    assert all(number in table.seats for number in range(2))
    steps = table.play(check=table.check_views, errors_every=4)
    game, _version = table.state()
    assert game.is_over() and game.round_number == 3
    assert steps > 40  # a real game: draws, lay-downs, lay-offs and discards in every round


@pytest.mark.slow
def test_hot_seat_and_own_device_seats_mixed_stay_private(make_player):
    """Two hot-seat seats on the host's device and one on its own device.
    The host's device shows one hand at a time (after the hand-over screen), never Cat's; Cat's
    device never shows Ann's or Bob's; at every step of a whole game."""
    host = make_player()
    slug = host.start_game(["Ann", "Bob", "Cat"], deck="quick_out.deck", devices=["here", "here", "own"])
    cat = make_player()
    assert cat.post("/join", {"code": join_codes(host, slug)[2]}).status_code == 303
    table = Table(slug, {0: host, 1: host, 2: cat}, [], make_player())

    shown_by_host = set()

    def check(where):
        table.check_views(where)
        game, _version = table.state()
        host_page = host.table(slug)
        if host_page.hand:
            shown_by_host.add(host_page.seat)
        if not game.is_over():  # R4.4 and reconnect: Cat's device always shows her own hand
            cat_page = cat.table(slug)
            assert cat_page.seat == 2 and cat_page.hand == hand_of(game, 2), f"{where}: Cat's own hand"

    table.play(check=check, errors_every=2)
    game, _version = table.state()
    assert game.is_over()
    assert shown_by_host == {0, 1}


def test_a_hand_over_screen_shows_no_hand_on_a_shared_device(make_player):
    """Hot-seat privacy: before the hand-over button is pressed the shared device shows no hand."""
    host = make_player()
    slug = host.start_game(["Ann", "Bob", "Cat"], deck="three_players.deck", devices=["here", "here", "own"])
    game, _version = host.state(slug)
    html = host.get(f"/games/{slug}").get_data(as_text=True)
    page = Page(html)
    assert page.has_button("I am Ann: show my hand")
    assert page.hand == []
    assert_private(html, game, {0, 1}, where="hand-over screen")
    assert host.reveal(slug).status_code == 200
    page = host.table(slug)
    assert page.seat == 0 and page.hand == hand_of(game, 0)


@pytest.mark.parametrize("path", ["", "/table", "/watch", "/table?watch=1"])
def test_a_browser_holding_no_seat_sees_no_hand_and_no_join_code(make_player, path):
    """R4.4: a stranger (or a spectator) is shown the table only; join codes, which would let
    them take a seat, are not shown to anyone but the table's own browsers."""
    host = make_player()
    slug = host.start_game(["Ann", "Bob"], deck="quick_out.deck", devices=["here", "own"])
    code = join_codes(host, slug)[1]
    assert code in host.get(f"/games/{slug}").get_data(as_text=True)
    stranger = make_player()
    game, _version = stranger.state(slug)
    html = stranger.get(f"/games/{slug}{path}", htmx="table" in path).get_data(as_text=True)
    assert assert_private(html, game, set(), where=path) is None
    assert code not in html
    # nor for the host's own browser when it watches
    if "watch" in path:
        assert code not in host.get(f"/games/{slug}{path}", htmx="table" in path).get_data(as_text=True)
