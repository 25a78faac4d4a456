"""C1 (cards) and C2 (players and the deal), with C8.1's stacked deck the same every hand."""

from __future__ import annotations

import pytest
from rummy_test_helpers import RUMMY, act, card, cards, deal, deck_codes, hand_codes

from app.core.autoplay import autoplay, computer_seats
from app.core.decks import DeckError
from app.core.protocol import OptionError
from app.games.rummy.cards import ALL, DECK, NUMBER, mask_of
from app.games.rummy.cards import points as hand_points
from app.games.rummy.melds import RUN, meld_kind, why_not_a_meld


def mask(text: str) -> int:
    return mask_of(NUMBER[c] for c in cards(text))


def test_c1_1_one_deck_of_52_cards_no_jokers():
    assert DECK.size == 52
    assert len({c.code for c in DECK.cards}) == 52
    assert not any(c.is_joker for c in DECK.cards)
    assert DECK.ranks == "A23456789TJQK" and DECK.suits == "CDHS"


def test_c1_1_the_ace_is_low_only():
    assert meld_kind(mask("AH 2H 3H")) == RUN
    assert meld_kind(mask("JH QH KH")) == RUN
    assert meld_kind(mask("QH KH AH")) is None
    assert meld_kind(mask("KH AH 2H")) is None
    assert "ace is low only" in why_not_a_meld(mask("QH KH AH"))
    assert "ace is low only" in why_not_a_meld(mask("KH AH 2H"))


def test_c1_2_points():
    """C1.2: an ace is 1 point, 2 to 9 their number, T J Q K 10, in every suit; a hand's points
    (as C5.1 scores them) are the sum."""
    points = {c.code: c.points for c in DECK.cards}
    for suit in DECK.suits:
        assert points["A" + suit] == 1
        assert [points[f"{n}{suit}"] for n in range(2, 10)] == list(range(2, 10))
        assert {points[f"{r}{suit}"] for r in "TJQK"} == {10}
    assert hand_points(mask("AC 9D TH KS")) == 1 + 9 + 10 + 10
    assert hand_points(ALL) == 4 * (1 + sum(range(2, 10)) + 4 * 10)


def test_c1_1_codes_as_in_twenty_one():
    assert card("th").code == "TH" and card("TH").label == "TH (ten of Hearts)"
    with pytest.raises(ValueError):
        DECK.parse("10H")


def test_c2_1_two_to_six_seats_humans_and_computers_mixed():
    """C2.1: 2 to 6 seats, people and computer players (`AI`, any case) mixed at one table."""
    for seats in range(2, 7):
        names = ["Ann", "AI", "Bob", "ai", "Cy", "Di"][:seats]
        game = RUMMY.new_state(names, seed=1)
        assert len(game.names) == seats
        assert game.names == ["AI" if name == "ai" else name for name in names]
        assert [player.is_computer for player in game.players] == [name.upper() == "AI" for name in names]
    for seats in (1, 7):
        with pytest.raises(OptionError):
            RUMMY.new_state(["AI"] * seats, seed=1)


def test_c2_1_the_computer_seats_play_themselves_and_the_people_are_waited_for():
    """C2.1: at a mixed table the `AI` seats (any case) are played by the computer player and
    the game waits for the person's seat."""
    game = RUMMY.new_state(["AI", "Ann", "ai"], seed=1)
    played = autoplay(game, computer_seats(game))
    assert {outcome.seat for outcome in played} == {0}  # the computer in seat 1 played its turn ...
    assert game.to_move() == 1  # ... and Ann is waited for
    act(game, 1, "draw", source="stock")
    act(game, 1, "discard", game.players[1].hand.cards()[0].id)
    played = autoplay(game, computer_seats(game))
    seats = [outcome.seat for outcome in played]
    assert seats[0] == 2 and set(seats) == {0, 2}  # "ai" is a computer player too; then seat 1 again
    assert game.to_move() == 1


