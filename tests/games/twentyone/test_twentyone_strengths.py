"""The computer players of 21 at three strengths (easy ``Hopeful``, normal ``DealerRule`` by
T3.4's rule, strong ``CardCounter``), the exact expectation the strong one plays by, and the
definition's ``round_returns`` (T3.2-T3.4)."""

from __future__ import annotations

import random

import pytest
from twentyone_brute import best
from twentyone_helpers import new_game

from app.core.autoplay import autoplay
from app.core.protocol import EASY, NORMAL, STRENGTHS, STRONG
from app.games.twentyone import DECK, DEFINITION, CardCounter, Deal, DealerRule, Hit, Hopeful, Stay
from app.games.twentyone.bot import position_of
from app.games.twentyone.expectation import expectation

VALUE = {card.code: card.points for card in DECK.cards}


def test_three_strengths_the_normal_one_is_the_rule_books():
    assert DEFINITION.strengths == STRENGTHS
    assert DEFINITION.bot_of(NORMAL) is DEFINITION.bot
    assert isinstance(DEFINITION.bot, DealerRule) and DEFINITION.bot.stand_on == 17  # T3.4's rule
    assert isinstance(DEFINITION.bot_of(EASY), Hopeful) and isinstance(DEFINITION.bot_of(STRONG), CardCounter)


def test_easy_hits_while_17_or_less():
    hits_on_17 = new_game(("Ann",), "TS", "6C", "7H", "9D")
    assert Hopeful().choose(hits_on_17, 0) == Hit()
    stays_on_18 = new_game(("Ann",), "TS", "6C", "8H", "9D")
    assert Hopeful().choose(stays_on_18, 0) == Stay()


# -- the strong player's decisions, exact -----------------------------------------------------------


def crafted(player, up, hole, deck, hidden_discards=()):
    """A game of one seat, its round being played: the seat holds ``player`` (codes), the dealer
    ``up`` and ``hole`` (face down), the deck ``deck`` (front first), the discard pile the
    ``hidden_discards`` face down and every other card face up."""
    data = DEFINITION.new_state(["Ann"], seed=0).to_dict()
    placed = [*player, up, hole, *deck, *hidden_discards]
    face_up = [card.id for card in DECK.cards if card.id not in placed]
    data.update(hands=[list(player)], dealer=[up, hole], deck=list(deck), discard=[*hidden_discards, *face_up],
                face_down=[hole, *hidden_discards], round=2, history=[["lost"]], log=[], log_before=0,
                log_seen=[], log_round_results=[], dealer_turn=[], refills=0)
    return DEFINITION.from_dict(data)


def brute_force(state):
    """(stay, hit) by brute force from the cards the crafted state holds: the unseen ones are the
    hidden card, the deck and the hidden discards, in any order alike."""
    table = state.table
    hidden = [card for card in table.discard_pile if not card.face_up]
    unseen = [VALUE[card.code] for card in [table.dealer.hand[1], *table.deck, *hidden]]
    face_up = [VALUE[card.code] for card in table.discard_pile if card.face_up]
    return best(table.players[0].hand_value, VALUE[table.dealer.hand[0].code], unseen, len(table.deck), face_up)


POSITIONS = {
    # 16 against a 10, tens and sixes unseen: any hit goes bust, and a 6 under the dealer's 10
    # makes it draw to 16 and go bust: the dealer's rule hits, staying is better.
    "16 against a ten, tens and sixes unseen": (["9S", "7C"], "TD", "6H", ["TH", "6S", "TS"], ["KC"]),
    # 16 against a 6 with small cards unseen: the dealer's rule stays, hitting is better here.
    "16 against a six, small cards unseen": (["9S", "7C"], "6D", "2C", ["3H", "AS", "4C", "2D"], []),
    # 17, where the dealer's rule stays: an ace, a 2, a 3 and a 4 unseen besides the hidden card.
    "17, four small cards unseen": (["TS", "7C"], "9D", "TC", ["AH", "2S", "3C", "4D"], []),
    # 13 against a 2, the deck empty: a hit comes from the refilled discard pile (T3.6).
    "13 against a two, the deck empty": (["8S", "5C"], "2D", "9C", [], ["TH"]),
    # 12 against a 10, one card left in the deck, so the dealer's draws come from a refill.
    "12 against a ten, one card in the deck": (["7S", "5C"], "TD", "4C", ["KH"], ["9H", "2S"]),
}


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_strong_plays_the_exact_expectation_s_argmax_worked_out_by_brute_force(name):
    state = crafted(*POSITIONS[name])
    stay, hit = brute_force(state)
    exact = expectation(position_of(state.view(0), 0))
    assert exact.stay == pytest.approx(float(stay), abs=1e-12) and exact.hit == pytest.approx(float(hit), abs=1e-12)
    assert stay != hit
    assert CardCounter().choose(state, 0) == (Hit() if hit > stay else Stay())


def test_the_chosen_positions_include_moves_the_dealer_s_rule_gets_wrong():
    wrong = [name for name, position in POSITIONS.items()
             if CardCounter().choose(crafted(*position), 0) != DealerRule().choose(crafted(*position), 0)]
    assert set(wrong) == set(POSITIONS) - {"16 against a six, small cards unseen"}


# -- what the players see and do ---------------------------------------------------------------------


