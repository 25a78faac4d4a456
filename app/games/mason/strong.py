"""Mason Rummy's strong computer player: ``StrongBot.choose(game, seat)``.

It reads the game only through ``view(seat)`` and chooses among ``legal(seat)``, so it never
sees a hidden card (R4.4). What it knows (``read_view``): its hand, every player's sets and hand
size, the scores, and the round's public record, as every player saw it happen: the whole
discard pile, the stock's size, the turns each player has begun and the cards each was seen
taking from the discard pile and still holds.

It lays down as the rule book's player does (R8.2). Its draw and its discard are played out: each
choice is played to the end of the round (``Round.play_out``, every seat then playing the rule
book's player) in the same deals of the cards it cannot see (``Knowledge.deal``: the other
hands and the stock, from a generator seeded by the view),
and the first choice is made unless the deals show another better: its mean gain over the
first, deal by deal, more than ``SURE`` standard errors. Another player's hand holds nothing it
could lay down, and is dealt as the rule book's player would have kept it (``shape``,
``Knowledge.shaped``: for each turn it has played a card drawn and R8.3's discard shed, so
that it holds pairs and neighbours and few high cards, as such hands do); dealt uniformly it
measured weaker than normal (docs/games/mason.md). The draw's first choice is R8.1's, or the
discard pile's top when, in its hand, that card would be worth at least its points in keeping
(a pair, or a low card beside its suit's neighbours) and far from being the card to discard
(``worth_taking``); the other source is weighed against it. The discard's first choice is
R8.3's, weighed against R8.3's next best few. A round is worth the others' points less its
own (R7.1); the last round, winning the game (R7.3).
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app.core.protocol import LOG_KEPT

from .actions import DISCARD_PILE, STOCK, Action, Discard, Draw, LayDown
from .bot import LATE_HAND_SIZE, _RUN_KEEP, next_computer_play
from .cards import FULL_DECK, Card, parse_card
from .melds import CardSet
from .players import Hand
from .playout import INDEX, Round, could_lay_down, fitting_mask, makes_set, mask_of, shed_card
from .state import MasonState

SHAPE_TURNS = 8  # the turns a dealt hand is shaped by at most (Knowledge.shaped)
REDRAWS = 12  # how often another player's hand is drawn again at most, to hold nothing to lay down


@dataclass
class Knowledge:
    """What a seat knows of the round being played, from its view."""

    seat: int
    seats: int
    drawing: bool
    hand: list[Card]
    sets: list[list[CardSet]]  # per seat, in the order laid down
    pile: list[Card]  # the discard pile, bottom first; the top is the last
    stock_size: int
    hand_sizes: list[int]
    held: list[set[Card]]  # per seat: cards known to be in that hand (taken from the discard pile)
    played: list[bool]  # per seat: it has played a turn in this round
    scores: list[int]
    turns: list[int]  # per seat: the turns it has begun this round
    round: int
    rounds: int
    seed: str

    def known(self) -> set[Card]:
        known = set(self.hand) | set(self.pile)
        for sets in self.sets:
            for card_set in sets:
                known.update(card_set.cards)
        for seat, held in enumerate(self.held):
            if seat != self.seat:
                known |= held
        return known

    def unseen(self) -> list[Card]:
        """The cards whose place the seat does not know, in deck order."""
        known = self.known()
        return [card for card in FULL_DECK if card not in known]

    def deal(self, rng: random.Random, shaped: bool = False) -> Round:
        """A round where the unseen cards lie at random, everything known as the seat knows it. A
        player who has played a turn this round holds nothing it could lay down (R8.2 lays down
        everything it can, and so does a careful player): such hands are drawn again, a few times
        at most; and, ``shaped``, its hand is then shaped as R8's player keeps its own
        (``shaped``)."""
        unseen = self.unseen()
        rng.shuffle(unseen)
        hands = []
        for seat in range(self.seats):
            if seat == self.seat:
                hands.append(list(self.hand))
                continue
            held = list(self.held[seat])
            wanted = max(0, min(self.hand_sizes[seat] - len(held), len(unseen)))
            fits = fitting_mask(self.sets[seat])
            for _ in range(REDRAWS if self.played[seat] else 1):
                drawn = rng.sample(range(len(unseen)), wanted)
                cards = held + [unseen[index] for index in drawn]
                if not self.played[seat] or not could_lay_down(mask_of(cards), fits):
                    break
            if shaped and self.turns[seat] and drawn:
                drawn = self.shaped(rng, seat, unseen, drawn, fits)
                cards = held + [unseen[index] for index in drawn]
            for index in sorted(drawn, reverse=True):
                unseen[index] = unseen[-1]
                unseen.pop()
            hands.append(cards)
        return Round.of(hands, self.sets, list(self.pile), unseen, turn=self.seat)

    def shaped(self, rng: random.Random, seat: int, unseen: list[Card], drawn: list[int], fits: int) -> list[int]:
        """The hand drawn for ``seat`` (``drawn``: its places in ``unseen``), shaped as the rule
        book's player keeps its own: for each turn the seat has played this round (at most
        ``SHAPE_TURNS``) a card of the rest is drawn into the hand and R8.3's discard from it goes
        back to the rest. A card that would make a set there (R8.1, R8.2) is not drawn, and a card
        known to be in the hand stays. Uniform hands hold more points and fewer pairs than R8's
        player keeps: over 1,433 positions of its games (from its fourth turn) its hand held 21.3
        points and 1.12 pairs, hands dealt uniformly 29.9 and 0.48, hands shaped so 22.1 and
        1.12. The places of the hand's cards in ``unseen`` after the shaping."""
        places = {unseen[index]: index for index in drawn}
        held = mask_of(list(self.held[seat]))
        hand = held | mask_of(list(places))
        late = any(size <= LATE_HAND_SIZE for other, size in enumerate(self.hand_sizes) if other != seat)
        chosen = set(drawn)
        rest = [index for index in range(len(unseen)) if index not in chosen]
        if not rest:
            return drawn
        for _ in range(min(self.turns[seat], SHAPE_TURNS)):
            place = rest[rng.randrange(len(rest))]
            card = unseen[place]
            index = INDEX[card]
            if makes_set(hand, index, fits):
                continue
            shed = shed_card(hand | 1 << index, late)
            if shed == index or held >> shed & 1:
                continue
            gone = FULL_DECK[shed]
            hand = (hand | 1 << index) & ~(1 << shed)
            slot = places.pop(gone)
            unseen[slot], unseen[place] = card, gone
            places[card] = slot
        return list(places.values())


