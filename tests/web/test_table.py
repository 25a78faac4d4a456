"""The table: Menus D, E and F as forms (R5, R6), round and game end (R5.7, R7, R9.3), hot-seat
privacy, computer seats, and plain form posts next to htmx fragments."""

from __future__ import annotations

import re

import pytest

from support.games import (
    QUICK_OUT_FACE_UP, QUICK_OUT_SEAT_1, QUICK_OUT_STOCK_TOP, game_count, go_out_quick,
    is_fragment, next_round, page, play_game, play_round, play_turn_like_ai, score_rows, stored, text,
)
from support.databases import sql_statements
from support.web import Page, table_rows

from app.web.words import card_short, event_words

# Menu D's and E's words, without the terminal's numbers; a card as players write it (9C: 9♣)
HAND_FORM_BUTTONS_D = [("action", "draw_stock", "Draw from stock pile"),
                       ("action", "draw_discard", "Take the 9\u2663 from the discard pile")]
HAND_FORM_BUTTONS_E = [("action", "lay_down", "Play down cards"), ("action", "discard", "Discard")]


@pytest.fixture
def solo(player):
    """Doris (seat 1, this browser) against the computer, on quick_out.deck."""
    return player.start_game(["Doris", "AI"], deck="quick_out.deck")


@pytest.fixture
def hot_seat(player):
    """Doris and Ann sharing this browser (hot-seat), on quick_out.deck."""
    return player.start_game(["Doris", "Ann"], deck="quick_out.deck")


def all_hand_cards(player, slug) -> set[str]:
    game, _version = player.state(slug)
    return {card.code for p in game.players for card in p.hand.cards}


def hand_form(view_html: str, slug: str) -> dict:
    found = [f for f in Page(view_html).posting_to(f"/games/{slug}/act") if "cards" in f["inputs"]]
    assert len(found) == 1
    return found[0]


# -- what the table shows (R4.4, R9.2) -----------------------------------------------------------------


def test_r4_4_the_table_shows_the_own_hand_sorted_the_piles_and_no_other_hand(player, solo):
    view = player.table(solo)
    assert view.hand == QUICK_OUT_SEAT_1  # R9.2: sorted by suit C D H S P, then value
    game, version = player.state(solo)
    ai_hand = {card.code for card in game.players[1].hand.cards}
    assert not ai_hand & set(view.cards)
    assert QUICK_OUT_FACE_UP in view.cards  # the discard top
    assert "<strong>44</strong> cards" in view.html  # stock: 65 - 20 - 1
    assert view.html.count("10 cards &middot; 0 pts") == 2  # every player's hand size and score
    assert view.version == version and view.seat == 0
    assert "Your turn, Doris: draw a card" in view.html
    assert view.log[0] == "Round 1: Doris starts; the 9\u2663 is turned up on the discard pile."  # the log


def test_r1_2_patriots_cards_carry_their_suit_class_and_symbol(player, solo):
    """R1.2: a card shows its rank as players write it (10, not T) over its suit's sign in the
    corner, and is read as words; the suit class gives it its colour (a custom property, so a
    theme changes it) and the large sign in the middle, so colour is never the only cue."""
    html = player.table(solo).html
    assert ('<label class="card suit-P" data-card="9P"><input type="checkbox" name="cards" value="9P" disabled '
            'aria-label="9 of Patriots"><b aria-hidden="true">9<i>\u2605</i></b></label>') in html
    assert '<b aria-hidden="true">10<i>\u2605</i></b>' in html  # TP, the ten of Patriots
    css = player.get("/static/css/app.css").get_data(as_text=True)
    assert '.card.suit-P::after { content: "\\2605"' in css  # the star
    assert ".suit-P { color: var(--suit-P); }" in css and "--suit-P: #16803c;" in css
    for suit, symbol in zip("CDHS", ("2663", "2666", "2665", "2660")):
        assert f'.card.suit-{suit}::after {{ content: "\\{symbol}"' in css
        assert f".suit-{suit} {{ color: var(--suit-{suit}); }}" in css


def test_the_table_page_has_real_forms_with_the_menu_words(player, solo):
    view = player.table(solo)
    assert "<html" in view.html
    form = hand_form(view.html, solo)
    assert form["method"] == "post"
    assert form["inputs"]["version"] == [str(view.version)] and form["inputs"]["seat"] == ["0"]
    assert form["inputs"]["cards"] == QUICK_OUT_SEAT_1
    assert "csrf_token" in form["inputs"]
    assert form["buttons"] == HAND_FORM_BUTTONS_D  # Menu D
    assert re.search(r'<form method="post" action="/games/\w+/act" hx-post="[^"]+" hx-target="#table" hx-swap="outerHTML" class="hand-form"', view.html)
    # Menu F: cards are selected by ticking them (keyboard-reachable checkboxes), only after the draw.
    assert 'type="checkbox" name="cards" value="2C" disabled aria-label="2 of Clubs"' in view.html
    assert 'class="num"' not in view.html  # no index numbers: a card is tapped, not typed
    assert player.act(solo, "draw_stock").status_code == 200
    view = player.table(solo)
    assert hand_form(view.html, solo)["buttons"] == HAND_FORM_BUTTONS_E  # Menu E
    assert 'type="checkbox" name="cards" value="2C" aria-label="2 of Clubs"' in view.html
    assert "Menu D" not in view.html and "Menu E" not in view.html  # no menu letters


# -- Menu D: drawing (R5.1, R5.4) ---------------------------------------------------------------------


def test_r5_1_draw_from_stock_as_a_plain_form_post_redirects(player, solo):
    version = player.table(solo).version
    response = player.act(solo, "draw_stock", htmx=False)
    assert response.status_code == 303
    assert response.headers["Location"] == f"/games/{solo}"
    view = player.table(solo)
    assert view.hand == QUICK_OUT_SEAT_1 + [QUICK_OUT_STOCK_TOP]  # QP sorts last (R9.2)
    assert "<strong>43</strong> cards" in view.html
    assert "Doris drew from the stock pile." in view.html
    assert view.version == version + 1


