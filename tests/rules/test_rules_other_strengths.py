"""Mason Rummy's computer players beside R8's: the easy one (R8.1 and R8.2, a careless discard)
and the strong one (R8.2; R8.1's draw and R8.3's discard weighed against others by playing the
round out).
The generic checks (legal moves, the view alone, the same move for the same position) are in
tests/games/test_strengths.py."""

from __future__ import annotations

import random

import pytest
from rules_test_helpers import card, deal

from app.games.mason import DISCARD_PILE, STOCK, Discard, Draw
from app.games.mason.bot import COMPUTER, choose_computer_discard, computer_draw_source
from app.games.mason.definition import MASON
from app.games.mason.melds import CardSet
from app.games.mason.phases import DRAW_PHASE
from app.games.mason.cards import FULL_DECK
from app.games.mason.playout import INDEX, VALUE_MASK, Round, could_lay_down, fitting_mask, mask_of, points_of_mask
from app.games.mason.state import MasonState
from app.games.mason.easy import careless_discard
from app.core.protocol import LOG_KEPT
from app.games.mason.strong import WIN, StrongBot, read_view, stock_untouched, surely_better, worth_taking

AI_HAND = "7H 8H 2C 5C 9C 3D JS 6P KD 4P"
OTHER = "3C 6C TC 4D 9D AH 5S 8S QS 7P"


def test_r8_1_and_more_the_strong_player_takes_a_discard_that_pairs_a_card_of_its_hand():
    """R8.1 takes the stock here (5H makes no meld, no run, fits no set); the strong player takes
    5H: with 5C it is a pair, worth more than its 5 points in keeping."""
    game = deal(["AI", "Bob"], AI_HAND, OTHER.replace("5S", "QH"), discard="5H")
    assert computer_draw_source(game, 0) == STOCK
    assert StrongBot(draws=False).choose(game, 0) == Draw(DISCARD_PILE)
    assert StrongBot().choose(game, 0) == Draw(DISCARD_PILE)  # and the play-outs agree


def test_r8_1_the_strong_player_leaves_an_isolated_high_card_and_takes_what_r8_1_takes():
    game = deal(["AI", "Bob"], AI_HAND, OTHER, discard="QH")
    assert StrongBot(draws=False).choose(game, 0) == Draw(STOCK)  # no pair, no neighbour: worth its 10 points only
    assert StrongBot().choose(game, 0) == Draw(STOCK)
    game = deal(["AI", "Bob"], AI_HAND, OTHER, discard="9H")
    assert StrongBot().choose(game, 0) == Draw(DISCARD_PILE)  # 7H 8H 9H: R8.1's own take


def test_a_card_is_worth_taking_when_kept_for_more_than_its_points_and_far_from_the_discard():
    hand = [card(code) for code in AI_HAND.split()]
    assert worth_taking(hand, card("5H"))  # a pair of fives
    assert worth_taking(hand, card("3P"))  # a three like 3D, and beside 4P
    assert not worth_taking(hand, card("QH"))
    assert not worth_taking(hand, card("AS"))  # 15 points, nothing beside it


def test_r8_3_the_strong_players_discard_is_r8_3s_unless_another_is_surely_better():
    """With one card weighed (R8.3's best) it discards exactly as R8.3 does."""
    game = deal(["AI", "Bob"], AI_HAND, OTHER, discard="QH")
    game.apply(0, Draw(STOCK))
    assert StrongBot(candidates=1).choose(game, 0) == Discard(choose_computer_discard(game, 0))


def test_the_surely_better_choice_needs_a_clear_gain_deal_by_deal():
    first = [0.0, 10.0, -5.0, 3.0, 8.0, 0.0]
    assert surely_better([first, [value + 0.5 for value in first]], 1.0) == 1  # always better: sure
    assert surely_better([first, [value + 20 * (-1) ** index for index, value in enumerate(first)]], 1.0) == 0
    assert surely_better([first, list(first)], 1.0) == 0  # no gain: the rule book's choice
    assert surely_better([first, [v + 1 for v in first], [v + 2 for v in first]], 1.0) == 2  # the largest gain


