"""21 against the dealer at the web table (T7), through the pages and forms as a browser uses
them: set-up at /setup/twentyone (seats, the Rounds option, a shuffled or stacked deck), Hit and
Stay for the seat to move, "Deal round N" and "End the table" between rounds, refusals (the
message shown, nothing changed), the dealer's hidden card in no page before it is turned over
(T3.2-T3.4, T7.2), the dealer's turn marked step by step, hot-seat hand-over, own devices,
spectators, the statistics per name (T5.3), rematch, and the admin's deck upload (T2.2).

``two_players.deck`` (tests/decks/twentyone/README.md) plays out exactly when each player hits while
16 or less: the hidden cards of its five rounds are 9D, 8C, 2C, AD and 4S."""

from __future__ import annotations

import re

import pytest

from app.games.twentyone import DECK
from support.games import admin_login, upload
from support import pages
from support.web import Page, database_dump

TWO = "two_players.deck"
ONE = "natural_after_hit.deck"
HIDDEN_CARDS = {1: "9D", 2: "8C", 3: "2C", 4: "AD", 5: "4S"}  # two_players.deck, round by round
TURN_CAP = 60


# -- helpers ---------------------------------------------------------------------------------------------


def set_up(player, names, *, devices=None, deck: str | None = None, rounds: int = 5) -> str:
    """The set-up form of /setup/twentyone, posted; the new table's slug."""
    return player.set_up("twentyone", names, devices, rounds=rounds, deck=deck or "")


def table(player, slug: str) -> Page:
    return player.table_past_handover(slug)


def press(player, slug: str, action: str, *, htmx: bool = True):
    """Press a button of the table as the page shows it: the seat's Hit/Stay form, or (no seat
    on the page) the table's Deal/End form. A hot-seat hand-over screen is passed first."""
    table(player, slug)
    response = player.act(slug, action, htmx=htmx)
    assert response.status_code in (200, 303), Page(response.get_data(as_text=True)).alerts
    return response


def names_card(html: str, code: str) -> bool:
    """Whether the HTML names ``code`` anywhere: as a data-card, in a text, in an attribute, or
    by its words ("nine of Diamonds")."""
    return pages.names_card(html, code, DECK)


def every_view(player, slug: str, spectator) -> dict[str, str]:
    """The page, its live fragment, and a spectator's page and fragment."""
    return {**player.views(slug), **spectator.watch_views(slug)}


def hand_values(html: str) -> dict[int, int]:
    """Each seat's hand value as the board shows it."""
    return {int(seat): int(value) for seat, value in re.findall(
        r'<li class="tw-hand[^"]*" data-seat="(\d)">.*?<span class="tw-value" title="value">(\d+)</span>', html, re.S)}


def dealer_steps(html: str) -> list[tuple[int, str]]:
    """The dealer's cards the board marks with the step of the dealer's turn they came in."""
    return [(int(step), card) for step, card in re.findall(
        r'<span class="tw-step" data-step="(\d+)"><span class="card[^"]*" data-card="(\w+)"', html)]


def results_shown(html: str) -> dict[int, str]:
    return {int(seat): result for seat, result in re.findall(
        r'<li class="tw-hand[^"]*" data-seat="(\d)">(?:(?!</li>).)*?<span class="tw-badge tw-(won|lost|tied)"', html, re.S)}


def play_turn(player, slug: str) -> str:
    """The seat to move hits while its hand is worth 16 or less (as the computer player does),
    reading the value from the board; returns the action pressed."""
    page = table(player, slug)
    seat = page.seat
    assert seat is not None and page.has_button("Hit") and page.has_button("Stay"), page.button_texts()
    action = "hit" if hand_values(page.html)[seat] <= 16 else "stay"
    press(player, slug, action)
    return action


def play_round(player, slug: str) -> None:
    for _ in range(TURN_CAP):
        page = player.table(slug)
        if page.has_button("Deal round") or page.has_button("Rematch") or "Game over" in page.html:
            return
        play_turn(player, slug)
    raise AssertionError("the round did not end")