def test_r5_1_draw_from_the_discard_pile(player, solo):
    response = player.act(solo, "draw_discard")
    assert response.status_code == 200
    view = page(response)
    assert QUICK_OUT_FACE_UP in view.hand
    assert view.log[-1] == "Doris took the 9\u2663 from the discard pile."
    game, _version = player.state(solo)
    assert game.discard == [] and len(game.stock) == 44


@pytest.mark.parametrize("second", ["draw_stock", "draw_discard"])
def test_r5_4_a_second_draw_in_a_turn_is_refused(player, solo, second):
    assert player.act(solo, "draw_stock").status_code == 200
    before = stored(player, solo)
    response = player.act(solo, second)
    assert response.status_code == 422
    view = page(response)
    assert view.alerts == ["You have already drawn this turn: play down cards or discard."]
    assert stored(player, solo) == before
    assert hand_form(view.html, solo)["buttons"] == HAND_FORM_BUTTONS_E  # Menu E again, never Menu D


@pytest.mark.parametrize("action, cards", [("lay_down", ["2C", "3C", "4C"]), ("discard", ["2C"])])
def test_r5_4_menu_e_actions_before_drawing_are_refused(player, solo, action, cards):
    before = stored(player, solo)
    response = player.act(solo, action, cards)
    assert response.status_code == 422
    assert page(response).alerts == ["Draw a card first."]
    assert stored(player, solo) == before


# -- Menu E / F: laying down (R5.5, R6) ----------------------------------------------------------------------


@pytest.mark.parametrize("cards, reason", [
    (["2C", "7D", "9P"], "single cards can only go onto your own sets, and you have none yet"),
    (["2C", "3C"], "single cards can only go onto your own sets"),
    (["7D", "7H", "9P"], "you have none yet"),
])
def test_r6_a_refused_lay_down_says_why_and_leaves_the_hand_as_it_was(player, solo, cards, reason):
    assert player.act(solo, "draw_stock").status_code == 200
    before = stored(player, solo)
    hand_before = player.table(solo).hand
    response = player.act(solo, "lay_down", cards)
    assert response.status_code == 422
    view = page(response)
    assert len(view.alerts) == 1 and reason in view.alerts[0]
    assert stored(player, solo) == before
    assert view.hand == hand_before
    # The selection stays ticked so the player can change it; Menu E is shown again (R5.4).
    for code in cards:
        assert f'value="{code}" checked' in view.html
    assert hand_form(view.html, solo)["buttons"] == HAND_FORM_BUTTONS_E


def test_r6_3_a_card_that_fits_none_of_the_own_sets_is_refused(player, solo):
    assert player.act(solo, "draw_stock").status_code == 200
    assert player.act(solo, "lay_down", ["2C", "3C", "4C"]).status_code == 200
    before = stored(player, solo)
    response = player.act(solo, "lay_down", ["9P"])
    assert response.status_code == 422
    assert "9P does not fit onto any of your own sets" in page(response).alerts[0]
    assert stored(player, solo) == before


def test_r6_1_r6_2_r6_3_a_run_a_meld_and_a_lay_off_are_accepted(player, solo):
    assert player.act(solo, "draw_stock").status_code == 200
    response = player.act(solo, "lay_down", ["4C", "2C", "3C"])  # any order: it is judged in hand order
    assert response.status_code == 200
    view = page(response)
    assert view.alerts == []
    assert view.log[-1] == "Doris laid down a run: 2\u2663 3\u2663 4\u2663."
    assert not {"2C", "3C", "4C"} & set(view.hand)
    assert '<span class="set run" title="run">' in view.html

    view = page(player.act(solo, "lay_down", ["5C"]))  # rule 2: onto the own run
    assert view.alerts == []
    assert view.log[-1] == "Doris added the 5\u2663 to their run: 2\u2663 3\u2663 4\u2663 5\u2663."

    view = page(player.act(solo, "lay_down", ["7D", "7H", "7S"]))
    assert view.alerts == []
    assert view.log[-1] == "Doris laid down a meld: 7\u2666 7\u2665 7\u2660."
    assert '<span class="set meld" title="meld">' in view.html

    game, _version = player.state(solo)
    sets = [(s.kind, [c.code for c in s.cards]) for s in game.players[0].hand.laid_down]
    assert sets == [("run", ["2C", "3C", "4C", "5C"]), ("meld", ["7D", "7H", "7S"])]
    assert [c.code for c in game.players[0].hand.cards] == ["9P", "TP", "JP", "QP"]
    assert hand_form(view.html, solo)["buttons"] == HAND_FORM_BUTTONS_E  # R5.4: still Menu E


def test_r5_5_playing_down_nothing_is_refused(player, solo):
    assert player.act(solo, "draw_stock").status_code == 200
    before = stored(player, solo)
    response = player.act(solo, "lay_down", [])
    assert response.status_code == 422
    assert page(response).alerts == ["Select the cards to play down first: tap them in your hand."]
    assert stored(player, solo) == before


def test_r5_5_a_card_selected_twice_is_refused(player, solo):
    assert player.act(solo, "draw_stock").status_code == 200
    before = stored(player, solo)
    response = player.act(solo, "lay_down", ["2C", "2C", "3C", "4C"])
    assert response.status_code == 422
    assert page(response).alerts == ["A card was selected twice."]
    assert stored(player, solo) == before


# -- Menu E / F: discarding (R5.6) ---------------------------------------------------------------------------


