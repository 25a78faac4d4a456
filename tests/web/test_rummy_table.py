"""Classic Rummy at the web table, through the pages and forms as a browser uses them: set-up at
/setup/rummy (seats, the target score and rummy bonus options, a stacked deck from
tests/decks/rummy/), drawing by tapping a pile (C3.1), melds and lay-offs on anyone's meld where the
player chooses (C3.2), the discard and its restriction (C3.3), going out, the hand's lines and the
results (C3.4, C5, C8.4), refusals (the reason shown, nothing changed), privacy of every hand and
of the stock (C7.1) in every page, fragment and spectator's view, hand-over, rematch, and the
statistics per name (C5.4).

The sample decks are described in tests/decks/rummy/README.md."""

from __future__ import annotations

import re

import pytest

from app.games.rummy.cards import DECK
from support import pages
from support.web import Page, database_dump

LAY_OFF = "lay_off.deck"
QKA = "queen_king_ace.deck"
QUICK = "quick_rummy.deck"
FOUR = "four_seats.deck"
SIX = "six_seats.deck"
STOCK = "draw|source=stock"
DISCARD_PILE = "draw|source=discard"


# -- helpers ---------------------------------------------------------------------------------------------


def set_up(player, names, *, devices=None, deck: str | None = None, target: int = 100, bonus: bool = True) -> str:
    """The set-up form of /setup/rummy posted as a browser posts it (the rummy bonus checkbox
    follows its hidden "0"); the new table's slug."""
    return player.set_up("rummy", names, devices, target=target, rummy_bonus=["0", "1"] if bonus else "0",
                         deck=deck or "")


def table(player, slug: str) -> Page:
    return player.table_past_handover(slug)


def buttons(page: Page, name: str = "move") -> list[str]:
    return [value for button_name, value, _text in page.buttons if button_name == name]


def press(player, slug: str, value: str, cards=(), *, name: str = "move", htmx: bool = True, status: int = 200):
    """Press the button ``name=value`` the table shows (it must be there), with ``cards``
    selected in the hand: the post a browser makes. Returns the response."""
    page = table(player, slug)
    assert value in buttons(page, name), (value, page.buttons)
    for code in cards:
        assert code in page.hand, (code, page.hand)
    data = {"version": str(page.version), "seat": "" if page.seat is None else str(page.seat),
            name: value, "cards": list(cards)}
    response = player.post(f"/games/{slug}/act", data, htmx=htmx)
    assert response.status_code == status, (response.status_code, Page(response.get_data(as_text=True)).alerts)
    return response


def refused(player, slug: str, value: str, cards=(), *, name: str = "move") -> str:
    """Press a button the rules refuse: the message shown, and nothing changed."""
    before = player.state(slug)
    before = (before[0].to_dict(), before[1])
    response = press(player, slug, value, cards, name=name, status=422)
    page = Page(response.get_data(as_text=True))
    after = player.state(slug)
    assert (after[0].to_dict(), after[1]) == before, "a refusal changed the game"
    assert sorted(c for c in cards if c in page.hand) == sorted(cards)
    assert len(page.alerts) == 1, page.alerts
    return page.alerts[0]


def hand(player, slug: str, seat: int) -> list[str]:
    state, _ = player.state(slug)
    return [card.code for card in state.players[seat].hand.cards()]


def melds(player, slug: str) -> list[tuple[int, list[str]]]:
    state, _ = player.state(slug)
    return [(meld["owner"], meld["cards"]) for meld in state.view(None)["melds"]]


def names_card(html: str, code: str) -> bool:
    """Whether the HTML names ``code``: as a code anywhere (text or attribute) or in words."""
    return pages.names_card(html, code, DECK)


def every_view(players: dict, slug: str, spectator) -> dict[str, str]:
    """Each browser's page and live fragment, and a spectator's page and fragment."""
    views = {f"{who}'s {what}": html for who, one in players.items() for what, html in one.views(slug).items()}
    watched = spectator.watch_views(slug)
    views.update({"spectator's page": watched["watch"], "spectator's fragment": watched["watch fragment"]})
    return views


