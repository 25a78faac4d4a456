"""Seahaven Towers at the web table, beyond the two taps (S5.2, S6), through the forms
as a browser without JavaScript posts them: the solver's answers kept off the request path (no
request ever runs the solver; spectators never ask), cards sent home by themselves (this
browser's preference), Finish, "show a solution" stepped like a replay, the statistics a
solitaire player expects (the scores page, a name's page, a deal's page) and the JSON export.

The job runner works in a thread of the test's process (the ``job_runner`` fixture), as its own
process does under `make run`; tests/reliability/test_solver_off_request.py runs the real one."""

from __future__ import annotations

import json
import re

import flask
import pytest
import sqlalchemy as sa
from support.seahaven_forms import SHORT_WIN, form_fields, move, plain_button, post_fields, press, set_up, table

from app.games.seahaven import DEFINITION
from app.games.seahaven.analysis import ANALYST
from app.games.seahaven.solver import Solver
from support.web import Page


@pytest.fixture(autouse=True)
def no_solver_on_requests(monkeypatch):
    """Every solver call made while a request is being answered fails the test: the job runner's
    thread (no request context) may solve, a page may not."""
    for name in ("winnable", "hint", "line"):
        original = getattr(Solver, name)

        def guarded(self, *args, _original=original, _name=name, **kwargs):
            if flask.has_request_context():
                raise AssertionError(f"Solver.{_name} ran while answering {flask.request.path}")
            return _original(self, *args, **kwargs)

        monkeypatch.setattr(Solver, name, guarded)


def analyses(app) -> list:
    from app.extensions import db

    with app.app_context():
        try:
            return db.session.execute(sa.text("SELECT key, kind, status FROM analyses ORDER BY id")).all()
        finally:
            db.session.remove()


def mark(page: Page) -> str:
    found = page.find("span", "sh-mark")
    return found.text if found is not None else ""


def set_preference(player, slug: str, on: bool):
    return post_fields(player, f"/games/{slug}/preferences", [("auto_home", "0")] + ([("auto_home", "1")] if on else []))


# -- the solver's answers, kept and shown -----------------------------------------------------------------


def test_the_page_shows_checking_until_the_runner_answers_and_spectators_never_ask(app, player, make_player,
                                                                                    job_runner):
    job_runner.stop()  # nothing is worked out while it is stopped
    slug = set_up(player, deal=1234)
    page = table(player, slug)
    assert mark(page) == "checking\u2026"
    # the page listens for the answer: the live update's "analysed", or a look every 5 s
    listening = page.find("span", "sh-awaiting")
    assert listening.get("hx-trigger") == "sse:analysed, every 5s" and listening.get("hx-get") == f"/games/{slug}/table"
    # the whole table, which the page's script narrows to the mark (a mark that changes alone):
    # the mark's own element holds it, so that swapping the mark ends the waiting too
    assert listening.get("hx-target") == "#table"
    assert page.find("span", "sh-analysis").find_all("span", "sh-awaiting")
    assert "data-mark-only" in page.find("span", "sh-analysis").attrs
    assert "data-mark-only" not in table(player, slug, hint=1).find("span", "sh-analysis").attrs
    assert "the solver is still checking" in table(player, slug, hint=1).find("p", "sh-hint").text
    assert [row.status for row in analyses(app)] == ["waiting"]
    # a move asks its position in the move's own transaction
    state, _version = player.state(slug)
    source, target = state.layout.legal_moves()[0]
    response = post_fields(player, f"/games/{slug}/act", [*form_fields(page, "sh-plain"),
                                                         ("move", f"move|from={source}|to={target}")], htmx=True)
    assert response.status_code == 200 and mark(Page(response.get_data(as_text=True))) == "checking\u2026"
    moved, _version = player.state(slug)
    assert [row.key for row in analyses(app)][-1] == ANALYST.question(moved).key
    before = len(analyses(app))
    spectator = make_player()
    for url in (f"/games/{slug}/watch", f"/games/{slug}/table?watch=1", f"/games/{slug}"):
        assert spectator.client.get(url).status_code == 200
    assert len(analyses(app)) == before  # a spectator's pages read what is kept, and ask nothing


def test_an_answer_is_worked_out_once_and_kept_for_every_game_of_the_position(app, player, job_runner):
    first = set_up(player, deal=777)
    job_runner.settle()
    assert mark(table(player, first)) == "\u2713 still winnable"
    kept = len(analyses(app))
    second = set_up(player, deal=777, name="Bob")
    assert mark(table(player, second)) == "\u2713 still winnable"  # kept: shown at once
    assert len(analyses(app)) == kept


