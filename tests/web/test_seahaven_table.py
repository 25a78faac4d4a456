"""Seahaven Towers at the web table (S2, S5.2, S6), through the pages and forms as a browser uses
them without JavaScript: set-up at /setup/seahaven (a deal number, the classic deal, deal only
winnable games, a stacked deck), a move as two taps (the card: the table loaded with
``?cards=<id>``; then a destination button of the board, which posts the dock's #act-form),
the "to a foundation" buttons, refusals (the rule shown, nothing changed), unlimited undo, give
up, the hint (a GET: nothing changes), the "still winnable?" mark, "No legal moves", the timer,
spectators, a restart, the statistics per name, and "play this deal again".

The "still winnable?" mark and the hint are the job runner's kept answers (app/solving): these
tests run its runner in a thread (the ``job_runner`` fixture) and wait for it (``settle``) where
they look at them; tests/web/test_seahaven_solving.py is about that path itself.

``short_win.deck`` (tests/decks/seahaven/README.md) is won in 53 moves: 2C to a cell, AC home, 2C
home, then every card straight home. ``stuck_after_four.deck`` (deal 242) has no legal move
left once 8C, JC, 5D and TH (columns 1-4's bottom cards) fill the cells."""

from __future__ import annotations

import re

import pytest

from support.seahaven_forms import (
    columns_shown, form_fields, move, plain_button, post_fields, press, set_up, shown_destinations, sources, table,
    tap, win_short_deal,
)

from app.games.seahaven import deal_cards
from app.games.seahaven.rules import Layout
from app.web.words import card_short
from support.web import Page, Player, database_dump

SHORT_WIN = "short_win.deck"
STUCK = "stuck_after_four.deck"
# Deal 1 (open) can be won; after QC from column 1 to cell 1 it cannot, though moves are left.
LOSING_DEAL, LOSING_CARD, LOSING_FROM, LOSING_TO = 1, "QC", "t1", "c1"


# -- helpers ---------------------------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def runner(job_runner):
    return job_runner



# -- set-up and the board ----------------------------------------------------------------------------------


def test_s2_4_set_up_with_a_deal_number_and_the_classic_deal_deals_those_cards(player):
    slug = set_up(player, deal=1234, classic=True)
    state, version = player.state(slug)
    assert state.deal == 1234 and state.classic and version == 1
    assert state.dealt == deal_cards(1234)
    layout = Layout.deal(deal_cards(1234), classic=True)
    page = table(player, slug)
    # the ten columns, top card first, as dealt; cards 51 and 52 in cells 2 and 3 (S2.4)
    assert columns_shown(page) == [[card.id for card in column] for column in layout.columns]
    cells = [[e.get("data-card") for e in cell.iter() if e.get("data-card")] for cell in page.find_all("li", "sh-cell")]
    assert cells == [[], [layout.cells[1].id], [layout.cells[2].id], []]
    assert "Deal 1234, classic deal" in page.html and page.my_turn
    # every card face up, once each (S2.1)
    assert sorted(page.cards) == sorted(card.id for card in layout.cards())


def test_the_set_up_form_offers_the_options_and_a_link_fills_in_a_deal(player):
    page = Page(player.client.get("/setup/seahaven?deal=77&classic=1").get_data(as_text=True))
    assert page.find("input", name="deal").get("value") == "77"
    boxes = {e.get("name"): "checked" in e.attrs for e in page.find_all("input", type="checkbox") if e.get("name")}
    assert boxes == {"classic": True, "winnable_only": False, "kings_only": True}
    assert "Deal only winnable games" in page.html


def test_s5_2_deal_only_winnable_games_takes_the_first_winnable_deal_from_the_number(player, runner):
    from app.games.seahaven import first_winnable_deal

    slug = set_up(player, deal=500, winnable_only=True)
    state, _version = player.state(slug)
    assert state.deal == first_winnable_deal(500, False) and state.winnable()
    runner.settle()
    assert "still winnable" in table(player, slug).html


