"""T3 (a round), T4 (what is shown) and T5.2 on the user's Player and Table."""

from __future__ import annotations

import random

import pytest
from twentyone_helpers import stacked, texts

from app.games.twentyone import DECK, Card, Deck, EmptyDeckException, Player, Table
from app.games.twentyone.table import DEALER_WINS, PLAYER_WINS, TIE


def table_of(*front: str, names=("Player",), seed=0) -> Table:
    return Table(names, Deck(stacked(*front)), seed=seed)


# -- T4: a hand and the table -------------------------------------------------------------------------


def test_t4_1_a_hand_shows_its_value_only_when_every_card_is_face_up():
    """T4.1: ``hand:`` then the cards; ``, value = N`` only when every card is face up."""
    player = Player()
    player.add_to_hand(Card("9S", True))
    player.add_to_hand(Card("AD", True))
    assert str(player) == "hand:[ 9S ][ AD ], value = 10"
    assert player.hand_value == 10
    dealer = Player("Dealer")
    dealer.add_to_hand(Card("5C", True))
    dealer.add_to_hand(Card("KH", False))
    assert str(dealer) == "hand:[ 5C ][ xx ]"
    assert dealer.shown_value == 5 and dealer.hand_value == 15
    dealer.reveal_all_cards()
    assert str(dealer) == "hand:[ 5C ][ KH ], value = 15"


def test_player_add_and_clear_hand():
    player = Player()
    with pytest.raises(TypeError, match="^'9S' is not a Card$"):
        player.add_to_hand("9S")
    cards = [Card("9S", True), Card("TD", True)]
    for card in cards:
        player.add_to_hand(card)
    assert player.clear_hand() == cards
    assert player.hand == () and player.hand_value == 0


def test_t4_2_the_table_shows_the_player_then_the_dealer():
    """T4.2: the player's line, then the dealer's; the lines are T4.1's own examples."""
    table = table_of("9S", "5C", "AD", "KH")
    table.deal_hands()
    assert str(table) == "Player's hand:[ 9S ][ AD ], value = 10\nDealer's hand:[ 5C ][ xx ]"


# -- T3.1 the deal ------------------------------------------------------------------------------------------


def test_t3_1_player_dealer_player_dealer_face_down():
    table = table_of("9S", "5C", "AD", "KH")
    table.deal_hands()
    assert [card.code for card in table.players[0].hand] == ["9S", "AD"]
    assert [(card.code, card.face_up) for card in table.dealer.hand] == [("5C", True), ("KH", False)]
    assert texts(table.take_events()) == ["Dealing cards to player and dealer..."]
    assert len(table.deck) == 48


def test_t3_1_with_several_players_every_player_in_seat_order_then_the_dealer_twice():
    table = table_of("2C", "3C", "4C", "5C", "2D", "3D", "4D", "5D", names=("Ann", "Bob", "Cy"))
    table.deal_hands()
    hands = [[card.code for card in player.hand] for player in table.players]
    assert hands == [["2C", "2D"], ["3C", "3D"], ["4C", "4D"]]
    assert [(card.code, card.face_up) for card in table.dealer.hand] == [("5C", True), ("5D", False)]
    assert texts(table.take_events()) == ["Dealing cards to players and dealer..."]


def test_a_new_deal_needs_a_cleared_table():
    table = table_of()
    table.deal_hands()
    with pytest.raises(ValueError, match="^the table must be cleared before a new deal$"):
        table.deal_hands()


# -- T3.2-T3.4 -------------------------------------------------------------------------------------------


def test_t3_2_a_hit_is_one_more_card_face_up_and_over_21_is_bust():
    table = table_of("TS", "5C", "8H", "KH", "2D", "KC")
    table.deal_hands()
    assert table.player_hit() is False  # 20
    assert table.players[0].hand[-1].face_up
    assert table.player_hit() is True  # 30
    assert table.players[0].hand_value == 30


def test_t3_3_player_natural_is_exactly_21():
    table = table_of("9S", "5C", "7H", "KD", "5D")
    table.deal_hands()
    assert not table.player_natural()
    table.player_hit()
    assert table.player_natural()


