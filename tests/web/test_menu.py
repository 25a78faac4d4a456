"""Mason Rummy's Menu A at its own address (R9, R9.1), Quit, and the home page's list of
unfinished games to resume."""

from __future__ import annotations

import pytest

from support.games import (
    admin_login, forget_csrf, go_out_quick, is_fragment, next_round, page, play_game, text,
)
from support.web import Page

MENU_A = "/menus/mason"  # Mason Rummy's first menu, reached from its tile on the home page
MENU_A_WORDS = ["View scores", "Play 2-player game", "Play 3-player game",
                "Play 2-player game with stacked deck", "Play 3-player game with stacked deck", "Quit"]


def menu_a_options(view: Page) -> list[tuple[str, str]]:
    return [(value, label) for name, value, label in view.buttons if name == "choice"]


def assert_menu_a(view: Page) -> None:
    assert "Main menu" in view.html and "Menu A" not in view.html
    assert menu_a_options(view) == [(str(n), f"{n}{word}") for n, word in enumerate(MENU_A_WORDS, start=1)]


def test_r9_menu_a_shows_the_six_options_in_order_with_the_menu_words(player):
    response = player.get(MENU_A)
    assert response.status_code == 200
    view = page(response)
    assert_menu_a(view)
    # A real form: it works without JavaScript, and posts the option's number.
    menu_form = Page(view.html).posting_to(MENU_A)
    assert len(menu_form) == 1 and "csrf_token" in menu_form[0]["inputs"]
    assert view.alerts == []


@pytest.mark.parametrize("answer", ["text", "0", "7", "", "   ", "-1", "1.5", "2,3", "١", "9" * 5000])
def test_r9_1_an_answer_that_is_not_an_offered_number_gets_a_message_and_menu_a_again(player, answer):
    response = player.post(MENU_A, {"choice": answer})
    assert response.status_code == 400
    view = page(response)
    assert view.alerts == ["Please answer with a number from 1 to 6."]
    assert_menu_a(view)
    with player.client.session_transaction() as session:
        assert "setup" not in session  # nothing was started


def test_r9_1_a_missing_choice_gets_a_message_and_menu_a_again(player):
    response = player.post(MENU_A, {})
    assert response.status_code == 400
    view = page(response)
    assert view.alerts == ["Please answer with a number from 1 to 6."]
    assert_menu_a(view)


def test_r9_1_spaces_around_a_valid_number_are_ignored(player):
    response = player.post(MENU_A, {"choice": " 2 "})
    assert response.status_code == 303
    assert response.headers["Location"] == "/setup/mason?seats=2"  # the one set-up form, two seats


def test_a_menu_a_post_without_the_csrf_token_is_refused_and_changes_nothing(player):
    response = player.post(MENU_A, {"choice": "2"}, csrf=False)
    assert response.status_code == 400
    assert "did not come from this site" in " ".join(page(response).alerts)
    with player.client.session_transaction() as session:
        assert "setup" not in session


def test_menu_a_in_an_htmx_request_with_a_bad_choice_still_answers_with_a_message(player):
    response = player.post(MENU_A, {"choice": "x"}, htmx=True)
    assert response.status_code == 400
    assert page(response).alerts == ["Please answer with a number from 1 to 6."]


def test_option_1_view_scores_goes_to_the_score_table(player):
    response = player.post(MENU_A, {"choice": "1"})
    assert response.status_code == 303
    assert response.headers["Location"] == "/scores"
    scores = player.get("/scores")
    assert scores.status_code == 200 and "Scores" in text(scores)


@pytest.mark.parametrize("choice, players, stacked", [("2", 2, False), ("3", 3, False), ("4", 2, True), ("5", 3, True)])
def test_options_2_to_5_open_the_one_set_up_form_with_that_many_seats(player, choice, players, stacked):
    """R9: options 2-5 start a game of 2 or 3 players, stacked or not: the one set-up form every
    game has, with that many seats (each a person here, on their own device, or the computer,
    R3.1) and, stacked, its decks; the deck prompt (R2.2) and Menus B and C keep their routes."""
    response = player.post(MENU_A, {"choice": choice})
    assert response.status_code == 303
    location = response.headers["Location"]
    assert location == f"/setup/mason?seats={players}" + ("&stacked=1" if stacked else "")
    page = player.page(location)
    assert len(page.find_all("fieldset", "seat-setup")) == players
    for number in range(players):
        assert {radio.get("value") for radio in page.find_all("input", name=f"device{number}")} == {"here", "own", "computer"}
    assert ("deck-choice stacked" in page.html) is stacked
    for menu in ("/setup/deck",) if stacked else ("/setup/seat",):  # the menus' own route still answers
        assert player.get(menu).status_code == 200


def test_option_6_quit_says_goodbye_with_a_way_back_to_menu_a(player):
    response = player.post(MENU_A, {"choice": "6"})
    assert response.status_code == 200
    html = text(response)
    assert "Goodbye" in html
    back = [line for line in html.splitlines() if "Back to the games" in line]
    assert back and 'href="/"' in back[0]
    forget_csrf(player)
    assert_menu_a(player.page(MENU_A))


