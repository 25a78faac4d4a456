"""Setting up a game: the stacked deck prompt (R2.2) and the seats, Menus B and C (R3.2-R3.4)."""

from __future__ import annotations

import os

import pytest

from support.games import (
    BAD_DECK_REASONS, ODD_BUT_VALID_DECKS, QUICK_OUT_SEAT_1, copy_test_decks, deck_text,
    game_count, is_fragment, page, seed_scores, text,
)
from support.pages import Page

from app.tables.decks import deck_title


def choose(player, option: int):
    response = player.post("/menus/mason", {"choice": str(option)})
    assert response.status_code == 303
    return response


def seat(player, kind, name=None, **extra):
    data = {"kind": kind, **extra}
    if name is not None:
        data["name"] = name
    return player.post("/setup/seat", data)


def seated_names(player) -> list[str]:
    with player.client.session_transaction() as session:
        return [s["name"] for s in session["setup"]["seats"]]


def game_names(player, location: str) -> list[str]:
    slug = location.rsplit("/", 1)[1]
    game, _version = player.state(slug)
    return [p.name for p in game.players]


# -- the stacked deck prompt (R2.2) -------------------------------------------------------------


def test_r2_2_the_deck_prompt_suggests_the_decks_in_the_folder(player, decks_folder):
    choose(player, 4)
    html = text(player.get("/setup/deck"))
    names = sorted(p.name for p in decks_folder.glob("*.deck"))
    assert names  # the sample decks
    for name in names:  # suggested by file name (what the prompt asks for), labelled by the deck's name
        assert f'<option value="{name}" label="{deck_title(name)}">' in html
    deck_form, choices = Page(html).posting_to("/setup/deck")
    assert "deck" in deck_form["inputs"]
    assert ("cancel", "1", "Cancel") in deck_form["buttons"]
    # the decks are also tappable choices, one button a deck
    assert [(name, value) for name, value, _text in choices["buttons"]] == [("deck", name) for name in names]


def test_the_deck_choices_read_as_names_and_post_the_file_without_javascript(player):
    """Players read "Quick out" (the file's name below it, smaller); the plain form posts the file."""
    choose(player, 4)
    page = Page(text(player.get("/setup/deck")))
    _deck_form, choices = page.posting_to("/setup/deck")
    labels = {value: label for _name, value, label in choices["buttons"]}
    assert labels["quick_out.deck"] == "Quick out quick_out.deck"
    assert labels["ai_showcase.deck"] == "AI showcase ai_showcase.deck"
    titles = [span.text for span in page.find_all("span", cls="deck-title")]
    assert titles[:2] == ["AI showcase", "Queen king ace"] and not any(".deck" in title for title in titles)
    response = player.post("/setup/deck", {"deck": "quick_out.deck"})
    assert response.status_code == 303 and response.headers["Location"] == "/setup/seat"
    seat_page = Page(text(player.get("/setup/seat")))
    assert "with the stacked deck Quick out quick_out.deck" in " ".join("".join(seat_page.visible_text).split())
    with player.client.session_transaction() as session:
        assert session["setup"]["deck"] == "quick_out.deck"  # the game keeps the file's identity


def test_a_deck_typed_by_the_name_the_page_shows_is_found(player):
    choose(player, 4)
    response = player.post("/setup/deck", {"deck": "quick OUT"})
    assert response.status_code == 303 and response.headers["Location"] == "/setup/seat"
    with player.client.session_transaction() as session:
        assert session["setup"]["deck"] == "quick_out.deck"


def test_a_deck_s_title_comes_from_its_file_name():
    assert [deck_title(name) for name in ("void_hand.deck", "ai_showcase.deck", "twoPlayers.deck",
                                          "three-players.deck", "QKA_test.deck", "x.deck", ".deck")] == [
        "Void hand", "AI showcase", "Two players", "Three players", "QKA test", "X", ".deck"]


def test_a_tapped_deck_choice_is_used(player):
    choose(player, 4)
    response = player.post("/setup/deck", {"deck": "quick_out.deck"})
    assert response.status_code == 303 and response.headers["Location"] == "/setup/seat"