# -- set-up -----------------------------------------------------------------------------------------------


def test_t7_1_the_setup_form_offers_1_to_5_seats_the_rounds_option_and_the_deck_files(player):
    html = player.get("/setup/twentyone").get_data(as_text=True)
    page = Page(html)
    assert re.findall(r'<option value="(\d)"', html) == ["1", "2", "3", "4", "5"]
    assert page.value("rounds") == "5" and 'min="0" max="50"' in html
    decks = page.inputs["deck"]
    assert decks[0] == "" and "Shuffled" in html
    assert {"two_players.deck", "natural_after_hit.deck", "dealer_busts.deck"} <= set(decks)
    assert not [name for name in decks if name.endswith(".txt")]  # the terminal's files stay there


def test_t2_4_a_shuffled_table_of_five_deals_two_cards_to_each_and_two_to_the_dealer(player):
    slug = set_up(player, ["Ann", "Bob", "Cy", "Di", "Ed"])
    state, _ = player.state(slug)
    page = player.table(slug)
    on_table = [card for hand in state.view(None)["hands"] for card in hand["cards"]]
    assert len(on_table) == 10 and set(on_table) <= set(page.cards)
    assert state.seed is not None and "deck 40" in page.html  # 52 - 5 x 2 - 2
    assert page.html.count('class="card back tw-down"') == 1  # the dealer's hidden card


def test_a_refused_setup_says_why_and_creates_nothing(app, player):
    before = database_dump(app)
    response = player.post("/setup/twentyone", {"seats": "1", "name0": "Ann", "device0": "here",
                                                "rounds": "51", "deck": ""})
    assert response.status_code == 422 and Page(response.get_data(as_text=True)).alerts
    response = player.post("/setup/twentyone", {"seats": "1", "name0": "Ann", "device0": "here",
                                                "rounds": "5", "deck": "invalid_duplicate.txt"})
    assert response.status_code == 422
    assert "no deck file named 'invalid_duplicate.txt'" in Page(response.get_data(as_text=True)).alerts[0]
    assert database_dump(app) == before


# -- the board --------------------------------------------------------------------------------------------


def test_t4_1_t7_2_the_board_shows_every_hand_with_its_value_and_the_dealer_without_a_value(player):
    slug = set_up(player, ["Ann", "Bob"], deck=TWO)
    page = table(player, slug)
    html = page.html
    # every face-up card is on the board (T7.2): Ann TS 8H, Bob 5C 4D, the dealer's 6C
    assert {"TS", "8H", "5C", "4D", "6C"} <= set(page.cards)
    assert hand_values(html) == {0: 18, 1: 9}
    assert re.search(r'class="tw-value tw-unknown"[^>]*>\?</span>\s*<span class="tw-note">6 showing', html)
    assert 'aria-label="face-down card"' in html and not names_card(html, "9D")
    assert "Your turn, Ann: hit or stay with 18?" in html
    assert page.has_button("Hit") and page.has_button("Stay") and page.seat == 0
    assert "won 0 &middot; lost 0 &middot; tied 0" in html  # the tally (T5.3)


def test_t3_2_hit_as_a_plain_form_post_redirects_and_adds_a_face_up_card(player):
    slug = set_up(player, ["Ann", "Bob"], deck=TWO)
    press(player, slug, "stay")  # Ann stays on 18
    response = press(player, slug, "hit", htmx=False)  # Bob hits
    assert response.status_code == 303 and response.headers["Location"] == f"/games/{slug}"
    page = player.table(slug)
    assert "7S" in page.cards and hand_values(page.html)[1] == 16
    assert page.log[-1] == "Bob hits and draws the 7\u2660: 16."  # the web's words; the terminal's line apart