def read_view(view: Mapping[str, Any], seat: int) -> Knowledge:
    """The seat's knowledge of the round being played, read from ``view(seat)`` alone: the
    round's public record there (the discard pile, each player's turns and the cards it was seen
    taking) is what every player saw happen."""
    players = view["players"]
    pile = [parse_card(code) for code in view["discard_pile"]]
    turns = [player["turns"] for player in players]
    lines = view["log"]
    top = view["discard_top"]
    seed = "/".join([str(view["round"]), ",".join(view["hand"] or ()), str(top), str(view["discard_size"]),
                     str(view["stock_size"]), ",".join(str(p["score"]) for p in players),
                     ",".join(str(p["hand_size"]) for p in players), lines[-1]["text"] if lines else ""])
    return Knowledge(seat=seat, seats=len(players), drawing=view["drawn"] is None and view["turn"] == seat
                     and view["prompt"] == "draw a card", hand=[parse_card(code) for code in view["hand"] or ()],
                     sets=[[CardSet.from_dict(data) for data in player["sets"]] for player in players], pile=pile,
                     stock_size=view["stock_size"],
                     hand_sizes=[p["hand_size"] for p in players],
                     held=[{parse_card(code) for code in player["seen_taken"]} for player in players],
                     played=[count > 0 for count in turns], turns=turns,
                     scores=[p["score"] for p in players], round=view["round"], rounds=view["rounds"], seed=seed)