def test_the_deck_prompt_without_a_stacked_setup_goes_back_to_menu_a(player):
    response = player.get("/setup/deck")
    assert response.status_code == 303 and response.headers["Location"] == "/"
    response = player.post("/setup/deck", {"deck": "quick_out.deck"})
    assert response.status_code == 303 and response.headers["Location"] == "/"
    choose(player, 2)  # a shuffled game has no deck prompt
    response = player.post("/setup/deck", {"deck": "quick_out.deck"})
    assert response.status_code == 303 and response.headers["Location"] == "/"


def test_r2_2_a_missing_deck_file_says_so_and_asks_again(player):
    choose(player, 4)
    response = player.post("/setup/deck", {"deck": "nosuch.deck"})
    assert response.status_code == 422
    view = page(response)
    assert len(view.alerts) == 1
    assert "there is no deck file named 'nosuch.deck'" in view.alerts[0]
    assert view.value("deck") == "nosuch.deck"  # asked again, with the answer kept
    assert 'name="deck"' in view.html and "go back to the main menu" in view.html


@pytest.mark.parametrize("name", sorted(BAD_DECK_REASONS))
def test_r2_2_an_invalid_deck_is_refused_with_what_is_wrong(player, decks_folder, name):
    copy_test_decks(decks_folder, [name])
    choose(player, 5)
    response = player.post("/setup/deck", {"deck": name})
    assert response.status_code == 422
    alerts = page(response).alerts
    assert len(alerts) == 1 and alerts[0].startswith("That deck cannot be used:")
    for words in BAD_DECK_REASONS[name]:
        assert words in alerts[0]
    with player.client.session_transaction() as session:
        assert session["setup"]["deck"] is None
    assert player.get("/setup/seat").status_code == 303  # no seats before a good deck


@pytest.mark.parametrize("name", ODD_BUT_VALID_DECKS)
def test_r1_3_r2_1_decks_in_lower_case_or_odd_whitespace_are_accepted(player, decks_folder, name):
    copy_test_decks(decks_folder, [name])
    choose(player, 4)
    response = player.post("/setup/deck", {"deck": name})
    assert response.status_code == 303 and response.headers["Location"] == "/setup/seat"


@pytest.mark.parametrize("answer", ["../x.deck", "/etc/passwd", "../decks/quick_out.deck", "..", ".",
                                    "./quick_out.deck", "sub/quick_out.deck", ".hidden.deck",
                                    "..\\x.deck"])
def test_r2_2_deck_names_with_folders_are_refused(player, decks_folder, answer):
    # A valid deck right outside the decks folder must never be read.
    (decks_folder.parent / "x.deck").write_text(deck_text("quick_out.deck"))
    (decks_folder / "sub").mkdir(exist_ok=True)
    (decks_folder / "sub" / "quick_out.deck").write_text(deck_text("quick_out.deck"))
    (decks_folder / ".hidden.deck").write_text(deck_text("quick_out.deck"))
    choose(player, 4)
    response = player.post("/setup/deck", {"deck": answer})
    assert response.status_code == 422
    alerts = page(response).alerts
    assert len(alerts) == 1 and alerts[0].startswith("That deck cannot be used:")
    with player.client.session_transaction() as session:
        assert session["setup"]["deck"] is None


@pytest.mark.parametrize("answer", ["no", " NO ", "No", "nO"])
def test_r2_2_no_in_any_case_goes_back_to_menu_a(player, answer):
    choose(player, 4)
    response = player.post("/setup/deck", {"deck": answer})
    assert response.status_code == 303 and response.headers["Location"] == "/menus/mason"
    with player.client.session_transaction() as session:
        assert "setup" not in session
    assert player.get("/setup/deck").headers["Location"] == "/"


def test_r2_2_the_cancel_button_goes_back_to_menu_a(player):
    choose(player, 5)
    response = player.post("/setup/deck", {"deck": "", "cancel": "1"})
    assert response.status_code == 303 and response.headers["Location"] == "/menus/mason"
    with player.client.session_transaction() as session:
        assert "setup" not in session


def test_an_empty_deck_answer_asks_again(player):
    choose(player, 4)
    response = player.post("/setup/deck", {"deck": "   "})
    assert response.status_code == 422
    assert page(response).alerts == ["Type a deck file name, or no to go back to the main menu."]