def test_a_stacked_deck_of_the_game_s_folder_deals_as_it_is(player):
    slug = set_up(player, deck=SHORT_WIN)
    state, _version = player.state(slug)
    assert state.deal is None
    assert columns_shown(table(player, slug))[0] == ["6C", "5C", "4C", "3C", "AC", "2C"]


# -- moving cards: two taps (S6.1) ---------------------------------------------------------------------


def test_s6_1_the_first_tap_marks_the_card_and_shows_only_the_places_it_may_go(player):
    slug = set_up(player, deck=SHORT_WIN)
    page = table(player, slug)
    state, _version = player.state(slug)
    view = state.view(0)
    # the tappable cards are exactly the view's sources; no destination is shown yet
    assert sources(page) == {place: (view["columns"][int(place[1:]) - 1][-1] if place[0] == "t"
                                     else view["cells"][int(place[1:]) - 1]) for place in view["targets"]}
    assert shown_destinations(page) == []
    page = tap(player, slug, "2C")
    chosen = page.find("button", "sh-src", data_card="2C")
    assert chosen.get("aria-pressed") == "true" and chosen.get("name") is None  # tapping it again puts it down
    assert sorted(shown_destinations(page)) == sorted(view["targets"]["t1"])
    assert page.find("div", "sh-board").get("data-from") == "t1"
    assert dict(form_fields(page, "act-form"))["from"] == "t1" and dict(form_fields(page, "act-form"))["cards"] == "2C"
    assert page.find("p", "sh-picked").text.startswith("2\u2663 selected")


def test_s3_1_a_move_posted_by_the_second_tap_is_applied_and_logged(player):
    slug = set_up(player, deck=SHORT_WIN)
    response = move(player, slug, "2C", "c1")
    assert response.status_code == 200
    state, version = player.state(slug)
    assert version == 2 and state.layout.cells[0].id == "2C" and state.moves_made() == 1
    page = Page(response.get_data(as_text=True))
    assert page.log[-1] == "Moved the 2\u2663 from column 1 to cell 1."
    assert page.find("span", "sh-moves").text == "1 move"
    # a plain form post (no htmx) is answered with a redirect to the table
    response = move(player, slug, "AC", "f1", htmx=False)
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/games/{slug}")
    assert player.state(slug)[0].layout.foundations[0][0].id == "AC"


def test_s6_1_without_a_script_each_card_that_may_go_home_has_a_button(player):
    slug = set_up(player, deck=SHORT_WIN)
    move(player, slug, "2C", "c1")
    page = table(player, slug)
    state, _version = player.state(slug)
    home = {b.get("value") for b in page.find_all("button") if b.get("form") == "sh-plain"
            and (b.get("value") or "").startswith("move|")}
    assert home == {f"move|from={source}|to={to}" for source, to in state.view(0)["to_foundation"].items()}
    assert press(player, slug, page, plain_button(page, "move|from=t1|to=f1")).status_code == 200
    assert player.state(slug)[0].layout.foundations[0][-1].id == "AC"
    # a card selected by its first tap can also be sent home from the dock
    page = tap(player, slug, "2C")
    home_button = page.find("button", "sh-home")
    assert home_button.get("value") == "move|to=f1" and "hidden" not in home_button.attrs
    assert press(player, slug, page, home_button).status_code == 200
    assert [card.id for card in player.state(slug)[0].layout.foundations[0]] == ["AC", "2C"]