def test_the_strong_player_reads_who_has_played_and_the_cards_taken_from_the_view():
    game = deal(["AI", "Bob"], AI_HAND, OTHER, discard="9H")
    knowledge = read_view(game.view(0), 0)
    assert knowledge.played == [False, False] and knowledge.pile == [card("9H")]
    game.apply(0, Draw(DISCARD_PILE))
    game.apply(0, Discard(card("KD")))
    knowledge = read_view(game.view(1), 1)
    assert knowledge.played == [True, False]
    assert knowledge.held[0] == {card("9H")} and knowledge.pile == [card("KD")]
    assert card("9H") not in knowledge.unseen() and card("7H") in knowledge.unseen()


def test_r5_2_the_strong_player_draws_from_the_stock_when_the_seats_only_pass_a_card_between_them():
    """Two strong players can each find taking the discard pile's top and shedding it again best,
    forever (the all-strong games of tests/games/test_protocol_properties.py did): once the view's
    log holds a whole log of this round without a draw from the stock, it draws from the stock,
    and a drawn stock ends in R5.2's rebuilds. Its own choice still stands when such a draw shows."""
    game = deal(["AI", "Bob"], AI_HAND, OTHER, discard="9H")
    top = "9H"
    for turn in range(LOG_KEPT):
        seat = turn % 2
        game.apply(seat, Draw(DISCARD_PILE))
        game.apply(seat, Discard(card(top)))
    view = game.view(0)
    assert len(view["log"]) == LOG_KEPT and stock_untouched(view)
    assert StrongBot().choose(game, 0) == Draw(STOCK)
    passing = [dict(line) for line in view["log"]]
    passing[3] = {**passing[3], "text": "Bob drew from the stock pile."}
    assert not stock_untouched({**view, "log": passing})
    assert not stock_untouched({**view, "log": view["log"][1:]})  # fewer lines: not yet
    assert not stock_untouched({**view, "round": 2})  # lines of an earlier round


def test_the_easy_player_sheds_its_highest_card_keeping_only_pairs():
    hand = [card(code) for code in "5C 5D 7H 8H 9H KD AS".split()]
    assert careless_discard(hand) == card("AS")
    hand = [card(code) for code in "AC AD 7H 8H KD".split()]
    assert careless_discard(hand) == card("KD")  # the aces are a pair: 15 - 12
    hand = [card(code) for code in "7H 8H 9C".split()]
    assert careless_discard(hand) == card("9C")  # half a run is worth nothing to it


def round_of(game: MasonState) -> Round:
    """The round as ``Round`` holds it, every hand known (its stock's top last, R5.2)."""
    return Round.of([player.hand.cards for player in game.players], [player.hand.laid_down for player in game.players],
                    game.discard, game.stock[::-1], turn=game.turn, rebuilds=game.stall_rebuilds)


@pytest.mark.parametrize("seats", [2, 3])
def test_r5_r6_3_r7_r8_the_play_outs_round_is_the_rule_books_round_with_r8s_player_at_every_seat(seats):
    """From every turn of seeded games, the strong player's fast round (``Round.play_out``) ends
    with the points the game itself scores (R7.1, R7.2) when R8's player plays every seat: the
    same draws (R8.1, R5.2's rebuilt stock), lay-downs (R8.2, R6.3) and discards (R8.3)."""
    compared = 0
    for number in range(3):
        game = MASON.new_state(["AI"] * seats, seed=f"play-outs/{seats}/{number}")
        while not game.is_over():
            seat = game.to_move()
            if seat is None:
                game.apply(None, MASON.action_from_dict(game.legal(None)[0].as_dict()))
                continue
            if game.phase == DRAW_PHASE:
                played = round_of(game).play_out(drawn=False)
                rounds = len(game.round_scores)
                ahead = MASON.from_dict(game.to_dict())
                while len(ahead.round_scores) == rounds:
                    ahead.apply(ahead.turn, COMPUTER.choose(ahead, ahead.turn))
                assert played == ahead.round_scores[-1]
                compared += 1
            game.apply(seat, COMPUTER.choose(game, seat))
    assert compared > 50