def test_t3_3_t3_4_the_round_ends_with_the_dealer_turned_over_and_each_result(player):
    """Round 1 of two_players.deck: Bob's 21 after two hits wins at once; the dealer turns over
    9D (15), takes KC and goes bust: Ann wins (T5.1)."""
    slug = set_up(player, ["Ann", "Bob"], deck=TWO)
    press(player, slug, "stay")
    press(player, slug, "hit")
    response = press(player, slug, "hit")
    html = response.get_data(as_text=True)
    assert results_shown(html) == {0: "won", 1: "won"}
    assert dealer_steps(html) == [(0, "9D"), (1, "KC")]
    assert 'data-values="15 25"' in html and "Round 1 is over" in html
    page = Page(html)
    assert [line.text for line in page.find("ul", "tw-lines").find_all("li")] == [
        "Bob has 21 and wins round 1!", "The dealer went bust with 25.", "Ann wins round 1: 18 against the dealer's 25."]
    assert "Bob has 21 and wins round 1!" in page.log and "The dealer turns over the 9\u2666: 15." in page.log
    assert "The dealer takes the K\u2663: 25." in page.log
    assert not any("hand:" in line or "value =" in line for line in page.log)  # no terminal line
    assert page.has_button("Deal round 2") and page.has_button("End the table")
    assert not page.has_button("Hit") and page.seat is None


def test_t5_2_the_dealer_s_turn_is_marked_card_by_card_with_the_value_after_each_step(player):
    """Round 2 of two_players.deck: the dealer turns over 8C (9), then takes 2D, 3H and 5S (19):
    a tie with Bob; Ann went bust."""
    slug = set_up(player, ["Ann", "Bob"], deck=TWO)
    play_round(player, slug)
    press(player, slug, "deal")
    play_round(player, slug)
    html = player.table(slug).html
    assert dealer_steps(html) == [(0, "8C"), (1, "2D"), (2, "3H"), (3, "5S")]
    assert 'data-values="9 11 14 19"' in html and 'data-dealer-turn="%s/2"' % slug in html
    assert results_shown(html) == {0: "lost", 1: "tied"}
    assert "Bob and the dealer tie round 2 at 19." in Page(html).texts("ul", "tw-lines")[0]


def test_t3_2_t3_3_a_round_without_the_dealer_s_turn_leaves_the_hidden_card_face_down(player, make_player):
    """One player, natural_after_hit.deck: 9S 7H against 5C, a hit gives 5D: 21, the round is
    won at once and the dealer's KD is never shown, not even after the round or in round 2."""
    spectator = make_player()
    slug = set_up(player, ["Zoe"], deck=ONE)
    for where, html in every_view(player, slug, spectator).items():
        assert not names_card(html, "KD"), where
    response = press(player, slug, "hit")
    assert not names_card(response.get_data(as_text=True), "KD")
    views = every_view(player, slug, spectator)
    for where, html in views.items():
        assert not names_card(html, "KD"), where
        assert "Zoe has 21 and wins round 1!" in html, where
        assert "data-dealer-turn" not in html and 'aria-label="face-down card"' in html
    assert results_shown(views["page"]) == {0: "won"}
    press(player, slug, "deal")
    for where, html in every_view(player, slug, spectator).items():
        assert not names_card(html, "KD"), where


def test_t7_2_no_hidden_card_is_in_any_page_fragment_or_spectator_view_before_it_is_turned(player, make_player):
    """Five rounds of two_players.deck: before the dealer's turn, the hidden card is in no page,
    no live fragment, no action's answer and no spectator's view; once turned over, it is."""
    spectator = make_player()
    slug = set_up(player, ["Ann", "Bob"], deck=TWO)
    for number in range(1, 6):
        hidden = HIDDEN_CARDS[number]
        for _ in range(TURN_CAP):
            for where, html in every_view(player, slug, spectator).items():
                assert not names_card(html, hidden), f"round {number}: {hidden} in the {where}"
            page = table(player, slug)
            action = "hit" if hand_values(page.html)[page.seat] <= 16 else "stay"
            answer = press(player, slug, action).get_data(as_text=True)
            if "data-dealer-turn" in answer:
                break
            assert not names_card(answer, hidden), f"round {number}: {hidden} in the answer to {action}"
        for where, html in every_view(player, slug, spectator).items():
            assert f'data-card="{hidden}"' in html, f"round {number}: the turned card is not shown in the {where}"
        if number < 5:
            press(player, slug, "deal")
    assert player.state(slug)[0].is_over()


