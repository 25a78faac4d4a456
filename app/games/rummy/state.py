"""Classic Rummy as a state machine (C2-C5, C7): ``RummyState`` is the protocol's ``GameState``.

``apply(seat, action)`` is the only way a game changes. The core's template checks that the game
is not over, that the action is one of this game's and whose turn it is (or, for the next deal,
that the hand is over); ``_step`` checks the phase, that the cards are the seat's own and the
rule, then applies the action whole, or raises an ``IllegalAction`` having changed nothing (every
check comes before the first change).

Piles keep their top card last (``Pile.cards[-1]``). Hands are masks of card numbers
(``cards.py``), so they are always in hand order. The state is plain data (``to_dict``); the same
stacked deck or seed and the same actions always give the same game: hand ``N`` of a shuffled
game is shuffled by ``random.Random(f"rummy/{seed}/hand/{N}")`` (the game's key keeps the
shuffles of two games with one seed apart).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from app.core.cards import Card
from app.core.names import COMPUTER_NAME, is_computer_name
from app.core.protocol import (
    EVERYONE, NOBODY, BadAction, Event, GameDefinition, GameState, Move, Outcome, Said, SeatResult, View, WrongPhase,
    Zone, copy_log, filled, hide_cards, read_said, refused, said,
)
from app.core.saved import flag, reading, text, whole

from .actions import (
    DISCARD_PILE, STOCK, Action, BadSelection, CardNotInHand, DealHand, DiscardCard, DrawCard, LastCardRefused, LayOff,
    LayOffRefused, MeldCards, MeldRefused, PileEmpty, TakenCardRefused,
)
from .cards import (
    BIT, CARDS, CODE_OF, DECK, NUMBER, cards_of, codes_of, ids_of, mask_of, numbers, parse_card, points,
)
from .melds import KINDS, Meld, fitting_any, holds_meld, lay_off_refusal, meld_kind, meld_refusal

MIN_SEATS, MAX_SEATS = 2, 6  # C2.1
HAND_SIZE = {2: 10, 3: 7, 4: 7, 5: 6, 6: 6}  # C2.2
DEFAULT_TARGET, LOWEST_TARGET, HIGHEST_TARGET = 100, 50, 500  # C5.3
SEVEN_EACH = 7  # C9.5: seven cards each, whatever the seat count

# What a table does when a player draws from an empty stock (C9.4): turn the discard pile over
# once in a hand (C4.1, C4.2), or end the hand at once, with no score.
TURN_OVER, END_HAND = "turn_over", "end_hand"
STOCK_OUT = (TURN_OVER, END_HAND)
# How many cards each seat is dealt (C9.5): by the seat count (C2.2), or seven each.
BY_SEATS, SEVEN = "by_seats", "seven"
DEALS = (BY_SEATS, SEVEN)

DRAW = "draw"  # the seat to move draws (C3.1)
PLAY = "play"  # it melds, lays off, and discards (C3.2, C3.3)
BETWEEN_HANDS = "between_hands"  # a hand is over; anyone deals the next
OVER = "over"
PHASES = (DRAW, PLAY, BETWEEN_HANDS, OVER)

# The terminal's menus (C8.3); the web shows the same words on its buttons.
DRAW_MENU = ("Draw from stock pile", "Draw from discard pile")
PLAY_MENU = ("Meld", "Lay off", "Discard")
DRAW_MENU_TITLE = "Draw menu"
PLAY_MENU_TITLE = "Play menu"
# The refusals of a play before the draw, and of a play without cards, by the play.
DRAW_FIRST = {"meld": "Draw a card first, then meld.", "lay off": "Draw a card first, then lay off.",
              "discard": "Draw a card first, then discard."}
SELECT_FIRST = {"meld": "Select the cards to meld.", "lay off": "Select the cards to lay off.",
                "discard": "Select the cards to discard."}

STATE_FORMAT = 1

# The log's lines in players' words (the web's; the terminal prints their texts)
MELDED = {"set": "{player} melded a set: {cards} (meld {meld}).",
          "run": "{player} melded a run: {cards} (meld {meld})."}
LAID_OFF_OWN = {"set": "{player} laid off the {card} on meld {meld}, their own set: {meld_cards}.",
                "run": "{player} laid off the {card} on meld {meld}, their own run: {meld_cards}."}
LAID_OFF = {"set": "{player} laid off the {card} on meld {meld}, {owner}'s set: {meld_cards}.",
            "run": "{player} laid off the {card} on meld {meld}, {owner}'s run: {meld_cards}."}

# The log line that starts a hand (a replay jumps to it: the definition's ``round_lines``).
HAND_DEALT = "Hand {hand}: {player} plays first; the {card} is turned up on the discard pile."


class Pile:
    """PILE (the notes): cards in order, bottom first and top last, face up (the discard pile) or
    face down (the stock). Cards are taken from the top and placed on the top."""

    __slots__ = ("cards", "face_up")

    def __init__(self, cards: Iterable[int] = (), *, face_up: bool):
        self.cards: list[int] = list(cards)
        self.face_up = face_up

    def __len__(self) -> int:
        return len(self.cards)

    def top(self) -> int | None:
        return self.cards[-1] if self.cards else None

    def take_top(self) -> int:
        return self.cards.pop()

    def place_on_top(self, card: int) -> None:
        self.cards.append(card)

    def turn_over(self) -> Pile:
        """C4.1: the whole pile turned over without shuffling: its bottom card is now the top."""
        turned = Pile(reversed(self.cards), face_up=not self.face_up)
        self.cards = []
        return turned


class Deck:
    """DECK (the notes): the 52 cards in an order, top first; shuffled, dealt from the top."""

    __slots__ = ("cards",)

    def __init__(self, cards: Iterable[int]):
        self.cards: list[int] = list(cards)

    @classmethod
    def full(cls) -> Deck:
        return cls(range(len(CARDS)))

    def shuffle(self, rng: random.Random) -> None:
        rng.shuffle(self.cards)

    def take_top(self) -> int:
        return self.cards.pop(0)

    def add(self, card: int) -> None:
        self.cards.append(card)

    def __len__(self) -> int:
        return len(self.cards)


class PlayerHand:
    """PLAYER HAND (the notes): the cards a player holds, as a mask (always in hand order)."""

    __slots__ = ("mask",)

    def __init__(self, mask: int = 0):
        self.mask = mask

    def cards(self) -> list[Card]:
        return [CARDS[number] for number in numbers(self.mask)]

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __contains__(self, card: int) -> bool:
        return bool(self.mask & BIT[card])

    def add(self, card: int) -> None:
        self.mask |= BIT[card]

    def remove(self, card: int) -> None:
        self.mask &= ~BIT[card]

    def points(self) -> int:
        return points(self.mask)


class Player:
    """PLAYER (the notes): a name, a hand, a score; their melds are the table's melds they own.
    ``opened``: they melded or laid off in an earlier turn of this hand (C5.2)."""

    __slots__ = ("name", "hand", "score", "hands_won", "rummies", "opened")

    def __init__(self, name: str):
        self.name = name
        self.hand = PlayerHand()
        self.score = 0
        self.hands_won = 0
        self.rummies = 0
        self.opened = False

    @property
    def is_computer(self) -> bool:
        return self.name == COMPUTER_NAME


class RummyView(View):
    """What a seat sees of a Classic Rummy game (C7.1): the shared keys and the board's."""

    phase: str
    hand_number: int
    target: int
    rummy_bonus: bool
    must_discard: bool
    discard_back: bool
    stock_out: str
    deal_size: str
    discard_top: str | None
    discard_size: int
    stock_size: int
    stock_turned_over: bool
    melds: list[dict[str, Any]]
    latest_meld: int | None
    taken: str | None
    drawn: str | None
    fits: dict[str, list[int]]
    seen: list[str]
    winner: int | None