def test_r8_2_a_dealt_hand_that_holds_a_run_a_meld_or_a_card_for_its_sets_could_lay_down():
    def could(codes: str, sets: list[CardSet] | None = None) -> bool:
        return could_lay_down(mask_of([card(code) for code in codes.split()]), fitting_mask(sets or []))

    assert could("7H 8H 9H 2C")  # a run (R6.2)
    assert could("4C 4H 4P KD")  # a meld (R6.1)
    assert not could("JH KH AH 2C")  # J K A: no run (R6.2)
    assert not could("KH AH 2H 4C 4D")  # aces are high only (R1.1): K A 2 is no run
    assert not could("4C 4H 5P 6P")
    assert could("5P 9C", [CardSet("run", [card("6P"), card("7P"), card("8P")])])  # a run's end
    assert could("2D 9C", [CardSet("meld", [card("2C"), card("2H"), card("2S")])])  # a meld's value
    assert not could("4P 9C", [CardSet("run", [card("6P"), card("7P"), card("8P")])])



def pairs_in(hand: int) -> int:
    return sum(1 for value in range(13) if (hand & VALUE_MASK[value]).bit_count() >= 2)


def test_r8_2_r8_3_another_players_hand_is_dealt_as_r8s_player_keeps_its_own():
    """Mid-round, every deal lays each card the seat has not seen in exactly one place, the other
    hand of its size with the cards seen taken into it; shaped by R8.3's discards, that hand
    still holds nothing to lay down (R8.2) and holds fewer points and more pairs than hands dealt
    uniformly."""
    game = MASON.new_state(["AI", "AI"], seed="shaped/1")
    while game.turns_this_round < 6 or game.phase != DRAW_PHASE or game.turn != 0:
        game.apply(game.turn, COMPUTER.choose(game, game.turn))
    knowledge = read_view(game.view(0), 0)
    assert knowledge.turns == [3, 3]
    laid = [card for player in game.players for card_set in player.hand.laid_down for card in card_set.cards]
    held = mask_of(list(knowledge.held[1]))
    rng = random.Random(1)
    points = {False: 0, True: 0}
    pairs = {False: 0, True: 0}
    for _ in range(40):
        for shaped in (False, True):
            table = knowledge.deal(rng, shaped)
            cards = [FULL_DECK[index] for index in table.pile + table.stock]
            for hand in table.hands:
                cards += [card for card in FULL_DECK if hand >> INDEX[card] & 1]
            assert sorted(cards + laid, key=INDEX.__getitem__) == list(FULL_DECK)
            assert table.hands[0] == mask_of(game.players[0].hand.cards)
            assert table.hands[1].bit_count() == len(game.players[1].hand) and table.hands[1] & held == held
            assert len(table.stock) == len(game.stock) and table.pile[-1] == INDEX[game.discard[-1]]
            assert not could_lay_down(table.hands[1], fitting_mask(game.players[1].hand.laid_down))
            points[shaped] += points_of_mask(table.hands[1])
            pairs[shaped] += pairs_in(table.hands[1])
    assert points[True] < points[False] and pairs[True] > pairs[False]


def test_r7_1_r7_3_a_rounds_end_is_worth_its_points_or_the_game():
    """Before the last round a round's end is worth the others' points less the seat's own
    (R7.1), or with a spread the chance that the lead it leaves holds: even at half a game, more
    the more it leads; the last round's end is worth a game won, lost or shared (R7.3)."""
    game = deal(["AI", "Bob"], AI_HAND, OTHER, discard="QH")
    knowledge = read_view(game.view(0), 0)
    assert StrongBot().value(knowledge, [5, 25]) == 20
    chance = StrongBot(spread=20)
    assert chance.value(knowledge, [0, 0]) == WIN / 2
    assert WIN / 2 < chance.value(knowledge, [0, 10]) < chance.value(knowledge, [0, 40]) < WIN
    assert 0 < chance.value(knowledge, [40, 0]) < chance.value(knowledge, [10, 0]) < WIN / 2
    knowledge.round = knowledge.rounds
    knowledge.scores = [30, 20]
    for bot in (StrongBot(), chance):
        assert [bot.value(knowledge, points) for points in ([0, 11], [0, 10], [0, 9])] == [WIN, WIN / 2, 0.0]