def test_a_valid_deck_proceeds_to_the_seats(player):
    choose(player, 4)
    response = player.post("/setup/deck", {"deck": " quick_out.deck "})
    assert response.status_code == 303 and response.headers["Location"] == "/setup/seat"
    html = text(player.get("/setup/seat"))
    assert 'with the stacked deck Quick out <code class="deck-file">quick_out.deck</code>' in html
    assert "Player 1 of 2" in html


def test_a_deck_name_without_deck_is_accepted_if_the_file_exists(player):
    choose(player, 4)
    response = player.post("/setup/deck", {"deck": "quick_out"})
    assert response.status_code == 303 and response.headers["Location"] == "/setup/seat"
    with player.client.session_transaction() as session:
        assert session["setup"]["deck"] == "quick_out.deck"
    assert seat(player, "1", "Doris").status_code == 303
    response = seat(player, "1", "AI")
    slug = response.headers["Location"].rsplit("/", 1)[1]
    assert player.table(slug).hand == QUICK_OUT_SEAT_1  # R2.3: the file's order was dealt


def test_the_deck_prompt_as_htmx_answers_a_fragment_with_the_alert(player):
    choose(player, 4)
    response = player.post("/setup/deck", {"deck": "nosuch"}, htmx=True)
    assert response.status_code == 422
    assert is_fragment(text(response))
    assert len(page(response).alerts) == 1


def test_a_deck_removed_after_it_was_chosen_is_reported_and_asked_again(player, decks_folder):
    choose(player, 4)
    assert player.post("/setup/deck", {"deck": "quick_out.deck"}).status_code == 303
    assert seat(player, "1", "Doris").status_code == 303
    os.remove(decks_folder / "quick_out.deck")
    response = seat(player, "1", "AI")
    assert response.status_code == 422
    alerts = page(response).alerts
    assert len(alerts) == 1 and "cannot be used any more" in alerts[0]
    assert game_count(player.app) == 0


# -- Menu B -------------------------------------------------------------------------------------


def test_menu_b_offers_new_or_returning_player(player):
    choose(player, 2)
    view = player.page("/setup/seat")
    assert [(v, label) for name, v, label in view.buttons if name == "kind"] == [
        ("1", "1New player"), ("2", "2Returning player")]
    assert "Who plays this seat?" in view.html and "Player 1 of 2" in view.html


@pytest.mark.parametrize("kind", ["0", "3", "x", "", "1.0", "-1"])
def test_r9_1_a_bad_menu_b_answer_gets_a_message_and_menu_b_again(player, kind):
    choose(player, 2)
    response = player.get("/setup/seat", query_string={"kind": kind})
    assert response.status_code == 400
    view = page(response)
    assert view.alerts == ["Please answer with a number from 1 to 2."]
    assert "Who plays this seat?" in view.html
    response = player.post("/setup/seat", {"kind": kind, "name": "Doris"})
    assert response.status_code == 400
    assert page(response).alerts == ["Please answer with a number from 1 to 2."]
    with player.client.session_transaction() as session:
        assert session["setup"]["seats"] == []


def test_a_missing_kind_is_refused(player):
    choose(player, 2)
    response = player.post("/setup/seat", {"name": "Doris"})
    assert response.status_code == 400
    assert page(response).alerts == ["Please answer with a number from 1 to 2."]


def test_the_seat_pages_without_a_setup_go_back_to_menu_a(player):
    assert player.get("/setup/seat").headers["Location"] == "/"
    response = seat(player, "1", "Doris")
    assert response.status_code == 303 and response.headers["Location"] == "/"


def test_the_new_player_form_asks_for_a_name(player):
    choose(player, 2)
    view = player.page("/setup/seat?kind=1")
    assert "New player" in view.html
    seat_form = Page(view.html).posting_to("/setup/seat")
    assert seat_form and seat_form[0]["inputs"]["kind"] == ["1"] and "name" in seat_form[0]["inputs"]


# -- new players (R3.2) -------------------------------------------------------------------------


@pytest.mark.parametrize("name, message", [
    ("", "A name cannot be empty."),
    ("    ", "A name cannot be empty."),
    ("\t\n", "A name cannot be empty."),
    ("x" * 25, "A name can have at most 24 characters."),
    ("Do\nris", "A name can only hold printable characters."),
])
def test_r3_2_a_bad_new_name_is_refused_with_a_message(player, name, message):
    choose(player, 2)
    response = seat(player, "1", name)
    assert response.status_code == 422
    view = page(response)
    assert view.alerts == [message]
    assert "New player" in view.html  # asked again
    with player.client.session_transaction() as session:
        assert session["setup"]["seats"] == []