# -- refusals --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("action, fields, status, message", [
    ("deal", {"seat": ""}, 422, "Round 1 is still being played: it is Ann's turn to hit or stay."),
    ("end", {"seat": ""}, 422, "Round 1 is still being played: it is Ann's turn to hit or stay."),
    ("double", {}, 400, "'double' is not an action of 21: hit, stay, deal or end."),
    ("hit", {"cards": ["TS"]}, 400, "Hit takes no cards: nobody chooses cards in 21."),
    ("hit", {"version": "0"}, 409, "The table changed before your action arrived"),
])
def test_a_refused_move_shows_its_message_and_changes_nothing(app, player, action, fields, status, message):
    slug = set_up(player, ["Ann"], deck=TWO)
    page = player.table(slug)
    before = database_dump(app)
    data = {"action": action, "version": str(page.version), "seat": "0", **fields}
    response = player.post(f"/games/{slug}/act", data, htmx=True)
    assert response.status_code == status
    alerts = Page(response.get_data(as_text=True)).alerts
    assert alerts and alerts[0].startswith(message), alerts
    assert database_dump(app) == before


def test_hit_between_rounds_is_refused_with_the_next_deal_named(app, player):
    slug = set_up(player, ["Zoe"], deck=ONE)
    press(player, slug, "hit")  # 21: round 1 is over
    page = player.table(slug)
    before = database_dump(app)
    response = player.followed(player.post(f"/games/{slug}/act", {"action": "hit", "version": str(page.version),
                                                                  "seat": "0"}), to=f"/games/{slug}")
    assert Page(response.get_data(as_text=True)).alerts == ["Round 1 is over: deal round 2 first."]
    assert database_dump(app) == before


def test_own_devices_only_the_seat_to_move_gets_the_buttons_and_out_of_turn_is_refused(app, make_player):
    ann, bob, stranger = make_player(), make_player(), make_player()
    slug = set_up(ann, ["Ann", "Bob"], devices=["here", "own"], deck=TWO)
    from app import store

    with app.app_context():
        code = store.find_game(slug).seats[1].join_code
    assert bob.post("/join", {"code": code}).status_code == 303
    bob_page = bob.table(slug)
    assert not bob_page.has_button("Hit") and "Ann is deciding (hand worth 18): hit or stay." in bob_page.html
    assert "<span class=\"badge you\">you</span>" in bob_page.html
    before = database_dump(app)
    version = re.search(r'data-version="(\d+)"', bob_page.html).group(1)  # Bob has no form to read it from
    response = bob.post(f"/games/{slug}/act", {"action": "hit", "version": version, "seat": "1"}, htmx=True)
    assert response.status_code == 409
    assert Page(response.get_data(as_text=True)).alerts == ["It is Ann's turn to hit or stay."]
    response = bob.post(f"/games/{slug}/act", {"action": "hit", "version": version, "seat": "0"}, htmx=True)
    assert response.status_code == 403
    response = stranger.post(f"/games/{slug}/act", {"action": "deal", "version": version, "seat": ""}, htmx=True)
    assert response.status_code == 403
    assert database_dump(app) == before
    press(ann, slug, "stay")
    bob_page = bob.table(slug)
    assert bob_page.has_button("Hit") and bob_page.seat == 1
    assert not ann.table(slug).has_button("Hit")
    press(bob, slug, "hit")
    press(bob, slug, "hit")  # 21: the round is over, the dealer played
    for browser in (ann, bob):  # any player at the table may deal the next round
        page = browser.table(slug)
        assert page.has_button("Deal round 2") and page.has_button("End the table")
    press(bob, slug, "deal")
    assert ann.table(slug).has_button("Hit")


# -- spectators, hot seat, reconnect ------------------------------------------------------------------------


