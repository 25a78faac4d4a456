"""The computer player (R8), apart from the rules: ``MasonBot.choose(game, seat)`` is the action
the seat takes now. Any seat can be played by it (the web lets it stand in for an idle person),
and it sees only what that seat may see: its hand, its sets, the discard top and the other
players' hand sizes.

A turn, one action at a time: R8.1 draw; R8.2 lay down everything it can (new runs longest
first, then new melds, then single cards onto its own sets); R8.3 discard.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from app.core.autoplay import autoplay, one_seat

from .actions import DISCARD_PILE, STOCK, Action, Discard, Draw, LayDown
from .cards import Card
from .melds import MIN_SET_SIZE, fitting_cards
from .phases import DRAW_PHASE
from .players import Hand
from .state import MasonState, Outcome

DiscardChooser = Callable[[MasonState, int], Card]


class MasonBot:
    """The ``AI`` seat's strategy; ``discard`` chooses the card to discard (R8.3)."""

    def __init__(self, discard: DiscardChooser | None = None):
        self.discard = discard or choose_computer_discard

    def choose(self, game: MasonState, seat: int) -> Action:
        if game.phase == DRAW_PHASE:
            return Draw(computer_draw_source(game, seat))
        selection = next_computer_play(game.players[seat].hand)
        if selection is not None:
            return LayDown(selection)
        return Discard(self.discard(game, seat))


def computer_draw_source(game: MasonState, seat: int) -> str:
    """R8.1: the discard top if it makes a new meld or run with the hand, or fits an own set."""
    hand = game.players[seat].hand
    top = game.discard[-1] if game.discard else None
    if top is not None and (_would_form_set(top, hand.cards)
                            or (hand.laid_down and top in fitting_cards(hand.laid_down))):
        return DISCARD_PILE
    if game.can_draw(STOCK):
        return STOCK
    return DISCARD_PILE  # R5.3: the stock cannot give a card


def _would_form_set(card: Card, cards: Sequence[Card]) -> bool:
    """R8.1: would ``card`` make a new meld or run with ``cards``?"""
    same_value = 0
    suit_bits = 0  # bit order+2 is set for each card of ``card``'s suit
    for other in cards:
        if other.order == card.order:
            same_value += 1
        elif other.suit_index == card.suit_index:
            suit_bits |= 4 << other.order
    around = (suit_bits >> card.order) & 0b11111  # bits: r-2, r-1, (the card), r+1, r+2
    return (same_value >= MIN_SET_SIZE - 1 or (around & 0b00011) == 0b00011
            or (around & 0b01010) == 0b01010 or (around & 0b11000) == 0b11000)


def longest_run(cards: Sequence[Card]) -> tuple[Card, ...] | None:
    """The longest run in ``cards`` (first in hand order on a tie), or None.

    ``cards`` is in hand order (suit, then value), so a run is a stretch of neighbours."""
    best_start = best_length = start = 0
    previous = None
    for index, card in enumerate(cards):
        if previous is None or card.suit_index != previous.suit_index or card.order != previous.order + 1:
            if index - start > best_length:  # a stretch ended before this card
                best_start, best_length = start, index - start
            start = index
        previous = card
    if len(cards) - start > best_length:
        best_start, best_length = start, len(cards) - start
    if best_length < MIN_SET_SIZE:
        return None
    return tuple(cards[best_start:best_start + best_length])


def largest_meld(cards: Sequence[Card]) -> tuple[Card, ...] | None:
    """The meld with most cards (highest value on a tie, shedding most points), or None."""
    counts = [0] * 13
    for card in cards:
        counts[card.order] += 1
    most = max(counts)
    if most < MIN_SET_SIZE:
        return None
    best_order = 12 - counts[::-1].index(most)  # the highest value among the largest
    return tuple(card for card in cards if card.order == best_order)


def next_computer_play(hand: Hand) -> tuple[Card, ...] | None:
    """R8.2: the next selection the computer lays down: a new run, a new meld, or one card."""
    cards = hand.cards
    selection = longest_run(cards) or largest_meld(cards)
    if selection:
        return selection
    if hand.laid_down:
        wanted = fitting_cards(hand.laid_down)
        for card in cards:  # hand order
            if card in wanted:
                return (card,)
    return None


def choose_computer_discard(game: MasonState, seat: int) -> Card:
    """R8.3: keep what may make sets; shed points, and shed them harder when a round is ending.

    Each card gets a discard score: its points, minus what it is worth keeping (each other card
    of the same value is half a meld: 12; each same-suit neighbour half a run: 9, or 4 one value
    apart). Points count triple once some other player holds 3 cards or fewer, since the round
    may end any turn and every card left in hand then costs its points (R7.1). The highest score
    goes; ties go to the later card in hand order, so the choice is deterministic for a state.

    It uses only what the seat may see (R4.4): its hand and the other players' hand sizes.
    Measured with ``python -m app.simulate --random-seats``, and head to head against the
    earlier version, which also held back cards that fit another player's sets: that made
    3-player results clearly worse and 2-player ones no better, so it was dropped.
    """
    hand = game.players[seat].hand.cards
    round_ending = any(len(player.hand.cards) <= LATE_HAND_SIZE
                       for other, player in enumerate(game.players) if other != seat)
    point_weight = 3 if round_ending else 1
    value_counts = [0] * 13
    suit_bits = [0] * 5  # per suit, bit order+2 is set if the hand holds that card
    for card in hand:
        value_counts[card.order] += 1
        suit_bits[card.suit_index] |= 4 << card.order
    best_card = hand[-1]
    best_score = None
    for card in hand:
        r = card.order
        keep = 12 * (value_counts[r] - 1) + _RUN_KEEP[(suit_bits[card.suit_index] >> r) & 0b11111]
        score = point_weight * card.points - keep
        if best_score is None or score >= best_score:
            best_card, best_score = card, score
    return best_card


LATE_HAND_SIZE = 3  # another player this close to going out makes points urgent (R8.3 strategy)
# What same-suit neighbours are worth keeping, indexed by 5 bits of a suit's holding around a card
# of order r (bit 0: r-2, bit 1: r-1, bit 2: the card itself, bit 3: r+1, bit 4: r+2).
_RUN_KEEP = tuple(9 * ((bits >> 1 & 1) + (bits >> 3 & 1)) + 4 * ((bits & 1) + (bits >> 4 & 1)) for bits in range(32))


def random_discard_chooser(rng: random.Random) -> DiscardChooser:
    """A baseline that discards a random card (for measuring the strategy, not for play)."""

    def choose(game: MasonState, seat: int) -> Card:
        return rng.choice(game.players[seat].hand.cards)

    return choose


COMPUTER = MasonBot()


def play_computer_turn(game: MasonState, seat: int, discard_chooser: DiscardChooser | None = None) -> list[Outcome]:
    """Play ``seat``'s whole turn by R8 through the one autoplay loop; its outcomes in order."""
    bot = COMPUTER if discard_chooser is None else MasonBot(discard_chooser)
    return autoplay(game, one_seat(seat, bot))  # type: ignore[return-value]  # Mason's outcomes