def meld_button(html: str, number: int) -> str:
    match = re.search(rf'<button type="submit" form="act-form" class="rm-meld[^"]*" name="move" '
                      rf'value="lay_off\|meld={number}"[^>]*>', html)
    assert match, f"meld {number} is not a button"
    return match.group(0)


def discard_first_card_turn(player, slug: str) -> None:
    """A plain turn: draw from the stock, discard the drawn card."""
    press(player, slug, STOCK)
    state, _ = player.state(slug)
    if state.to_move() is not None:  # else the draw ended a void hand (C4.2)
        press(player, slug, "discard", [state.view(state.turn)["drawn"]], name="action")


# -- set-up -----------------------------------------------------------------------------------------------


def test_c2_1_c5_3_the_setup_form_offers_2_to_6_seats_the_options_and_the_stacked_decks(player):
    html = player.get("/setup/rummy").get_data(as_text=True)
    page = Page(html)
    assert re.findall(r'<option value="(\d)"', html) == ["2", "3", "4", "5", "6"]
    assert page.value("target") == "100" and 'min="50" max="500"' in html
    assert re.search(r'<input type="checkbox" name="rummy_bonus" value="1" checked[ >]', html)
    assert {"", LAY_OFF, QKA, QUICK, FOUR, SIX, "void_hand.deck"} <= set(page.inputs["deck"])


@pytest.mark.parametrize("bonus", [True, False])
def test_c5_2_c5_3_c8_1_the_options_and_the_stacked_deck_reach_the_game(player, bonus):
    slug = set_up(player, ["Ann", "AI"], deck=LAY_OFF, target=150, bonus=bonus)
    state, _ = player.state(slug)
    assert state.target == 150 and state.rummy_bonus is bonus
    assert hand(player, slug, 0) == ["2C", "8C", "4D", "8D", "8H", "QH", "5S", "6S", "7S", "8S"]
    page = table(player, slug)
    assert "Hand 1 - target 150" in page.html
    assert ("rummy doubles" in page.html) is bonus


@pytest.mark.parametrize("field, value, words", [
    ("target", "40", "Target score: 40 is not between 50 and 500."),
    ("target", "lots", "Target score: type a whole number from 50 to 500."),
    ("name1", "", "Seat 2:"),
    ("deck", "nowhere.deck", "no deck file named 'nowhere.deck' in decks/rummy/"),
])
def test_a_refused_setup_says_why_and_creates_nothing(app, player, field, value, words):
    before = database_dump(app)
    data = {"seats": "2", "name0": "Ann", "name1": "AI", "device0": "here", "device1": "here",
            "target": "100", "rummy_bonus": "0", "deck": "", field: value}
    response = player.post("/setup/rummy", data)
    assert response.status_code == 422
    assert words in Page(response.get_data(as_text=True)).alerts[0]
    assert database_dump(app) == before


# -- the board ------------------------------------------------------------------------------------------


def test_c7_1_the_board_shows_the_piles_every_seat_s_hand_size_and_score_and_the_own_hand(player):
    slug = set_up(player, ["Ann", "Bob", "AI", "AI"], deck=FOUR)
    page = table(player, slug)
    html = page.html
    assert page.hand == ["9C", "KC", "KD", "4H", "5H", "6H", "2S"]  # C8.3: by suit C D H S, then rank
    assert page.seat == 0 and "Your turn, Ann: Draw a card from the stock pile or the discard pile." in html
    assert re.search(r"Stock pile<br><strong>23</strong> cards", html)  # 52 - 4 x 7 - 1
    assert re.search(r'data-card="7H"[^>]*><b>7<i>\u2665</i></b></span><span class="pile-label">Discard pile<br><strong>1</strong> card<', html)
    stats = re.findall(r'<span class="player-name">([^<]+)</span>.*?<span class="rm-stats">([^<]+)</span>', html, re.S)
    assert stats == [("Ann", "7 cards &middot; 0 pts"), ("Bob", "7 cards &middot; 0 pts"),
                     ("AI 3", "7 cards &middot; 0 pts"), ("AI 4", "7 cards &middot; 0 pts")]
    # C3.1: the piles are the draw buttons, submitting the hand's form from outside it
    for value, label in ((STOCK, "Draw from stock pile"), (DISCARD_PILE, "Draw from discard pile")):
        assert re.search(rf'<button type="submit" form="act-form" class="rm-pile rm-draw" name="move" value="{re.escape(value)}" title="{label}">', html)
    assert buttons(page) == [STOCK, DISCARD_PILE, STOCK, DISCARD_PILE]  # the piles, then the Draw menu
    assert 'id="act-form"' in html and 'name="seat" value="0"' in html
    # nothing to select before the draw
    assert all("disabled" in box for box in re.findall(r'<input type="checkbox" name="cards"[^>]*>', html))