@pytest.mark.parametrize("cards", [[], ["2C", "3C"], ["2C", "3C", "4C"]])
def test_r5_6_discard_needs_exactly_one_card(player, solo, cards):
    assert player.act(solo, "draw_stock").status_code == 200
    before = stored(player, solo)
    response = player.act(solo, "discard", cards)
    assert response.status_code == 422
    assert page(response).alerts == ["Select exactly one card to discard."]
    assert stored(player, solo) == before


@pytest.mark.parametrize("action, cards", [("discard", ["AS"]), ("lay_down", ["2C", "3C", "AS"]),
                                           ("discard", [QUICK_OUT_FACE_UP])])
def test_a_card_not_in_the_hand_is_refused(player, solo, action, cards):
    assert player.act(solo, "draw_stock").status_code == 200
    before = stored(player, solo)
    response = player.act(solo, action, cards)
    assert response.status_code == 422
    missing = next(code for code in cards if code not in QUICK_OUT_SEAT_1)
    assert page(response).alerts == [f"{missing} is not in your hand."]
    assert stored(player, solo) == before


@pytest.mark.parametrize("code", ["ZZ", "1C", "10C", "", "2CC", "<b>"])
def test_a_card_code_that_is_not_a_card_is_refused(player, solo, code):
    assert player.act(solo, "draw_stock").status_code == 200
    before = stored(player, solo)
    response = player.act(solo, "discard", [code])
    assert response.status_code == 400
    assert len(page(response).alerts) == 1
    assert "<b>" not in text(response).split('role="alert">', 1)[1].split("</p>", 1)[0]
    assert stored(player, solo) == before


def test_r5_6_the_card_just_drawn_may_be_discarded_and_the_turn_passes(player, solo):
    assert player.act(solo, "draw_stock").status_code == 200
    response = player.act(solo, "discard", [QUICK_OUT_STOCK_TOP])
    assert response.status_code == 200
    view = page(response)
    assert "Doris discarded the Q\u2605." in view.log
    assert view.hand == QUICK_OUT_SEAT_1


@pytest.mark.parametrize("action", ["fly", "", "DRAW_STOCK", "reveal"])
def test_r9_1_an_unknown_action_is_refused(player, solo, action):
    before = stored(player, solo)
    response = player.act(solo, action)
    assert response.status_code == 400
    assert page(response).alerts == ["That is not one of the offered actions."]
    assert stored(player, solo) == before


# -- who may act ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seat", [1, 5, -1])
def test_acting_for_a_seat_this_browser_does_not_hold_is_forbidden(player, solo, seat):
    before = stored(player, solo)
    response = player.act(solo, "draw_stock", seat=seat)
    assert response.status_code == 403
    assert page(response).alerts == ["This browser does not hold that seat."]
    assert stored(player, solo) == before


def test_acting_without_a_seat_is_forbidden(player, solo):
    """A seat's move (here Menu D's draw) names the seat it is made for; without one it is
    refused with the reason, and nothing changes."""
    before = stored(player, solo)
    version = player.table(solo).version
    response = player.post(f"/games/{solo}/act", {"action": "draw_stock", "version": str(version)}, htmx=True)
    assert response.status_code == 403
    assert page(response).alerts == ["This browser does not hold that seat."]
    assert stored(player, solo) == before
    assert page(response).hand == QUICK_OUT_SEAT_1  # the answer is the table as it still is


def test_another_browser_cannot_act_at_the_table(make_player, player, solo):
    stranger = make_player()
    version = player.table(solo).version
    before = stored(player, solo)
    response = stranger.act(solo, "draw_stock", version=version, seat=0)
    assert response.status_code == 403
    assert page(response).alerts == ["This browser does not hold that seat."]
    assert page(response).hand == [] and not set(QUICK_OUT_SEAT_1) & set(page(response).cards)
    assert stored(player, solo) == before
    # Nor can it see the hand.
    assert stranger.table(solo).hand == []
    assert not set(QUICK_OUT_SEAT_1) & set(stranger.table(solo).cards)


def test_a_stale_version_is_refused_with_the_fresh_table(player, solo):
    version = player.table(solo).version
    assert player.act(solo, "draw_stock").status_code == 200
    before = stored(player, solo)
    response = player.act(solo, "discard", ["2C"], version=version, seat=0)
    assert response.status_code == 409
    view = page(response)
    assert view.alerts == ["The table changed before your action arrived, so nothing was done. Here it is now."]
    assert view.version == before[1]
    assert len(view.hand) == 11
    assert stored(player, solo) == before


@pytest.mark.parametrize("version", ["", "abc", "-3", "999999"])
def test_a_missing_or_tampered_version_is_refused(player, solo, version):
    before = stored(player, solo)
    response = player.post(f"/games/{solo}/act", {"action": "draw_stock", "version": version, "seat": "0"},
                           htmx=True)
    assert response.status_code == 409
    assert stored(player, solo) == before


def test_an_unknown_game_is_404(player):
    assert player.get("/games/nosuchgame").status_code == 404
    assert player.get("/games/nosuchgame/watch").status_code == 404
    assert player.get("/games/nosuchgame/table").status_code == 404
    assert player.act("nosuchgame", "draw_stock", version=1, seat=0).status_code == 404
    assert player.post("/games/nosuchgame/reveal", {"version": "1"}).status_code == 404
    assert player.post("/games/nosuchgame/rematch").status_code == 404
    assert player.get("/games/" + "x" * 300).status_code == 404


def test_htmx_sends_the_csrf_token_as_a_header(player, solo):
    version = player.table(solo).version
    response = player.post(f"/games/{solo}/act", {"action": "draw_stock", "version": str(version), "seat": "0"},
                           csrf=False, headers={"HX-Request": "true", "X-CSRFToken": player.csrf_token()})
    assert response.status_code == 200
    assert player.state(solo)[1] == version + 1
    assert 'hx-headers=\'{"X-CSRFToken": "' in player.table(solo).html  # what htmx sends


