"""Hands, players and the computer player's strategy (R3.4, R8).

``LivePlayer.take_turn`` asks a ``Controls`` object (the terminal's menus, a test script) for each
choice; ``ComputerPlayer.take_turn`` decides by itself. Both only act through ``Game.apply``, so
every rule is checked in one place.
"""

from __future__ import annotations

import bisect
import random
from operator import attrgetter
from typing import TYPE_CHECKING, Iterable, Protocol, Sequence

from .actions import DISCARD_PILE, STOCK, Discard, Draw, LayDown, LayDownRefused, PileEmpty, RoundOver
from .cards import Card, points_of, sort_cards
from .melds import MIN_SET_SIZE, CardSet, fitting_cards

if TYPE_CHECKING:  # pragma: no cover
    from .game import Game, Outcome

COMPUTER_NAME = "AI"  # R3.4


def is_computer_name(name: str) -> bool:
    """R3.4: the name ``AI`` in any case makes a seat a computer player."""
    return name.strip().upper() == COMPUTER_NAME


_sort_key = attrgetter("sort_key")  # R9.2 hand order


class Hand:
    """The cards a player holds, always in R9.2 order, and the sets they have laid down."""

    __slots__ = ("cards", "laid_down")

    def __init__(self, cards: Iterable[Card] = (), laid_down: Iterable[CardSet] = ()):
        self.cards: list[Card] = sort_cards(cards)
        self.laid_down: list[CardSet] = list(laid_down)

    def hand_point_value(self) -> int:
        """R1.5 points of the cards still in the hand (what counts against a player, R7.1)."""
        return points_of(self.cards)

    def already_laid_down(self) -> list[CardSet]:
        """The melds and runs this hand's owner has already laid down, first laid down first."""
        return self.laid_down

    def add(self, card: Card) -> None:
        bisect.insort(self.cards, card, key=_sort_key)

    def remove(self, card: Card) -> None:
        self.cards.remove(card)

    def card_at(self, number: int) -> Card:
        """Menu F numbering (R9.2): 1 is the first card in hand order."""
        return self.cards[number - 1]

    def copy(self) -> "Hand":
        clone = Hand.__new__(Hand)
        clone.cards = list(self.cards)
        clone.laid_down = [card_set.copy() for card_set in self.laid_down]
        return clone

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self):
        return iter(self.cards)

    def __contains__(self, card: object) -> bool:
        return card in self.cards

    def __str__(self) -> str:
        return " ".join(card.code for card in self.cards)

    def __repr__(self) -> str:
        return f"Hand({self})"


class Controls(Protocol):
    """Where a live player's choices come from (the terminal's menus, or a script in tests)."""

    def choose_draw(self, game: "Game", seat: int) -> str: ...
    def choose_action(self, game: "Game", seat: int) -> str: ...  # "lay_down" or "discard"
    def choose_lay_down(self, game: "Game", seat: int) -> Sequence[Card]: ...
    def choose_discard(self, game: "Game", seat: int) -> Card: ...
    def refused(self, game: "Game", seat: int, message: str) -> None: ...
    def done(self, game: "Game", seat: int, outcome: "Outcome") -> None: ...


LAY_DOWN_CHOICE = "lay_down"
DISCARD_CHOICE = "discard"


