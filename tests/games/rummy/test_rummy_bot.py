"""C6: the computer player (draw, melds and lay-offs, its own discard strategy), apart from the
rules and deterministic for a state."""

from __future__ import annotations

import random

from rummy_test_helpers import RUMMY, situation

from app.core.autoplay import autoplay
from app.games.rummy.actions import DISCARD_PILE, STOCK, DiscardCard, DrawCard, LayOff, MeldCards
from app.games.rummy.bot import ComputerPlayer, RandomDiscardPlayer, choose_discard, discard_scores
from app.games.rummy.cards import NUMBER

BOT = RUMMY.bot


def codes(action) -> str:
    return " ".join(card.code for card in action.cards)


def test_c6_1_takes_the_discard_when_it_makes_a_new_set():
    """C6.1: it takes the discard when that card makes a new meld with its hand: here a set."""
    game = situation(["7C 7D KH 2S", "AS 3D 9C"], discard="4H 7H", phase="draw")
    assert BOT.choose(game, 0) == DrawCard(DISCARD_PILE)


def test_c6_1_takes_the_discard_when_it_makes_a_new_run():
    """C6.1: ... or a new run (the card below, between or above two of its hand)."""
    for hand in ("5S 6S KH 2D", "6S 8S KH 2D", "8S 9S KH 2D"):
        game = situation([hand, "AS 3D 9C"], discard="4H 7S", phase="draw")
        assert BOT.choose(game, 0) == DrawCard(DISCARD_PILE), hand


def test_c6_1_takes_the_discard_when_it_lays_off_on_any_meld():
    """C6.1: ... or when the card lays off on any meld, another player's too."""
    game = situation(["KH 2D 9C", "AS 3D 9D"], melds=[(1, "2C 3C 4C")], discard="4H 5C", phase="draw")
    assert BOT.choose(game, 0) == DrawCard(DISCARD_PILE)  # 5C fits the other player's run


def test_c6_1_otherwise_the_stock():
    """C6.1: otherwise it draws from the stock."""
    game = situation(["7C 5S KH 2D", "AS 3D 9C"], melds=[(1, "2C 3C 4C")], discard="4H 7S", phase="draw")
    assert BOT.choose(game, 0) == DrawCard(STOCK)  # 7S: no set, no run (5S _ 7S needs 6S), no lay-off
    ace = situation(["QH KH 2D 9C", "AS 3D 9D"], discard="4C AH", phase="draw")
    assert BOT.choose(ace, 0) == DrawCard(STOCK)  # Q K A is no run (C1.1)


def play_all(game, seat) -> list:
    """The plays the computer makes, in order, until it discards."""
    plays = []
    while game.to_move() == seat:
        action = BOT.choose(game, seat)
        plays.append(action)
        game.apply(seat, action)
        if type(action) is DiscardCard:
            break
    return plays


def test_c6_2_runs_before_sets_longest_first_then_lay_offs():
    game = situation(["2C 3C 4C 9C 9D 9S 5H 6H 7H 8H KD", "AS 3D"], melds=[(1, "TD JD QD")])
    plays = play_all(game, 0)
    assert [codes(p) if type(p) is MeldCards else p for p in plays[:3]] == ["5H 6H 7H 8H", "2C 3C 4C", "9C 9D 9S"]
    assert plays[3] == LayOff(RUMMY.deck.parse("KD"), 1)
    assert len(plays) == 4 and game.hand_results  # it went out by the lay-off


def test_c6_2_sets_longest_first_four_of_a_kind_before_three():
    """C6.2: "runs before sets, longest first": the four kings before the three fours, though
    the fours are the lower rank."""
    game = situation(["4C 4D 4H KC KD KH KS 2S", "AS 3D"])
    plays = play_all(game, 0)
    assert [codes(play) for play in plays[:2]] == ["KC KD KH KS", "4C 4D 4H"]


def test_c6_2_a_card_in_a_run_is_not_used_again_for_a_set():
    game = situation(["7S 8S 9S 9C 9D 2H", "AS 3D"])
    plays = play_all(game, 0)
    assert codes(plays[0]) == "7S 8S 9S"
    assert type(plays[1]) is DiscardCard  # 9C 9D are no set now


def test_c6_2_lays_off_on_the_first_fitting_meld_in_table_order():
    game = situation(["8D KS 2H", "AS 3D"], melds=[(1, "5D 6D 7D"), (1, "8C 8H 8S")])
    assert BOT.choose(game, 0) == LayOff(RUMMY.deck.parse("8D"), 1)
    swapped = situation(["8D KS 2H", "AS 3D"], melds=[(1, "8C 8H 8S"), (1, "5D 6D 7D")])
    assert BOT.choose(swapped, 0) == LayOff(RUMMY.deck.parse("8D"), 1)