def test_c3_1_tapping_the_stock_draws_its_top_card_marked_for_the_drawer_only(player, make_player):
    bob = make_player()
    slug = set_up(player, ["Ann", "Bob"], devices=["here", "own"], deck=LAY_OFF)
    response = press(player, slug, STOCK)
    page = Page(response.get_data(as_text=True))
    assert "9C" in page.hand and len(page.hand) == 11
    assert re.search(r'<label class="card suit-C drawn" data-card="9C"', page.html)
    assert "Ann drew from the stock pile." in page.html and "Ann drew 9C" not in page.html
    assert "Stock pile<br><strong>30</strong>" in page.html
    # the piles are no buttons once drawn; the Play menu is there
    assert STOCK not in buttons(page) and DISCARD_PILE not in buttons(page)
    assert page.has_button("Discard") and page.has_button("Meld")
    assert not names_card(player.get(f"/games/{slug}/watch").get_data(as_text=True), "9C")


def test_c3_1_a_plain_form_post_draws_from_the_discard_pile_and_redirects(player):
    slug = set_up(player, ["Ann", "AI"], deck=QUICK)
    response = press(player, slug, DISCARD_PILE, htmx=False, status=303)
    assert response.headers["Location"] == f"/games/{slug}"
    assert "7H" in hand(player, slug, 0)
    assert table(player, slug).log[-1] == "Ann took the 7\u2665 from the discard pile."


def test_c3_2_melds_then_a_card_that_fits_two_melds_goes_on_the_one_the_player_taps(player):
    """lay_off.deck: Ann melds 5S 6S 7S (meld 1) and 8C 8D 8H (meld 2); 8S fits both, and goes on
    the set because that is the meld she taps."""
    slug = set_up(player, ["Ann", "AI"], deck=LAY_OFF)
    press(player, slug, STOCK)
    page = Page(press(player, slug, "meld", ["5S", "6S", "7S"], name="action").get_data(as_text=True))
    assert melds(player, slug) == [(0, ["5S", "6S", "7S"])]
    assert page.log[-1] == "Ann melded a run: 5\u2660 6\u2660 7\u2660 (meld 1)."
    page = Page(press(player, slug, "meld", ["8C", "8D", "8H"], name="action").get_data(as_text=True))
    html = page.html
    # both melds are buttons; the hand marks 8S as fitting both (the script highlights them)
    assert buttons(page) == ["lay_off|meld=1", "lay_off|meld=2"]
    assert 'data-card="8S" data-fits="1 2"' in html and 'data-card="4D" data-fits' not in html
    meld_button(html, 1), meld_button(html, 2)
    page = Page(press(player, slug, "lay_off|meld=2", ["8S"]).get_data(as_text=True))
    assert melds(player, slug) == [(0, ["5S", "6S", "7S"]), (0, ["8C", "8D", "8H", "8S"])]
    assert page.log[-1] == "Ann laid off the 8\u2660 on meld 2, their own set: 8\u2663 8\u2666 8\u2665 8\u2660."
    assert hand(player, slug, 0) == ["2C", "9C", "4D", "QH"]