class Player:
    """A seat's player: a name, a hand and the score of the game so far (R3, R7)."""

    is_computer = False

    def __init__(self, name: str, hand: Hand | None = None, score: int = 0):
        self.name = name
        self.hand = hand if hand is not None else Hand()
        self.score = score

    @staticmethod
    def create(name: str) -> "Player":
        """A ``ComputerPlayer`` for ``AI`` in any case (R3.4), else a ``LivePlayer``."""
        if is_computer_name(name):
            return ComputerPlayer(COMPUTER_NAME)
        return LivePlayer(name)

    def take_turn(self, game: "Game", controls: Controls | None = None) -> None:
        """Play one whole turn: draw, lay down as chosen, discard. Raises ``RoundOver`` if the
        round ended during this turn."""
        raise NotImplementedError

    def to_dict(self) -> dict:
        return {
            "name": self.name,
            "computer": self.is_computer,
            "hand": [card.code for card in self.hand.cards],
            "sets": [card_set.to_dict() for card_set in self.hand.laid_down],
            "score": self.score,
        }

    @staticmethod
    def from_dict(data: dict) -> "Player":
        cls = ComputerPlayer if data["computer"] else LivePlayer
        hand = Hand((Card.parse(code) for code in data["hand"]), (CardSet.from_dict(s) for s in data["sets"]))
        score = data["score"]
        if not isinstance(score, int) or isinstance(score, bool) or score < 0:
            raise ValueError(f"bad score {score!r}")
        return cls(str(data["name"]), hand, score)

    def copy(self) -> "Player":
        return type(self)(self.name, self.hand.copy(), self.score)

    def __str__(self) -> str:
        cards = "card" if len(self.hand) == 1 else "cards"
        return f"{self.name}: {len(self.hand)} {cards} in hand, {self.score} points"


class LivePlayer(Player):
    """A person at the table, choosing through ``controls``."""

    def take_turn(self, game: "Game", controls: Controls | None = None) -> None:
        if controls is None:
            raise ValueError("a live player needs controls to choose with")
        seat = game.seat_of(self)
        while True:  # Menu D until a pile gives a card (R5.3)
            try:
                outcome = game.apply(seat, Draw(controls.choose_draw(game, seat)))
                break
            except PileEmpty as refusal:
                controls.refused(game, seat, str(refusal))
        controls.done(game, seat, outcome)
        if outcome.round_over:  # the draw found the round blocked (R5.3, STALL_REBUILDS)
            raise RoundOver(outcome.went_out)
        while True:  # Menu E after every lay-down attempt (R5.4)
            if controls.choose_action(game, seat) == LAY_DOWN_CHOICE:
                try:
                    outcome = game.apply(seat, LayDown(tuple(controls.choose_lay_down(game, seat))))
                except LayDownRefused as refusal:
                    controls.refused(game, seat, str(refusal))
                    continue
            else:
                outcome = game.apply(seat, Discard(controls.choose_discard(game, seat)))
            controls.done(game, seat, outcome)
            if outcome.round_over:
                raise RoundOver(outcome.went_out)
            if not isinstance(outcome.action, LayDown):
                return


class ComputerPlayer(Player):
    """The ``AI`` seat (R8): draws, plays everything it can, then discards, deterministically."""

    is_computer = True

    def take_turn(self, game: "Game", controls: Controls | None = None) -> None:
        for outcome in play_computer_turn(game, game.seat_of(self)):
            if controls is not None:
                controls.done(game, game.seat_of(self), outcome)
            if outcome.round_over:
                raise RoundOver(outcome.went_out)


# ---------------------------------------------------------------------------------------------
# The computer player's strategy. Any seat can be played by it (the web lets an AI stand in for
# an idle human), and it sees only what that seat may see: its hand, its sets, the discard top
# and the sets on the table.


def play_computer_turn(game: "Game", seat: int, discard_chooser=None):
    """Play ``seat``'s whole turn by R8, yielding each ``Outcome`` as it is applied."""
    hand = game.players[seat].hand
    drawn = game.apply(seat, Draw(computer_draw_source(game, seat)))
    yield drawn
    if drawn.round_over:  # the draw found the round blocked (STALL_REBUILDS): nothing more to do
        return
    while True:  # R8.2: play everything, runs then melds then single cards
        selection = next_computer_play(hand)
        if selection is None:
            break
        try:
            outcome = game.apply(seat, LayDown(selection))
        except LayDownRefused:  # pragma: no cover - the planner only proposes legal plays
            break
        yield outcome
        if outcome.round_over:
            return
    chooser = discard_chooser or choose_computer_discard
    yield game.apply(seat, Discard(chooser(game, seat)))