def test_c6_2_respects_c3_3():
    game = situation(["5H 6H 7H 8H KD", "AS 3D"], discard="2C", taken="KD")
    assert codes(BOT.choose(game, 0)) == "5H 6H 7H"  # the whole run would leave KD alone
    blocked = situation(["5H 6H 7H KD", "AS 3D"], discard="2C", taken="KD")
    action = BOT.choose(blocked, 0)
    assert type(action) is DiscardCard and action.card.code != "KD"


def test_c6_3_never_discards_the_card_taken_this_turn():
    """C6.3 (within C3.3): the strategy chooses only among the cards it may discard."""
    game = situation(["KD KS 2H", "AS 3D"], discard="2C", taken="KS")
    assert BOT.choose(game, 0).card.code != "KS"
    assert "KS" not in {RUMMY.deck.cards[card].code for _score, card in discard_scores(game, 0)}


def test_c6_3_keeps_pairs_and_near_runs_and_sheds_points():
    """C6.3: it sheds the card that leaves the fewest unmelded points, but keeps pairs and
    near-runs: in the last three hands, shedding points alone would throw a king or the ten."""
    game = situation(["9C 9D 5H 6H KS 2D 3C", "AS 3D 4S"])
    assert BOT.choose(game, 0).card.code == "KS"
    pairs = situation(["QC QD JH 4S 3D", "AS 8D 4D"])
    assert BOT.choose(pairs, 0).card.code == "JH"  # the lone high card, not half of the pair
    # (the other player holds more than 3 cards: no hurry to shed points yet)
    pair_of_kings = situation(["KC KD 9H 2S 4D", "AS 3D 4S 5C 6C"])
    assert BOT.choose(pair_of_kings, 0).card.code == "9H"  # a lower card goes, the pair stays
    queen_king = situation(["QH KH 8C 2S 3D", "AS 4D 4S 5C 6C"])
    assert BOT.choose(queen_king, 0).card.code == "8C"  # Q K of hearts wait for the jack
    eight_ten = situation(["8S TS 7C 2D", "AS 3D 4S 5C 6C"])
    assert BOT.choose(eight_ten, 0).card.code == "7C"  # 8 _ 10 of spades waits for the nine


def test_c6_3_never_discards_a_card_an_opponent_could_lay_off_when_another_is_as_good():
    """C6.3: KH fits the run TH JH QH on the table, so the next player could lay it off. The
    computer lays it off itself (C6.2) and discards QC, as many points; its discard strategy
    alone also keeps KH rather than QC (on a tie it would throw the later card, KH)."""
    game = situation(["QC KH 2D 5S", "AS 3D 4S 9D"], melds=[(1, "TH JH QH")])
    assert choose_discard(game, 0) == NUMBER[RUMMY.deck.parse("QC")]
    plays = play_all(game, 0)
    assert plays == [LayOff(RUMMY.deck.parse("KH"), 1), DiscardCard(RUMMY.deck.parse("QC"))]


def test_c6_3_is_deterministic_for_a_state():
    """C6.3: its own deterministic strategy: the same state, the same choice."""
    game = RUMMY.new_state(["AI", "AI", "AI"], seed=5)
    copy = RUMMY.from_dict(game.to_dict())
    for _ in range(60):
        if game.to_move() is None:
            break
        seat = game.to_move()
        action = BOT.choose(game, seat)
        assert action == BOT.choose(copy, seat) == BOT.choose(game, seat)
        game.apply(seat, action)
        copy.apply(seat, action)


def test_c6_3_beats_a_random_discard():
    """C6.3: the strategy measured against a random-discard player (the same draws and plays,
    random discards), seats alternating; measured at 99% over 1,000 games (bench/rummy_bot.py):
    80% is a loose floor."""
    wins = 0
    games = 60
    for number in range(games):
        baseline = RandomDiscardPlayer(random.Random(number))
        strategy_seat = number % 2
        bots = [BOT if seat == strategy_seat else baseline for seat in range(2)]
        game = RUMMY.new_state(["AI", "AI"], seed=f"bot-test/{number}")
        autoplay(game, bots.__getitem__, deal_on=True)
        wins += game.winner == strategy_seat
    assert wins >= 0.8 * games


def test_the_baseline_plays_like_the_computer_but_discards_at_random():
    """C6.3: the random-discard player it is measured against draws and plays as C6.1 and C6.2
    but discards at random."""
    game = situation(["2C 3C 4C 9D KS 7H", "AS 3D"])
    baseline = RUMMY.baseline_bot(random.Random(1))
    assert baseline.choose(game, 0) == BOT.choose(game, 0)  # the same meld first
    game.apply(0, BOT.choose(game, 0))
    picks = {RUMMY.baseline_bot(random.Random(n)).choose(game, 0).card.code for n in range(40)}
    assert picks == {"9D", "KS", "7H"}
    assert isinstance(RUMMY.bot, ComputerPlayer)
