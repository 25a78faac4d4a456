"""A finished game's replay: it jumps to any round (hand, deal) or step, plays itself step after
step (a link that steps on by itself with the page's script, a plain link without it), and shows
every hand at every step (nothing is secret once the game is over); an unfinished game's steps
show only what a spectator may see. The list of finished games narrows by game and by name."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from support.databases import sql_statements
from support.pages import Page

import app.games  # noqa: F401  (registers every game)
from app import store
from app.core import registry
from app.extensions import db
from app.store.models import HERE, SeatRecord
from app.tables import replays

ROUNDED = [definition.key for definition in registry.games() if definition.round_lines]
DATA_CARD = re.compile(r'data-card="([^"]+)"')


def bot_game(app, key: str, seed: int, actions: int | None = None, names=("AI", "AI"), **options) -> str:
    """A game of ``key`` played by its computer player at every seat (the table's move deals on),
    stored as the web stores one: finished, or unfinished after ``actions`` actions."""
    definition = registry.get(key)
    names = list(names)[:definition.max_seats]
    options = definition.validate_options(options)
    state = definition.new_state(names, seed=seed, options=options)
    dealt = definition.from_dict(state.to_dict())
    outcomes = []
    while not state.is_over() and (actions is None or len(outcomes) < actions):
        seat = state.to_move()
        bot = definition.bot if seat is not None else None  # (every seat, whatever its name)
        action = (bot.choose(state, seat) if bot is not None
                  else definition.action_from_dict(state.legal(None)[0].as_dict()))
        outcomes.append(state.apply(seat, action))
    with app.app_context():
        record = store.new_record(definition, dealt, options=options)
        for number, name in enumerate(names):
            record.seats.append(SeatRecord(number=number, name=name, is_ai=True, device=HERE))
        store.begin_write()
        store.insert_game(record, state, outcomes)
        db.session.commit()
        return record.slug


def whole_replay(app, slug):
    """(step, events, state) of every step, from the deal (the test's own replay of the whole game)."""
    with app.app_context():
        record = store.find_game(slug)
        dealt = store.initial_state(record)
        found = [(0, list(dealt.log), None)]
        for step, state in replays.replay(record):
            found.append((step.number, step.events, state.to_dict()))
        return found


def form_of(element):
    while element is not None and element.tag != "form":
        element = element.parent
    return element


@pytest.mark.parametrize("key", ROUNDED)
def test_the_jump_list_names_every_round_at_the_step_its_deal_was_made(app, player, key):
    definition = registry.get(key)
    # a game of several rounds where the number is an option (Points Rummy's deals)
    several = {option.key: min(3, option.high) for option in definition.options
               if option.kind == "int" and option.key in ("deals", "rounds")}
    slug = bot_game(app, key, seed=5, **several)
    expected = [(step, definition.round_name(event)) for step, events, _state in whole_replay(app, slug)
                for event in events if definition.round_name(event)]
    assert len(expected) >= 2, "the game has several rounds to jump between"
    with app.app_context():
        found = [(start.step, start.name) for start in replays.round_starts(store.find_game(slug))]
    assert found == expected
    page = Page(player.get(f"/games/{slug}/replay?step=0").get_data(as_text=True))
    select = page.find("select", id="replay-round")
    options = [(int(option.get("value")), option.text) for option in select.find_all("option")]
    assert [step for step, _ in options] == [step for step, _ in expected]
    assert all(name in text for (_, text), (_, name) in zip(options, expected))
    assert form_of(select).get("method") == "get" and select.get("name") == "step"
    # A jump is a plain GET of the step: the round's deal is the step shown, marked in the list.
    step, name = expected[-1]
    page = Page(player.get(f"/games/{slug}/replay?step={step}").get_data(as_text=True))
    chosen = [option for option in page.find("select", id="replay-round").find_all("option") if "selected" in option.attrs]
    assert len(chosen) == 1 and int(chosen[0].get("value")) == step and name in chosen[0].text
    assert f"step {step} of" in page.find(cls="replay-where").text


def test_the_round_list_is_read_in_one_query_without_replaying_the_game(app, player):
    slug = bot_game(app, "rummy", seed=3)
    with app.app_context():
        record = store.find_game(slug)
        replays._rounds.clear()
    with sql_statements(app) as statements:
        with app.app_context():
            record = store.find_game(slug)
            first = len(statements)
            starts = replays.round_starts(record)
            once = len(statements)
            again = replays.round_starts(record)
    assert starts == again and len(starts) >= 2
    read = statements[first:once]
    assert len([statement for statement in read if "FROM actions" in statement]) == 1
    assert not [statement for statement in read if "snapshots" in statement or "actions.action" in statement]
    assert len(statements) == once, "none the second time: a finished game does not change"


def test_a_one_deal_game_has_no_rounds_but_jumps_to_any_step(app, player):
    slug = bot_game(app, "seahaven", seed=2, names=["AI"])
    page = Page(player.get(f"/games/{slug}/replay?step=0").get_data(as_text=True))
    assert page.find("select", id="replay-round") is None
    box = page.find("input", id="replay-step")
    assert box.get("name") == "step" and form_of(box).get("method") == "get"
    page = Page(player.get(f"/games/{slug}/replay?step=2").get_data(as_text=True))
    assert "step 2 of" in page.find(cls="replay-where").text


def test_play_steps_on_by_itself_and_pause_stops_it(app, player):
    slug = bot_game(app, "twentyone", seed=4, names=["AI"])
    page = Page(player.get(f"/games/{slug}/replay?step=3").get_data(as_text=True))
    play = page.find("a", cls="replay-play")
    assert play.get("href") == f"/games/{slug}/replay?step=4&play=1"
    assert page.find(cls="replay-page").get("data-autoplay") == ""  # (not playing: nothing steps on)
    page = Page(player.get(play.get("href")).get_data(as_text=True))
    assert "step 4 of" in page.find(cls="replay-where").text
    assert page.find(cls="replay-page").get("data-autoplay") == f"/games/{slug}/replay?step=5&play=1"
    assert page.find("a", cls="replay-pause").get("href") == f"/games/{slug}/replay?step=4"
    with app.app_context():
        total = store.find_game(slug).steps
    last = Page(player.get(f"/games/{slug}/replay?step={total}&play=1").get_data(as_text=True))
    assert last.find(cls="replay-page").get("data-autoplay") == ""  # the end: it stops
    assert last.find("a", cls="replay-play") is None and last.find("a", cls="replay-pause") is None


@pytest.mark.parametrize("key", [definition.key for definition in registry.games()])
def test_a_finished_games_replay_shows_every_hand_at_every_step(app, player, key):
    definition = registry.get(key)
    slug = bot_game(app, key, seed=7, names=["AI", "AI", "AI"][:max(definition.min_seats, min(3, definition.max_seats))])
    with app.app_context():
        total = store.find_game(slug).steps
    hidden_seen = set()
    for step in sorted({0, 1, total // 3, total // 2, total - 1}):
        with app.app_context():
            state, _made, _total = replays.state_at(store.find_game(slug), step)
            hidden = {card.id for card in state.hidden_from(None)}
            hands = state.every_hand()
            in_hands = {card.id for _holder, cards in hands for card in cards}
        page = Page(player.get(f"/games/{slug}/replay?step={step}").get_data(as_text=True))
        section = page.find("section", cls="replay-hands")
        if not in_hands:
            assert section is None
            continue
        shown = {}
        for line in section.find_all("li"):
            owner = next(element for element in line.iter() if "hand-owner" in element.classes)
            shown[owner.text] = [element.get("data-card") for element in line.iter() if element.get("data-card")]
        assert shown == {holder: [card.id for card in cards] for holder, cards in hands}
        hidden_seen |= hidden & in_hands
    if definition.key != "seahaven":
        assert hidden_seen, "cards a spectator could not see then are shown: the game is over"


@pytest.mark.parametrize("key", [definition.key for definition in registry.games() if definition.max_seats > 1])
def test_an_unfinished_games_steps_never_show_a_hidden_card(app, player, key):
    slug = bot_game(app, key, seed=9, actions=20)
    with app.app_context():
        record = store.find_game(slug)
        assert record.status != "finished"
        version = record.version
    # no replay yet (it would show every hand)
    answer = player.get(f"/games/{slug}/replay?step=3")
    assert answer.status_code == 404
    assert "replay-hands" not in answer.get_data(as_text=True)
    # the steps a table shows one after another are a spectator's
    html = player.get(f"/games/{slug}/steps?after={version - 15}&upto={version}").get_data(as_text=True)
    assert html.count('class="step"') == 15
    shown = set(DATA_CARD.findall(html))
    with app.app_context():
        record = store.find_game(slug)
        hidden = set()
        for step in range(record.steps - 15, record.steps + 1):
            state, _made, _total = replays.state_at(record, step)
            hidden |= {card.id for card in state.hidden_from(None)}
            public = {card.id for zone in state.zones() if zone.visible(None) for card in zone.cards}
            hidden -= public  # (a card seen face up at one step and hidden at another counts as seen)
    assert hidden, "cards are hidden at these steps"
    assert not shown & hidden
    assert "replay-hands" not in html


def listed(html: str) -> set[str]:
    return set(re.findall(r"/games/([^/]+)/replay", html))


def test_finished_games_are_found_by_game_and_by_name_with_pages_that_keep_the_search(app, player, monkeypatch):
    from app.web import history
    rummy = [bot_game(app, "rummy", seed=seed, names=["Zoe", "AI"]) for seed in (1, 2, 3)]
    twentyone = bot_game(app, "twentyone", seed=1, names=["Zoe"])
    other = bot_game(app, "rummy", seed=4, names=["Max", "AI"])
    html = player.get("/finished?game=rummy").get_data(as_text=True)
    page = Page(html)
    form = page.find("form", cls="finished-filter")
    assert form.get("method") == "get"
    options = form.find_all("option")
    assert {option.get("value") for option in options} == {""} | {definition.key for definition in registry.games()}
    assert [option.get("value") for option in options if "selected" in option.attrs] == ["rummy"]
    assert listed(html) == set(rummy) | {other}
    assert listed(player.get("/finished?name=zo").get_data(as_text=True)) == set(rummy) | {twentyone}
    assert listed(player.get("/finished?game=rummy&name=ZOE").get_data(as_text=True)) == set(rummy)
    assert listed(player.get("/finished?game=nonsense&name=max").get_data(as_text=True)) == {other}
    nothing = player.get("/finished?name=%25").get_data(as_text=True)  # (a wildcard is a character)
    assert listed(nothing) == set() and "No finished game fits" in nothing
    # pages keep the search
    monkeypatch.setattr(history, "PAGE", 2)
    first = Page(player.get("/finished?game=rummy&name=zoe").get_data(as_text=True))
    older = first.find("a", rel="next").get("href")
    assert "game=rummy" in older and "name=zoe" in older and "page=2" in older
    second = player.get(older).get_data(as_text=True)
    assert listed(second) | listed(first.html) == set(rummy) and len(listed(second)) == 1
    newer = Page(second).find("a", rel="prev").get("href")
    assert "game=rummy" in newer and "name=zoe" in newer


@pytest.mark.parametrize("key", [definition.key for definition in registry.games()])
def test_every_hand_holds_each_seats_secret_cards_and_nothing_twice(key):
    """``every_hand`` (from the zones: ``Zone.holder``): every card only a seat may see is in
    that seat's hand, no card is in two hands, and every card of a hand is somewhere."""
    definition = registry.get(key)
    names = ["AI", "AI", "AI"][:max(definition.min_seats, min(3, definition.max_seats))]
    state = definition.new_state(names, seed=12)
    for _step in range(60):
        hands = dict(state.every_hand())
        held = Counter(card for cards in hands.values() for card in cards)
        where = state.card_locations()
        assert all(count <= where[card] for card, count in held.items()), key  # (two decks: a card twice)
        for zone in state.zones():
            if isinstance(zone.visible_to, frozenset) and len(zone.visible_to) == 1:
                (seat,) = zone.visible_to
                assert set(zone.cards) <= set(hands[state.label(seat)]), (key, zone.name)
        if state.is_over():
            break
        seat = state.to_move()
        action = (definition.bot.choose(state, seat) if seat is not None
                  else definition.action_from_dict(state.legal(None)[0].as_dict()))
        state.apply(seat, action)
