"""What a seat of Classic Rummy knows, read from its view alone, and a model of the hand being
played that the computer players of other strengths ask the rule book's player about and play
out (``Table``: the attributes of a ``RummyState`` that the rule book's player reads).

``read_view(view, seat)`` reads ``view(seat)``: the seat's hand, the melds, the discard pile's top
and size, the stock's size, every hand's size and score, and from the log's last lines the cards
each player took from the discard pile (in their hand until melded, laid off or discarded) and
the discard pile's cards seen going down. ``Knowledge.deal(rng)`` lays the cards the seat cannot
see (the other hands, the stock, the unseen part of the discard pile) at random around what it
knows, so a player reading it never reads a hidden card (C7.1).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from .actions import DISCARD_PILE, LayOff, MeldCards
from .bot import choose_discard, draw_source, next_play
from .cards import ALL, BIT, DECK, NUMBER, numbers, points
from .melds import Meld
from .state import DRAW, PLAY, RummyState

TURNS_LIMIT = 200  # a hand played out this long is counted as void (C4.2 ends real ones sooner)


@dataclass
class Knowledge:
    """What a seat knows of the hand being played, from its view (card numbers and masks)."""

    seat: int
    seats: int
    phase: str
    hand: int
    melds: list[tuple[int, str, int]]  # (owner, kind, mask), in table order
    pile: list[int]  # the discard pile's cards seen going down, bottom first; its top is the last
    pile_size: int
    stock_size: int
    turned_over: bool
    taken: int | None
    hand_sizes: list[int]
    held: list[int]  # per seat: cards known to be in that hand (taken from the discard pile)
    opened: list[bool]  # per seat: melded or laid off in an earlier turn of this hand (C5.2)
    scores: list[int]
    target: int
    rummy_bonus: bool
    seen: int  # every card face up at some moment of this hand (the view's "seen")
    seed: str = field(default="")
    must_discard: bool = False  # C9.2
    discard_back: bool = False  # C9.3

    def placed(self) -> int:
        """The cards whose place the seat knows: its hand, the melds, the discard pile's cards it
        saw go down, and the cards others took from the discard pile."""
        placed = self.hand | mask_of_pile(self.pile)
        for _owner, _kind, mask in self.melds:
            placed |= mask
        for held in self.held:
            placed |= held
        return placed

    def loose(self) -> int:
        """Cards seen face up in this hand whose place the seat does not know: lower in the
        discard pile, in a stock turned over (C4.1), or taken into a hand before the log's lines."""
        return self.seen & ~self.placed()

    def unseen(self) -> int:
        """The cards nobody saw in this hand: in the stock, or in the other hands."""
        return ALL & ~self.seen & ~self.placed()

    def deal(self, rng: random.Random) -> Table:
        """A table where the cards the seat cannot place lie at random where they may: the discard
        pile's unknown cards are loose ones (every card of it was seen), the stock holds unseen
        cards, or loose ones once turned over; the other hands take the rest."""
        loose = list(numbers(self.loose()))
        unseen = list(numbers(self.unseen()))
        rng.shuffle(loose)
        rng.shuffle(unseen)
        below = max(0, self.pile_size - len(self.pile))
        pile = [card for card in (_take(loose, unseen) for _ in range(below)) if card >= 0] + self.pile
        stock = [_take(loose, unseen) if self.turned_over else _take(unseen, loose) for _ in range(self.stock_size)]
        rest = loose + unseen
        rng.shuffle(rest)
        hands = []
        for seat in range(self.seats):
            mask = self.hand if seat == self.seat else self.held[seat]
            while mask.bit_count() < self.hand_sizes[seat] and rest:
                mask |= BIT[rest.pop()]
            hands.append(mask)
        return Table(hands, [Meld(owner, kind, mask) for owner, kind, mask in self.melds], pile,
                     [card for card in stock if card >= 0], taken=self.taken, seen=self.seen,
                     turned_over=self.turned_over, turn=self.seat, opened=list(self.opened),
                     rummy_bonus=self.rummy_bonus, must_discard=self.must_discard, discard_back=self.discard_back)


def _take(first: list[int], then: list[int]) -> int:
    """A card from ``first``, or from ``then`` when ``first`` is empty (-1: none left)."""
    if first:
        return first.pop()
    return then.pop() if then else -1


def mask_of_pile(pile: Sequence[int]) -> int:
    mask = 0
    for card in pile:
        mask |= BIT[card]
    return mask