@pytest.mark.parametrize("seats, size", [(2, 10), (3, 7), (4, 7), (5, 6), (6, 6)])
def test_c2_2_hand_sizes(seats, size):
    """C2.2: 10 cards each with 2 players, 7 with 3 or 4, 6 with 5 or 6; the rest is the
    turned-up card and the stock."""
    game = RUMMY.new_state(["AI"] * seats, seed=3)
    assert [len(player.hand) for player in game.players] == [size] * seats
    assert len(game.stock) == 52 - seats * size - 1
    assert len(game.discard) == 1


def test_c2_3_dealt_one_card_at_a_time_then_the_discard_then_the_stock():
    """The deck in its own order (AC 2C 3C ...): with 3 seats, seat 1 gets cards 1, 4, 7, ...;
    card 22 starts the discard pile and card 23 is the stock's top."""
    game = RUMMY.new_state(["Ann", "Bob", "Cy"], stacked_deck=list(DECK.cards))
    order = [c.code for c in DECK.cards]
    for seat in range(3):
        assert hand_codes(game, seat) == " ".join(sorted(order[seat:21:3], key=lambda c: DECK.parse(c).sort_key))
    assert game.view(0)["discard_top"] == order[21]
    assert game.to_dict()["stock"] == order[22:]
    act(game, 0, "draw", source="stock")
    assert order[22] in hand_codes(game, 0).split()


def test_c2_3_a_stacked_deck_file_is_validated_like_a_mason_deck():
    codes = deck_codes(["AC 2C 3C 4C 5D 5H 5S 9S TS JS", "KC QD JH TD 9H 8C KD QH 7S 6H"], "7H")
    assert len(RUMMY.parse_deck(" ".join(codes))) == 52
    with pytest.raises(DeckError, match="51"):
        RUMMY.parse_deck(" ".join(codes[:-1]))
    with pytest.raises(DeckError, match="twice"):
        RUMMY.parse_deck(" ".join(codes[:-1] + [codes[0]]))
    with pytest.raises(DeckError, match="'1H'"):
        RUMMY.parse_deck(" ".join(["1H"] + codes[1:]))


def go_out_quickly(game, seat):
    """Seat ``seat`` holds AC-4C, three 5s and 9S TS JS: it goes out in its first turn."""
    act(game, seat, "draw", source="stock")
    for meld in ("AC 2C 3C 4C", "5D 5H 5S", "9S TS JS"):
        act(game, seat, "meld", *meld.split())
    last = game.players[seat].hand.cards()[0].id
    return act(game, seat, "discard", last)


def test_c2_4_each_hand_starts_with_the_next_seat_and_c8_1_the_same_deck_order():
    game = deal(["Ann", "Bob"], ["AC 2C 3C 4C 5D 5H 5S 9S TS JS", "KC QD JH TD 9H 8C KD QH 7S 6H"], "7H", "2D",
                rummy_bonus=False, target=500)
    first_hand = [hand_codes(game, seat) for seat in range(2)]
    assert game.to_move() == 0
    go_out_quickly(game, 0)
    assert game.to_move() is None
    assert [m.label for m in game.legal(None)] == ["Deal hand 2"]
    act(game, None, "deal")
    assert game.to_move() == 1  # hand 2 starts with seat 2 ...
    # ... and the same deck is dealt from seat 2: it gets the cards seat 1 had in hand 1
    assert [hand_codes(game, seat) for seat in range(2)] == first_hand[::-1]
    go_out_quickly(game, 1)
    act(game, 0, "deal")  # any seat may deal
    assert game.to_move() == 0 and game.hand_number == 3


def test_c2_3_shuffled_hands_come_from_the_seed():
    one = RUMMY.new_state(["Ann", "Bob"], seed=42)
    two = RUMMY.new_state(["Ann", "Bob"], seed=42)
    other = RUMMY.new_state(["Ann", "Bob"], seed=43)
    assert one.to_dict() == two.to_dict()
    assert one.to_dict()["players"] != other.to_dict()["players"]
    with pytest.raises(ValueError):
        RUMMY.new_state(["Ann", "Bob"])  # a shuffled game needs its seed