@pytest.mark.parametrize("fields, message", [
    ([("from", "t1"), ("cards", "2C"), ("move", "move|to=t5")],
     "2C cannot go onto TD: a column takes the next lower card of its own suit"),
    ([("from", "t1"), ("cards", "2C"), ("move", "move|to=f1")],
     "2C cannot go onto empty foundation 1: an empty foundation takes only an ace"),
    ([("from", "t2"), ("cards", "2C"), ("move", "move|to=c1")],
     "2C is not the card in column 2 (7C is): only that card may move from there"),
    ([("move", "move|from=f1|to=c1")], "Cards never leave a foundation"),  # (a sentence at the table)
])
def test_s3_5_a_refused_move_shows_the_rule_and_changes_nothing(app, player, fields, message):
    slug = set_up(player, deck=SHORT_WIN)
    page = table(player, slug)
    before = database_dump(app)
    response = post_fields(player, f"/games/{slug}/act", [*form_fields(page, "sh-plain")[:3], *fields], htmx=True)
    assert response.status_code == 422
    answer = Page(response.get_data(as_text=True))
    assert answer.alerts == [message]
    assert database_dump(app) == before


def test_a_refused_move_keeps_its_card_selected(player):
    slug = set_up(player, deck=SHORT_WIN)
    page = tap(player, slug, "2C")
    fields = [field for field in form_fields(page, "act-form")] + [("move", "move|to=t5")]
    answer = Page(post_fields(player, f"/games/{slug}/act", fields, htmx=True).get_data(as_text=True))
    assert answer.alerts and answer.find("button", "sh-src", data_card="2C").get("aria-pressed") == "true"


def test_a_form_of_an_older_table_is_refused_as_stale(player):
    slug = set_up(player, deck=SHORT_WIN)
    old = tap(player, slug, "2C")
    move(player, slug, "2C", "c1")
    answer = press(player, slug, old, old.find("button", "sh-to", data_to="c2"))
    assert answer.status_code == 409 and player.state(slug)[1] == 2


# -- undo, give up -------------------------------------------------------------------------------------


def test_s6_1_undo_takes_moves_back_as_often_as_there_are(player):
    slug = set_up(player, deck=SHORT_WIN)
    page = table(player, slug)
    assert plain_button(page, "undo") is None and "disabled" in page.find("button", "sh-undo").attrs
    move(player, slug, "2C", "c1")
    move(player, slug, "AC", "f1")
    for expected in (1, 0):
        page = table(player, slug)
        assert press(player, slug, page, plain_button(page, "undo")).status_code == 200
        state, _version = player.state(slug)
        assert state.moves_made() == expected
    assert state.layout == Layout.deal(state.dealt) and state.undos == 2
    page = table(player, slug)
    assert page.log[-1] == "Undid the move of the 2\u2663 from column 1 to cell 1." and plain_button(page, "undo") is None


def test_s6_2_giving_up_ends_the_game_counted_as_played_not_won(player):
    slug = set_up(player, deck=SHORT_WIN)
    move(player, slug, "2C", "c1")
    move(player, slug, "AC", "f1")
    page = table(player, slug)
    assert press(player, slug, page, plain_button(page, "give_up")).status_code == 200
    page = table(player, slug)
    assert page.game_over and "Ann gave up with 1 card home after 2 moves." in page.html
    assert page.log[-1] == "Ann gave up after 2 moves, with 1 of the 52 cards home."
    assert not page.find_all("button", "sh-src") and not page.find_all("button", "sh-to")
    # games, won, win rate, current and best streak, best time, fewest moves
    assert player.statistics("seahaven") == {"Ann": ["1", "0", "0%", "0", "0", "", ""]}


# -- the solver at the table (S5.2) ----------------------------------------------------------------------------


def test_s5_2_the_hint_is_a_get_that_shows_the_next_move_and_changes_nothing(app, player, runner):
    slug = set_up(player, deal=1234)
    state, _version = player.state(slug)
    hint = state.hint()
    runner.settle()
    before = database_dump(app)
    page = table(player, slug, hint=1)
    assert database_dump(app) == before  # neither the game, its log, nor a statistic
    card = state.layout.card_at(hint.source)
    assert page.find("p", "sh-hint").text.startswith(f"Hint: move the {card_short(card)} from ")
    # the hint's card is selected and its destination marked, ready for the second tap
    assert page.find("button", "sh-src", data_card=card.id).get("aria-pressed") == "true"
    hinted = page.find("button", "sh-hinted")
    assert hinted.get("data-to") == hint.target and "autofocus" in hinted.attrs
    assert press(player, slug, page, hinted).status_code == 200
    after, version = player.state(slug)
    assert version == 2 and after.history[-1][:2] == (hint.source, hint.target)