def test_r3_2_a_name_is_trimmed_and_may_have_24_characters(player):
    choose(player, 2)
    assert seat(player, "1", "  Doris  ").status_code == 303
    assert seated_names(player) == ["Doris"]
    response = seat(player, "1", " " + "y" * 24 + " ")
    assert response.status_code == 303
    assert game_names(player, response.headers["Location"]) == ["Doris", "y" * 24]


@pytest.mark.parametrize("typed", ["Doris", "doris", "DORIS", "  dOrIs "])
def test_r3_2_a_name_already_in_the_score_table_is_refused_ignoring_case(app, player, typed):
    seed_scores(app, [("Doris", 1, 0, 12)])
    choose(player, 2)
    response = seat(player, "1", typed)
    assert response.status_code == 422
    alerts = page(response).alerts
    assert len(alerts) == 1 and "is already taken" in alerts[0]
    with player.client.session_transaction() as session:
        assert session["setup"]["seats"] == []


@pytest.mark.parametrize("second", ["Ann", "ann", " ANN "])
def test_r3_2_a_name_already_in_this_game_is_refused_ignoring_case(player, second):
    choose(player, 3)
    assert seat(player, "1", "Ann").status_code == 303
    response = seat(player, "1", second)
    assert response.status_code == 422
    assert "is already taken" in page(response).alerts[0]
    assert seated_names(player) == ["Ann"]


def test_r3_4_ai_in_any_case_makes_computer_seats_and_may_sit_several_times(app, player):
    seed_scores(app, [("AI", 0, 3, None)])  # AI is the exception to R3.2's "already exists"
    choose(player, 3)
    assert seat(player, "1", "Ann").status_code == 303
    assert seat(player, "1", "ai").status_code == 303
    response = seat(player, "1", " aI ")
    assert response.status_code == 303
    slug = response.headers["Location"].rsplit("/", 1)[1]
    assert game_names(player, response.headers["Location"]) == ["Ann", "AI", "AI"]
    game, _version = player.state(slug)
    assert [p.is_computer for p in game.players] == [False, True, True]


def test_r3_4_two_computer_seats_make_a_game_that_plays_itself_to_the_round_end(player):
    response = choose(player, 4)
    assert player.post("/setup/deck", {"deck": "ai_showcase.deck"}).status_code == 303
    assert seat(player, "1", "AI").status_code == 303
    response = seat(player, "1", "Ai")
    assert response.status_code == 303
    slug = response.headers["Location"].rsplit("/", 1)[1]
    game, version = player.state(slug)
    assert game.phase == "round_over" and version > 1
    assert "went out" in player.table(slug).html


def test_seat_2_shows_who_is_seated_already(player):
    choose(player, 2)
    assert seat(player, "1", "Doris").status_code == 303
    html = text(player.get("/setup/seat"))
    assert "Player 2 of 2" in html
    assert "<li>Doris" in html


# -- returning players (Menu C, R3.3) ----------------------------------------------------------------


def test_r3_3_menu_c_lists_the_score_table_sorted_ignoring_case(app, player):
    seed_scores(app, [("bob", 0, 1, None), ("Carol", 2, 0, 30), ("alice", 1, 1, 40), ("AI", 1, 0, 5),
                      ("Zed", 0, 0, None), ("ann", 0, 2, None)])
    choose(player, 3)
    response = player.get("/setup/seat", query_string={"kind": "2"})
    assert response.status_code == 200
    view = page(response)
    assert "Choose a returning player" in view.html
    assert [(value, label) for name, value, label in view.buttons if name == "name"] == [
        ("AI", "1AI"), ("alice", "2alice"), ("ann", "3ann"), ("bob", "4bob"), ("Carol", "5Carol"), ("Zed", "6Zed")]


def test_r3_3_menu_c_leaves_out_the_humans_already_seated(app, player):
    seed_scores(app, [("bob", 0, 1, None), ("Carol", 2, 0, 30), ("AI", 1, 0, 5)])
    choose(player, 3)
    assert seat(player, "2", "Carol").status_code == 303
    assert seat(player, "2", "AI").status_code == 303  # a computer seat does not use up AI
    view = player.page("/setup/seat?kind=2")
    assert [value for name, value, _label in view.buttons if name == "name"] == ["AI", "bob"]
    assert seated_names(player) == ["Carol", "AI"]