def test_a_table_post_without_the_csrf_token_changes_nothing(player, solo):
    before = stored(player, solo)
    response = player.client.post(f"/games/{solo}/act", data={"action": "draw_stock", "version": str(before[1]),
                                                               "seat": "0"})
    assert response.status_code == 400
    assert stored(player, solo) == before


# -- htmx fragments and plain posts -------------------------------------------------------------------------------


def test_htmx_requests_get_the_table_fragment_only(player, solo):
    response = player.act(solo, "draw_stock")
    assert response.status_code == 200
    html = text(response)
    assert is_fragment(html) and html.lstrip().startswith('<div id="table"')
    assert "HX-Request" in response.headers.get("Vary", "")
    response = player.get(f"/games/{solo}/table")
    assert response.status_code == 200 and is_fragment(text(response))


def refused(player, slug: str, response, status: int, htmx: bool):
    """A refusal as the browser shows it: the fragment at ``status`` for htmx; for a plain form a
    redirect (303) back to the table, which then shows the message once (a reload of the table
    does not, and nothing was posted twice)."""
    if htmx:
        assert response.status_code == status
        return response
    shown = player.followed(response, to=f"/games/{slug}")
    assert shown.status_code == 200
    assert page(player.get(f"/games/{slug}")).alerts == []  # the message was for that one page
    return shown


@pytest.mark.parametrize("htmx", [True, False])
def test_refusals_come_with_an_alert_as_a_fragment_for_htmx_or_the_table_again_for_a_plain_form(player, solo, htmx):
    assert player.act(solo, "draw_stock").status_code == 200
    response = refused(player, solo, player.act(solo, "lay_down", ["2C", "7D", "9P"], htmx=htmx), 422, htmx)
    html = text(response)
    assert is_fragment(html) == htmx
    assert len(Page(html).alerts) == 1
    assert 'role="alert"' in html
    assert sorted(page(response).inputs.get("cards", [])) != [] and Page(html).my_turn  # the table, its status


@pytest.mark.parametrize("htmx", [True, False])
def test_conflicts_and_forbidden_seats_come_with_an_alert_too(player, solo, htmx):
    version = player.table(solo).version
    response = refused(player, solo, player.act(solo, "draw_stock", version=version - 1, seat=0, htmx=htmx), 409, htmx)
    assert is_fragment(text(response)) == htmx and len(page(response).alerts) == 1
    response = refused(player, solo, player.act(solo, "draw_stock", version=version, seat=1, htmx=htmx), 403, htmx)
    assert is_fragment(text(response)) == htmx and len(page(response).alerts) == 1


def test_the_table_fragment_answers_204_while_nothing_changed(player, solo):
    version = player.table(solo).version
    assert player.get(f"/games/{solo}/table?since={version}").status_code == 204
    assert player.act(solo, "draw_stock").status_code == 200
    response = player.get(f"/games/{solo}/table?since={version}")
    assert response.status_code == 200
    assert page(response).version == version + 1


def reads_of(app, player, path: str) -> tuple[int, list[str]]:
    """The status ``player`` gets for ``path`` (as htmx asks), and the SELECTs it took."""
    with sql_statements(app) as statements:
        status = player.get(path, htmx=True).status_code
    return status, [statement for statement in statements if statement.startswith("SELECT")]


def test_the_204_that_every_open_table_asks_for_every_few_seconds_reads_the_version_alone(app, player, solo):
    version = player.table(solo).version

    status, reads = reads_of(app, player, f"/games/{solo}/table?since={version}")
    assert status == 204 and len(reads) == 1
    assert reads[0].startswith("SELECT games.version FROM games WHERE games.slug =")
    status, reads = reads_of(app, player, f"/games/{solo}/table?since={version - 1}")
    assert status == 200 and any("seats" in statement for statement in reads)  # (the game with its seats)
    assert player.get("/games/nosuchgame/table?since=1", htmx=True).status_code == 404


def test_the_fetch_a_tables_stream_sets_off_reads_the_game_once(app, player, solo):
    """On its stream's news (``changed=1``) the table is read in one query, the game with its
    seats, with no version read first; if it shows that version already, nothing is swapped."""
    shown = player.table(solo)
    assert player.act(solo, "draw_stock").status_code == 200
    status, reads = reads_of(app, player, shown.refresh_url)
    assert status == 200 and len(reads) == 1 and "seats" in reads[0]
    status, reads = reads_of(app, player, player.table(solo).refresh_url)
    assert status == 204 and len(reads) == 1
    assert player.get("/games/nosuchgame/table?since=1&changed=1", htmx=True).status_code == 404


def test_watching_shows_the_table_without_any_hand(player, solo):
    view = player.page(f"/games/{solo}/watch")
    assert "watching" in view.html
    assert view.hand == []
    assert not all_hand_cards(player, solo) & set(view.cards)
    assert Page(view.html).posting_to(f"/games/{solo}/act") == []


# -- computer seats (R8) -------------------------------------------------------------------------------------------


def test_the_ai_plays_right_after_the_previous_turn_and_the_log_shows_it(player, solo):
    assert player.act(solo, "draw_stock").status_code == 200
    _game, version = player.state(solo)
    response = player.act(solo, "discard", [QUICK_OUT_STOCK_TOP])
    assert response.status_code == 200
    game, new_version = player.state(solo)
    assert game.turn == 0 and game.phase == "draw"  # back to Doris at once
    ai_lines = [event["text"] for event in game.log if event["seat"] == 1]
    assert ai_lines and ai_lines[0] == "AI drew from the stock pile."
    assert ai_lines[-1].startswith("AI discarded ")
    assert new_version == version + 1 + len(ai_lines)  # one version per action
    view = page(response)
    said = [event_words(event, game.deck.key, html=False) for event in game.log if event["seat"] == 1]
    assert said[0] == "AI drew from the stock pile." and said[-1].startswith("AI discarded the ")
    for line in said:  # each of the computer's moves, in players' words
        assert line in view.log
    game, _version = player.state(solo)  # the discard pile's top is the computer's discard, named
    top = game.discard[-1]
    assert hand_form(view.html, solo)["buttons"] == [
        HAND_FORM_BUTTONS_D[0], ("action", "draw_discard", f"Take the {card_short(top)} from the discard pile")]


