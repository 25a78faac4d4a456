"""Promise 1: the server decides every action.

Hypothesis drives random browsers (the seat holders and a stranger), random seat fields
(including seats the browser does not hold and numbers that are no seat), random actions, random
versions and random cards (in the hand, not in the hand, lower case, invalid codes, duplicates,
empty) through the test client against stacked and shuffled games. An independent oracle - the
rules module applied to the stored state, with the checks of app/tables/play.py written out again -
says what must happen. Every refused action must get a 4xx with a message and leave a dump of
the whole database byte-identical; every accepted one must store exactly what the rules say, log
itself once, and keep the 65 cards each in exactly one place (R1.4).
"""

from __future__ import annotations

import json
import random
import secrets
from collections import Counter

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings, strategies as st
from support.figures import record_figures
from support.moves import random_move, sensible_move
from support.web import Page, Player, database_dump

from app import store, tables
from app.extensions import db
from app.store.models import ActionRecord
from app.games.mason import (
    DISCARD_PILE, FULL_DECK, STOCK, Card, Discard, Draw, Game,
    IllegalAction, InvalidCardError, LayDown, NextRound, NotYourTurn, action_to_dict,
)

DECKS = [None, "quick_out.deck", "run_or_meld.deck", "three_players.deck", "ai_showcase.deck", "queen_king_ace.deck"]
ACTIONS = ["draw_stock", "draw_discard", "lay_down", "discard", "next_round", "", "shuffle", "DRAW_STOCK"]
ALL_CODES = [card.code for card in FULL_DECK]
BAD_CODES = ["", "1C", "ZZ", "10H", "T", "TPX", "<b>", "AH ", " AH", "\u0000", "\u00c5H", "x" * 40]
SEAT_FIELDS = ["0", "1", "2", "3", "-1", "99", "", "x", " 1", "1.0", None]
VERSION_KINDS = ["current", "current", "current", "old", "future", "missing", "garbage"]
MAX_EXAMPLES = 30
MAX_STEPS = 18


def as_int(value: str | None) -> int | None:
    """What the app reads from a form field with ``type=int``."""
    if value is None:
        return None
    try:
        return int(value)
    except ValueError:
        return None


from app.web.input_checks import CONTROL  # noqa: E402


def parse_form(action: str, codes: list[str]):
    """The action the form means, or the status a malformed form must get (app/web/play.py)."""
    def cards():
        return tuple(Card.parse(code) for code in codes)

    if any(CONTROL.search(text) for text in [action, *codes]):
        return 400  # refused before any view: a control character (app/web/input_checks.py)
    try:
        if action == "draw_stock":
            return Draw(STOCK)
        if action == "draw_discard":
            return Draw(DISCARD_PILE)
        if action == "lay_down":
            return 422 if not codes else LayDown(cards())  # R5.5: an empty selection
        if action == "discard":
            return 422 if len(codes) != 1 else Discard(cards()[0])  # R5.6: exactly one card
        if action == "next_round":
            return NextRound()
    except InvalidCardError:
        return 400
    return 400  # R9.1: not one of the offered actions


def oracle(record, game: Game, held: set[int], seat: int | None, version: int | None, action_or_status):
    """(status, game after) for a form, from the stored state and the seats the browser holds."""
    if isinstance(action_or_status, int):
        return action_or_status, None
    action = action_or_status
    if seat is None and isinstance(action, NextRound):
        if not held:
            return 403, None  # the table's move: only the players at the table
    elif seat is None or seat not in held:
        return 403, None  # R4.4: only the seat's token gives the seat
    if version != record.version:
        return 409, None
    if record.status != "playing":
        return 409, None
    after = game.copy()
    try:
        after.apply(seat, action)
    except NotYourTurn:
        return 409, None  # out of turn: the fresh table
    except IllegalAction:
        return 422, None
    computer = tables.play_computer_turns(after, record)
    return 200, (after, [(seat, action)] + [(outcome.seat, outcome.action) for outcome in computer])


class SeededSecrets:
    """app.tables.lifecycle's ``secrets`` with a chosen shuffle seed, so that a shuffled game (R2.4) is the
    same every time Hypothesis replays an example; everything else is the real module."""

    def __init__(self, seed: int):
        self.seed = seed

    def randbits(self, _bits: int) -> int:
        return self.seed

    def __getattr__(self, name):
        return getattr(secrets, name)