def test_c3_2_a_card_laid_off_on_another_player_s_meld_and_a_card_that_does_not_fit_refused(player):
    """lay_off.deck: the computer melds 9H TH JH (meld 3); Ann lays QH off on it; 9C on her own
    run 5S 6S 7S is refused with the reason, and nothing changes."""
    slug = set_up(player, ["Ann", "AI"], deck=LAY_OFF)
    press(player, slug, STOCK)
    press(player, slug, "meld", ["5S", "6S", "7S"], name="action")
    press(player, slug, "meld", ["8C", "8D", "8H"], name="action")
    press(player, slug, "lay_off|meld=2", ["8S"])
    press(player, slug, "discard", ["2C"], name="action")
    assert melds(player, slug)[2] == (1, ["9H", "TH", "JH"])
    press(player, slug, STOCK)
    page = table(player, slug)
    assert 'title="Meld 3, AI\'s run: lay the selected card off here"' in meld_button(page.html, 3)
    message = refused(player, slug, "lay_off|meld=1", ["9C"])
    assert message == ("9C does not fit meld 1 (5S 6S 7S, Ann's run): a run grows only at its ends, with the "
                       "next card of its suit: 4S or 8S.")
    page = Page(press(player, slug, "lay_off|meld=3", ["QH"]).get_data(as_text=True))
    assert melds(player, slug)[2] == (1, ["9H", "TH", "JH", "QH"])
    assert page.log[-1] == "Ann laid off the Q\u2665 on meld 3, AI's run: 9\u2665 10\u2665 J\u2665 Q\u2665."
    assert page.alerts == []


def test_c1_1_q_k_a_is_refused_with_the_reason_and_the_selection_stays(player):
    slug = set_up(player, ["Ann", "AI"], deck=QKA)
    press(player, slug, STOCK)
    message = refused(player, slug, "meld", ["QH", "KH", "AH"], name="action")
    assert "ace" in message and "low" in message, message
    response = press(player, slug, "meld", ["QH", "KH", "AH"], name="action", status=422)
    checked = re.findall(r'value="(\w\w)" checked', response.get_data(as_text=True))
    assert sorted(checked) == ["AH", "KH", "QH"]  # the refused selection stays selected
    press(player, slug, "meld", ["AH", "2H", "3H"], name="action")
    assert melds(player, slug) == [(0, ["AH", "2H", "3H"])]
    # no card of the hand fits the run now: no meld is offered as a button, and a lay-off posted
    # all the same (an old page) is refused with the reason
    page = table(player, slug)
    assert buttons(page) == [] and "lay_off" not in page.html
    before = player.state(slug)
    response = player.post(f"/games/{slug}/act", {"version": str(page.version), "seat": "0", "cards": ["KH"],
                                                 "move": "lay_off|meld=1"}, htmx=True)
    assert response.status_code == 422 and player.state(slug)[1] == before[1]
    assert Page(response.get_data(as_text=True)).alerts[0].startswith("KH does not fit meld 1 (AH 2H 3H, Ann's run)")


def test_c3_3_the_card_taken_from_the_discard_pile_is_marked_and_may_not_be_discarded(player):
    """quick_rummy.deck: Ann takes 7H; it is marked; discarding it is refused, and so is a meld
    that would leave it alone in her hand."""
    slug = set_up(player, ["Ann", "AI"], deck=QUICK)
    page = Page(press(player, slug, DISCARD_PILE).get_data(as_text=True))
    assert re.search(r'<label class="card suit-H taken" data-card="7H"', page.html)
    assert "came from the discard pile this turn: you may not discard it this turn" in page.html
    assert refused(player, slug, "discard", ["7H"], name="action") == (
        "You took 7H from the discard pile this turn: you may not discard it this turn.")
    press(player, slug, "meld", ["AC", "2C", "3C", "4C"], name="action")
    press(player, slug, "meld", ["5D", "5H", "5S"], name="action")
    message = refused(player, slug, "meld", ["9S", "TS", "JS"], name="action")
    assert "would leave 7H" in message and "(C3.3)" not in message
    press(player, slug, "discard", ["9S"], name="action")
    assert hand(player, slug, 0) == ["7H", "TS", "JS"]