def test_a_spectator_sees_the_face_up_cards_but_no_buttons_and_cannot_act(app, player, make_player):
    slug = set_up(player, ["Ann", "Bob"], deck=TWO)
    spectator = make_player()
    page = spectator.page(f"/games/{slug}/watch")
    assert {"TS", "8H", "5C", "4D", "6C"} <= set(page.cards)  # face-up cards are public (T7.2)
    assert not page.has_button("Hit") and not page.has_button("Stay") and page.seat is None
    # every hand is shown (T7.2): the note does not say that none is
    assert "You are watching." in page.html and "no hands are shown" not in page.html
    before = database_dump(app)
    response = spectator.post(f"/games/{slug}/act", {"action": "hit", "version": str(page.version), "seat": "0"},
                              htmx=True)
    assert response.status_code == 403 and database_dump(app) == before


def test_hot_seat_two_players_on_one_device_need_no_hand_over_when_every_hand_is_face_up(player):
    """Every 21 hand is public (T7.2): the zones hide nothing a seat alone sees, so a shared
    device goes from one player's turn to the next without a hand-over screen."""
    slug = set_up(player, ["Ann", "Bob"], deck=TWO)
    state, _version = player.state(slug)
    assert state.seats_with_private_cards() == set()
    page = player.table(slug)
    assert not page.has_button("I am Ann: show my hand") and page.has_button("Hit") and page.seat == 0
    assert {"TS", "8H", "5C", "4D"} <= set(page.cards)
    player.act(slug, "stay")
    page = player.table(slug)
    assert not page.has_button("I am Bob: show my hand") and page.has_button("Hit") and page.seat == 1
    assert "Your turn, Bob" in page.html


def test_a_reload_shows_the_same_table(player):
    slug = set_up(player, ["Zoe"], deck=ONE)
    first = player.table(slug)
    again = player.table(slug)
    assert first.version == again.version and first.cards == again.cards and again.has_button("Hit")


def test_a_computer_seat_plays_at_once_and_the_dealer_after_it(player):
    slug = set_up(player, ["Ann", "AI"], deck=TWO)
    press(player, slug, "stay")  # Ann stays; AI (9) hits twice to 21, then the dealer plays
    page = player.table(slug)
    html = page.html
    assert any(line.startswith("AI hits and draws the ") for line in page.log)
    assert "AI has 21 and wins round 1!" in page.log
    assert "computer" in html and results_shown(html) == {0: "won", 1: "won"}


# -- the end of the table, statistics, rematch ---------------------------------------------------------------


def test_t5_3_a_whole_table_ends_with_the_tally_and_the_statistics_per_name(player):
    """two_players.deck over 5 rounds: Ann 2 won, 3 lost; Bob 2 won, 2 lost, 1 tied."""
    slug = set_up(player, ["Ann", "Bob"], deck=TWO)
    assert player.statistics("twentyone") == {}
    for number in range(1, 6):
        play_round(player, slug)
        if number < 5:
            assert player.statistics("twentyone") == {}  # an unfinished table changes no statistics
            press(player, slug, "deal")
    page = player.table(slug)
    assert "Game over" in page.html and "That was the last round (5)." in page.html
    assert "Ann and Bob" not in page.html and "The dealer wins the table." in page.html
    rows = re.findall(r'<tr(?: class="winner")?><th scope="row">(\w+)</th><td>(\d)</td><td>(\d)</td><td>(\d)</td></tr>',
                      page.html)
    assert set(rows) == {("Ann", "2", "3", "0"), ("Bob", "2", "2", "1")}
    assert page.has_button("Rematch with the same players")
    assert player.statistics("twentyone") == {"Ann": ["2", "3", "0"], "Bob": ["2", "2", "1"]}


def test_ending_the_table_between_rounds_records_the_rounds_played(player):
    slug = set_up(player, ["Zoe"], deck=ONE, rounds=0)
    press(player, slug, "hit")  # a natural 21 wins round 1
    assert player.table(slug).has_button("End the table")
    press(player, slug, "end")
    html = player.table(slug).html
    assert "The table is ended after round 1." in html and "Zoe beat the dealer!" in html
    assert player.statistics("twentyone") == {"Zoe": ["1", "0", "0"]}