def computer_draw_source(game: "Game", seat: int) -> str:
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
    suit_bits = 0  # bit rank+2 is set for each card of ``card``'s suit
    for other in cards:
        if other.rank == card.rank:
            same_value += 1
        elif other.suit_index == card.suit_index:
            suit_bits |= 4 << other.rank
    around = (suit_bits >> card.rank) & 0b11111  # bits: r-2, r-1, (the card), r+1, r+2
    return (same_value >= MIN_SET_SIZE - 1 or (around & 0b00011) == 0b00011
            or (around & 0b01010) == 0b01010 or (around & 0b11000) == 0b11000)


def longest_run(cards: Sequence[Card]) -> tuple[Card, ...] | None:
    """The longest run in ``cards`` (first in hand order on a tie), or None.

    ``cards`` is in hand order (suit, then value), so a run is a stretch of neighbours."""
    best_start = best_length = start = 0
    previous = None
    for index, card in enumerate(cards):
        if previous is None or card.suit_index != previous.suit_index or card.rank != previous.rank + 1:
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
        counts[card.rank] += 1
    most = max(counts)
    if most < MIN_SET_SIZE:
        return None
    best_rank = 12 - counts[::-1].index(most)  # the highest value among the largest
    return tuple(card for card in cards if card.rank == best_rank)


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


def choose_computer_discard(game: "Game", seat: int) -> Card:
    """R8.3: keep what may make sets; shed points, and shed them harder when a round is ending.

    Each card gets a discard score: its points, minus what it is worth keeping (each other card
    of the same value is half a meld: 12; each same-suit neighbour half a run: 9, or 4 one value
    apart). Points count triple once some other player holds 3 cards or fewer, since the round
    may end any turn and every card left in hand then costs its points (R7.1). The highest score
    goes; ties go to the later card in hand order, so the choice is deterministic for a state.

    It uses only what the seat may see (R4.4): its hand and the other players' hand sizes.
    Measured with ``python -m app.simulate --random-discard``, and head to head against the
    earlier version, which also held back cards that fit another player's sets: that made
    3-player results clearly worse and 2-player ones no better, so it was dropped.
    """
    hand = game.players[seat].hand.cards
    round_ending = any(len(player.hand.cards) <= LATE_HAND_SIZE
                       for other, player in enumerate(game.players) if other != seat)
    point_weight = 3 if round_ending else 1
    value_counts = [0] * 13
    suit_bits = [0] * 5  # per suit, bit rank+2 is set if the hand holds that card
    for card in hand:
        value_counts[card.rank] += 1
        suit_bits[card.suit_index] |= 4 << card.rank
    best_card = hand[-1]
    best_score = None
    for card in hand:
        r = card.rank
        keep = 12 * (value_counts[r] - 1) + _RUN_KEEP[(suit_bits[card.suit_index] >> r) & 0b11111]
        score = point_weight * card.points - keep
        if best_score is None or score >= best_score:
            best_card, best_score = card, score
    return best_card


LATE_HAND_SIZE = 3  # another player this close to going out makes points urgent (R8.3 strategy)
# What same-suit neighbours are worth keeping, indexed by 5 bits of a suit's holding around a card
# of rank r (bit 0: r-2, bit 1: r-1, bit 2: the card itself, bit 3: r+1, bit 4: r+2).
_RUN_KEEP = tuple(9 * ((bits >> 1 & 1) + (bits >> 3 & 1)) + 4 * ((bits & 1) + (bits >> 4 & 1)) for bits in range(32))


def random_discard_chooser(rng: random.Random):
    """A baseline that discards a random card (for measuring the strategy, not for play)."""

    def choose(game: "Game", seat: int) -> Card:
        return rng.choice(game.players[seat].hand.cards)

    return choose