def test_c3_2_a_lay_off_out_of_turn_or_before_the_draw_is_refused(player, make_player):
    bob = make_player()
    slug = set_up(player, ["Ann", "Bob"], devices=["here", "own"], deck=LAY_OFF)
    page = table(player, slug)
    assert "lay_off|meld=1" not in buttons(page)
    before = player.state(slug)[0].to_dict()
    response = player.post(f"/games/{slug}/act", {"version": str(page.version), "seat": "0",
                                                 "move": "lay_off|meld=1", "cards": ["8S"]}, htmx=True)
    assert response.status_code == 409 or response.status_code == 422
    assert "Draw a card first" in Page(response.get_data(as_text=True)).alerts[0]
    assert player.state(slug)[0].to_dict() == before
    # Bob's browser holds no seat yet: it shows no hand and no buttons of Ann's
    bob_page = bob.table(slug)
    assert bob_page.hand == [] and bob_page.buttons == []


# -- going out, the hand's lines, results, statistics ------------------------------------------


def go_out_with_a_rummy(player, slug: str) -> Page:
    """quick_rummy.deck, Ann's first turn: 2D drawn, three melds, 2D discarded (C3.4, C5.2)."""
    press(player, slug, STOCK)
    press(player, slug, "meld", ["AC", "2C", "3C", "4C"], name="action")
    press(player, slug, "meld", ["5D", "5H", "5S"], name="action")
    press(player, slug, "meld", ["9S", "TS", "JS"], name="action")
    return Page(press(player, slug, "discard", ["2D"], name="action").get_data(as_text=True))


def test_c5_2_c8_4_between_hands_the_summary_shows_the_hand_s_lines_and_anyone_deals(player, make_player):
    bob = make_player()
    slug = set_up(player, ["Ann", "Bob"], devices=["here", "own"], deck=QUICK, target=500)
    page = go_out_with_a_rummy(player, slug)
    html = page.html
    assert "Hand 1: Ann went out with a rummy" in html  # the status bar
    assert "<strong>Rummy!</strong> Ann went out in one turn: the points are doubled." in html
    # C8.4's lines as a table: each player's points this hand and total, who went out marked
    scores = html.split('class="rm-hand-scores"', 1)[1].split("</table>", 1)[0]
    assert "<caption" in scores and "Hand 1: points scored" in scores
    assert re.findall(r"<tr(?: class=\"went-out\")?><th scope=\"row\">(\w+)</th><td>(\d+)</td><td>(\d+)</td></tr>", scores) == [
        ("Ann", "180", "180"), ("Bob", "0", "0")]
    assert '<tr class="went-out"><th scope="row">Ann</th><td>180</td><td>180</td></tr>' in scores
    assert "Ann went out in one turn: rummy! Ann scores 180 points, doubled." in page.log
    # C5.1: the cards left in Bob's hand, which Ann scored, are shown to everyone with their points
    bob_cards = hand(player, slug, 1)  # (a card's id is its code: one deck)
    for html_seen in (html, make_player().get(f"/games/{slug}/watch").get_data(as_text=True)):
        left = html_seen.split('class="hands-left"', 1)[1].split("</ul>", 1)[0]
        assert '<span class="hand-owner">Bob</span>' in left and "90 pts" in left and "Ann" not in left
        assert sorted(re.findall(r'data-card="([^"]+)"', left)) == sorted(bob_cards)
    assert ("action", "deal", "Deal hand 2") in page.buttons
    assert re.search(r"<th scope=\"row\">Ann</th><td>1</td><td><strong>180</strong></td>", html)  # the side panel
    # Bob (on his own device, not joined yet) cannot deal; Ann's browser deals as a table move
    response = player.post(f"/games/{slug}/act", {"version": str(page.version), "action": "deal"}, htmx=True)
    assert response.status_code == 200
    state, _ = player.state(slug)
    assert state.hand_number == 2 and state.turn == 1  # C2.4: hand 2 starts with seat 2
    assert "Hand 2 - target 500" in Page(response.get_data(as_text=True)).html