def hidden_shuffled(state, seat, rng):
    """A copy of ``state`` with the cards ``seat`` may not see (the deck's, the dealer's hidden
    card, the hidden discards) dealt among their places again at random."""
    hidden = {card.id for card in state.hidden_from(seat)}
    data = state.to_dict()
    places = [(key, index) for key in ("deck", "dealer", "discard") for index, card in enumerate(data[key])
              if card in hidden]
    cards = [data[key][index] for key, index in places]
    rng.shuffle(cards)
    for (key, index), card in zip(places, cards):
        data[key][index] = card
    face_down = set(data["face_down"]) - hidden
    off_deck = [(key, index) for key, index in places if key != "deck"]
    face_down |= {data[key][index] for key, index in off_deck}
    data["face_down"] = sorted(face_down)
    again = DEFINITION.from_dict(data)
    assert again.view(seat) == state.view(seat)
    return again


def decisions(strength, games=12, seats=2, rounds=12):
    """States where a seat played by ``strength`` is to move, in games of that strength alone
    (long enough for the deck to be refilled, T3.6)."""
    bot = DEFINITION.bot_of(strength)
    for number in range(games):
        state = DEFINITION.new_state(["AI"] * seats, options={"rounds": rounds}, seed=f"strengths/{number}")
        while not state.is_over():
            seat = state.to_move()
            if seat is None:
                state.apply(None, Deal())
                continue
            yield state, seat
            state.apply(seat, bot.choose(state, seat))


@pytest.mark.parametrize("strength", [EASY, STRONG])
def test_a_player_sees_only_its_view_the_hidden_cards_dealt_again_change_nothing(strength):
    bot = DEFINITION.bot_of(strength)
    rng = random.Random(strength)
    checked = refilled = 0
    for state, seat in decisions(strength):
        assert bot.choose(hidden_shuffled(state, seat, rng), seat) == bot.choose(state, seat)
        checked += 1
        refilled += state.table.refills > 0
    assert checked > 200 and refilled > 20


@pytest.mark.parametrize("strength", [EASY, STRONG])
def test_a_player_is_deterministic_and_changes_nothing(strength):
    bot = DEFINITION.bot_of(strength)
    for state, seat in decisions(strength, games=4):
        before = state.to_dict()
        first = bot.choose(state, seat)
        assert state.to_dict() == before
        assert bot.choose(DEFINITION.from_dict(before), seat) == first


@pytest.mark.parametrize("strength", [EASY, STRONG])
def test_a_player_chooses_among_its_legal_moves_only(strength):
    bot = DEFINITION.bot_of(strength)
    for state, seat in decisions(strength, games=4):
        chosen = DEFINITION.action_to_dict(bot.choose(state, seat))
        assert chosen in [move.as_dict() for move in state.legal(seat)]
    waiting = new_game(("Ann", "Bob"), "TS", "6C", "7H", "9D", "8C", "KD")
    with pytest.raises(ValueError, match="may not"):
        bot.choose(waiting, 1)  # not its turn: no legal move to choose


@pytest.mark.parametrize("strengths", [(EASY,), (STRONG,), STRENGTHS])
def test_every_strength_plays_whole_games_to_the_end(strengths):
    bots = [DEFINITION.bot_of(strength) for strength in strengths]
    for number in range(3):
        state = DEFINITION.new_state(["AI"] * len(bots), options={"rounds": 20}, seed=f"to the end/{number}")
        autoplay(state, lambda seat: bots[seat], deal_on=True)
        assert state.is_over() and len(state.results()) == len(bots)
        assert all(len(DEFINITION.round_returns(state, seat)) == 20 for seat in range(len(bots)))


# -- the rounds' returns -----------------------------------------------------------------------------


def test_round_returns_are_plus_one_won_zero_tied_minus_one_lost():
    rounds = [["TS", "6C", "8H", "9D", "KC"],  # stays on 18, the dealer goes bust: won (T3.4)
              ["9S", "TC", "7H", "8D"],  # stays on 16, the dealer has 18: lost
              ["TH", "9C", "8S", "9H"],  # 18 and 18: tied
              ["TD", "6D", "5S", "2C", "QC"],  # hits 15 to 25: bust, lost (T3.2)
              ["7C", "5H", "7S", "KD", "7D"]]  # hits 14 to 21: won at once (T3.3)
    front = [code for cards in rounds for code in cards]
    game = new_game(("Ann",), *front, rounds=5)
    for hits in (0, 0, 0, 1, 1):
        for _ in range(hits):
            game.apply(0, Hit())
        if game.to_move() == 0:
            game.apply(0, Stay())
        if not game.is_over():
            game.apply(None, Deal())
    assert game.is_over()
    assert DEFINITION.round_returns(game, 0) == [1, -1, 0, -1, 1]


def test_round_returns_of_several_seats_each_against_the_dealer():
    state = DEFINITION.new_state(["AI", "AI"], options={"rounds": 30}, seed="returns")
    autoplay(state, lambda seat: DEFINITION.bot, deal_on=True)
    for seat in (0, 1):
        returns = DEFINITION.round_returns(state, seat)
        tally = state.tally(seat)
        assert (returns.count(1), returns.count(-1), returns.count(0)) == (tally["won"], tally["lost"], tally["tied"])
    assert DEFINITION.round_returns(state, 0) != DEFINITION.round_returns(state, 1)