def test_t3_4_and_t5_2_the_dealer_turns_over_then_takes_cards_while_16_or_less():
    table = table_of("TS", "6C", "8H", "9D", "AC", "KC")  # dealer 6 + 9 = 15, + A = 16, + K = 26
    table.deal_hands()
    table.take_events()
    assert table.dealer_hit() is True
    assert [card.code for card in table.dealer.hand] == ["6C", "9D", "AC", "KC"]
    assert all(card.face_up for card in table.dealer.hand)
    assert texts(table.take_events()) == [
        "Player's hand:[ TS ][ 8H ], value = 18", "Dealer's hand:[ 6C ][ 9D ], value = 15",
        "Dealer must take a card...",
        "Player's hand:[ TS ][ 8H ], value = 18", "Dealer's hand:[ 6C ][ 9D ][ AC ], value = 16",
        "Dealer must take a card...",
        "Player's hand:[ TS ][ 8H ], value = 18", "Dealer's hand:[ 6C ][ 9D ][ AC ][ KC ], value = 26",
    ]
    assert [step["value"] for step in table.dealer_turn] == [15, 16, 26]


def test_t3_4_the_dealer_stays_on_17():
    table = table_of("TS", "TC", "8H", "7D", "2C")
    table.deal_hands()
    assert table.dealer_hit() is False
    assert [card.code for card in table.dealer.hand] == ["TC", "7D"]


@pytest.mark.parametrize("player, dealer, winner", [
    (["TS", "8H"], ["TC", "9D"], DEALER_WINS),
    (["TS", "9H"], ["TC", "8D"], PLAYER_WINS),
    (["TS", "8H"], ["TC", "8D"], TIE),
    (["TS", "8H"], ["TC", "6D", "KD"], PLAYER_WINS),  # the dealer went bust
    (["TS", "8H", "KH"], ["TC", "6D", "KD"], DEALER_WINS),  # the player went bust first
])
def test_t3_4_who_won(player, dealer, winner):
    table = table_of()
    for code in player:
        table.players[0].add_to_hand(Card(code, True))
    for code in dealer:
        table.dealer.add_to_hand(Card(code, True))
    assert table.who_won() == winner


# -- T3.5-T3.7 ---------------------------------------------------------------------------------------


def test_t3_5_clear_table_puts_every_card_on_the_discard_pile_as_it_lies():
    table = table_of("9S", "5C", "AD", "KH")
    table.deal_hands()
    table.clear_table()
    assert sorted(card.code for card in table.discard_pile) == ["5C", "9S", "AD", "KH"]
    assert not table.cards_on_table()
    hidden = [card for card in table.discard_pile if not card.face_up]
    assert [card.code for card in hidden] == ["KH"]  # the dealer's card was never turned over


def test_t3_6_an_empty_deck_is_refilled_from_the_shuffled_discard_pile_when_a_card_is_needed():
    table = Table(["Player"], Deck(stacked()[:6]), seed=9)  # a short deck: six cards
    discards = [Card(card, True) for card in stacked()[6:]]
    table.discard_pile = list(discards)
    table.deal_hands()
    table.take_events()
    table.player_hit()
    table.player_hit()
    assert len(table.deck) == 0 and not table.take_events()
    table.player_hit()  # the deck is empty: the discard pile becomes the deck
    assert texts(table.take_events()) == ["Repopulating deck with cards..."]
    assert table.discard_pile == [] and table.refills == 1
    expected = list(discards)
    random.Random("9/refill/0").shuffle(expected)
    assert table.players[0].hand[-1] == expected[0]
    assert list(table.deck) == expected[1:]


def test_t3_6_the_refill_depends_on_the_seed():
    orders = []
    for seed in (1, 2):
        table = Table(["Player"], Deck(), seed=seed)
        table.discard_pile = [Card(card, True) for card in DECK.cards]
        table.player_hit()
        orders.append([card.code for card in table.players[0].hand] + [card.code for card in table.deck])
    assert orders[0] != orders[1]


def test_t3_6_nothing_to_refill_with_raises_empty_deck_exception():
    table = Table(["Player"], Deck(stacked()[:3]))
    with pytest.raises(EmptyDeckException, match="^Cannot deal card from an empty deck.$"):
        table.deal_hands()


def test_t3_7_the_deck_carries_on_after_clearing_the_table():
    table = table_of("9S", "5C", "AD", "KH", "2C", "3C", "4C", "5D")
    table.deal_hands()
    table.clear_table()
    table.deal_hands()
    assert [card.code for card in table.players[0].hand] == ["2C", "4C"]
    assert len(table.deck) == 44 and len(table.discard_pile) == 4


def test_the_table_round_trips_through_plain_data():
    table = table_of("9S", "5C", "AD", "KH", names=("Ann", "Bob"))
    table.deal_hands()
    table.clear_table()
    table.deal_hands()
    again = Table.from_dict(table.to_dict(), ["Ann", "Bob"], 0)
    assert again.to_dict() == table.to_dict()
    assert str(again) == str(table)