@pytest.mark.slow
def test_refused_actions_change_nothing_and_accepted_ones_follow_the_rules(app, monkeypatch):
    """R4.4, R5.1-R5.7, R6.3: random seats, actions and cards; the server decides."""
    counts = Counter()
    game_number = iter(range(10_000))

    @settings(max_examples=MAX_EXAMPLES, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(data=st.data())
    def run(data):
        counts["examples"] += 1
        n = next(game_number)
        deck = data.draw(st.sampled_from(DECKS), label="deck")
        if deck is None:  # a shuffled game, from a seed Hypothesis chose
            monkeypatch.setattr(tables.lifecycle, "secrets", SeededSecrets(data.draw(st.integers(0, 2**63 - 1), label="seed")))
        third = data.draw(st.sampled_from([None, "AI", "own"]), label="third seat")
        names, devices = [f"Ann{n}", f"Bob{n}"], ["here", "own"]
        if third == "AI":
            names.append("AI")
            devices.append("here")
        elif third == "own":  # a seat nobody ever claims: nobody may act for it
            names.append(f"Cid{n}")
            devices.append("own")
        host, guest, stranger = Player(app), Player(app), Player(app)
        slug = host.start_game(names, deck=deck, devices=devices)
        with app.app_context():
            code = store.find_game(slug).seats[1].join_code
        assert guest.post("/join", {"code": code}).status_code == 303
        browsers = {"host": (host, {0}), "guest": (guest, {1}), "stranger": (stranger, set())}

        for _step in range(data.draw(st.integers(1, MAX_STEPS), label="steps")):
            with app.app_context():
                record = store.find_game(slug)
                game = store.load_state(record)
            holder = next((label for label, (_b, held) in browsers.items() if game.turn in held), "stranger")
            mode = data.draw(st.sampled_from(["sensible", "random legal", "on turn", "wild"]), label="mode")
            if mode in ("sensible", "random legal"):  # what the seat on turn would press
                browser_label = holder
                if mode == "sensible":  # the computer player's choice: accepted
                    choice = sensible_move(game)
                else:  # a legal move with random cards of the hand: the rules decide
                    choice = random_move(game, random.Random(data.draw(st.integers(0, 2**32), label="move seed")))
                action, codes = (choice.name, choice.cards) if choice else ("next_round", [])  # None: over
                seat_field, version_kind = str(game.turn), "current"
            else:  # anything: random browser, seat, version (or the seat on turn, now), action, cards
                hand = [card.code for card in game.current_player.hand.cards]
                code = st.one_of(st.sampled_from(hand) if hand else st.nothing(), st.sampled_from(ALL_CODES),
                                 st.sampled_from(ALL_CODES).map(str.lower), st.sampled_from(BAD_CODES),
                                 st.text(max_size=4))
                action = data.draw(st.sampled_from(ACTIONS), label="action")
                codes = data.draw(st.lists(code, max_size=5), label="cards")
                if mode == "on turn":
                    browser_label, seat_field, version_kind = holder, str(game.turn), "current"
                else:
                    browser_label = data.draw(st.sampled_from(sorted(browsers)), label="browser")
                    seat_field = data.draw(st.sampled_from(SEAT_FIELDS), label="seat")
                    version_kind = data.draw(st.sampled_from(VERSION_KINDS), label="version")
            version_field = {"current": str(record.version), "old": str(record.version - 1),
                             "future": str(record.version + 1), "missing": None, "garbage": "v1"}[version_kind]
            browser, held = browsers[browser_label]
            htmx = data.draw(st.booleans(), label="htmx")

            expected, applied = oracle(record, game, held, as_int(seat_field), as_int(version_field),
                                       parse_form(action, codes))
            before = database_dump(app)
            form = {"action": action, "cards": codes, "csrf_token": browser.csrf_token()}
            if seat_field is not None:
                form["seat"] = seat_field
            if version_field is not None:
                form["version"] = version_field
            response = browser.client.post(f"/games/{slug}/act", data=form,
                                           headers={"HX-Request": "true"} if htmx else {})
            status = response.status_code
            counts["posts"] += 1

            if expected != 200:
                counts["refused"] += 1
                counts[f"refused_{status}"] += 1
                if not htmx and status == 303:  # a refused plain form: back to the table, which says why
                    response = browser.client.get(response.headers["Location"])
                    assert response.status_code == 200
                else:  # htmx: the table at the refusal's status; a form the table never made: an error page
                    assert status == expected, (action, codes, seat_field, version_field,
                                                response.get_data(as_text=True)[:300])
                alerts = Page(response.get_data(as_text=True)).alerts
                assert alerts and all(alerts), "a refusal must say why"
                assert database_dump(app) == before, "a refused action changed the database"
                continue

            counts["accepted"] += 1
            assert status == (200 if htmx else 303), (action, codes, response.get_data(as_text=True)[:300])
            after_game, logged = applied
            with app.app_context():
                stored = store.find_game(slug)
                stored_game = store.load_state(stored)  # Game.from_dict: 65 cards once each
                assert stored.version == record.version + len(logged)
                rows = db.session.execute(
                    sa.select(ActionRecord.version, ActionRecord.seat, ActionRecord.action)
                    .where(ActionRecord.game_id == stored.id, ActionRecord.version > record.version)
                    .order_by(ActionRecord.version)).all()
            assert stored_game.to_dict() == after_game.to_dict(), "the stored state is not what the rules say"
            assert [(v, s, json.loads(a)) for v, s, a in rows] == [
                (record.version + i, s, action_to_dict(a)) for i, (s, a) in enumerate(logged, start=1)]
            assert Counter(stored_game.card_locations()) == Counter(FULL_DECK)

    run()
    assert counts["accepted"] > 0 and counts["refused"] > 0
    record_figures(app.config["SQLALCHEMY_DATABASE_URI"], "server_decides",
                   examples=counts["examples"], posts=counts["posts"], accepted=counts["accepted"],
                   refused=counts["refused"],
                   refused_by_status={k[8:]: v for k, v in sorted(counts.items()) if k.startswith("refused_")})