def test_a_rematch_has_the_same_players_and_the_same_stacked_deck(player):
    slug = set_up(player, ["Zoe"], deck=ONE, rounds=1)
    press(player, slug, "hit")
    assert "Game over" in player.table(slug).html
    response = player.post(f"/games/{slug}/rematch")
    assert response.status_code == 303
    rematch = response.headers["Location"].rsplit("/", 1)[1]
    assert rematch != slug
    page = player.table(rematch)
    assert page.has_button("Hit") and {"9S", "7H", "5C"} <= set(page.cards)
    assert hand_values(page.html) == {0: 16}


# -- the admin's deck upload (T2.2) ----------------------------------------------------------------------------


def deck_lines() -> list[str]:
    return [card.code for card in DECK.cards]


@pytest.mark.parametrize("change, message", [
    (lambda lines: lines[:2] + [lines[2] + " " + lines[3]] + lines[4:], "line 3 holds 2 codes: a line holds one card code"),
    (lambda lines: lines[:30] + [lines[10]] + lines[31:], "appears twice, at lines 11 and 31"),
    # (a code is named by its line, as the admin's editor shows it: blank lines count)
    (lambda lines: ["", " "] + lines[:3] + ["", "1X"] + lines[4:], "line 7, '1X', is not a card"),
    (lambda lines: ["\t"] + lines[:30] + ["", lines[10]] + lines[31:], "appears twice, at lines 12 and 33"),
    (lambda lines: lines[:-1], "the deck holds 51 card codes; it needs exactly 52 (missing: KS)"),
])
def test_t2_2_an_invalid_upload_gets_the_precise_message_and_nothing_is_stored(app, player, decks_folder, change, message):
    admin_login(player)
    before = sorted(path.name for path in (decks_folder / "twentyone").iterdir())
    state_before = database_dump(app)
    response = upload(player, "/admin/decks", "deck", "mine.deck", "\n".join(change(deck_lines())), game="twentyone")
    assert response.status_code == 400
    alerts = Page(response.get_data(as_text=True)).alerts
    # The message names the file and the game, and the form keeps that game for the next try.
    assert alerts and alerts[0].startswith("The deck mine.deck for 21 against the dealer was not stored: ") \
        and message in alerts[0], alerts
    assert '<option value="twentyone" selected>' in response.get_data(as_text=True)
    assert sorted(path.name for path in (decks_folder / "twentyone").iterdir()) == before
    assert database_dump(app) == state_before


def test_a_valid_upload_is_stored_in_the_game_s_folder_and_offered_at_set_up(player, decks_folder):
    admin_login(player)
    text = "\n".join(reversed(deck_lines()))
    response = upload(player, "/admin/decks", "deck", "reversed.deck", text, game="twentyone")
    assert response.status_code == 200 and "reversed.deck was checked and stored for 21 against the dealer." in response.get_data(as_text=True)
    assert (decks_folder / "twentyone" / "reversed.deck").read_text() == text
    front = list(reversed(deck_lines()))
    preview = [article for article in response.get_data(as_text=True).split('<article class="deck-preview">')
               if '<code class="deck-file">reversed.deck</code>' in article][0].split("</article>")[0]
    rows = re.findall(r'<span class="deck-seat">(\w+)</span>((?:<span class="card[^>]*><b>[^<]*<i>[^<]*</i></b></span>)+)',
                      preview)
    assert [(what, re.findall(r'data-card="(\w+)"', cards)) for what, cards in rows] == [
        ("Player", [front[0], front[2]]), ("Dealer", [front[1], front[3]]), ("Then", front[4:10])]  # T3.1
    assert "reversed.deck" in Page(player.get("/setup/twentyone").get_data(as_text=True)).inputs["deck"]
    slug = set_up(player, ["Zoe"], deck="reversed.deck")
    dealt = [DECK.parse(front[0]), DECK.parse(front[2])]  # the player's two cards (T3.1)
    assert set(player.table(slug).cards) >= {card.code for card in dealt}
    assert hand_values(player.table(slug).html) == {0: sum(card.points for card in dealt)}
