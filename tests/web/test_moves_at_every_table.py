"""The suite's move chooser (tests/support/moves.py) for every registered game: its choices are
legal moves, the computer player's choices end games, random choices are moves the game reads,
and the table form it posts means the same action to the web table as to the game. Then a human
seat of every game other than Mason Rummy (whose web tests are elsewhere) is played through the
table's form to the game's end."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from support.games import play_game
from support.moves import random_move, sensible_move
from werkzeug.datastructures import MultiDict

import app.games  # noqa: F401  (registers every game)
from app.core import IllegalAction, registry
from app.web.play import action_data

# Points Rummy's computer player declares with explicit groups (a field the table's form cannot
# post) while ``legal()`` offers "declare" only once the seat's own arrangement is ready: its
# choice is then none of the legal moves. Strict: this fails once the game offers what it plays.
GAMES = [definition.key for definition in registry.games()]
ROOT = Path(__file__).resolve().parents[2]
PEOPLE = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"]
MOVE_CAP = 3000


def new_game(key: str, seats: int, seed: int):
    definition = registry.get(key)
    return definition.new_state(PEOPLE[:seats], options=definition.validate_options({}), seed=seed)


def read_back(definition, action: dict) -> dict:
    """An action as the game reads it, written out again: two forms of one action compare equal."""
    return definition.action_to_dict(definition.action_from_dict(action))


@pytest.mark.parametrize("key", GAMES)
def test_sensible_moves_are_legal_and_end_every_game(key):
    definition = registry.get(key)
    for seats in sorted({definition.min_seats, min(definition.min_seats + 1, definition.max_seats)}):
        state = new_game(key, seats, seed=seats)
        for _ in range(MOVE_CAP):
            choice = sensible_move(state)
            if choice is None:
                break
            assert choice.move in state.legal(choice.seat), (choice, state.legal(choice.seat))
            if state.to_move() is None:
                assert choice.seat is None and choice.move == state.legal(None)[0]  # deal on
            else:
                assert choice.seat == state.to_move()
            form = MultiDict(choice.form(version=7))
            assert form["version"] == "7" and form["seat"] == ("" if choice.seat is None else str(choice.seat))
            # what the web table reads from the posted form is the chosen action
            assert read_back(definition, action_data(form)) == read_back(definition, choice.action)
            state.apply(choice.seat, definition.action_from_dict(choice.action))
        assert state.is_over(), f"{key}, {seats} seats: not over after {MOVE_CAP} moves"
        assert sensible_move(state) is None and random_move(state, random.Random(0)) is None


@pytest.mark.parametrize("key", GAMES)
def test_random_moves_are_legal_moves_with_cards_of_the_own_hand(key):
    definition = registry.get(key)
    rng = random.Random(key)
    state = new_game(key, definition.min_seats, seed=3)
    applied = refused = 0
    for _ in range(300):
        if state.is_over():
            break
        choice = random_move(state, rng)
        assert choice.move in state.legal(choice.seat)
        if choice.move.pick is not None:
            fewest, most = choice.move.pick
            hand = state.view(choice.seat)["hand"]
            assert set(choice.cards) <= set(hand) and len(set(choice.cards)) == len(choice.cards)
            assert min(fewest, len(hand)) <= len(choice.cards) <= most
        before = state.to_dict()
        try:
            state.apply(choice.seat, definition.action_from_dict(choice.action))
            applied += 1
        except IllegalAction as refusal:  # a legal move with cards the rules refuse (a bad meld)
            assert str(refusal) and state.to_dict() == before
            refused += 1
    assert applied > 0, f"{key}: no random move was applied ({refused} refused)"


@pytest.mark.parametrize("key", [key for key in GAMES if key != "mason"])
def test_a_human_seat_plays_a_whole_game_through_the_table_form(app, player, key):
    """Every game's table: set up with a person and the computer player, then the person's moves
    (the computer player's choices) go through the table's form to the final results."""
    if not (ROOT / "templates" / "games" / key / "_board.html").exists():
        pytest.skip(f"{key} has no board on the web table yet (templates/games/{key}/_board.html)")
    definition = registry.get(key)
    names = ["Ann", "AI"][:max(definition.min_seats, 2)] if definition.max_seats > 1 else ["Ann"]
    form = {"seats": str(len(names)), **{f"name{n}": name for n, name in enumerate(names)},
            **{option.key: str(option.default) for option in definition.options}}
    response = player.post(f"/setup/{key}", form)
    assert response.status_code == 303, response.get_data(as_text=True)[:500]
    slug = response.headers["Location"].rsplit("/", 1)[1]
    play_game(player, slug)
    state, version = player.state(slug)
    assert state.is_over() and version > 1
    assert [result.seat for result in state.results()] == list(range(len(names)))
    view = player.table(slug)
    assert "Game over" in view.html and view.posts_ending("/rematch")
