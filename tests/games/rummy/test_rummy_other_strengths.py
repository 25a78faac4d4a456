"""Classic Rummy's computer players beside C6's: the easy one (C6.1 and C6.2, a careless discard)
and the strong one (C6.2; its draw, its discard and holding its melds back weighed by playing the
hand out). The generic checks (legal moves, the view alone, the same move for the same position)
are in tests/games/test_strengths.py."""

from __future__ import annotations

import random

from rummy_test_helpers import RUMMY, situation

from app.games.rummy.actions import DiscardCard, MeldCards
from app.games.rummy.bot import choose_discard, discard_scores
from app.games.rummy.cards import CARDS, NUMBER, mask_of, points
from app.games.rummy.easy import CARELESS_WEIGHTS, EasyPlayer
from app.games.rummy.knowledge import Knowledge, read_view
from app.games.rummy.state import PLAY
from app.games.rummy.strong import GAME, StrongPlayer


def number(code: str) -> int:
    return NUMBER[RUMMY.deck.parse(code)]


def mask(codes: str) -> int:
    return mask_of(number(code) for code in codes.split())


def knowledge(hand: str, held: str = "", melds: str = "", seen: str = "") -> Knowledge:
    """Seat 0's knowledge, 2 seats: its hand, the cards seat 1 is known to hold, one meld of
    seat 1's on the table, and the cards seen face up."""
    meld_mask = mask(melds) if melds else 0
    return Knowledge(seat=0, seats=2, phase=PLAY, hand=mask(hand), melds=[(1, "set", meld_mask)] if melds else [],
                     pile=[number("2D")], pile_size=1, stock_size=20, turned_over=False, taken=None,
                     hand_sizes=[len(hand.split()), 10], held=[0, mask(held) if held else 0],
                     opened=[False, bool(melds)], scores=[0, 0], target=100, rummy_bonus=True,
                     seen=mask(f"{held} {melds} {seen} 2D"), seed="test")


def test_c6_1_a_card_that_makes_the_next_player_a_meld_feeds_it_every_time():
    """The next player took QC and QD from the discard pile: any other queen makes it a set, which
    it would take (C6.1) and meld."""
    feeds = StrongPlayer().feeds(knowledge("QS 4H 9C", held="QC QD"))
    assert feeds(number("QS")) == 1.0


def test_a_card_whose_partners_are_all_in_sight_feeds_nobody():
    """7H: the other sevens are melded, 6H and 8H in the seat's hand: no hand can meld it."""
    feeds = StrongPlayer().feeds(knowledge("7H 6H 8H 2S", melds="7C 7D 7S"))
    assert feeds(number("7H")) == 0.0
    assert 0.0 < feeds(number("2S")) < 1.0  # an ace, 3S, 4S or another two may be in that hand


def test_c6_3_without_the_feeding_weight_and_the_play_outs_the_strong_discard_is_c6_3s():
    game = situation(["KS QH 9D 5C 5D 2H AS 8C 7S 3D JD", "AC 4C 6C TC KC 2S 3S 6H 8H TH"], discard="9S")
    expected = DiscardCard(CARDS[choose_discard(game, 0)])
    assert StrongPlayer(feed=0, candidates=1).choose(game, 0) == expected


def test_c6_3_the_strong_discard_is_one_of_the_best_few_by_c6_3_less_the_feeding_weight():
    game = situation(["KS QH 9D 5C 5D 2H AS 8C 7S 3D JD", "AC 4C 6C TC KC 2S 3S 6H 8H TH"], discard="9S")
    player = StrongPlayer()
    feeds = player.feeds(read_view(game.view(0), 0))
    ranked = sorted(((score - player.feed * feeds(card), card) for score, card in discard_scores(game, 0)),
                    reverse=True)
    choice = player.choose(game, 0)
    assert isinstance(choice, DiscardCard)
    assert NUMBER[choice.card] in [card for _score, card in ranked[:player.candidates]]


def test_c5_1_c5_3_a_hand_is_worth_its_points_won_or_lost_and_more_when_it_ends_the_game():
    seat0 = knowledge("QS 4H 9C")
    seat0.scores = [90, 40]
    assert StrongPlayer.value(seat0, (0, 5)) == 5 and StrongPlayer.value(seat0, (1, 30)) == -30
    assert StrongPlayer.value(seat0, (0, 10)) == 10 + GAME  # 100 points: the game is won
    assert StrongPlayer.value(seat0, (1, 60)) == -60 - GAME
    assert StrongPlayer.value(seat0, (None, 0)) == 0  # a void hand (C4.2)


def test_c3_4_c5_2_going_out_by_the_last_discard_scores_the_other_hand_double_when_nothing_was_played_before():
    seat0 = knowledge("QS", held="")
    seat0.hand_sizes = [1, 10]
    table = seat0.deal(random.Random(1))
    outcome = StrongPlayer.after_discard(seat0, number("QS"), table)
    assert outcome == (0, 2 * points(table.players[1].hand.mask))


def test_the_easy_player_keeps_pairs_but_never_half_a_run():
    """Its careless weights: a pair is kept, a card beside its suit's neighbour is not."""
    game = situation(["KS KH 9D 8D 2C", "AC 4C 6C TC KC 2S 3S 6H 8H TH"], discard="9S")
    assert choose_discard(game, 0, CARELESS_WEIGHTS) == number("9D")  # not a king of the pair
    assert choose_discard(game, 0) not in (number("9D"), number("8D"))  # C6.3 keeps half a run
    assert EasyPlayer(careless=10**9).choose(game, 0) == DiscardCard(CARDS[number("9D")])


def test_the_strong_player_never_discards_a_card_c3_3_forbids():
    game = situation(["KS QH 9D 5C", "AC 4C 6C TC KC 2S 3S 6H 8H TH"], discard="9S", taken="KS")
    choice = StrongPlayer().choose(game, 0)
    assert isinstance(choice, DiscardCard) and choice.card.code != "KS"


OTHER_HAND = "AC 4C 6C TC KC 2S 3S 6H 8H TH"


def test_c5_2_the_strong_player_holds_its_melds_back_for_a_rummy_while_the_other_hand_is_large():
    """7D 8D 9D is a run (C6.2 would meld it): held back, a card outside it is discarded."""
    game = situation(["7D 8D 9D KS QD 2C 4D 6S JC 3H 5S", OTHER_HAND], discard="9S")
    choice = StrongPlayer().choose(game, 0)
    assert isinstance(choice, DiscardCard) and choice.card.code not in ("7D", "8D", "9D")
    assert isinstance(StrongPlayer(rummy=False).choose(game, 0), MeldCards)  # C6.2's play


def test_c5_2_the_strong_player_melds_when_the_other_hand_may_go_out_soon():
    game = situation(["7D 8D 9D KS QD 2C 4D 6S JC 3H 5S", "AC 4C 6C TC"], discard="9S")
    assert isinstance(StrongPlayer().choose(game, 0), MeldCards)


def test_c5_2_the_strong_player_melds_when_it_can_go_out_and_when_its_hand_is_open():
    game = situation(["7D 8D 9D KS", OTHER_HAND], discard="9S")
    assert isinstance(StrongPlayer().choose(game, 0), MeldCards)  # a rummy now: out by discarding KS
    game = situation(["7D 8D 9D KS QD 2C 4D 6S", OTHER_HAND], melds=[(0, "5C 5D 5H")], discard="9S",
                     opened=[True, False])
    assert isinstance(StrongPlayer().choose(game, 0), MeldCards)  # no rummy is left to wait for