@pytest.mark.slow  # (over 5 s: make test-fast leaves it out)
def test_no_request_runs_the_solver_through_a_whole_deal_its_hint_its_solution_and_its_export(app, player,
                                                                                              job_runner):
    slug = set_up(player, deal=1234, winnable_only=True)  # the set-up waits for the runner's verdicts
    for _ in range(200):
        job_runner.settle()
        page = table(player, slug, hint=1)
        if page.game_over:
            break
        hinted = page.find("button", "sh-hinted")
        assert hinted is not None, page.find("p", "sh-hint").text
        assert press(player, slug, page, hinted).status_code == 200
    state, _version = player.state(slug)
    assert state.layout.is_won()
    assert player.client.get(f"/games/{slug}/solution?step=3").status_code == 200
    assert player.client.get(f"/games/{slug}/export.json").status_code == 200


def test_deal_only_winnable_games_says_so_when_the_verdicts_are_not_ready(app, player, job_runner):
    job_runner.stop()
    app.config["SOLVER_SETUP_WAIT_SECONDS"] = 0.2
    response = post_fields(player, "/setup/seahaven", [
        ("seats", "1"), ("name0", "Ann"), ("device0", "here"), ("deal", "55"), ("classic", "0"),
        ("winnable_only", "0"), ("winnable_only", "1"), ("deck", ""), ("setup_token", "t1")])
    assert response.status_code == 409
    page = Page(response.get_data(as_text=True))
    assert page.alerts == ["The solver is still checking which deal can be won (a few take some seconds): press "
                           "the button again in a moment. Your choices are kept."]
    assert page.find("input", name="deal").get("value") == "55"  # the form as it was
    asked = {row.key for row in analyses(app)}
    assert ANALYST.start_question(DEFINITION.new_state(["Ann"], options={"deal": 55})).key in asked


# -- cards home by themselves, finish ------------------------------------------------------------------------


def test_cards_go_home_by_themselves_when_this_browser_asks_and_one_undo_takes_them_back(player, make_player):
    slug = set_up(player, deck=SHORT_WIN)
    page = table(player, slug)
    box = page.find("input", type="checkbox", name="auto_home")
    assert box is not None and "checked" not in box.attrs and "off" in page.find("span", "sh-options-state").text
    assert "auto" not in dict(form_fields(page, "act-form"))
    # without JavaScript the form is posted (its Save button) and answered with the table again
    response = set_preference(player, slug, True)
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/games/{slug}")
    page = table(player, slug)
    assert "checked" in page.find("input", type="checkbox", name="auto_home").attrs
    assert dict(form_fields(page, "act-form"))["auto"] == "1" and dict(form_fields(page, "sh-plain"))["auto"] == "1"
    answer = Page(move(player, slug, "2C", "c1").get_data(as_text=True))
    state, version = player.state(slug)
    assert state.layout.is_won() and version == 2  # one action: the move and the 52 cards home
    assert answer.find("div", "sh-board").get("data-auto-moves").split()[:2] == ["t1>f1:AC", "c1>f1:2C"]
    # the setting is this browser's: another browser's forms do not carry it
    other = set_up(player, deck=SHORT_WIN, name="Bob")
    assert dict(form_fields(table(player, other), "act-form"))["auto"] == "1"
    stranger = make_player()
    assert "auto_home" not in (stranger.client.get("/").get_data(as_text=True))
    # undo, with the setting on in a game that is not over
    slug = set_up(player, deal=9)
    state, _version = player.state(slug)
    for source, target in state.layout.legal_moves():
        trial = state.layout.copy()
        trial.move(source, target)
        if trial.moves_home():
            break
    page = table(player, slug)
    assert post_fields(player, f"/games/{slug}/act", [*form_fields(page, "sh-plain"),
                                                      ("move", f"move|from={source}|to={target}")]).status_code == 303
    moved, _version = player.state(slug)
    assert moved.moves_made() == 1 and moved.auto_moved() >= 1  # the player's move; the cards home apart
    page = table(player, slug)
    auto = moved.auto_moved()
    assert page.find("span", "sh-moves").text == ("1 move + 1 home by itself" if auto == 1 else
                                                  f"1 move + {auto} home by themselves")
    assert press(player, slug, page, plain_button(page, "undo")).status_code == 200
    back, _version = player.state(slug)
    assert back.moves_made() == 0 and back.auto_moved() == 0 and back.layout == state.layout
    set_preference(player, slug, False)
    assert "auto" not in dict(form_fields(table(player, slug), "act-form"))