class RummyState(GameState):
    """One game of Classic Rummy. See the module's docstring."""

    deck = DECK

    def __init__(self, definition: GameDefinition, names: Sequence[str], *, target: int = DEFAULT_TARGET,
                 rummy_bonus: bool = True, seed: int | str | None = None, stacked_deck: Sequence[int] | None = None,
                 must_discard: bool = False, discard_back: bool = False, stock_out: str = TURN_OVER,
                 deal_size: str = BY_SEATS):
        super().__init__(definition, names)
        self.players = [Player(name) for name in names]
        self.target = target
        self.rummy_bonus = rummy_bonus
        self.must_discard = must_discard  # C9.2
        self.discard_back = discard_back  # C9.3
        self.stock_out = STOCK_OUT[STOCK_OUT.index(stock_out)]  # C9.4
        self.deal_size = DEALS[DEALS.index(deal_size)]  # C9.5
        self.seed = seed
        self.stacked_deck = tuple(stacked_deck) if stacked_deck is not None else None
        self.hand_number = 0
        self.phase = BETWEEN_HANDS
        self.turn = 0
        self.stock = Pile(face_up=False)
        self.discard = Pile(face_up=True)
        self.melds: list[Meld] = []
        self.taken: int | None = None  # the card taken from the discard pile this turn (C3.3)
        self.drawn: int | None = None  # the card drawn this turn, from either pile (its drawer sees it marked)
        self.latest_meld: int | None = None  # the number of the meld laid down or added to last in this hand
        self.played = False  # this turn melded or laid off (C5.2)
        self.turned_over = False  # the stock was turned over in this hand (C4.2)
        self.seen = 0  # cards face up at some moment of this hand: public knowledge (C7.1)
        self.hand_results: list[dict[str, Any]] = []
        self.log_start = 0  # the line number of the current hand's first line in the game's log
        self.winner: int | None = None

    @classmethod
    def new(cls, definition: GameDefinition, names: Sequence[str], *, target: int = DEFAULT_TARGET,
            rummy_bonus: bool = True, seed: int | str | None = None,
            stacked_deck: Sequence[Card] | None = None, must_discard: bool = False, discard_back: bool = False,
            stock_out: str = TURN_OVER, deal_size: str = BY_SEATS) -> RummyState:
        """A game with hand 1 dealt (C2). ``AI`` names (any case) are computer seats."""
        if not MIN_SEATS <= len(names) <= MAX_SEATS:
            raise ValueError(f"Classic Rummy seats {MIN_SEATS} to {MAX_SEATS} players, not {len(names)}")
        if stacked_deck is None and seed is None:
            raise ValueError("a shuffled game needs a seed")
        deck = None
        if stacked_deck is not None:
            deck = [NUMBER.get(card, -1) for card in stacked_deck]
            if sorted(deck) != list(range(52)):
                raise ValueError("a stacked deck holds the 52 cards of Classic Rummy once each")
        clean = [COMPUTER_NAME if is_computer_name(name) else name.strip() for name in names]
        game = cls(definition, clean, target=target, rummy_bonus=rummy_bonus, seed=seed, stacked_deck=deck,
                   must_discard=must_discard, discard_back=discard_back, stock_out=stock_out, deal_size=deal_size)
        game.hand_number = 1
        game._deal(Outcome(DealHand()))
        return game

    # -- the protocol: reading -------------------------------------------------------------------

    def to_move(self) -> int | None:
        return self.turn if self.phase is DRAW or self.phase is PLAY else None

    def is_over(self) -> bool:
        return self.phase is OVER

    def first_player(self, hand_number: int) -> int:
        """C2.4: hand 1 starts with seat 1, hand 2 with seat 2, and so on round the table."""
        return (hand_number - 1) % len(self.players)

    def legal(self, seat: int | None) -> list[Move]:
        """The moves ``seat`` may make now. In the play phase: Discard always; Meld when the hand
        holds a set or run; Lay off when a card of the hand fits a meld on the table (its targets
        are every meld's number: the player chooses, C3.2). Discard comes first: a player (or a
        test) that always takes the first move then still plays the game on, where a Meld of
        the first three cards in hand would be refused again and again."""
        if self.phase is BETWEEN_HANDS:
            return [Move("deal", f"Deal hand {self.hand_number + 1}",
                         say=said("Deal hand {hand}", hand=self.hand_number + 1))]
        if self.phase is OVER or seat != self.turn:
            return []
        if self.phase is DRAW:
            moves = [Move("draw", DRAW_MENU[0], params=(("source", STOCK),), menu=DRAW_MENU_TITLE)]
            if self.discard.cards:
                moves.append(Move("draw", DRAW_MENU[1], params=(("source", DISCARD_PILE),), menu=DRAW_MENU_TITLE))
            return moves
        hand = self.players[seat].hand.mask
        moves = [Move("discard", PLAY_MENU[2], pick=(1, 1), menu=PLAY_MENU_TITLE)]
        if holds_meld(hand):
            moves.append(Move("meld", PLAY_MENU[0], pick=(3, hand.bit_count()), menu=PLAY_MENU_TITLE))
        if hand & fitting_any(self.melds):
            moves.append(Move("lay_off", PLAY_MENU[1], pick=(1, 1), target="meld",
                              targets=tuple(str(n) for n in range(1, len(self.melds) + 1)),
                              menu=PLAY_MENU_TITLE))
        return moves

    def zones(self) -> list[Zone]:
        """C7.1: the other hands and the stock are hidden, but for the cards every player saw face
        up during this hand (taken from the discard pile, or in a stock turned over from the
        discard pile, C4.1); the melds and the discard pile lie face up. Once a hand is over, the
        hands left are shown with the points they count (C5.1; the rule book does not say, the
        house shows every hand left after a round as Mason and Points Rummy do)."""
        seen = self.seen
        shown = self.phase is BETWEEN_HANDS or self.phase is OVER
        stock = mask_of(self.stock.cards)
        zones = [Zone("stock", cards_of(stock & ~seen), NOBODY),
                 Zone("stock, seen during this hand", cards_of(stock & seen), EVERYONE),
                 Zone("discard pile", [CARDS[number] for number in self.discard.cards], EVERYONE),
                 Zone("melds", [card for meld in self.melds for card in cards_of(meld.mask)], EVERYONE)]
        for seat, player in enumerate(self.players):
            hand = player.hand.mask
            known = hand if shown else hand & seen
            name = self.label(seat)
            zones.append(Zone(f"{name}'s hand, seen during this hand", cards_of(known), EVERYONE, holder=name))
            if not shown:
                zones.append(Zone(f"{name}'s hand", cards_of(hand & ~known), frozenset({seat}), holder=name))
        return self.public_once_over(zones)

    # -- the protocol: changing ------------------------------------------------------------------

    def out_of_turn_refusal(self, seat: int | None) -> Said:
        return said("It is {player}'s turn.", player=self.label(self.turn))

    def between_rounds_refusal(self) -> Said:
        return said("Hand {hand} is over: deal the next hand first.", hand=self.hand_number)

    def mid_round_refusal(self) -> Said:
        return said("Hand {hand} is still being played.", hand=self.hand_number)

    def _step(self, seat: int | None, action: Action) -> Outcome:
        """Apply ``action`` (the core has checked whose turn it is) whole, or raise an
        ``IllegalAction`` changing nothing."""
        outcome = Outcome(action, seat)
        if type(action) is DealHand:  # between hands (the core checked), anyone at the table
            self.hand_number += 1
            self._deal(outcome)
        elif type(action) is DrawCard:
            self._draw(action.source, outcome)
        elif type(action) is DiscardCard:
            self._discard(action.card, outcome)
        elif type(action) is MeldCards:
            self._meld(action.cards, outcome)
        elif type(action) is LayOff:
            self._lay_off(action.card, action.meld, outcome)
        return outcome

    def _deal(self, outcome: Outcome) -> None:
        """C2.2-C2.4: one card at a time to each seat in turn, from the hand's first player, then
        one card face up to start the discard pile; the rest is the stock."""
        number = self.hand_number
        if self.stacked_deck is not None:
            deck = Deck(self.stacked_deck)  # C8.1: the same order every hand
        else:
            deck = Deck.full()
            deck.shuffle(random.Random(f"rummy/{self.seed}/hand/{number}"))
        seats = len(self.players)
        first = self.first_player(number)
        for player in self.players:
            player.hand = PlayerHand()
            player.opened = False
        for dealt in range(self.hand_size() * seats):
            self.players[(first + dealt) % seats].hand.add(deck.take_top())
        up = deck.take_top()
        self.discard = Pile([up], face_up=True)
        self.stock = Pile(reversed(deck.cards), face_up=False)  # the deck's top is the stock's top
        self.melds = []
        self.latest_meld = None
        self.turn = first
        self.phase = DRAW
        self.taken = None
        self.drawn = None
        self.played = False
        self.turned_over = False
        self.seen = BIT[up]
        self.log_start = self.log_total
        self.log_event(outcome, None, f"Hand {number} dealt: {self.label(first)} plays first; {CODE_OF[up]} is "
                                    f"turned up on the discard pile.", [CARDS[up]],
                       say=said(HAND_DEALT,
                                hand=number, player=self.label(first), card=CARDS[up].id))

    def hand_size(self) -> int:
        """How many cards each seat is dealt: C2.2, or seven each (C9.5)."""
        return SEVEN_EACH if self.deal_size is SEVEN else HAND_SIZE[len(self.players)]

    def _draw(self, source: str, outcome: Outcome) -> None:
        if self.phase is not DRAW:
            raise WrongPhase("You have drawn already this turn: meld, lay off or discard.")
        seat = self.turn
        name = self.label(seat)
        if source == STOCK:
            if not self.stock.cards:
                if self.stock_out is END_HAND:  # C9.4: the hand ends when the stock runs out
                    self.log_event(outcome, seat, f"{name} chose the stock pile, but it is empty: "
                                                f"hand {self.hand_number} is void, no score.",
                                   say=said("{player} chose the stock pile, but it is empty: hand {hand} is void, "
                                            "and nobody scores.", player=name, hand=self.hand_number))
                    self._end_hand(None, outcome)
                    return
                if self.turned_over or not self.discard.cards:
                    self.log_event(outcome, seat, f"{name} chose the stock pile, but it is empty again: "
                                                f"hand {self.hand_number} is void, no score.",
                                   say=said("{player} chose the stock pile, but it is empty again: hand {hand} is "
                                            "void, and nobody scores.", player=name, hand=self.hand_number))
                    self._end_hand(None, outcome)
                    return
                self.stock = self.discard.turn_over()  # C4.1
                self.turned_over = True
                self.log_event(outcome, None, f"The stock pile is empty: the discard pile ({len(self.stock)} "
                                            f"cards) is turned over to make a new stock.",
                               say=said(("The stock pile is empty: the discard pile's {count} card is turned over "
                                         "to make a new stock.", "The stock pile is empty: the discard pile's {count} "
                                         "cards are turned over to make a new stock."), count=len(self.stock)))
            card = self.stock.take_top()
            self.taken = None
            self.log_event(outcome, seat, f"{name} drew from the stock pile.",
                           say=said("{player} drew from the stock pile.", player=name))
        elif source == DISCARD_PILE:
            if not self.discard.cards:
                raise PileEmpty("The discard pile is empty: draw from the stock pile.")
            card = self.discard.take_top()
            self.taken = card
            self.log_event(outcome, seat, f"{name} took {CODE_OF[card]} from the discard pile.", [CARDS[card]],
                           say=said("{player} took the {card} from the discard pile.", player=name,
                                    card=CARDS[card].id))
        else:
            raise BadAction("Draw from the stock pile or the discard pile.")
        self.players[seat].hand.mask |= BIT[card]
        self.drawn = card
        self.played = False
        self.phase = PLAY

    def _selection(self, cards: Sequence[Card], what: str) -> int:
        """The mask of ``cards`` after checking the phase and that they are the seat's own."""
        if self.phase is not PLAY:
            raise refused(WrongPhase, said(DRAW_FIRST[what]))
        mask = 0
        hand = self.players[self.turn].hand.mask
        for card in cards:
            number = NUMBER.get(card)
            if number is None:
                raise BadAction(f"{card!r} is not a card of this game.")
            bit = BIT[number]
            if mask & bit:
                raise refused(BadSelection, said("{code} was selected twice.", code=card.code))
            if not hand & bit:
                raise refused(CardNotInHand, said("{code} is not in your hand.", code=card.code))
            mask |= bit
        if not mask:
            raise refused(BadSelection, said(SELECT_FIRST[what]))
        return mask

    def _check_taken_card(self, remaining: int, played: int) -> None:
        """C3.3, second half: no play may leave the card taken from the discard pile this turn as
        the only card in hand (it could not be discarded), unless it may be discarded back (C9.3).
        C9.2: at a table where the last card must be discarded, no play may leave no card."""
        if not remaining and self.must_discard:
            raise refused(LastCardRefused, said("Playing {codes} would leave you no card to discard: at this "
                                                "table you go out by discarding your last card.",
                                                codes=codes_of(played)))
        taken = self.taken
        if taken is not None and remaining == BIT[taken] and not self.discard_back:
            raise refused(TakenCardRefused, said(
                "Playing {codes} would leave {code}, the card you took from the discard pile this turn, as your "
                "only card, and you may not discard it this turn.", codes=codes_of(played), code=CODE_OF[taken]))

    def _meld(self, cards: Sequence[Card], outcome: Outcome) -> None:
        mask = self._selection(cards, "meld")
        kind = meld_kind(mask)
        if kind is None:
            raise refused(MeldRefused, said("{reason}.", reason=meld_refusal(mask)))
        player = self.players[self.turn]
        remaining = player.hand.mask & ~mask
        self._check_taken_card(remaining, mask)
        player.hand.mask = remaining
        self.melds.append(Meld(self.turn, kind, mask))
        self.latest_meld = len(self.melds)
        self.seen |= mask
        self.played = True
        self.log_event(outcome, self.turn, f"{self.label(self.turn)} melded a {kind}: {codes_of(mask)} "
                                         f"(meld {len(self.melds)}).", cards_of(mask),
                       say=said(MELDED[kind], player=self.label(self.turn), cards=ids_of(mask), meld=len(self.melds)))
        if not remaining:
            self._went_out(outcome)

    def _lay_off(self, card: Card, number: int, outcome: Outcome) -> None:
        mask = self._selection((card,), "lay off")
        if not self.melds:
            raise LayOffRefused("There is no meld on the table to lay off on.")
        if not (type(number) is int and 1 <= number <= len(self.melds)):
            raise refused(LayOffRefused, said("There is no meld {meld}: the melds on the table are numbered 1 to "
                                              "{melds}.", meld=str(number)[:20], melds=len(self.melds)))
        meld = self.melds[number - 1]
        card_number = NUMBER[card]
        if not meld.fits & mask:
            raise refused(LayOffRefused, said("{reason}.", reason=lay_off_refusal(card_number, meld, number,
                                                                                  self.label(meld.owner))))
        player = self.players[self.turn]
        remaining = player.hand.mask & ~mask
        self._check_taken_card(remaining, mask)
        player.hand.mask = remaining
        meld.lay_off(card_number)
        self.latest_meld = number
        self.seen |= mask
        self.played = True
        owner = "their own" if meld.owner == self.turn else f"{self.label(meld.owner)}'s"
        words = LAID_OFF_OWN[meld.kind] if meld.owner == self.turn else LAID_OFF[meld.kind]
        self.log_event(outcome, self.turn, f"{self.label(self.turn)} laid off {card.code} on meld {number}, "
                                         f"{owner} {meld.kind}: {codes_of(meld.mask)}.", [card],
                       say=said(words, player=self.label(self.turn), card=card.id, meld=number,
                                owner=self.label(meld.owner), meld_cards=ids_of(meld.mask)))
        if not remaining:
            self._went_out(outcome)

    def _discard(self, card: Card, outcome: Outcome) -> None:
        mask = self._selection((card,), "discard")
        number = NUMBER[card]
        if number == self.taken and not self.discard_back:  # C3.3; C9.3 lets it go back
            raise refused(TakenCardRefused, said("You took {code} from the discard pile this turn: you may not "
                                                 "discard it this turn.", code=card.code))
        seat = self.turn
        player = self.players[seat]
        player.hand.mask &= ~mask
        self.discard.cards.append(number)
        self.seen |= mask
        self.log_event(outcome, seat, f"{self.label(seat)} discarded {card.code}.", [card],
                       say=said("{player} discarded the {card}.", player=self.label(seat), card=card.id))
        if not player.hand.mask:
            self._went_out(outcome)  # C3.4: going out by the discard
            return
        player.opened = player.opened or self.played
        self.turn = (seat + 1) % len(self.players)
        self.phase = DRAW
        self.taken = None
        self.drawn = None
        self.played = False

    def _went_out(self, outcome: Outcome) -> None:
        """C3.4, C5.1, C5.2: the hand ends the moment a hand is empty; the player who went out
        scores the points left in the other hands, double for a rummy."""
        seat = self.turn
        player = self.players[seat]
        scored = sum(other.hand.points() for other in self.players if other is not player)
        rummy = not player.opened  # every meld and lay-off of the hand made in this one turn
        if rummy and self.rummy_bonus:
            scored *= 2
        player.score += scored
        player.hands_won += 1
        player.rummies += rummy
        name = self.label(seat)
        if rummy:
            bonus = ", doubled" if self.rummy_bonus else " (no bonus at this table)"
            self.log_event(outcome, seat, f"{name} went out in one turn: rummy! {name} scores {scored} "
                                        f"points{bonus}.",
                           say=said(("{player} went out in one turn: rummy! {player} scores {count} point, doubled.",
                                     "{player} went out in one turn: rummy! {player} scores {count} points, doubled.")
                                    if self.rummy_bonus else
                                    ("{player} went out in one turn: rummy! {player} scores {count} point (no bonus "
                                     "at this table).", "{player} went out in one turn: rummy! {player} scores "
                                     "{count} points (no bonus at this table)."), player=name, count=scored))
        else:
            self.log_event(outcome, seat, f"{name} went out and scores {scored} points.",
                           say=said(("{player} went out and scores {count} point.",
                                     "{player} went out and scores {count} points."), player=name, count=scored))
        self._end_hand(seat, outcome, scored, rummy)

    def _end_hand(self, went_out: int | None, outcome: Outcome, scored: int = 0, rummy: bool = False) -> None:
        points_by_seat = [scored if seat == went_out else 0 for seat in range(len(self.players))]
        self.hand_results.append({"hand": self.hand_number, "went_out": went_out, "points": points_by_seat,
                                  "rummy": rummy, "void": went_out is None})
        self.taken = None
        self.drawn = None
        self.played = False
        outcome.round_over = True
        if went_out is not None and self.players[went_out].score >= self.target:  # C5.3
            self.winner = went_out
            self.phase = OVER
            outcome.game_over = True
            name = self.label(went_out)
            self.log_event(outcome, went_out, f"{name} reaches {self.players[went_out].score} points "
                                            f"(target {self.target}) and wins the game.",
                           say=said("{player} reaches {points} points (target {target}) and wins the game.",
                                    player=name, points=self.players[went_out].score, target=self.target))
        elif self.replays_for_ever():
            self.phase = OVER
            outcome.game_over = True
            self.log_event(outcome, None, f"Every seat is a computer player and the last {len(self.players)} hands "
                                        f"were void: dealt from the same stacked deck, the hands would "
                                        f"repeat for ever, so the game ends here with no winner.",
                           say=said("Every seat is a computer player and the last {count} hands were void: dealt "
                                    "from the same stacked deck, the hands would repeat for ever, so the game ends "
                                    "here with no winner.", count=len(self.players)))
        else:
            self.phase = BETWEEN_HANDS

    def replays_for_ever(self) -> bool:
        """Project decision (the rule book is silent): a stacked game (C8.1) whose seats are all
        computer players replays the same hands in a cycle of one hand a seat (the deal rotates
        with the first player, C2.4, and the computer player is deterministic). If a whole cycle
        is void (C4.2), nobody can ever score: the game ends with no winner."""
        seats = len(self.players)
        return (self.stacked_deck is not None and all(player.is_computer for player in self.players)
                and len(self.hand_results) >= seats and all(r["void"] for r in self.hand_results[-seats:]))

    # -- what a seat may see (C7.1) ---------------------------------------------------------------

    def view(self, seat: int | None) -> RummyView:
        """C7.1: the melds, the discard top, the stock size, every hand's size and score, the
        seat's own hand, and the cards seen face up during this hand; never another hand or the
        stock."""
        if not self.is_seat(seat):
            seat = None
        players = []
        for index, player in enumerate(self.players):
            players.append({
                **self.seat_view(index),
                "hand_size": len(player.hand),
                "score": player.score,
                "melds": [number for number, meld in enumerate(self.melds, start=1) if meld.owner == index],
                "hands_won": player.hands_won,
            })
        melds = [{
            "number": number,
            "owner": meld.owner,
            "owner_label": self.label(meld.owner),
            "kind": meld.kind,
            "cards": ids_of(meld.mask),
        } for number, meld in enumerate(self.melds, start=1)]
        hand = self.players[seat].hand.mask if seat is not None else 0
        my_turn = seat is not None and seat == self.to_move()
        fits = {}
        if my_turn and self.phase is PLAY:
            for card in numbers(hand):
                where = [number for number, meld in enumerate(self.melds, start=1) if meld.fits & BIT[card]]
                if where:
                    fits[CARDS[card].id] = where
        top = self.discard.top()
        return {
            "seat": seat,
            "players": players,
            "turn": self.to_move(),
            "stage": self.stage(),
            "stage_say": self.stage_said(),
            "prompt": filled(prompt := self._prompt(seat)),
            "prompt_say": prompt,
            "hand": ids_of(hand) if seat is not None else None,
            "log": self.view_log(seat),
            "summary": self._summary(),
            "phase": self.phase,
            "hand_number": self.hand_number,
            "target": self.target,
            "rummy_bonus": self.rummy_bonus,
            "must_discard": self.must_discard,
            "discard_back": self.discard_back,
            "stock_out": self.stock_out,
            "deal_size": self.deal_size,
            "discard_top": CARDS[top].id if top is not None else None,
            "discard_size": len(self.discard),
            "stock_size": len(self.stock),
            "stock_turned_over": self.turned_over,
            "melds": melds,
            "latest_meld": self.latest_meld,
            "taken": CARDS[self.taken].id if my_turn and self.taken is not None else None,
            "drawn": CARDS[self.drawn].id if my_turn and self.drawn is not None and hand & BIT[self.drawn] else None,
            "fits": fits,
            # Every card face up at some moment of this hand, which every player saw (C7.1): what
            # the computer players count as no longer to come (C6.3).
            "seen": ids_of(self.seen),
            "winner": self.winner,
        }

    def stage(self) -> str:
        return filled(self.stage_said())

    def stage_said(self) -> Said:
        if self.phase is OVER:
            return said("Game over after hand {hand}", hand=self.hand_number)
        return said("Hand {hand} - target {target}", hand=self.hand_number, target=self.target)

    def _prompt(self, seat: int | None) -> Said:
        if self.phase is OVER:
            return said("{player} won the game.", player=self.label(self.winner)) if self.winner is not None \
                else said("The game is over.")
        if self.phase is BETWEEN_HANDS:
            return said("Hand {hand} is over: deal hand {next}.", hand=self.hand_number, next=self.hand_number + 1)
        if seat != self.turn:
            return said("{player} is playing.", player=self.label(self.turn))
        if self.phase is DRAW:
            return said("Draw a card from the stock pile or the discard pile.")
        return said("Meld, lay off, or discard a card to end your turn.")

    def _summary(self) -> dict[str, Any] | None:
        """Between hands and at the end: the last hand's lines (C8.4) and the totals; ``title``
        is the status bar's line."""
        if self.phase is not BETWEEN_HANDS and self.phase is not OVER:
            return None
        last = self.hand_results[-1]
        if last["void"]:
            title_say = said("Hand {hand}: no score", hand=last["hand"])
        elif last["rummy"]:
            title_say = said("Hand {hand}: {player} went out with a rummy", hand=last["hand"],
                             player=self.label(last["went_out"]))
        else:
            title_say = said("Hand {hand}: {player} went out", hand=last["hand"], player=self.label(last["went_out"]))
        return {
            "title": filled(title_say),
            "title_say": title_say,
            "hand": last["hand"],
            "void": last["void"],
            "went_out": last["went_out"],
            "rummy": last["rummy"],
            "points": list(last["points"]),
            "totals": [player.score for player in self.players],
            "lines": self.hand_lines(len(self.hand_results) - 1),
            "hands": self.hands_left(last["went_out"]),
            "winner": self.winner,
        }

    def hands_left(self, went_out: int | None) -> list[dict[str, Any]]:
        """The cards left in each hand but the one that went out, with their points (C5.1): what
        the hand scored, shown to everyone once it is over."""
        return [{"seat": seat, "label": self.label(seat), "cards": [card.id for card in cards_of(player.hand.mask)],
                 "points": player.hand.points()}
                for seat, player in enumerate(self.players) if seat != went_out]

    def hand_lines(self, index: int) -> list[str]:
        """C8.4: ``Hand N:`` and one ``NAME: P points, total T`` line a seat, or ``Hand N: no
        score`` for a void hand (totals as they were after that hand)."""
        result = self.hand_results[index]
        if result["void"]:
            return [f"Hand {result['hand']}: no score"]
        totals = [sum(r["points"][seat] for r in self.hand_results[:index + 1]) for seat in range(len(self.players))]
        lines = [f"{self.label(seat)}: {result['points'][seat]} points, total {totals[seat]}"
                 for seat in range(len(self.players))]
        return [f"Hand {result['hand']}:", *lines]

    def shown_log(self, seat: int | None, lines: Sequence[Event], first: int) -> list[Event]:
        """The log's lines as ``seat`` may read them now. An earlier hand's line may name a card
        that is now, in this hand, hidden from ``seat`` (dealt again into another hand, or in the
        stock): that code is shown as ``??``, since a view never names a card its seat may not
        see."""
        earlier = min(len(lines), self.log_start - first)
        if not self.log_start or earlier <= 0:
            return copy_log(lines)
        hidden = {card.id for card in self.hidden_from(seat)}

        def mask(match: re.Match[str]) -> str:
            return "??" if match.group(0) in hidden else match.group(0)

        shown = [{"seat": event["seat"], "text": _CODE_PATTERN.sub(mask, event["text"]),
                  "cards": [card for card in event["cards"] if card not in hidden],
                  **({"say": hide_cards(event["say"], hidden)} if "say" in event else {})}
                 for event in lines[:earlier]]
        shown += copy_log(lines[earlier:])
        return shown

    # -- results and statistics (C5.3, C5.4) ------------------------------------------------------

    def results(self) -> list[SeatResult]:
        if self.phase is not OVER:
            return []
        results = []
        for seat, player in enumerate(self.players):
            won = seat == self.winner
            lost = not won and self.winner is not None  # a game ended with no winner is lost by nobody
            figures = {"games_played": 1, "games_won": int(won), "games_lost": int(lost),
                       "hands_won": player.hands_won, "rummies": player.rummies}
            if won:
                figures["best_winning_total"] = player.score
            results.append(SeatResult(seat, player.name, won, player.score, figures))
        return results

    # -- plain data ----------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": STATE_FORMAT,
            "names": self.names,
            "target": self.target,
            "rummy_bonus": self.rummy_bonus,
            "must_discard": self.must_discard,
            "discard_back": self.discard_back,
            "stock_out": self.stock_out,
            "deal_size": self.deal_size,
            "seed": self.seed,
            "stacked_deck": [CARDS[n].id for n in self.stacked_deck] if self.stacked_deck is not None else None,
            "hand_number": self.hand_number,
            "phase": self.phase,
            "turn": self.turn,
            "players": [{"hand": ids_of(p.hand.mask), "score": p.score, "hands_won": p.hands_won,
                         "rummies": p.rummies, "opened": p.opened} for p in self.players],
            "stock": [CARDS[n].id for n in reversed(self.stock.cards)],  # top first
            "discard": [CARDS[n].id for n in self.discard.cards],  # bottom first, top last
            "melds": [{"owner": m.owner, "kind": m.kind, "cards": ids_of(m.mask)} for m in self.melds],
            "taken": CARDS[self.taken].id if self.taken is not None else None,
            "drawn": CARDS[self.drawn].id if self.drawn is not None else None,
            "latest_meld": self.latest_meld,
            "played": self.played,
            "turned_over": self.turned_over,
            "seen": ids_of(self.seen),
            "hand_results": [dict(r, points=list(r["points"])) for r in self.hand_results],
            **self.log_to_dict(),
            "log_start": self.log_start,
            "winner": self.winner,
        }

    @classmethod
    def from_dict(cls, definition: GameDefinition, data: Mapping[str, Any]) -> RummyState:
        """A saved game; ``ValueError`` if the data is not a consistent game."""
        with reading("Classic Rummy game"):
            if data.get("format") != STATE_FORMAT:
                raise ValueError(f"unknown state format {data.get('format')!r}")
            names = [text(name) for name in data["names"]]
            if not MIN_SEATS <= len(names) <= MAX_SEATS:
                raise ValueError("a game has 2 to 6 seats")
            target = whole(data["target"], LOWEST_TARGET, HIGHEST_TARGET)
            stacked = data["stacked_deck"]
            stock_out, deal_size = data.get("stock_out", TURN_OVER), data.get("deal_size", BY_SEATS)
            if stock_out not in STOCK_OUT or deal_size not in DEALS:
                raise ValueError(f"unknown house rules {stock_out!r}, {deal_size!r}")
            # (games saved before the house rules of C9 have none: the rule book's)
            game = cls(definition, names, target=target, rummy_bonus=flag(data["rummy_bonus"]),
                       seed=_seed(data["seed"]),
                       stacked_deck=[parse_card(c) for c in stacked] if stacked is not None else None,
                       must_discard=flag(data.get("must_discard", False)),
                       discard_back=flag(data.get("discard_back", False)), stock_out=stock_out, deal_size=deal_size)
            if game.stacked_deck is not None and sorted(game.stacked_deck) != list(range(52)):
                raise ValueError("the stacked deck does not hold the 52 cards once each")
            game.hand_number = whole(data["hand_number"], 1, 10**9)
            phase = data["phase"]
            if phase not in PHASES:
                raise ValueError(f"unknown phase {phase!r}")
            game.phase = PHASES[PHASES.index(phase)]  # the module's own string, compared with `is`
            game.turn = whole(data["turn"], 0, len(names) - 1)
            seat_data = data["players"]
            if len(seat_data) != len(names):
                raise ValueError("one entry a seat")
            for player, saved in zip(game.players, seat_data):
                player.hand.mask = mask_of(_cards(saved["hand"]))
                player.score = whole(saved["score"], 0, 10**9)
                player.hands_won = whole(saved["hands_won"], 0, 10**9)
                player.rummies = whole(saved["rummies"], 0, 10**9)
                player.opened = flag(saved["opened"])
            game.stock = Pile(reversed(_cards(data["stock"])), face_up=False)
            game.discard = Pile(_cards(data["discard"]), face_up=True)
            for saved in data["melds"]:
                owner = whole(saved["owner"], 0, len(names) - 1)
                mask = mask_of(_cards(saved["cards"]))
                if saved["kind"] not in KINDS or meld_kind(mask) != saved["kind"]:
                    raise ValueError("a meld on the table is not a valid meld")
                game.melds.append(Meld(owner, saved["kind"], mask))
            game.taken = parse_card(data["taken"]) if data["taken"] is not None else None
            drawn = data.get("drawn")  # games saved before the web table marked the drawn card have none
            game.drawn = parse_card(text(drawn)) if drawn is not None else None
            latest = data.get("latest_meld")  # the same
            game.latest_meld = None if latest is None else whole(latest, 1, len(game.melds))
            game.played = flag(data["played"])
            game.turned_over = flag(data["turned_over"])
            game.seen = mask_of(_cards(data["seen"]))
            last_seat = len(names) - 1
            game.hand_results = [{"hand": whole(r["hand"], 1, 10**9),
                                  "went_out": None if r["went_out"] is None else whole(r["went_out"], 0, last_seat),
                                  "points": [whole(p, 0, 10**9) for p in r["points"]],
                                  "rummy": flag(r["rummy"]), "void": flag(r["void"])}
                                 for r in data["hand_results"]]
            if any(len(r["points"]) != len(names) for r in game.hand_results):
                raise ValueError("a hand's points are one figure a seat")
            game.read_log(data, lambda e: {"seat": e["seat"] if e["seat"] is None else whole(e["seat"], 0, last_seat),
                                           "text": text(e["text"]), "cards": [text(c) for c in e["cards"]],
                                           **read_said(e)})
            game.log_start = whole(data["log_start"], 0, game.log_total)
            winner = data["winner"]
            game.winner = None if winner is None else whole(winner, 0, len(names) - 1)
        if game.card_locations() != Counter(DECK.cards):
            raise ValueError("the saved game does not hold the 52 cards once each")
        if game.winner is not None and game.phase is not OVER:
            raise ValueError("only a finished game has a winner")
        if game.phase is OVER and game.winner is None and not game.replays_for_ever():
            raise ValueError("a finished game has a winner")
        if game.taken is not None:
            on_table = any(meld.mask & BIT[game.taken] for meld in game.melds)  # melded since it was taken
            if game.phase is not PLAY or not (game.players[game.turn].hand.mask & BIT[game.taken] or on_table):
                raise ValueError("the card taken from the discard pile this turn is not the seat to move's")
        if game.drawn is not None:
            on_table = any(meld.mask & BIT[game.drawn] for meld in game.melds)
            if game.phase is not PLAY or not (game.players[game.turn].hand.mask & BIT[game.drawn] or on_table):
                raise ValueError("the card drawn this turn is not the seat to move's")
        return game


_CODE_PATTERN = re.compile(r"(?<![A-Za-z0-9])[A2-9TJQK][CDHS](?![A-Za-z0-9])")


def _seed(value: Any) -> int | str | None:
    if value is None or isinstance(value, str) or type(value) is int:
        return value
    raise TypeError(f"{value!r} is not a seed")


def _cards(ids: Any) -> list[int]:
    if isinstance(ids, str):
        raise TypeError("a list of card ids")
    cards = []
    for card_id in ids:
        try:
            cards.append(parse_card(text(card_id)))
        except ValueError as error:
            raise ValueError(str(error)) from None
    return cards


__all__ = ["RummyState", "RummyView", "Pile", "Deck", "Player", "PlayerHand", "DRAW", "PLAY", "BETWEEN_HANDS",
           "OVER", "HAND_SIZE", "DRAW_MENU", "PLAY_MENU"]