# -- hot-seat privacy ------------------------------------------------------------------------------------------------


def test_hot_seat_hand_over_screen_shows_no_cards_until_the_button_is_pressed(player, hot_seat):
    view = player.table(hot_seat)
    assert "Pass the device to Doris" in view.html
    assert view.has_button("I am Doris: show my hand")
    assert view.hand == []
    assert not all_hand_cards(player, hot_seat) & set(view.cards)
    assert [f for f in Page(view.html).posting_to(f"/games/{hot_seat}/act")] == []

    # Acting before the hand-over is refused.
    version = view.version
    response = player.act(hot_seat, "draw_stock", version=version, seat=0)
    assert response.status_code == 409
    assert page(response).alerts == ["Pass the device to Doris first."]

    response = player.reveal(hot_seat)
    assert response.status_code == 200
    view = page(response)
    assert view.hand == QUICK_OUT_SEAT_1
    game, _version = player.state(hot_seat)
    assert not {card.code for card in game.players[1].hand.cards} & set(view.cards)  # never Ann's


def test_hot_seat_between_two_human_turns_the_next_player_is_named_and_no_hand_shows(player, hot_seat):
    assert player.reveal(hot_seat).status_code == 200
    assert player.act(hot_seat, "draw_stock").status_code == 200
    response = player.act(hot_seat, "discard", [QUICK_OUT_STOCK_TOP])
    assert response.status_code == 200
    for view in (page(response), player.table(hot_seat), player.page(f"/games/{hot_seat}/table")):
        assert "Pass the device to Ann" in view.html
        assert view.hand == []
        assert not all_hand_cards(player, hot_seat) & set(view.cards)
    # Ann cannot act before pressing the button; Doris cannot act at all.
    version = player.table(hot_seat).version
    assert player.act(hot_seat, "draw_stock", version=version, seat=1).status_code == 409
    response = player.act(hot_seat, "draw_stock", version=version, seat=0)
    assert response.status_code == 409
    assert page(response).alerts == ["It is Ann's turn, not yours."]

    response = player.reveal(hot_seat)
    assert response.status_code == 200
    view = page(response)
    game, _version = player.state(hot_seat)
    assert view.hand == [card.code for card in game.players[1].hand.cards]
    assert view.seat == 1
    assert not {card.code for card in game.players[0].hand.cards} & set(view.cards)
    assert player.act(hot_seat, "draw_stock").status_code == 200


def test_hot_seat_reveal_with_a_stale_version_or_from_another_browser_is_refused(make_player, player, hot_seat):
    version = player.table(hot_seat).version
    response = player.post(f"/games/{hot_seat}/reveal", {"version": str(version - 1)}, htmx=True)
    assert response.status_code == 409
    assert page(response).hand == []
    stranger = make_player()
    before = stored(player, hot_seat)
    response = stranger.followed(stranger.post(f"/games/{hot_seat}/reveal", {"version": str(version)}),
                                 to=f"/games/{hot_seat}")  # (a plain form: back to the table, refused)
    assert page(response).alerts == ["This browser does not hold that seat."]
    assert page(response).hand == [] and not set(QUICK_OUT_SEAT_1) & set(page(response).cards)
    assert stored(player, hot_seat) == before
    assert "Pass the device to Doris" in player.table(hot_seat).html


def test_hot_seat_plain_form_reveal_redirects_to_the_table(player, hot_seat):
    version = player.table(hot_seat).version
    response = player.post(f"/games/{hot_seat}/reveal", {"version": str(version)})
    assert response.status_code == 303 and response.headers["Location"] == f"/games/{hot_seat}"
    assert player.table(hot_seat).hand == QUICK_OUT_SEAT_1


def test_hot_seat_a_new_round_starts_with_a_hand_over_even_for_who_ended_the_last_round(player, hot_seat):
    """quick_out.deck: Doris goes out at the end of round 2 and starts round 3 (R4.3, 2 players);
    whoever holds the device after the round summary must not see her new hand at once."""
    assert player.reveal(hot_seat).status_code == 200
    go_out_quick(player, hot_seat)
    assert next_round(player, hot_seat).status_code == 303
    play_round(player, hot_seat)
    game, _version = player.state(hot_seat)
    assert game.phase == "round_over" and game.went_out == 0
    assert next_round(player, hot_seat).status_code == 303
    game, _version = player.state(hot_seat)
    assert game.round_number == 3 and game.turn == 0
    view = player.table(hot_seat)
    assert "Pass the device to Doris" in view.html
    assert view.hand == [] and not all_hand_cards(player, hot_seat) & set(view.cards)
    assert player.reveal(hot_seat).status_code == 200
    assert player.table(hot_seat).hand == QUICK_OUT_SEAT_1


def test_hot_seat_round_summary_shows_no_hand_to_play_but_every_hand_left_with_its_points(player, hot_seat):
    """R7.1: once the round is over, every hand left is shown to everyone,
    with the points it added; nobody's hand is a hand to play from."""
    assert player.reveal(hot_seat).status_code == 200
    go_out_quick(player, hot_seat)
    view = player.table(hot_seat)
    assert "Round 1 is over" in view.html
    assert view.hand == [] and 'class="hand-form"' not in view.html
    game, _version = player.state(hot_seat)
    left = re.findall(r'<li><span class="hand-owner">(.*?)</span> <span class="hand-cards">(.*?)</span> '
                      r'<span class="hand-points">(\d+) pts</span>', view.html)
    assert [(name, re.findall(r'data-card="(\w+)"', cards), int(points)) for name, cards, points in left] == [
        (p.name, [c.code for c in p.hand.cards], game.round_scores[-1][n]) for n, p in enumerate(game.players)]