def test_s5_2_the_hint_of_a_lost_position_says_so(player, runner):
    slug = set_up(player, deal=LOSING_DEAL)
    move(player, slug, LOSING_CARD, LOSING_TO)
    runner.settle()
    page = table(player, slug, hint=1)
    assert "No hint: this position cannot be won" in page.find("p", "sh-hint").text


def test_s5_2_the_winnable_mark_follows_every_move(player, runner):
    slug = set_up(player, deal=LOSING_DEAL)
    state, _version = player.state(slug)
    assert state.winnable() and state.layout.card_at(LOSING_FROM).id == LOSING_CARD
    runner.settle()
    assert table(player, slug).find("span", "sh-mark").text == "\u2713 still winnable"
    move(player, slug, LOSING_CARD, LOSING_TO)
    state, _version = player.state(slug)
    assert not state.winnable() and not state.is_stuck()
    runner.settle()
    answer = table(player, slug)
    assert answer.find("span", "sh-mark").text == "\u2717 cannot be won from here"
    assert "sh-lost" in answer.find("span", "sh-mark").classes
    page = table(player, slug)
    press(player, slug, page, plain_button(page, "undo"))
    # the position before the move was answered already: kept, shown at once
    assert table(player, slug).find("span", "sh-mark").text == "\u2713 still winnable"


def test_the_mark_says_whether_the_solver_s_answer_changes_anything_else_on_the_table(player, runner):
    """The page waiting for the solver fetches the whole table; static/js/games/seahaven.js swaps in
    the mark alone where the answer's mark says it changes nothing else (data-mark-only), so a
    card under the finger stays. A lost position's answer changes more: Undo is stressed and a
    solution offered (S5.2); so does an answer to a hint asked."""
    def analysis(page):
        return page.find("span", "sh-analysis")

    slug = set_up(player, deal=LOSING_DEAL)
    runner.settle()
    winnable = table(player, slug)
    assert winnable.find("span", "sh-mark").text == "\u2713 still winnable"
    assert "data-mark-only" in analysis(winnable).attrs and winnable.find("span", "sh-awaiting") is None
    assert winnable.find("a", "sh-solution") is None
    assert "data-mark-only" not in analysis(table(player, slug, hint=1)).attrs
    move(player, slug, LOSING_CARD, LOSING_TO)
    runner.settle()
    lost = table(player, slug)
    assert lost.find("span", "sh-mark").text == "\u2717 cannot be won from here"
    assert "data-mark-only" not in analysis(lost).attrs
    assert "primary" in plain_button(lost, "undo").classes and lost.find("a", "sh-solution") is not None


def test_s3_6_no_legal_moves_is_said_on_the_board_and_undo_is_still_offered(player):
    slug = set_up(player, deck=STUCK)
    for card, cell in (("8C", "c1"), ("JC", "c2"), ("5D", "c3"), ("TH", "c4")):
        assert move(player, slug, card, cell).status_code == 200
    page = table(player, slug)
    assert "No legal moves." in page.find("p", "sh-stuck").text
    assert "no legal moves: undo a move or give up" in page.find("div", "status-bar").text
    assert page.find("span", "sh-mark").text == "\u2717 cannot be won from here"
    assert not page.find_all("button", "sh-src")
    assert plain_button(page, "undo") is not None and plain_button(page, "give_up") is not None


# -- the timer, the counter -------------------------------------------------------------------------------