def test_quit_forgets_a_setup_in_progress(player):
    assert player.post(MENU_A, {"choice": "3"}).status_code == 303
    assert player.post("/setup/seat", {"kind": "1", "name": "Doris"}).status_code == 303
    assert player.post(MENU_A, {"choice": "6"}).status_code == 200
    forget_csrf(player)
    # The half-made game is gone: the seat pages send the browser back to the home page.
    response = player.get("/setup/seat")
    assert response.status_code == 303 and response.headers["Location"] == "/"
    response = player.post("/setup/seat", {"kind": "1", "name": "Ann"})
    assert response.status_code == 303 and response.headers["Location"] == "/"
    with player.client.session_transaction() as session:
        assert "setup" not in session


def test_quit_forgets_admin_rights(player):
    admin_login(player)
    assert player.get("/admin").status_code == 200
    assert player.post("/quit").status_code == 200
    forget_csrf(player)
    response = player.get("/admin")
    assert response.status_code == 303
    assert response.headers["Location"].startswith("/admin/login")


def test_quit_keeps_the_seats_of_unfinished_games_so_they_can_be_resumed(player):
    slug = player.start_game(["Doris", "AI"], deck="quick_out.deck")
    response = player.post(MENU_A, {"choice": "6"})
    assert response.status_code == 200
    assert "kept, so you can resume them from the home page" in text(response)
    forget_csrf(player)
    home = player.page("/")
    assert f'href="/games/{slug}"' in home.html and "Resume" in home.html
    # The seat still works: the hand shows and an action is accepted.
    table = player.table(slug)
    assert len(table.hand) == 10
    assert player.act(slug, "draw_stock").status_code == 200


def test_quit_lets_go_of_the_seats_of_finished_games(player):
    slug = player.start_game(["Doris", "AI"], deck="quick_out.deck")
    go_out_quick(player, slug)
    assert "Rematch" not in player.table(slug).html
    # Finish the game (quick_out.deck: seat 1 goes out in every round it plays).
    assert next_round(player, slug).status_code == 303
    play_game(player, slug)
    assert "Rematch with the same players" in player.table(slug).html
    response = player.post("/quit")
    assert response.status_code == 200
    assert "kept" not in text(response)
    forget_csrf(player)
    assert "Rematch with the same players" not in player.table(slug).html


def test_the_home_page_lists_unfinished_games_with_resume_for_this_browser_and_watch_for_others(make_player):
    host, other = make_player(), make_player()
    slug = host.start_game(["Doris", "AI"], deck="quick_out.deck")

    mine = host.page("/")
    assert "Unfinished games" in mine.html
    assert "Doris, AI" in mine.html
    assert "Round 1 of 3, Doris&#39;s turn" in mine.html
    assert f'href="/games/{slug}">Resume' in mine.html
    assert f'href="/games/{slug}/watch">Watch' in mine.html

    theirs = other.page("/")
    assert "Doris, AI" in theirs.html
    assert f'href="/games/{slug}/watch">Watch' in theirs.html
    assert "Resume" not in theirs.html
    # The watch link works for the other browser and shows no hand.
    watched = other.page(f"/games/{slug}/watch")
    assert watched.hand == []
    assert not set(watched.cards) & {"2C", "3C", "4C", "5C", "7D", "7H", "7S", "9P", "TP", "JP"}


def test_finished_games_are_not_listed_on_the_home_page(player):
    slug = player.start_game(["Doris", "AI"], deck="quick_out.deck")
    go_out_quick(player, slug)
    assert next_round(player, slug).status_code == 303
    play_game(player, slug)
    home = player.page("/")
    assert slug not in home.html
    assert "Unfinished games" not in home.html


def test_quit_has_its_own_route_and_only_accepts_post(player):
    assert player.get("/quit").status_code == 405
    response = player.post("/quit")
    assert response.status_code == 200 and "Goodbye" in text(response)


def test_unknown_pages_answer_404_with_a_way_back(player):
    response = player.get("/no/such/page")
    assert response.status_code == 404
    view = page(response)
    assert view.alerts == ["There is nothing here."]
    assert 'href="/"' in view.html


def test_an_htmx_error_is_a_fragment_with_an_alert(player):
    response = player.get("/games/nosuchgame", htmx=True)
    assert response.status_code == 404
    assert is_fragment(text(response))
    assert page(response).alerts == ["There is no such game: check the link, or pick a game from the home page."]


def test_the_pages_load_their_vendored_htmx_css_and_scripts_from_this_server(player):
    import re

    html = player.page("/").html
    assets = re.findall(r'(?:src|href)="(/static/[^"]+)"', html)
    assert any("htmx-2.0.11.min.js" in url for url in assets)  # a pinned, vendored release
    assert any(url.startswith("/static/css/") for url in assets)
    for url in assets:
        response = player.get(url)
        assert response.status_code == 200, url
        assert response.get_data()
        response.close()