def _number(card_id: str) -> int:
    return NUMBER[DECK.parse(card_id)]


def read_view(view: Mapping[str, Any], seat: int) -> Knowledge:
    """The seat's knowledge of the hand being played, read from ``view(seat)`` alone."""
    players = view["players"]
    seats = len(players)
    labels = [player["label"] for player in players]
    hand = 0
    for card_id in view["hand"] or ():
        hand |= BIT[_number(card_id)]
    melds = []
    owned = [0] * seats
    for meld in view["melds"]:
        mask = 0
        for card_id in meld["cards"]:
            mask |= BIT[_number(card_id)]
        melds.append((meld["owner"], meld["kind"], mask))
        owned[meld["owner"]] += 1
    lines = view["log"]
    start = 0
    dealt = f"Hand {view['hand_number']} dealt"
    for index in range(len(lines) - 1, -1, -1):
        if lines[index]["seat"] is None and lines[index]["text"].startswith(dealt):
            start = index
            break
    pile: list[int] = []
    held = [0] * seats
    opened = [False] * seats  # a turn with a play opens the hand once it ends (C5.2)
    this_turn = [False] * seats  # the seat played in the turn it is playing
    melds_now = [0] * seats  # melds laid down in that turn
    for event in lines[start:]:
        who, text = event["seat"], event["text"]
        cards = [_number(card_id) for card_id in event["cards"]]
        if who is None:
            if text.startswith(dealt):
                pile = cards[:1]
            elif text.startswith("The stock pile is empty"):
                pile = []  # C4.1: turned over into the stock
            continue
        if not text.startswith(labels[who]):
            continue
        said = text[len(labels[who]):]
        if said.startswith(" took ") and cards:
            if pile and pile[-1] == cards[0]:
                pile.pop()
            held[who] |= BIT[cards[0]]
            this_turn[who], melds_now[who] = False, 0
        elif said.startswith(" drew from the stock"):
            this_turn[who], melds_now[who] = False, 0
        elif said.startswith(" discarded ") and cards:
            pile.append(cards[0])
            held[who] &= ~BIT[cards[0]]
            opened[who] = opened[who] or this_turn[who]
        elif said.startswith((" melded ", " laid off ")):
            for card in cards:
                held[who] &= ~BIT[card]
            this_turn[who] = True
            melds_now[who] += said.startswith(" melded ")
    top = view["discard_top"]
    if top is not None and (not pile or pile[-1] != _number(top)):
        pile = [_number(top)]  # the top is always seen, whatever the lines kept
    turn = view["turn"]
    for index in range(seats):
        # Melds on the table opened their owner's hand, unless laid down in the turn being played.
        earlier = owned[index] - (melds_now[index] if index == turn else 0)
        opened[index] = opened[index] or earlier > 0
    seen = 0
    for card_id in view["seen"]:
        seen |= BIT[_number(card_id)]
    taken = view["taken"]
    phase = DRAW if view["phase"] == DRAW else PLAY
    seed = "/".join([str(view["hand_number"]), ",".join(view["hand"] or ()), str(top), str(view["discard_size"]),
                     str(view["stock_size"]), ",".join(str(p["score"]) for p in players),
                     ",".join(str(p["hand_size"]) for p in players), str(len(melds)),
                     lines[-1]["text"] if lines else ""])
    return Knowledge(seat=seat, seats=seats, phase=phase, hand=hand, melds=melds, pile=pile,
                     pile_size=view["discard_size"], stock_size=view["stock_size"],
                     turned_over=view["stock_turned_over"], taken=_number(taken) if taken else None,
                     hand_sizes=[p["hand_size"] for p in players], held=held, opened=opened,
                     scores=[p["score"] for p in players], target=view["target"], rummy_bonus=view["rummy_bonus"],
                     seen=seen, seed=seed, must_discard=view["must_discard"], discard_back=view["discard_back"])


# -- a fast model of one hand, for playing choices out ------------------------------------------------


class _Hand:
    __slots__ = ("mask",)

    def __init__(self, mask: int):
        self.mask = mask


class _Seat:
    __slots__ = ("hand",)

    def __init__(self, mask: int):
        self.hand = _Hand(mask)


class _Pile:
    __slots__ = ("cards",)

    def __init__(self, cards: list[int]):
        self.cards = cards

    def top(self) -> int | None:
        return self.cards[-1] if self.cards else None

    def __len__(self) -> int:
        return len(self.cards)