def test_r3_3_an_empty_menu_c_says_so_and_shows_menu_b_again(player):
    choose(player, 2)
    response = player.get("/setup/seat", query_string={"kind": "2"})
    assert response.status_code == 200
    view = page(response)
    assert view.alerts == ["There are no returning players to choose from."]
    assert "Who plays this seat?" in view.html and "Menu C" not in view.html


def test_r3_3_menu_c_is_empty_once_the_only_returning_player_is_seated(app, player):
    seed_scores(app, [("Alice", 1, 0, 20)])
    choose(player, 2)
    assert seat(player, "2", "Alice").status_code == 303
    view = player.page("/setup/seat?kind=2")
    assert view.alerts == ["There are no returning players to choose from."]
    assert "Who plays this seat?" in view.html


@pytest.mark.parametrize("name", ["Nobody", "alice", "", "Alice "])
def test_r3_3_a_name_not_in_menu_c_is_refused_and_menu_c_asked_again(app, player, name):
    seed_scores(app, [("Alice", 1, 0, 20), ("Bob", 0, 1, None)])
    choose(player, 2)
    response = seat(player, "2", name)
    assert response.status_code == 422
    view = page(response)
    assert view.alerts == ["Choose one of the returning players listed."]
    assert "Choose a returning player" in view.html
    with player.client.session_transaction() as session:
        assert session["setup"]["seats"] == []


def test_r3_4_a_returning_human_may_sit_only_once(app, player):
    seed_scores(app, [("Alice", 1, 0, 20), ("Bob", 0, 1, None)])
    choose(player, 3)
    assert seat(player, "2", "Alice").status_code == 303
    response = seat(player, "2", "Alice")
    assert response.status_code == 422
    assert page(response).alerts == ["Choose one of the returning players listed."]
    assert seated_names(player) == ["Alice"]


def test_returning_players_sit_under_their_score_table_name(app, player):
    seed_scores(app, [("Alice", 1, 0, 20), ("bob", 0, 1, None)])
    choose(player, 2)
    assert seat(player, "2", "bob").status_code == 303
    response = seat(player, "2", "Alice")
    assert response.status_code == 303
    assert game_names(player, response.headers["Location"]) == ["bob", "Alice"]


# -- starting the game -----------------------------------------------------------------------------


def test_posting_the_final_seat_twice_lands_on_the_same_game(player):
    choose(player, 4)
    assert player.post("/setup/deck", {"deck": "quick_out.deck"}).status_code == 303
    assert seat(player, "1", "Doris").status_code == 303
    first = seat(player, "1", "AI")
    assert first.status_code == 303 and first.headers["Location"].startswith("/games/")
    again = seat(player, "1", "AI")
    assert again.status_code == 303
    assert again.headers["Location"] == first.headers["Location"]
    assert game_count(player.app) == 1


def test_cancel_this_game_forgets_the_setup(player):
    choose(player, 3)
    assert seat(player, "1", "Doris").status_code == 303
    response = player.post("/setup/cancel")
    assert response.status_code == 303 and response.headers["Location"] == "/menus/mason"  # back to Menu A
    assert player.get("/setup/seat").headers["Location"] == "/"
    assert game_count(player.app) == 0


def test_a_tampered_device_value_is_a_hot_seat(player):
    choose(player, 2)
    assert seat(player, "1", "Doris", device="elsewhere").status_code == 303
    with player.client.session_transaction() as session:
        assert session["setup"]["seats"][0]["device"] == "here"


def test_a_seat_error_as_htmx_is_a_fragment_with_the_alert(player):
    choose(player, 2)
    response = player.post("/setup/seat", {"kind": "1", "name": ""}, htmx=True)
    assert response.status_code == 422
    assert is_fragment(text(response))
    assert page(response).alerts == ["A name cannot be empty."]


def test_a_shuffled_game_deals_ten_cards_to_each_seat(player):
    slug = player.start_game(["Doris", "Ann", "Bob"])
    game, _version = player.state(slug)
    assert game.stacked_deck is None
    assert [len(p.hand.cards) for p in game.players] == [10, 10, 10]