KEEP_MARGIN = 10  # a discard is taken when it is this far from being the card to discard
CANDIDATES = 5  # the discards weighed: R8.3's best few
DEALS = 160  # the deals of the unseen cards each of them is played out in
# How sure the play-outs must be that another choice beats the first before it is made: its mean
# gain over the first, in standard errors of that gain (0: any gain on average).
SURE = 0.0
WIN = 30.0  # in the last round, a game won is worth this many points of a round's


class StrongBot:
    """The strong computer player (see the module's docstring)."""

    def __init__(self, deals: int = DEALS, candidates: int = CANDIDATES, sure: float = SURE, draws: bool = True,
                 spread: float = 0.0, shape: bool = True):
        self.spread = spread
        self.shape = shape
        self.draws = draws
        self.deals = deals
        self.candidates = candidates
        self.sure = sure

    def choose(self, game: MasonState, seat: int) -> Action:
        moves = {move.action for move in game.legal(seat)}
        view = game.view(seat)
        knowledge = read_view(view, seat)
        if "draw_stock" in moves or "draw_discard" in moves:
            if "draw_stock" not in moves:
                return Draw(DISCARD_PILE)
            if "draw_discard" not in moves:
                return Draw(STOCK)
            if stock_untouched(view):
                return Draw(STOCK)
            # (the hidden cards play no part in R8.1's choice: only the seat's hand, sets and the pile's top)
            take = knowledge.deal(random.Random(0)).takes_pile(seat)
            if not take and worth_taking(knowledge.hand, knowledge.pile[-1]):
                take = True
            sources = [DISCARD_PILE, STOCK] if take else [STOCK, DISCARD_PILE]
            if self.draws:
                return Draw(sources[self.weigh_draw(knowledge, sources)])
            return Draw(sources[0])
        if "discard" not in moves:
            raise ValueError("it is not this seat's turn")
        selection = next_computer_play(Hand(knowledge.hand, knowledge.sets[seat]))
        if selection is not None:
            return LayDown(selection)
        return Discard(self.discard(knowledge, knowledge.hand))

    def weigh_draw(self, knowledge: Knowledge, sources: Sequence[str]) -> int:
        """The index of the source to draw from: the first unless playing the round out shows the
        other to be surely better."""
        rng = random.Random(knowledge.seed)
        deals = [knowledge.deal(rng, self.shape) for _ in range(self.deals)]
        values = []
        for source in sources:
            outcomes = []
            for deal in deals:
                trial = deal.copy()
                if trial.draw(source == DISCARD_PILE) < 0:
                    outcomes.append(self.value(knowledge, trial.points(None)))
                    continue
                outcomes.append(self.value(knowledge, trial.play_out(drawn=True)))
            values.append(outcomes)
        return surely_better(values, self.sure)

    def discard(self, knowledge: Knowledge, cards: Sequence[Card]) -> Card:
        """R8.3's choice, unless playing the round out shows another of its best few to be surely
        better."""
        seat = knowledge.seat
        late = any(size <= LATE_HAND_SIZE for other, size in enumerate(knowledge.hand_sizes) if other != seat)
        scores = discard_scores(cards, 3 if late else 1)
        # R8.3's order: the highest score first, the later card in hand order on a tie.
        ranked = sorted(range(len(cards)), key=lambda index: (scores[index], index), reverse=True)
        candidates = [cards[index] for index in ranked[:self.candidates]]
        if len(candidates) == 1:
            return candidates[0]
        rng = random.Random(knowledge.seed)
        deals = [knowledge.deal(rng, self.shape) for _ in range(self.deals)]
        values = []
        for card in candidates:
            outcomes = []
            index = INDEX[card]
            for deal in deals:
                trial = deal.copy()
                trial.discard(index)
                if trial.hands[seat]:
                    trial.turn = (seat + 1) % knowledge.seats
                    outcomes.append(self.value(knowledge, trial.play_out(drawn=False)))
                else:
                    outcomes.append(self.value(knowledge, trial.points(seat)))
            values.append(outcomes)
        return candidates[surely_better(values, self.sure)]

    def value(self, knowledge: Knowledge, points: Sequence[int]) -> float:
        """What a round's points are worth to the seat: in the last round, whether its game total
        ends the lowest (R7.3); before it, the others' points less its own (R7.1), or with a
        ``spread``, the chance that its lead over the best other total holds over the rounds
        left, each round's difference spread normally with that standard deviation. (The spread
        of R8's player against itself is 19.5 points over 1,200 rounds; weighed so, with 8
        discards, the strong player won 52.8% of the ladder's first 650 games, and lost points
        on average: once the chance is nearly certain either way, the least gain moves it.)"""
        seat = knowledge.seat
        mine = knowledge.scores[seat] + points[seat]
        best_other = min(knowledge.scores[other] + points[other] for other in range(len(points)) if other != seat)
        if knowledge.round >= knowledge.rounds:
            return WIN if mine < best_other else WIN / 2 if mine == best_other else 0.0
        if self.spread:
            left = knowledge.rounds - knowledge.round
            return WIN * 0.5 * (1 + math.erf((best_other - mine) / (self.spread * math.sqrt(2 * left))))
        others = [points[other] for other in range(len(points)) if other != seat]
        return sum(others) / len(others) - points[seat]

    def __repr__(self) -> str:
        return "StrongBot()"


