"""Through the test client: the whole game's log, paced steps, finished games, replays
(state at any step from the action log), export and import, abandoning a game, the join code
message, the AI stand-in's lines, compressed answers."""

from __future__ import annotations

import json
import re

import pytest
import sqlalchemy as sa

from support.databases import sql_statements
from support.games import admin_login, import_file, play_game, play_turn_like_ai, score_rows, upload
from support.pages import squeeze, without_tokens
from support.web import Page

from app import store, tables
from app.tables import pages as table_pages
from app.tables import replays
from app.core import registry
from app.core.protocol import copy_log
from app.extensions import db
from app.store.models import ABANDONED, HERE, ActionRecord, SeatRecord
from app.tables.views import LOG_LINES
from app.web.words import event_words


@pytest.fixture
def finished(player):
    """A whole Mason Rummy game against the computer, finished through the forms."""
    slug = player.start_game(["Doris", "AI"], deck="ai_showcase.deck")
    play_game(player, slug)
    game, _version = player.state(slug)
    assert game.is_over()
    return slug


def record_of(app, slug):
    with app.app_context():
        record = store.find_game(slug)
        db.session.expunge(record)
        return record


def test_the_replay_rebuilds_every_state_from_the_action_log_and_ends_at_the_stored_game(app, player, finished):
    with app.app_context():
        record = store.find_game(finished)
        stored = store.load_state(record)
        last = None
        for _step, state in replays.replay(record):
            last = state.to_dict()
        assert last == stored.to_dict()
        state, made, total = replays.state_at(record, 0)
        assert made is None and state.to_dict() == json.loads(record.initial_state)
        assert total == db.session.scalar(sa.select(sa.func.count()).select_from(ActionRecord)
                                          .where(ActionRecord.game_id == record.id))