# -- round and game end (R5.7, R7, R9.3) -----------------------------------------------------------------------------


def test_r5_7_going_out_ends_the_round_and_r9_3_shows_the_round_summary(player, solo):
    go_out_quick(player, solo)
    game, _version = player.state(solo)
    assert game.phase == "round_over" and game.went_out == 0
    view = player.table(solo)
    assert "Round 1 is over" in view.html and "Doris went out." in view.html
    # Each player's points this round and game total (AI kept its 10 cards: 73 points).
    assert "<tr><th scope=\"row\">Doris</th><td>0</td><td>0</td></tr>" in view.html
    assert "<tr><th scope=\"row\">AI</th><td>73</td><td>73</td></tr>" in view.html
    assert view.has_button("Deal round 2")
    assert "Doris went out and ends round 1." in view.html
    # Nothing else can be done before the next round is dealt.
    before = stored(player, solo)
    response = player.act(solo, "draw_stock", seat=0)
    assert response.status_code == 422
    assert stored(player, solo) == before


def test_r4_3_the_next_round_is_dealt_and_starts_with_seat_2(player, solo):
    go_out_quick(player, solo)
    response = next_round(player, solo)
    assert response.status_code == 303 and response.headers["Location"] == f"/games/{solo}"
    game, _version = player.state(solo)
    assert game.round_number == 2
    assert game.round_log()[0]["text"] == "Round 2 dealt; AI starts."
    assert [e["seat"] for e in game.round_log()[1:3]] == [1, 1]  # the AI played first, at once
    view = player.table(solo)
    assert "Round 2 of 3" in view.html
    assert "Round 2: AI starts; the 9\u2663 is turned up on the discard pile." in view.log
    assert "AI drew from the stock pile." in view.log
    assert view.hand == QUICK_OUT_SEAT_1  # R2.4: the same deck order every round
    assert game.turn == 0 and game.phase == "draw"


def test_the_next_round_is_refused_while_a_round_is_played_or_from_a_stranger(make_player, player, solo):
    before = stored(player, solo)
    response = player.followed(next_round(player, solo), to=f"/games/{solo}")
    assert page(response).alerts == ["The round is still being played."]
    assert stored(player, solo) == before
    go_out_quick(player, solo)
    stranger = make_player()
    version = player.table(solo).version
    round_over = stored(player, solo)
    response = stranger.followed(stranger.post(f"/games/{solo}/act", {"action": "next_round", "version": str(version)}))
    assert page(response).alerts == ["Only the players at this table can do that."]
    assert stored(player, solo) == round_over
    response = player.followed(player.post(f"/games/{solo}/act", {"action": "next_round", "version": str(version - 1)}))
    assert player.state(solo)[0].round_number == 1
    assert before[1] < version


def test_r4_3_three_player_rounds_start_with_seats_1_2_and_3(player):
    slug = player.start_game(["Ann", "AI", "AI"], deck="three_players.deck")
    starters = []
    while True:
        game, _version = player.state(slug)
        starters.append(game.round_log()[0]["text"])
        play_round(player, slug)
        if player.state(slug)[0].is_over():
            break
        assert next_round(player, slug).status_code == 303
    assert starters == ["Round 1 dealt; Ann starts.", "Round 2 dealt; AI 2 starts.", "Round 3 dealt; AI 3 starts."]
    import sqlalchemy as sa

    from app.extensions import db
    from app.store.models import ActionRecord, GameRecord

    with player.app.app_context():
        record = db.session.scalar(sa.select(GameRecord).where(GameRecord.slug == slug))
        actions = db.session.execute(sa.select(ActionRecord.seat, ActionRecord.action)
                                     .where(ActionRecord.game_id == record.id)
                                     .order_by(ActionRecord.version)).all()
    after_deals = [actions[i + 1].seat for i, row in enumerate(actions) if '"next_round"' in row.action]
    assert after_deals == [1, 2]  # the first action after each deal is by seat 2, then seat 3


def test_r7_a_whole_stacked_game_to_the_final_results_updates_the_scores_at_once(app, player, solo):
    play_game(player, solo)
    game, _version = player.state(solo)
    assert game.is_over() and [p.score for p in game.players] == [0, 214]
    # R7.4: recorded the moment the game ended, before any other page was asked for.
    assert score_rows(app) == [("AI", 0, 1, None), ("Doris", 1, 0, 0)]
    csv_path = app.config["SCORES_CSV_PATH"]
    assert csv_path.startswith(app.instance_path)
    from app.records import scores_file

    assert scores_file.wait_until_written(app)  # (written in the background: app/records/scores_file.py)
    with open(csv_path, encoding="utf-8", newline="") as handle:
        assert handle.read() == ('"name","games won","games lost","best score"\n'
                                 '"AI","0","1",""\n'
                                 '"Doris","1","0","0"\n')  # R7.5
    import os

    assert not [name for name in os.listdir(app.instance_path) if name.endswith(".tmp")]  # written atomically
    view = player.table(solo)
    assert "Game over" in view.html
    assert "Doris wins with 0 points!" in view.html  # R7.3
    assert view.has_button("Rematch with the same players")
    assert 'href="/scores"' in view.html and 'href="/"' in view.html  # R9.3: Menu A returns
    scores = text(player.get("/scores"))
    assert ("Doris", "1", "0", "0") in table_rows(scores)
    assert ("AI", "0", "1", "") in table_rows(scores)
    # A finished game takes no more actions.
    response = player.act(solo, "draw_stock", version=player.state(solo)[1], seat=0)
    assert response.status_code == 409
    assert page(response).alerts == ["This game is over, so nothing was done."]
    # ...and a form of an older view of it says the game is over too, not that the table changed
    response = player.act(solo, "draw_stock", version=player.state(solo)[1] - 3, seat=0)
    assert response.status_code == 409
    assert page(response).alerts == ["This game is over, so nothing was done."]