def test_s6_1_the_timer_starts_with_the_first_move_and_stops_at_the_end(player):
    slug = set_up(player, deck=SHORT_WIN)
    clock = table(player, slug).find("span", "sh-clock")
    assert clock.get("data-running") == "no" and clock.text == "0:00" and clock.get("role") == "timer"
    move(player, slug, "2C", "c1")
    clock = table(player, slug).find("span", "sh-clock")
    # without a script the page shows the minutes so far; the script ticks from data-seconds
    assert clock.get("data-running") == "yes" and clock.text == "0 min" and int(clock.get("data-seconds")) < 60
    page = table(player, slug)
    press(player, slug, page, plain_button(page, "give_up"))
    clock = table(player, slug).find("span", "sh-clock")
    assert clock.get("data-running") == "no" and re.fullmatch(r"\d+:\d\d", clock.text)


# -- spectators, restarts ------------------------------------------------------------------------------------


def test_a_spectator_sees_the_whole_board_but_no_controls(player, make_player):
    slug = set_up(player, deal=1234)
    state, _version = player.state(slug)
    hint = state.hint()
    move(player, slug, state.layout.card_at(hint.source).id, hint.target)
    link = table(player, slug).find("a", href=f"/games/{slug}/watch")
    assert link is not None and link.text == "spectator link"
    spectator = make_player()
    page = Page(spectator.client.get(f"/games/{slug}/watch").get_data(as_text=True))
    state, _version = player.state(slug)
    assert columns_shown(page) == [[card.id for card in column] for column in state.layout.columns]
    assert not page.find_all("button", "sh-src") and not page.find_all("button", "sh-to")
    assert page.find("form", id="act-form") is None and "You are watching" in page.html
    assert page.find("span", "sh-mark") is not None and page.find("span", "sh-moves").text == "1 move"
    # someone else's browser at the table's own address is a spectator too: it cannot move
    other = make_player()
    page = table(other, slug)
    assert not page.find_all("button", "sh-src") and not page.my_turn


def test_s6_2_a_restart_loses_nothing(app, player):
    from app.factory import create_app
    from config import TestConfig

    slug = set_up(player, deck=SHORT_WIN)
    move(player, slug, "2C", "c1")
    move(player, slug, "AC", "f1")
    before = table(player, slug)
    second = create_app(TestConfig, instance_path=app.instance_path,
                        SQLALCHEMY_DATABASE_URI=app.config["SQLALCHEMY_DATABASE_URI"],
                        DECKS_FOLDER=app.config["DECKS_FOLDER"])
    moved = Player(second)
    moved.client.set_cookie("session", player.client.get_cookie("session").value)
    after = table(moved, slug)
    assert after.cards == before.cards and after.find("span", "sh-moves").text == "2 moves"
    assert "Moved the A\u2663 from column 1 to foundation 1." in after.log and after.my_turn
    assert move(moved, slug, "2C", "f1").status_code == 200
    from app.extensions import db

    with second.app_context():
        db.session.remove()
        db.engine.dispose()


# -- the end: results, statistics, the same deal again ---------------------------------------------------------


def test_s3_6_s6_2_a_won_and_a_given_up_game_make_the_statistics_per_name(player):
    slug = set_up(player, deck=SHORT_WIN)
    win_short_deal(player, slug)
    page = table(player, slug)
    state, _version = player.state(slug)
    assert state.layout.is_won() and state.moves_made() == 53
    assert page.game_over and "Ann won! All 52 cards are home in 53 moves" in page.find("section", "results").text
    [figures] = player.statistics("seahaven").values()
    assert figures[:5] == ["1", "1", "100%", "1", "1"] and re.fullmatch(r"\d+:\d\d", figures[5]) and figures[6] == "53"
    other = set_up(player, deal=1234)
    page = table(player, other)
    press(player, other, page, plain_button(page, "give_up"))
    # a game given up ends the streak; the best streak stays
    assert player.statistics("seahaven")["Ann"][:5] == ["2", "1", "50%", "0", "1"]
    assert player.statistics("seahaven")["Ann"][6] == "53"


