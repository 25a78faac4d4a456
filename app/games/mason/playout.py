"""A round of Mason Rummy played out fast, every seat as the rule book's player (R8), for the
strong player's play-outs: ``Round`` and ``Round.play_out``.

It is the same game as ``MasonState`` and the same player as ``bot.py`` (R5, R6.3, R7.1, R7.2,
R8.1-R8.3), written over bit masks: card ``i`` of ``FULL_DECK`` (suit by suit, values low to
high, so a hand's bits run in R9.2's hand order) is bit ``i`` of a hand. A seat's sets are kept
as what R6.3 needs of them: each run's suit and ends, in the order laid down, and the values of
its melds; and the mask of the cards that would go onto them.
"""

from __future__ import annotations

from collections.abc import Sequence

from .bot import LATE_HAND_SIZE, _RUN_KEEP
from .cards import FULL_DECK, Card
from .melds import RUN, CardSet, fitting_cards
from .state import STALL_REBUILDS

VALUES = 13
SUIT_BITS = (1 << VALUES) - 1
INDEX = {card: index for index, card in enumerate(FULL_DECK)}
POINTS = tuple(card.points for card in FULL_DECK)  # R1.5
VALUE_MASK = tuple(sum(1 << (suit * VALUES + value) for suit in range(5)) for value in range(VALUES))
TURNS_LIMIT = 300  # a round played out this long is counted as blocked (R7.2)
Run = list[int]  # [suit, lowest value, highest value]


def _longest_stretch(bits: int) -> tuple[int, int]:
    """The first longest stretch of neighbouring values in a suit's 13 bits: (its length, its
    lowest value)."""
    best_length = best_start = length = 0
    for value in range(VALUES + 1):
        if value < VALUES and bits >> value & 1:
            length += 1
            continue
        if length > best_length:
            best_length, best_start = length, value - length
        length = 0
    return best_length, best_start


STRETCH = tuple(_longest_stretch(bits) for bits in range(1 << VALUES))
# The cards that begin three in a row of their suit (a value up to Q: no run wraps into the next suit).
RUN_STARTS = sum(1 << (suit * VALUES + value) for suit in range(5) for value in range(VALUES - 2))


def _shed(bits: int, weight: int) -> tuple[tuple[int, int], ...]:
    """R8.3's discard score of each card of a suit's 13 bits, but for the cards of its value
    elsewhere: (its value, ``weight`` times its points less its neighbours' worth, plus 12)."""
    return tuple((value, weight * POINTS[value] - _RUN_KEEP[(bits << 2 >> value) & 0b11111] + 12)
                 for value in range(VALUES) if bits >> value & 1)