class Table:
    """One hand of Classic Rummy as the rules play it (C3, C4, C5.1, C5.2), with only what the
    rule book's player reads of a ``RummyState`` (the same attribute names), for playing out."""

    __slots__ = ("players", "melds", "discard", "stock", "taken", "seen", "turned_over", "turn", "opened",
                 "played", "rummy_bonus", "must_discard", "discard_back")

    def __init__(self, hands: Sequence[int], melds: list[Meld], pile: list[int], stock: list[int], *,
                 taken: int | None, seen: int, turned_over: bool, turn: int, opened: list[bool], rummy_bonus: bool,
                 must_discard: bool = False, discard_back: bool = False):
        self.players = [_Seat(mask) for mask in hands]
        self.melds = melds
        self.discard = _Pile(pile)
        self.stock = stock  # the top is the last card
        self.taken = taken
        self.seen = seen
        self.turned_over = turned_over
        self.turn = turn
        self.opened = opened
        self.played = False
        self.rummy_bonus = rummy_bonus
        self.must_discard = must_discard
        self.discard_back = discard_back

    def copy(self) -> Table:
        return Table([seat.hand.mask for seat in self.players], [Meld(m.owner, m.kind, m.mask) for m in self.melds],
                     list(self.discard.cards), list(self.stock), taken=self.taken, seen=self.seen,
                     turned_over=self.turned_over, turn=self.turn, opened=list(self.opened),
                     rummy_bonus=self.rummy_bonus, must_discard=self.must_discard, discard_back=self.discard_back)

    def draw(self, source: str) -> bool:
        """C3.1, C4.1: draw for the seat to move; False when the hand is void (C4.2)."""
        hand = self.players[self.turn].hand
        if source == DISCARD_PILE and self.discard.cards:
            card = self.discard.cards.pop()
            self.taken = card
        else:
            if not self.stock:
                if self.turned_over or not self.discard.cards:
                    return False
                self.stock = self.discard.cards[::-1]  # C4.1 turned over: the oldest card is the new top
                self.discard.cards = []
                self.turned_over = True
            card = self.stock.pop()
            self.taken = None
        hand.mask |= BIT[card]
        self.played = False
        return True

    def play(self, action: MeldCards | LayOff) -> None:
        hand = self.players[self.turn].hand
        if type(action) is MeldCards:
            mask = 0
            for card in action.cards:
                mask |= BIT[NUMBER[card]]
            kind = "run" if len({card.suit for card in action.cards}) == 1 else "set"
            self.melds.append(Meld(self.turn, kind, mask))
        else:
            lay_off = cast(LayOff, action)
            mask = BIT[NUMBER[lay_off.card]]
            self.melds[lay_off.meld - 1].lay_off(NUMBER[lay_off.card])
        hand.mask &= ~mask
        self.seen |= mask
        self.played = True

    def discard_card(self, card: int) -> None:
        self.players[self.turn].hand.mask &= ~BIT[card]
        self.discard.cards.append(card)
        self.seen |= BIT[card]
        self.opened[self.turn] = self.opened[self.turn] or self.played

    def went_out(self) -> int:
        """C5.1, C5.2: what the seat to move scores by going out now."""
        mover = self.turn
        scored = sum(points(seat.hand.mask) for index, seat in enumerate(self.players) if index != mover)
        if self.rummy_bonus and not self.opened[mover]:
            scored *= 2
        return scored


def as_game(table: Table) -> RummyState:
    """The table as the rule book's player reads it (it reads only what a ``Table`` has)."""
    return cast(RummyState, table)


def play_out(table: Table, drawn: bool) -> tuple[int | None, int]:
    """Play the hand to its end, every seat as the rule book's player, from the seat to move
    (having ``drawn`` already); (the seat that went out, its score), or (None, 0) if void."""
    game = as_game(table)
    seats = len(table.players)
    for _ in range(TURNS_LIMIT):
        seat = table.turn
        if not drawn and not table.draw(draw_source(game, seat)):
            return None, 0
        drawn = False
        while True:
            play = next_play(game, seat)
            if play is None:
                break
            table.play(play)
            if not table.players[seat].hand.mask:
                return seat, table.went_out()
        table.discard_card(choose_discard(game, seat))
        if not table.players[seat].hand.mask:
            return seat, table.went_out()
        table.turn = (seat + 1) % seats
        table.taken = None
    return None, 0