def test_finish_sends_every_card_home_when_each_can_get_there(player):
    slug = set_up(player, deck=SHORT_WIN)
    assert table(player, slug).find("button", "sh-finish") is None
    move(player, slug, "2C", "c1")
    page = table(player, slug)
    finish = page.find("button", "sh-finish")
    assert finish is not None and finish.get("form") == "sh-plain" and finish.get("value") == "finish"
    response = press(player, slug, page, finish, htmx=False)  # a plain form: 303, then the table
    assert response.status_code == 303
    page = table(player, slug)
    assert page.game_over and "Finished: the last 52 cards went home" in page.html


# -- show a solution ---------------------------------------------------------------------------------------


def test_show_a_solution_after_giving_up_steps_like_a_replay(player, make_player, job_runner):
    slug = set_up(player, deal=1234)
    page = table(player, slug)
    assert page.find("a", "sh-solution") is None  # not while the deal can be won: the hint is there for that
    assert player.client.get(f"/games/{slug}/solution").status_code == 403
    press(player, slug, page, plain_button(page, "give_up"))
    job_runner.settle()
    page = table(player, slug)
    link = next(a for a in page.find_all("a") if a.text == "Show a solution")
    first = Page(player.client.get(link.get("href")).get_data(as_text=True))
    total = int(re.search(r"move 0 of (\d+)", first.find("nav", "replay-bar").text).group(1))
    assert total > 40 and "The deal." in first.html
    # every step is the board after that many of the solver's moves, as a spectator sees it (anyone)
    spectator = make_player()
    last = Page(spectator.client.get(f"/games/{slug}/solution?step={total}").get_data(as_text=True))
    assert f"move {total} of {total}" in last.find("nav", "replay-bar").text
    assert len([c for f in last.find_all("li", "sh-foundation") for c in f.iter() if c.get("data-card")]) == 4
    assert "sh-src" not in last.html  # nothing to press on a solution's board
    middle = Page(spectator.client.get(f"/games/{slug}/solution?step=5").get_data(as_text=True))
    assert middle.find("span", "sh-moves").text == "5 moves"
    assert "99999" not in spectator.client.get(f"/games/{slug}/solution?step=99999").get_data(as_text=True)


def test_s6_1_the_player_s_moves_are_counted_and_the_cards_home_by_themselves_apart(player):
    """S6.1: the move counter counts what the player did; what the table did (cards that went home
    by themselves) is said apart, on the board, in the result and in the log, plurals right."""
    slug = set_up(player, deck=SHORT_WIN)
    set_preference(player, slug, True)
    page = Page(move(player, slug, "2C", "c1").get_data(as_text=True))  # then the 52 cards go home
    state, _version = player.state(slug)
    assert state.layout.is_won() and state.moves_made() == 1 and state.auto_moved() == 52
    assert page.find("span", "sh-moves").text == "1 move + 52 home by themselves"
    result = page.find_all("section", "results")[0].find_all("p", "winners")[0].text
    assert re.fullmatch(r"Ann won! All 52 cards are home in 1 move, in \d+:\d\d\. 52 cards went home by themselves\.",
                        result)
    assert page.log[-1] == "All 52 cards are home in 1 move."
    assert "The A\u2663 went home by itself, from column 1 to foundation 1." in player.page(f"/games/{slug}/log").log
    # the statistics count the player's moves too
    assert player.statistics("seahaven")["Ann"][6] == "1"


def test_s5_2_the_solver_s_line_says_it_is_the_solver_s(player, job_runner):
    """A solution shown after a win is the solver's line, not the player's game: its end says so
    (and counts the solver's moves), never "Ann won"."""
    slug = set_up(player, deck=SHORT_WIN)
    move(player, slug, "2C", "c1")
    page = table(player, slug)
    press(player, slug, page, page.find("button", "sh-finish"))
    job_runner.settle()
    first = Page(player.client.get(f"/games/{slug}/solution").get_data(as_text=True))
    total = int(re.search(r"move 0 of (\d+)", first.find("nav", "replay-bar").text).group(1))
    last = Page(player.client.get(f"/games/{slug}/solution?step={total}").get_data(as_text=True))
    winners = last.find_all("section", "results")[0].find_all("p", "winners")[0].text
    assert winners == f"The solver's line: all 52 cards are home in {total} moves."
    assert "Ann won" not in last.html
    assert last.find("nav", "replay-bar").text.count(f"All 52 cards are home in {total} moves.") == 1


def test_a_solution_not_worked_out_yet_says_checking_and_the_page_looks_again(player, job_runner):
    job_runner.stop()
    slug = set_up(player, deal=2468)
    page = table(player, slug)
    press(player, slug, page, plain_button(page, "give_up"))
    answer = player.client.get(f"/games/{slug}/solution")
    assert answer.status_code == 200
    page = Page(answer.get_data(as_text=True))
    assert "Checking" in page.html and page.find("meta", http_equiv="refresh").get("content") == "3"