def test_c5_2_without_the_bonus_a_rummy_scores_single(player):
    slug = set_up(player, ["Ann", "Bob"], deck=QUICK, target=500, bonus=False)
    page = go_out_with_a_rummy(player, slug)
    assert "Ann went out in one turn (no bonus at this table)." in page.html
    assert '<tr class="went-out"><th scope="row">Ann</th><td>90</td><td>90</td></tr>' in page.html
    assert "Ann went out in one turn: rummy! Ann scores 90 points (no bonus at this table)." in page.log


def test_c4_2_a_void_hand_says_so_and_scores_nothing(player):
    """Two people who draw and discard the drawn card every turn: the stock runs out, is turned
    over once (C4.1), and runs out again: hand 1 is void (C4.2)."""
    slug = set_up(player, ["Ann", "Bob"], deck=QUICK, target=500)
    turned = False

    def post(path: str, data: dict) -> None:  # a plain form post (answered by a redirect, not followed)
        state, version = player.state(slug)
        assert player.post(f"/games/{slug}/{path}", {"version": str(version), **data}).status_code == 303

    for _ in range(80):
        state, _ = player.state(slug)
        if state.to_move() is None:
            break
        turned = turned or state.turned_over
        post("reveal", {})  # hot seat: the hand-over first
        post("act", {"seat": str(state.turn), "move": STOCK})
        state, _ = player.state(slug)
        if state.to_move() is not None:
            post("act", {"seat": str(state.turn), "action": "discard", "cards": [state.view(state.turn)["drawn"]]})
    else:
        raise AssertionError("the hand did not end")
    html = table(player, slug).html
    assert turned
    assert "Hand 1: no score" in html
    assert "the stock ran out a second time, so the hand is void and nobody scores" in html
    assert Page(html).has_button("Deal hand 2")


def test_c5_3_c5_4_a_won_game_shows_the_winner_and_counts_in_the_statistics(app, player):
    slug = set_up(player, ["Ann", "AI"], deck=QUICK)
    page = go_out_with_a_rummy(player, slug)
    html = page.html
    assert "Game over" in html and "Winner: Ann, with 180 points (target 100)" in html
    assert re.search(r'<tr class="winner"><th scope="row">Ann</th><td>won</td><td>180</td><td>1</td><td>1</td></tr>', html)
    assert re.search(r'<tr><th scope="row">AI <span class="badge computer">Computer \(normal\)</span></th>'
                     r'<td>lost</td><td>0</td><td>0</td><td>0</td></tr>', html)
    assert page.has_button("Rematch with the same players")
    assert page.hand == []  # no hand after the game
    assert "<span class=\"hand-owner\">AI</span>" in html  # the hand left, shown after the game
    rows = player.statistics("rummy")
    # Games played, won, lost, best winning total, hands won, rummies (C5.4)
    assert rows["Ann"] == ["1", "1", "0", "180", "1", "1"]
    assert rows["AI"] == ["1", "0", "1", "", "0", "0"]


def test_a_rematch_keeps_the_players_the_options_and_the_stacked_deck(player):
    slug = set_up(player, ["Ann", "AI"], deck=QUICK, target=50, bonus=False)
    go_out_with_a_rummy(player, slug)
    response = player.post(f"/games/{slug}/rematch", {})
    assert response.status_code == 303
    again = response.headers["Location"].rsplit("/", 1)[1]
    state, _ = player.state(again)
    assert again != slug and state.names == ["Ann", "AI"]
    assert state.target == 50 and state.rummy_bonus is False
    assert hand(player, again, 0) == hand(player, slug, 0) or state.hand_number == 1
    assert "2D" not in hand(player, again, 0) and "AC" in hand(player, again, 0)


# -- privacy, spectators, hand-over ---------------------------------------------------------------