def test_the_replay_page_steps_forwards_and_backwards_showing_what_a_spectator_saw(app, player, finished):
    with app.app_context():
        record = store.find_game(finished)
        total = len(replays.action_rows(record))
    first = player.get(f"/games/{finished}/replay?step=0").get_data(as_text=True)
    assert f"step 0 of {total}" in first and "The deal." in first
    assert Page(first).hand == [] and "act-form" not in first  # nothing to play, no hand
    seen_hands = 0
    for step in (1, 2, 3, total // 2, total):
        html = player.get(f"/games/{finished}/replay?step={step}").get_data(as_text=True)
        assert f"step {step} of {total}" in html
        assert f'href="/games/{finished}/replay?step={step - 1}"' in html  # back
        with app.app_context():
            state, _made, _total = replays.state_at(store.find_game(finished), step)
            hidden = {card.code for card in state.hidden_from(None)}
        # The board is a spectator's; every hand is shown beside it (the game is over).
        board = html[html.index('id="table"'):]
        shown = set(re.findall(r'data-card="(\w+)"', board))
        assert not shown & hidden, f"step {step} shows {shown & hidden}"
        seen_hands += "hand-owner" in board
    assert "Game over" in html and seen_hands >= 1  # the last step: the results, every hand left


def test_an_unfinished_game_has_no_replay_or_export(player):
    slug = player.start_game(["Doris", "AI"], deck="ai_showcase.deck")
    assert player.get(f"/games/{slug}/replay").status_code == 404
    assert player.get(f"/games/{slug}/export.json").status_code == 404


def test_finished_games_are_listed_recent_first_with_players_scores_and_date(app, player, finished):
    second = player.start_game(["Ann", "AI"], deck="quick_out.deck")
    play_game(player, second)
    html = player.get("/finished").get_data(as_text=True)
    assert html.index(f"/games/{second}/replay") < html.index(f"/games/{finished}/replay")
    game, _version = player.state(finished)
    for result in game.results():  # what each number means, in words
        unit = "point" if abs(result.score) == 1 else "points"
        assert f"{game.label(result.seat)} {'won' if result.won else 'lost'}, {result.score} {unit}" in html
    # A time in UTC, said so, which the browser's script turns into its own local time.
    assert re.search(r'<time class="local-time" datetime="\d{4}-\d\d-\d\dT[^"]*Z">[^<]* UTC</time>', html)


def test_export_then_import_replays_through_the_rules_and_changes_no_score(app, player, finished, job_runner):
    answer = player.get(f"/games/{finished}/export.json")
    assert answer.status_code == 200 and answer.mimetype == "application/json"
    data = json.loads(answer.get_data(as_text=True))
    assert data["game"] == "mason" and data["actions"] and data["results"]
    assert data["initial_state"]["stock"]  # the deck order, now that the game is over
    scores_before = score_rows(app)
    admin_login(player)
    done = import_file(player, job_runner, json.dumps(data))
    assert done.status == 303 and done.slug is not None, done.alerts or done.body[:500]
    slug = done.slug
    assert slug != finished
    assert score_rows(app) == scores_before  # counted once, where it was played
    imported, _version = player.state(slug)
    original, _version = player.state(finished)
    assert imported.to_dict() == original.to_dict()
    assert "imported" in player.get("/finished").get_data(as_text=True)
    assert player.get(f"/games/{slug}/replay?step=5").status_code == 200


def test_an_import_whose_actions_the_rules_refuse_is_refused_and_stores_nothing(app, player, finished, job_runner):
    data = json.loads(player.get(f"/games/{finished}/export.json").get_data(as_text=True))
    admin_login(player)
    with app.app_context():
        games_before = db.session.scalar(sa.text("select count(*) from games"))
    tampered = json.loads(json.dumps(data))
    tampered["actions"][0], tampered["actions"][1] = tampered["actions"][1], tampered["actions"][0]
    # the job runner replays the file: its verdict, on the import's page
    done = import_file(player, job_runner, json.dumps(tampered))
    assert done.slug is None and "The rules refuse action 1" in done.alerts[0], done.alerts
    short = dict(data, actions=data["actions"][:-3])
    done = import_file(player, job_runner, json.dumps(short))
    assert done.slug is None and "do not finish the game" in done.alerts[0]
    lying = dict(data, results=[dict(r, won=not r["won"]) for r in data["results"]])
    done = import_file(player, job_runner, json.dumps(lying))
    assert done.slug is None and "results" in done.alerts[0]
    # what is wrong without a replay is said at once
    for garbage in ("not json", "[]", json.dumps(dict(data, game="chess"))):
        assert upload(player, "/finished/import", "game", "game.json", garbage).status_code == 422
    with app.app_context():
        assert db.session.scalar(sa.text("select count(*) from games")) == games_before


def test_an_import_whose_parts_have_the_wrong_shape_is_refused_with_a_message(app, player, finished, job_runner):
    """A file edited by hand: each part of the wrong kind gets the import's message (422 at once,
    or the verdict of the job runner's replay), never a server error, and nothing is stored."""
    data = json.loads(player.get(f"/games/{finished}/export.json").get_data(as_text=True))
    admin_login(player)
    with app.app_context():
        games_before = db.session.scalar(sa.text("select count(*) from games"))
    no_seat = json.loads(json.dumps(data))
    del no_seat["actions"][0]["seat"]
    for wrong, said in ((no_seat, "Action 1 is not a seat and an action"), (dict(data, results=1), "results"),
                        (dict(data, seats=1), "seats"), (dict(data, options=True), "options"),
                        (dict(data, options="x"), "options")):
        done = import_file(player, job_runner, json.dumps(wrong))
        assert done.status in (303, 422) and done.slug is None, done.body[:300]
        assert said in done.alerts[0]
    with app.app_context():
        assert db.session.scalar(sa.text("select count(*) from games")) == games_before


def test_only_the_admin_imports(player, make_player, finished):
    other = make_player()
    assert other.get("/finished/import").status_code == 303  # to the admin login
    assert other.post("/finished/import", {}).status_code == 403


def whole_log(app, slug) -> list[dict]:
    """Every line of the game's log, made again by the rules from the deal (its replay)."""
    with app.app_context():
        record = store.find_game(slug)
        lines = copy_log(store.initial_state(record).log)
        for step, _state in replays.replay(record):
            lines += copy_log(step.events)
        return lines


def log_pages(player, slug, query: str = "") -> list[Page]:
    """The whole game's log, every page of it from the first."""
    pages = [player.page(f"/games/{slug}/log?page=1{query}")]
    while (later := pages[-1].find("a", rel="next")) is not None:
        pages.append(player.page(later.get("href").replace("&amp;", "&")))
    return pages


def page_lines(page: Page) -> tuple[int, list[str]]:
    """The number of a log page's first line, and its lines' texts."""
    lines = page.find("ol", cls="log-lines")
    return int(lines.get("start")), [item.text for item in lines.find_all("li")]


def test_the_whole_game_log_keeps_every_round_a_page_at_a_time(app, player, finished):
    lines = whole_log(app, finished)
    game, _version = player.state(finished)
    assert len(lines) == game.log_total > table_pages.LOG_PAGE  # (more than one page)
    pages = log_pages(player, finished)
    assert len(pages) == -(-len(lines) // table_pages.LOG_PAGE)
    shown = []
    for page in pages:
        start, texts = page_lines(page)
        assert start == len(shown) + 1 and 0 < len(texts) <= table_pages.LOG_PAGE
        shown += texts
    # every line in players' words (its say), its cards as cards; no line of the terminal's
    assert shown == [squeeze(event_words(line, game.deck.key, html=False)) for line in game.shown_log(0, lines, 0)]
    assert any(text.startswith("Round 1: ") for text in shown) and any(text.startswith("Round 3: ") for text in shown)
    assert not any(line["text"] in shown for line in lines if re.search(r"\b[2-9TJQKA][CDHSP]\b", line["text"]))
    # with no page asked, the latest lines; the table links to them
    assert page_lines(player.page(f"/games/{finished}/log")) == page_lines(pages[-1])
    table = player.table(finished)
    assert table.find("a", href=f"/games/{finished}/log") is not None
    assert page_lines(table)[1] == shown[-LOG_LINES:]


def test_each_line_of_the_whole_game_log_is_shown_as_the_browser_may_read_it_now(app, player, monkeypatch):
    """Classic Rummy hides what an earlier hand's line named if that card is hidden now: the
    lines read from the stored actions go through the game's own ``shown_log`` too."""
    monkeypatch.setattr(table_pages, "LOG_PAGE", 25)
    definition = registry.get("rummy")
    state = definition.new_state(["Ann", "Bob"], seed=4)
    dealt = definition.from_dict(state.to_dict())
    lines, outcomes = copy_log(state.log), []
    while state.hand_number < 2 or state.log_total - state.log_start < 12:
        seat = state.to_move()
        outcome = state.apply(seat, definition.bot.choose(state, seat) if seat is not None
                              else definition.action_from_dict(state.legal(None)[0].as_dict()))
        outcomes.append(outcome)
        lines += copy_log(outcome.events)
    with app.app_context():
        record = store.new_record(definition, dealt, options={})
        for number, name in enumerate(state.names):
            record.seats.append(SeatRecord(number=number, name=name, device=HERE))
        store.begin_write()
        store.insert_game(record, state, outcomes)
        db.session.commit()
        slug = record.slug
    assert any("??" in line["text"] for line in state.shown_log(None, lines, 0))  # a card of hand 1 hidden now
    spectator = [squeeze(event_words(line, state.deck.key, html=False)) for line in state.shown_log(None, lines, 0)]
    assert any("the ? " in text for text in spectator)  # ...and in players' words too
    assert len(lines) > table_pages.LOG_PAGE
    shown = [text for page in log_pages(player, slug, "&watch=1") for text in page_lines(page)[1]]
    assert shown == spectator


def test_paced_steps_are_the_spectator_boards_of_the_computer_actions_after_the_players_own(app, player):
    slug = player.start_game(["Doris", "AI"], deck="quick_out.deck")
    page = Page(player.get(f"/games/{slug}").get_data(as_text=True))
    player.act(slug, "draw_stock")
    before = player.table(slug).version
    game, _version = player.state(slug)
    answer = player.act(slug, "discard", [game.players[0].hand.cards[-1].code])
    html = answer.get_data(as_text=True)
    after = re.search(r'data-version="(\d+)"', html).group(1)
    steps_url = re.search(r'data-steps="([^"]+)"', html).group(1).replace("&amp;", "&")
    assert f"after={before + 1}" in steps_url and f"upto={after}" in steps_url  # not the own discard
    steps = player.get(steps_url).get_data(as_text=True)
    texts = re.findall(r'<template class="step" data-version="\d+" data-text="([^"]*)"', steps)
    assert texts[0] == "AI drew from the stock pile." and texts[-1].startswith("AI discarded")
    hand = {c.code for c in player.state(slug)[0].players[0].hand.cards}
    assert not hand & set(re.findall(r'data-card="(\w+)"', steps))  # spectator boards: no hand
    assert page.version is not None


def test_a_live_update_names_the_steps_since_the_version_the_browser_showed(player):
    slug = player.start_game(["Doris", "AI"], deck="quick_out.deck")
    version = player.table(slug).version
    player.act(slug, "draw_stock")
    player.act(slug, "discard", [player.state(slug)[0].players[0].hand.cards[0].code])
    html = player.get(f"/games/{slug}/table?since={version}", htmx=True).get_data(as_text=True)
    assert f"after={version}" in html
    assert player.get(f"/games/{slug}/table?since={player.table(slug).version}", htmx=True).status_code == 204


def test_the_host_abandons_a_game_after_confirming_and_no_score_changes(app, player, make_player):
    slug = player.start_game(["Doris", "AI"], deck="ai_showcase.deck")
    html = player.table(slug).html
    assert "Abandon this game" in html and "Yes, abandon this game" in html  # behind a <details>
    assert "<details class=\"confirm\">" in html
    scores_before = score_rows(app)
    stranger = make_player()
    refused = stranger.followed(stranger.post(f"/games/{slug}/abandon", {}), to=f"/games/{slug}")
    assert len(Page(refused.get_data(as_text=True)).alerts) == 1  # (a plain form: back to the table, told)
    response = player.post(f"/games/{slug}/abandon", {})
    assert response.status_code == 303
    with app.app_context():
        assert store.find_game(slug).status == ABANDONED
    assert slug not in player.get("/").get_data(as_text=True)  # gone from Menu A's list
    assert "The host abandoned this game" in player.table(slug).html
    version = player.state(slug)[1]
    assert player.act(slug, "draw_stock", version=version, seat=0).status_code == 409
    assert score_rows(app) == scores_before


def test_a_wrong_code_typed_on_menu_a_says_so(player):
    response = player.get("/join?code=ZZZZZZ")
    assert response.status_code == 404
    assert Page(response.get_data(as_text=True)).alerts == [tables.NO_OPEN_SEAT]


def test_own_device_seats_show_their_qr_code_and_code_on_the_host_table_at_once(player, make_player):
    slug = player.start_game(["Doris", "Hana"], devices=["here", "own"])
    html = player.table(slug).html
    with player.app.app_context():
        code = store.find_game(slug).seats[1].join_code
    assert "Waiting for Hana to join." in html and f'<code class="invite-code">{code}</code>' in html
    qr = player.get(f"/games/{slug}/seats/1/qr.svg")
    assert qr.status_code == 200 and qr.mimetype == "image/svg+xml" and b"<svg" in qr.data
    assert make_player().get(f"/games/{slug}/seats/1/qr.svg").status_code == 403
    hana = make_player()
    assert hana.post("/join", {"code": code}).status_code == 303
    assert "Waiting for Hana" not in player.table(slug).html


def test_the_log_says_ai_for_the_person_the_computer_stands_in_for(app, player, make_player):
    app.config["IDLE_SECONDS"] = 0
    slug = player.start_game(["Doris", "Finn"], devices=["here", "own"], deck="ai_showcase.deck")
    finn = make_player()
    with app.app_context():
        code = store.find_game(slug).seats[1].join_code
    finn.post("/join", {"code": code})
    play_turn_like_ai(player, slug)  # Doris's turn; now Finn's
    assert player.state(slug)[0].to_move() == 1
    assert player.post(f"/games/{slug}/seats/1/standin", {"on": "1"}).status_code == 303
    html = finn.table(slug).html
    assert "The computer is playing for you, Finn." in html and "I'm back: take my seat back" in html
    assert "<span class=\"badge\">AI for Finn</span> Finn drew" in html or "AI for Finn</span> Finn took" in html
    assert finn.post(f"/games/{slug}/seats/1/standin", {"on": "0"}).status_code == 303
    assert "The computer is playing for you" not in finn.table(slug).html


def test_pages_are_compressed_when_the_browser_accepts_it(player, finished):
    for url in ("/", f"/games/{finished}", f"/games/{finished}/replay?step=3", "/finished"):
        answer = player.get(url, headers={"Accept-Encoding": "br, gzip"})
        assert answer.headers.get("Content-Encoding") in ("br", "gzip"), url
        assert "Accept-Encoding" in answer.headers.get("Vary", "")
    assert "Content-Encoding" not in player.get("/").headers


def test_a_tables_answer_is_brotli_of_quality_2_the_cheap_end_on_a_lan(player, finished):
    """The table's answers are compressed with brotli's quality 2 (half the CPU of the library's
    default 4, for a few per cent more bytes: bench/compression.py), and read back whole."""
    import brotli

    url = f"/games/{finished}"
    plain = player.get(url).get_data()
    answer = player.get(url, headers={"Accept-Encoding": "gzip, deflate, br"})
    assert answer.headers["Content-Encoding"] == "br"
    sent = brotli.decompress(answer.get_data())
    # The CSRF token carries a timestamp: two answers a second apart differ there and only there.
    assert without_tokens(sent.decode()) == without_tokens(plain.decode())
    assert answer.get_data() == brotli.compress(sent, quality=2)
    assert len(answer.get_data()) > len(brotli.compress(sent, quality=4))


def test_a_live_refresh_says_how_many_steps_it_showed_so_they_are_not_counted_again(app, player):
    slug = player.start_game(["Doris", "AI"], deck="quick_out.deck")
    shown = player.table(slug)
    refresh = re.search(r'hx-get="([^"]*/table\?[^"]*)"', shown.html).group(1).replace("&amp;", "&")
    assert f"since={shown.version}" in refresh and "steps=0" in refresh  # (no action yet)
    player.act(slug, "draw_stock")
    player.act(slug, "discard", [player.state(slug)[0].players[0].hand.cards[0].code])

    def refreshed(url: str) -> tuple[str, list[str]]:
        with sql_statements(app) as statements:
            html = player.get(url, htmx=True).get_data(as_text=True)
        return html, [statement for statement in statements if "FROM actions" in statement]

    html, counted = refreshed(refresh)
    steps_url = re.search(r'data-steps="([^"]+)"', html).group(1).replace("&amp;", "&")
    assert f"after={shown.version}" in steps_url and counted == []
    # A number of steps the browser cannot have shown (more than there are): counted, the same answer.
    html, counted = refreshed(re.sub(r"steps=\d+", "steps=999", refresh))
    assert re.search(r'data-steps="([^"]+)"', html).group(1).replace("&amp;", "&") == steps_url and counted
    assert 'data-steps="' in refreshed(refresh.replace("steps=0", "steps=x"))[0]  # (not a number: counted)