def test_r7_3_the_game_over_panel_leads_with_the_standings_and_shows_every_hand(player, solo, make_player):
    play_game(player, solo)
    game, _version = player.state(solo)
    for html in (player.table(solo).html, text(make_player().get(f"/games/{solo}/watch"))):
        results = html.split('class="results panel"', 1)[1].split("</section>", 1)[0]
        standings = results.split('class="standings"', 1)[1].split("</table>", 1)[0]
        # before the hands: each round's points and the totals, the winner (the lowest total) first
        assert results.index('class="standings"') < results.index('class="hands-left"')
        rows = [tuple(re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row))
                for row in re.findall(r"<tr[^>]*>(.*?)</tr>", standings, re.S)]
        assert rows[0] == ("Player", "R1", "R2", "R3", "Total")
        assert [row[0] for row in rows[1:]] == ["Doris", "AI Computer (normal)"] and rows[1][-1] == "0" and rows[2][-1] == "214"
        assert [sum(int(points) for points in row[1:4]) for row in rows[1:]] == [0, 214]
        assert '<tr class="winner"><th scope="row">Doris</th>' in standings
        # every hand left is shown once the game is over, to players and spectators alike
        for player_state in game.players:
            for card in player_state.hand.cards:
                assert f'data-card="{card.code}"' in results.split('class="hands-left"', 1)[1]


def tie_deck(decks_folder) -> str:
    """Seat 1 goes out in rounds 1 and 3 with QP from the stock; seat 2 goes out in round 2 with
    6P from the discard pile. Seat 1's hand is worth 64, seat 2's 32: 64 each after 3 rounds."""
    from app.games.mason import FULL_DECK

    seat_1 = QUICK_OUT_SEAT_1
    seat_2 = ["2D", "2H", "2S", "2P", "3D", "3H", "3S", "3P", "6D", "6H"]
    top = seat_1 + seat_2 + ["6P", "QP"]
    rest = [card.code for card in FULL_DECK if card.code not in top]
    (decks_folder / "tie.deck").write_text(" ".join(top + rest) + "\n")
    return "tie.deck"


def test_r7_3_players_tied_for_the_lowest_score_all_win(app, player, decks_folder):
    slug = player.start_game(["Doris", "AI"], deck=tie_deck(decks_folder))
    play_game(player, slug)
    game, _version = player.state(slug)
    assert [p.score for p in game.players] == [64, 64]
    assert game.winners() == [0, 1]
    assert score_rows(app) == [("AI", 1, 0, 64), ("Doris", 1, 0, 64)]
    assert "Doris and AI win with 64 points!" in player.table(slug).html


def test_a_rematch_is_one_click_with_the_same_players_and_the_same_stacked_deck(player, solo):
    play_game(player, solo)
    old, _version = player.state(solo)
    response = player.post(f"/games/{solo}/rematch")
    assert response.status_code == 303
    location = response.headers["Location"]
    assert location.startswith("/games/") and location != f"/games/{solo}"
    new_slug = location.rsplit("/", 1)[1]
    new, version = player.state(new_slug)
    assert [p.name for p in new.players] == ["Doris", "AI"]
    assert new.stacked_deck == old.stacked_deck
    assert new.round_number == 1 and version == 1
    assert player.table(new_slug).hand == QUICK_OUT_SEAT_1
    # A second click (or another hot-seat player's) lands on the same rematch.
    again = player.post(f"/games/{solo}/rematch")
    assert again.status_code == 303 and again.headers["Location"] == location
    assert game_count(player.app) == 2
    assert "Go to the rematch" in player.table(solo).html
    follow = player.post(f"/games/{solo}/follow", htmx=True)
    assert follow.status_code == 204 and follow.headers["HX-Redirect"] == location


def test_a_rematch_as_htmx_navigates_with_hx_redirect(player, solo):
    play_game(player, solo)
    response = player.post(f"/games/{solo}/rematch", htmx=True)
    assert response.status_code == 204
    assert response.headers["HX-Redirect"].startswith("/games/")


def test_a_rematch_is_refused_before_the_end_or_from_a_stranger(make_player, player, solo):
    response = player.post(f"/games/{solo}/rematch", htmx=True)
    assert response.status_code == 409
    assert page(response).alerts == ["The game is still being played."]
    play_game(player, solo)
    stranger = make_player()
    before = stored(player, solo)
    response = stranger.followed(stranger.post(f"/games/{solo}/rematch"), to=f"/games/{solo}")
    assert page(response).alerts == ["Only the players at this table can start a rematch."]
    assert stored(player, solo) == before  # no link to a rematch either
    followed = stranger.followed(stranger.post(f"/games/{solo}/follow"), to=f"/games/{solo}")
    assert page(followed).alerts == ["There is no rematch of this game."]  # no rematch yet
    assert game_count(player.app) == 1


def test_a_whole_hot_seat_game_with_two_people_on_one_device(app, player, hot_seat):
    """Hand-over screens between the two people's turns, in every round, to the final results."""
    handovers = 0
    while not player.state(hot_seat)[0].is_over():
        game, _version = player.state(hot_seat)
        if game.phase == "round_over":
            assert next_round(player, hot_seat).status_code == 303
            continue
        view = player.table(hot_seat)
        assert f"Pass the device to {game.players[game.turn].name}" in view.html
        assert not all_hand_cards(player, hot_seat) & set(view.cards)
        handovers += 1
        play_turn_like_ai(player, hot_seat)
    assert handovers >= 4
    assert score_rows(app) == [("Ann", 0, 1, None), ("Doris", 1, 0, 0)]