def test_c7_1_no_other_hand_and_no_stock_card_is_in_any_page_fragment_or_spectator_view(player, make_player):
    """Four seats (two people on their own devices, two computers), four_seats.deck played to the
    end of hand 1: at every step, no browser's page or live fragment names a card of another hand
    or of the stock (unless every player has seen it face up, C7.1), nor does the spectator's."""
    bob = make_player()
    spectator = make_player()
    slug = set_up(player, ["Ann", "Bob", "AI", "AI"], devices=["here", "own"], deck=FOUR)
    code = re.search(r'<code class="join-code">(\w+)</code>', table(player, slug).html).group(1)
    assert bob.get(f"/join/{code}").status_code == 200
    assert bob.post("/join", {"code": code}).status_code == 303
    browsers = {"Ann": (player, 0), "Bob": (bob, 1)}

    def check(step: str) -> None:
        state, _ = player.state(slug)
        views = every_view({who: one for who, (one, _seat) in browsers.items()}, slug, spectator)
        for where, html in views.items():
            seat = next((s for who, (_one, s) in browsers.items() if where.startswith(who)), None)
            hidden = sorted(card.code for card in state.hidden_from(seat))
            assert hidden, where
            shown = [code for code in hidden if names_card(html, code)]
            assert not shown, f"{step}: the {where} names {shown}"
        assert "hand-form" not in views["spectator's page"] and 'name="cards"' not in views["spectator's fragment"]

    check("the deal")
    steps = [
        (player, DISCARD_PILE, "move", ()), (player, "meld", "action", ("4H", "5H", "6H", "7H")),
        (player, "discard", "action", ("9C",)),
        (bob, STOCK, "move", ()), (bob, "meld", "action", ("9D", "9H", "9S")),
        (bob, "lay_off|meld=1", "move", ("8H",)), (bob, "discard", "action", ("JD",)),
        (player, STOCK, "move", ()), (player, "meld", "action", ("KC", "KD", "KH")),
        (player, "discard", "action", ("2S",)),
    ]
    for one, value, name, cards in steps:
        press(one, slug, value, cards, name=name)
        check(f"{value} {' '.join(cards)}")
    state, _ = player.state(slug)
    assert state.to_move() is None and state.players[0].score == 87


def test_a_spectator_sees_the_melds_and_piles_but_no_hand_and_no_button(player, make_player):
    spectator = make_player()
    slug = set_up(player, ["Ann", "AI"], deck=LAY_OFF)
    press(player, slug, STOCK)
    press(player, slug, "meld", ["5S", "6S", "7S"], name="action")
    page = spectator.page(f"/games/{slug}/watch")
    assert "You are watching: no hands are shown." in page.html
    assert page.hand == [] and buttons(page) == [] and "act-form" not in page.html
    assert {"5S", "6S", "7S", "KS"} <= set(page.cards)  # the meld and the discard pile's top
    assert "watching" in page.html


def test_hot_seat_the_next_person_gets_a_hand_over_screen_without_cards(player):
    slug = set_up(player, ["Ann", "Bob"], deck=LAY_OFF)
    press(player, slug, STOCK)
    press(player, slug, "discard", ["9C"], name="action")
    page = player.table(slug)
    assert page.has_button("I am Bob: show my hand")
    state, _ = player.state(slug)
    for code in hand(player, slug, 1) + hand(player, slug, 0):
        if code != "9C":
            assert code not in page.cards
    assert page.hand == []
    assert player.reveal(slug).status_code == 200
    assert sorted(table(player, slug).hand) == sorted(hand(player, slug, 1))
    assert state.turn == 1


# -- a six-seat table ---------------------------------------------------------------------------------


def test_six_seats_the_melds_are_grouped_by_owner_and_folded_when_the_table_is_long(player):
    """six_seats.deck, Ann and five computers: after two rounds five melds are on the table; the
    groups of the owners other than Ann and the owner of the meld played on last are folded, each
    showing its count."""
    slug = set_up(player, ["Ann"] + ["AI"] * 5, deck=SIX)
    for _ in range(2):
        discard_first_card_turn(player, slug)
    state, _ = player.state(slug)
    view = state.view(0)
    assert len(view["melds"]) == 5 and state.turn == 0
    html = table(player, slug).html
    groups = re.findall(r'<details class="rm-owner" data-owner="(\d)"( open)?>', html)
    latest = view["melds"][view["latest_meld"] - 1]["owner"]
    assert groups == [(str(p["seat"]), " open" if p["seat"] == latest else "")
                      for p in view["players"] if p["melds"]]
    assert "1 meld</span>" in html and len(re.findall(r'<li class="rm-seat', html)) == 6