def stock_untouched(view: Mapping[str, Any]) -> bool:
    """Whether the view's log holds ``LOG_KEPT`` lines of this round and none of them draws from
    the stock: the seats are passing a card between them (each taking the discard pile's top and
    shedding it or another), which two play-outs may each find best forever. The round moves on
    only through the stock (R5.2's rebuilds end a stalled round), so the strong player then draws
    from it."""
    lines = view["log"]
    return len(lines) >= LOG_KEPT and all(
        line["round"] == view["round"] and not line["text"].endswith(" drew from the stock pile.") for line in lines)


def surely_better(values: Sequence[Sequence[float]], sure: float) -> int:
    """The index of the choice to make: the first (the rule book's) unless another's mean gain
    over it, deal by deal, is more than ``sure`` standard errors (the largest such gain wins)."""
    first = values[0]
    count = len(first)
    best, best_gain = 0, 0.0
    for index in range(1, len(values)):
        gains = [value - base for value, base in zip(values[index], first)]
        mean = sum(gains) / count
        if count < 2 or mean <= best_gain:
            continue
        spread = math.sqrt(sum((gain - mean) ** 2 for gain in gains) / (count - 1))
        if mean > sure * spread / math.sqrt(count):
            best, best_gain = index, mean
    return best


def worth_taking(cards: Sequence[Card], top: Card) -> bool:
    """Would ``top``, in the hand, be worth at least its points in keeping (R8.3's scores), and
    far from being the card to discard?"""
    scores = discard_scores([*cards, top], 1)
    return scores[-1] <= 0 and scores[-1] + KEEP_MARGIN < max(scores)


def discard_scores(cards: Sequence[Card], point_weight: int) -> list[int]:
    """R8.3's discard score of each card (its points less what it is worth keeping)."""
    counts = [0] * 13
    suits = [0] * 5
    for card in cards:
        counts[card.order] += 1
        suits[card.suit_index] |= 4 << card.order
    return [point_weight * card.points - 12 * (counts[card.order] - 1)
            - _RUN_KEEP[(suits[card.suit_index] >> card.order) & 0b11111] for card in cards]