# -- the statistics ------------------------------------------------------------------------------------------


def test_the_statistics_a_solitaire_player_expects(player):
    won = set_up(player, deck=SHORT_WIN)
    move(player, won, "2C", "c1")
    page = table(player, won)
    press(player, won, page, page.find("button", "sh-finish"))
    for deal in (31, 31):
        slug = set_up(player, deal=deal)
        page = table(player, slug)
        press(player, slug, page, plain_button(page, "give_up"))
    [figures] = player.statistics("seahaven").values()
    # games, won, win rate, current streak, best streak, best time, fewest moves: the player's own
    # (2C to a cell, then Finish), not the 51 cards Finish sent home (S6.1, S6.2)
    assert figures[:5] == ["3", "1", "33%", "0", "1"] and re.fullmatch(r"\d+:\d\d", figures[5]) and figures[6] == "2"
    # Ann's page: the same figures, and each deal's best (a stacked deck is no deal number)
    page = Page(player.client.get("/scores/seahaven/names/ann").get_data(as_text=True))
    assert page.find("h1").text == "Ann at Seahaven Towers"
    assert {div.find_all("dt")[0].text: div.find_all("dd")[0].text for div in page.find("dl", "stat-list").find_all("div")
            }["Win rate"] == "33%"
    rows = [[cell.text for cell in row.find_all() if cell.tag in ("th", "td")] for row in page.find_all("tr")][1:]
    assert rows == [["Deal 31, open deal", "2", "0", "", "", "0"]]
    # the deal's page: each name's best on it, and the deal to play
    page = Page(player.client.get("/scores/seahaven/items/31-open").get_data(as_text=True))
    assert page.find("h1").text == "Seahaven Towers: Deal 31, open deal"
    assert page.find("a", "button", href="/setup/seahaven?deal=31&classic=0") is not None
    assert [cell.text for cell in page.find("tbody").find_all() if cell.tag in ("th", "td")] == ["Ann", "2", "0", "", "", "0"]
    assert player.client.get("/scores/seahaven/items/no%20such").status_code == 404
    assert player.client.get("/scores/seahaven/names/Nobody").status_code == 404
    assert player.client.get("/scores/mason/names/Ann").status_code == 404


def test_the_export_holds_the_statistics_and_the_solution(player, job_runner):
    slug = set_up(player, deal=1234)
    page = table(player, slug)
    press(player, slug, page, plain_button(page, "give_up"))
    job_runner.settle()
    data = json.loads(player.client.get(f"/games/{slug}/export.json").get_data(as_text=True))
    [stats] = data["statistics"]
    assert stats["name"] == "Ann" and stats["item"] == "1234-open"
    assert stats["figures"]["played"] == 1 and stats["figures"]["won"] == 0
    assert data["solution"][0]["action"] == "move" and len(data["solution"]) > 40
    # the solution replays to a win through the rules
    state = DEFINITION.from_dict(data["initial_state"])
    for action in data["solution"]:
        state.apply(0, DEFINITION.action_from_dict(action))
    assert state.layout.is_won()


def test_a_name_s_deals_and_a_deal_s_names_come_a_page_at_a_time(player, monkeypatch):
    monkeypatch.setattr("app.web.items.PAGE_SIZE", 1)  # (two rows make two pages)
    for deal, name in ((31, "Ann"), (32, "Ann"), (31, "Bea")):
        slug = set_up(player, deal=deal, name=name)
        page = table(player, slug)
        press(player, slug, page, plain_button(page, "give_up"))

    def pages(url: str) -> list[tuple[str, list[str]]]:
        """Each page from ``url`` on, following its "Next" link: where it says it is, and its rows' first cells."""
        seen = []
        while url:
            page = Page(player.client.get(url).get_data(as_text=True))
            pager = page.find("nav", "pager")
            [where] = pager.find_all("span")
            seen.append((where.text, [row.find_all("th")[0].text for row in page.find("tbody").find_all("tr")]))
            assert bool(pager.find_all("a", rel="prev")) == (len(seen) > 1)
            url = next((later.get("href") for later in pager.find_all("a", rel="next")), "")
        return seen

    assert pages("/scores/seahaven/names/Ann") == [("Page 1 of 2 (2 in all)", ["Deal 32, open deal"]),
                                                   ("Page 2 of 2 (2 in all)", ["Deal 31, open deal"])]
    assert pages("/scores/seahaven/items/31-open") == [("Page 1 of 2 (2 names)", ["Ann"]),
                                                       ("Page 2 of 2 (2 names)", ["Bea"])]