# R8.3's scores by a suit's 13 bits: points once, then tripled late in the round.
SHED = tuple(tuple(_shed(bits, weight) for bits in range(1 << VALUES)) for weight in (1, 3))
SUIT_OF = tuple(index // VALUES for index in range(5 * VALUES))
VALUE_OF = tuple(index % VALUES for index in range(5 * VALUES))


def mask_of(cards: Sequence[Card]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << INDEX[card]
    return mask


def fitting_mask(card_sets: Sequence[CardSet]) -> int:
    """The cards that would go onto ``card_sets`` (R6.3), as a mask."""
    return mask_of(list(fitting_cards(card_sets))) if card_sets else 0


def could_lay_down(hand: int, fits: int) -> bool:
    """Does R8.2 find something to lay down in ``hand``: a run, a meld, or a card of ``fits``?"""
    if hand & (hand >> 1) & (hand >> 2) & RUN_STARTS or hand & fits:
        return True
    once = twice = 0  # the values seen at least once, at least twice
    for suit in range(5):
        bits = hand >> (suit * VALUES) & SUIT_BITS
        if twice & bits:
            return True
        twice |= once & bits
        once |= bits
    return False


def makes_set(hand: int, card: int, fits: int) -> bool:
    """R8.1: would ``card`` make a new meld or run with ``hand``, or go onto the sets that
    ``fits`` holds the cards for?"""
    suit, value = SUIT_OF[card], VALUE_OF[card]
    around = ((hand >> (suit * VALUES) & SUIT_BITS) << 2 >> value) & 0b11111
    return bool((hand & VALUE_MASK[value]).bit_count() >= 2 or (around & 0b00011) == 0b00011
                or (around & 0b01010) == 0b01010 or (around & 0b11000) == 0b11000 or fits >> card & 1)


def shed_card(hand: int, late: bool) -> int:
    """R8.3: the card of the highest discard score (its points, tripled when another hand is
    ``late``: down to ``LATE_HAND_SIZE`` cards; less what it is worth keeping); the later on a tie."""
    scores = SHED[late]
    best_card, best_score = -1, -1 << 30
    for suit in range(5):
        bits = hand >> (suit * VALUES) & SUIT_BITS
        if not bits:
            continue
        for value, shed in scores[bits]:
            score = shed - 12 * (hand & VALUE_MASK[value]).bit_count()
            if score >= best_score:
                best_card, best_score = suit * VALUES + value, score
    return best_card


def points_of_mask(mask: int) -> int:
    total = 0
    while mask:
        low = mask & -mask
        total += POINTS[low.bit_length() - 1]
        mask ^= low
    return total


class Round:
    """One round from a seat's turn: the hands, each seat's sets, the discard pile and the stock
    (both bottom first: the top is the last card), the seat to move and the stock's rebuilds."""

    __slots__ = ("hands", "runs", "melds", "fits", "sizes", "pile", "stock", "turn", "rebuilds")

    def __init__(self, hands: list[int], runs: list[list[Run]], melds: list[list[int]], pile: list[int],
                 stock: list[int], *, turn: int, rebuilds: int = 0):
        self.hands = hands
        self.runs = runs
        self.melds = melds
        self.sizes = [hand.bit_count() for hand in hands]
        self.fits = [self._fitting(seat) for seat in range(len(hands))]
        self.pile = pile
        self.stock = stock
        self.turn = turn
        self.rebuilds = rebuilds

    @classmethod
    def of(cls, hands: Sequence[Sequence[Card]], sets: Sequence[Sequence[CardSet]], pile: Sequence[Card],
           stock: Sequence[Card], *, turn: int, rebuilds: int = 0) -> Round:
        runs: list[list[Run]] = []
        melds: list[list[int]] = []
        for seat_sets in sets:
            runs.append([[card_set.cards[0].suit_index, card_set.cards[0].order, card_set.cards[-1].order]
                         for card_set in seat_sets if card_set.kind == RUN])
            melds.append([card_set.cards[0].order for card_set in seat_sets if card_set.kind != RUN])
        return cls([mask_of(hand) for hand in hands], runs, melds, [INDEX[card] for card in pile],
                   [INDEX[card] for card in stock], turn=turn, rebuilds=rebuilds)

    def copy(self) -> Round:
        clone = Round.__new__(Round)
        clone.hands = list(self.hands)
        clone.runs = [[list(run) for run in runs] for runs in self.runs]
        clone.melds = [list(melds) for melds in self.melds]
        clone.fits = list(self.fits)
        clone.sizes = list(self.sizes)
        clone.pile = list(self.pile)
        clone.stock = list(self.stock)
        clone.turn = self.turn
        clone.rebuilds = self.rebuilds
        return clone

    def _fitting(self, seat: int) -> int:
        """The cards that would go onto the seat's sets (R6.3): a run's two ends, a meld's value."""
        fits = 0
        for suit, low, high in self.runs[seat]:
            if low > 0:
                fits |= 1 << (suit * VALUES + low - 1)
            if high < VALUES - 1:
                fits |= 1 << (suit * VALUES + high + 1)
        for value in self.melds[seat]:
            fits |= VALUE_MASK[value]
        return fits

    # -- the rules ----------------------------------------------------------------------------------

    def can_draw_stock(self) -> bool:
        return bool(self.stock) or len(self.pile) > 1

    def draw(self, take_pile: bool) -> int:
        """R5.1, R5.2: draw for the seat to move; the card drawn, or -1 when the round is blocked."""
        seat = self.turn
        if take_pile and self.pile:
            card = self.pile.pop()
        else:
            if not self.stock:
                if len(self.pile) < 2 or self.rebuilds + 1 >= STALL_REBUILDS:
                    return -1
                self.rebuilds += 1
                self.stock = self.pile[-2::-1]  # the oldest discard on top (the last card)
                self.pile = self.pile[-1:]
            card = self.stock.pop()
        self.hands[seat] |= 1 << card
        self.sizes[seat] += 1
        return card

    def discard(self, card: int) -> None:
        self.hands[self.turn] &= ~(1 << card)
        self.sizes[self.turn] -= 1
        self.pile.append(card)

    def points(self, went_out: int | None) -> list[int]:
        """R7.1, R7.2: what each seat adds to its score."""
        return [0 if seat == went_out else points_of_mask(hand) for seat, hand in enumerate(self.hands)]

    # -- the rule book's player (R8) ----------------------------------------------------------------

    def takes_pile(self, seat: int) -> bool:
        """R8.1: the discard top if it makes a new meld or run with the hand, or fits an own set;
        the discard pile too when the stock cannot give a card (R5.3)."""
        if self.pile and makes_set(self.hands[seat], self.pile[-1], self.fits[seat]):
            return True
        return not self.can_draw_stock()

    def lay_down_next(self, seat: int) -> bool:
        """R8.2: lay down the next selection (a new run, longest first; a new meld, largest
        first; a card onto an own set, R6.3); False when there is none."""
        hand = self.hands[seat]
        if hand & (hand >> 1) & (hand >> 2) & RUN_STARTS:
            best_length = best_suit = best_start = 0
            for suit in range(5):
                length, start = STRETCH[hand >> (suit * VALUES) & SUIT_BITS]
                if length > best_length:
                    best_length, best_suit, best_start = length, suit, start
            selection = ((1 << best_length) - 1) << (best_suit * VALUES + best_start)
            self.runs[seat].append([best_suit, best_start, best_start + best_length - 1])
        else:
            # How many of each value the hand holds, as three bit planes over the 13 values.
            ones = twos = fours = 0
            for suit in range(5):
                bits = hand >> (suit * VALUES) & SUIT_BITS
                carry = ones & bits
                ones ^= bits
                fours |= twos & carry
                twos ^= carry
            most = (fours & ones) or fours or (twos & ones)  # five, four, then three of a value
            if most:
                best_value = most.bit_length() - 1  # the highest value among the largest
                selection = hand & VALUE_MASK[best_value]
                self.melds[seat].append(best_value)
            else:
                fitting = hand & self.fits[seat]
                if not fitting:
                    return False
                selection = fitting & -fitting  # the first in hand order
                card = selection.bit_length() - 1
                suit, value = divmod(card, VALUES)
                for run in self.runs[seat]:  # R6.3: onto the first run it extends, else its meld
                    if run[0] == suit and (run[1] == value + 1 or run[2] == value - 1):
                        if run[1] == value + 1:
                            run[1] = value
                        else:
                            run[2] = value
                        break
        self.hands[seat] = hand & ~selection
        self.sizes[seat] -= selection.bit_count()
        self.fits[seat] = self._fitting(seat)
        self.rebuilds = 0
        return True

    def chosen_discard(self, seat: int) -> int:
        """R8.3's discard for the seat (``shed_card``)."""
        sizes = self.sizes
        return shed_card(self.hands[seat], min(sizes[seat + 1:] + sizes[:seat]) <= LATE_HAND_SIZE)

    def play_out(self, drawn: bool) -> list[int]:
        """Play the round to its end, every seat as the rule book's player, from the seat to move
        (having ``drawn`` already); what each seat adds to its score."""
        seats = len(self.hands)
        # A seat is settled once R8.2 has laid down all it can: until it draws again, it holds no
        # run, no meld and no card for its sets, and then only with the card it drew.
        settled = [False] * seats
        for _ in range(TURNS_LIMIT):
            seat = self.turn
            if not drawn:
                card = self.draw(self.takes_pile(seat))
                if card < 0:
                    return self.points(None)
                if settled[seat] and not makes_set(self.hands[seat] & ~(1 << card), card, self.fits[seat]):
                    self.discard(self.chosen_discard(seat))
                    self.turn = (seat + 1) % seats
                    continue
            drawn = False
            while self.lay_down_next(seat):
                if not self.hands[seat]:
                    return self.points(seat)
            settled[seat] = True
            self.discard(self.chosen_discard(seat))
            if not self.hands[seat]:
                return self.points(seat)
            self.turn = (seat + 1) % seats
        return self.points(None)