def test_play_this_deal_again_deals_the_same_cards_with_the_same_options(player):
    slug = set_up(player, deal=0, classic=True)  # a random deal number, shown
    first, _version = player.state(slug)
    page = table(player, slug)
    press(player, slug, page, plain_button(page, "give_up"))
    page = table(player, slug)
    again = next(form for form in page.forms if any(text == "Play this deal again" for _n, _v, text in form["buttons"]))
    assert again["action"] == "/setup/seahaven" and again["inputs"]["deal"] == [str(first.deal)]
    fields = [(name, value) for name, values in again["inputs"].items() for value in values]
    response = post_fields(player, again["action"], fields)
    assert response.status_code == 303
    replay = response.headers["Location"].rsplit("/", 1)[1]
    second, version = player.state(replay)
    assert replay != slug and version == 1
    assert second.deal == first.deal and second.classic and second.dealt == first.dealt
    assert second.layout == Layout.deal(first.dealt, classic=True)
    # pressed twice (a double click), it lands on the same new game
    assert post_fields(player, again["action"], fields).headers["Location"].endswith(replay)
    # a friend can set the same deal up from the link
    link = table(player, slug).find("a", href=f"/setup/seahaven?deal={first.deal}&classic=1")
    assert link is not None


def test_new_deal_after_a_random_deal_is_the_rematch_with_a_new_shuffle(player):
    slug = set_up(player)
    first, _version = player.state(slug)
    page = table(player, slug)
    press(player, slug, page, plain_button(page, "give_up"))
    page = table(player, slug)
    assert page.posts_ending("/rematch") and page.has_button("New deal")
    response = player.post(f"/games/{slug}/rematch", {})
    assert response.status_code == 303
    second, _version = player.state(response.headers["Location"].rsplit("/", 1)[1])
    assert second.deal != first.deal


def test_play_a_stacked_deal_again_is_the_rematch_with_the_same_deck(player):
    slug = set_up(player, deck=SHORT_WIN)
    page = table(player, slug)
    press(player, slug, page, plain_button(page, "give_up"))
    page = table(player, slug)
    again = next(form for form in page.forms if any(text == "Play this deal again" for _n, _v, text in form["buttons"]))
    assert again["action"] == f"/games/{slug}/rematch"
    response = player.post(again["action"], {})
    second, _version = player.state(response.headers["Location"].rsplit("/", 1)[1])
    assert second.dealt == player.state(slug)[0].dealt and second.moves_made() == 0


def test_a_spectator_s_steps_and_the_replay_show_the_board_move_by_move(player, make_player):
    slug = set_up(player, deck=SHORT_WIN)
    move(player, slug, "2C", "c1")
    move(player, slug, "AC", "f1")
    spectator = make_player()
    steps = spectator.client.get(f"/games/{slug}/steps?after=1&upto=3").get_data(as_text=True)
    boards = re.findall(r'<template class="step" data-version="(\d)" data-text="([^"]*)">', steps)
    assert boards == [("2", "Moved the 2\u2663 from column 1 to cell 1."),
                      ("3", "Moved the A\u2663 from column 1 to foundation 1.")]
    assert "sh-src" not in steps and "sh-clock" not in steps  # a step is drawn as a spectator saw it
    page = table(player, slug)
    press(player, slug, page, plain_button(page, "give_up"))
    replay = Page(spectator.client.get(f"/games/{slug}/replay?step=1").get_data(as_text=True))
    cells = [[e.get("data-card") for e in cell.iter() if e.get("data-card")]
             for cell in replay.find_all("li", "sh-cell")]
    assert cells[0] == ["2C"] and replay.find("span", "sh-moves").text == "1 move"