def test_a_game_of_computer_seats_only_can_be_dealt_to_the_end_by_the_browser_that_set_it_up(app, player):
    """R3.4 allows every seat to be AI: the rounds play themselves, and the host deals the next."""
    slug = player.start_game(["AI", "ai"], deck="stock_rebuild.deck")
    view = player.table(slug)
    assert "Round 1 is over" in view.html and view.has_button("Deal round 2")
    while not player.state(slug)[0].is_over():
        response = next_round(player, slug)
        assert response.status_code == 303, page(response).alerts
    game, _version = player.state(slug)
    assert len(game.round_scores) == 3
    (name, won, lost, _best), = score_rows(app)
    assert name == "AI" and won + lost == 2  # both seats count on the one AI row (R3.4)
    stranger_version = player.state(slug)[1]
    assert stranger_version > 1


def test_a_doubled_rematch_gives_every_answer_the_same_seats(make_player, player, solo):
    """Two plain posts of Rematch at once (two tabs, or a double click without JavaScript): each
    answer's cookie must hold the seats in the one rematch, whichever the browser keeps."""
    play_game(player, solo)
    twin = make_player()
    twin.client.set_cookie("session", player.client.get_cookie("session").value)
    first = player.post(f"/games/{solo}/rematch")
    second = twin.post(f"/games/{solo}/rematch")
    assert first.status_code == second.status_code == 303
    assert first.headers["Location"] == second.headers["Location"]
    new_slug = first.headers["Location"].rsplit("/", 1)[1]
    assert game_count(player.app) == 2
    for browser in (player, twin):
        view = browser.table(new_slug)
        assert view.hand == QUICK_OUT_SEAT_1 and view.seat == 0


def test_a_table_part_is_the_games_own_where_it_has_one_and_the_houses_otherwise(app):
    """``game_part``: Mason Rummy brings its own results (templates/games/mason/_results.html)
    and uses the house's hand; asked again, the remembered miss gives the same answer."""
    game_part = app.jinja_env.globals["game_part"]
    with app.app_context():
        assert game_part("mason", "_results.html", "table/_results.html").name == "games/mason/_results.html"
        for _ in range(2):
            assert game_part("mason", "_hand.html", "table/_hand.html").name == "table/_hand.html"
        assert "games/mason/_hand.html" in app.jinja_env.loader.missing


def test_the_templates_url_for_gives_flasks_address_for_every_site_root_and_value(app):
    """The templates' ``url_for`` keeps the paths it built: each is the one Flask builds, for the
    site's root of the request that asks (a table served under a prefix), and what it cannot keep
    (a list, an external address, an endpoint of the current blueprint) is built as Flask does."""
    from flask import url_for as flasks

    remembered = app.jinja_env.globals["url_for"]
    asked = [("play.act", {"slug": "abcdefghij"}), ("lan.standin", {"slug": "abcdefghij", "number": 2}),
             ("play.table_fragment", {"slug": "abcdefghij", "since": 4, "watch": None, "steps": 3}),
             ("play.table", {"slug": "abcdefghij", "cards": ["2C", "3C"]}),
             ("play.watch", {"slug": "abcdefghij", "_external": True}), ("menu.index", {}),
             ("play.watch", {"slug": "abcdefghij", "v": 1}), ("play.watch", {"slug": "abcdefghij", "v": True})]
    for root in ("", "/cards", ""):
        with app.test_request_context("/games/abcdefghij", base_url=f"http://table.local{root}/"):
            for _ in range(2):
                for endpoint, values in asked:
                    assert remembered(endpoint, **values) == flasks(endpoint, **values)
            assert remembered("play.act", slug="abcdefghij") == f"{root}/games/abcdefghij/act"
            assert remembered("play.watch", slug="abcdefghij", _external=True).startswith("http://table.local")
    with app.test_request_context("/games/abcdefghij/watch"):
        app.preprocess_request()  # (the request's blueprint: "play")
        assert remembered(".watch", slug="zyxwvutsrq") == "/games/zyxwvutsrq/watch"


def test_the_table_macros_are_every_templates_ui(app):
    """``ui``: templates/table/_macros.html's macros, as ``{% import %}`` would give them."""
    with app.test_request_context("/"):
        shown = app.jinja_env.from_string("{{ ui.alert('Not your turn') }}").render()
    assert shown == '<p class="message error" role="alert">Not your turn</p>'


def test_the_templates_read_a_dicts_keys_as_jinja_does(app):
    """A view's key read as ``view.key`` gives what Jinja's own lookup gives: the key's value, a
    dict's method where the name is one (``items``, ``get``, ``keys``), and nothing for a missing
    key; a dict's subclass is read as Jinja reads it."""
    from collections import OrderedDict

    import jinja2

    from app.web import TableTemplates

    assert isinstance(app.jinja_env, TableTemplates)
    source = ("{{ d.hand | join(',') }}|{{ d.items() | list | length }}|{{ d.get('hand') | length }}|"
              "[{{ d.missing }}]|{{ d.missing is defined }}|{{ o.hand }}|{{ d.keys is callable }}")
    values = {"d": {"hand": ["7H", "8H"], "items": "shadowed", "keys": "xy"}, "o": OrderedDict(hand="9C")}
    with app.test_request_context("/"):
        shown = app.jinja_env.from_string(source).render(values)
    assert shown == jinja2.Environment().from_string(source).render(values) == "7H,8H|3|2|[]|False|9C|True"


def test_every_form_of_a_page_carries_the_sessions_csrf_token(player, hot_seat):
    body = player.get(f"/games/{hot_seat}").get_data(as_text=True)
    tokens = re.findall(r'name="csrf_token" value="([^"]+)"', body)
    assert len(tokens) >= 2 and len(set(tokens)) == 1
