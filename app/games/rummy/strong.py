"""Classic Rummy's strong computer player: ``StrongPlayer.choose(game, seat)``.

It reads the game only through ``view(seat)`` (``knowledge.read_view``) and chooses among
``legal(seat)``, so it never sees a hidden card (C7.1). It draws as the rule book's player does
(C6.1). It plays for a rummy (C5.2, scored double): while the bonus is on, its hand is not open
and no other hand is down to ``LATE`` cards, it holds back every meld and lay-off C6.2 would make
unless making them all takes it out, and discards a card outside them (``held_discard``);
otherwise it melds and lays off as C6.2 does. It weighs its discard as C6.3 does, less what the
card is worth to the next player (``feeds``): the share of the next player's possible hands
(``Knowledge.deal``: the cards the seat cannot place, laid at random where they may lie, from a
generator seeded by the view) with which that card makes a new meld, so that the next player
would take it (C6.1) and meld it at once. A card all of whose partners are in sight feeds nobody.

It can also play its choices out (``best``): the draw (``draws``), its best few discards
(``candidates``) and melding against holding back for one turn (``hold``), each played to the
end of the hand (``play_out``, every seat then playing the rule book's player) in the same deals
of the unseen cards, taking the one worth most on average (the hand's points won less those
lost, C5.1, and ``GAME`` more for the game, C5.3). Against the rule book's player this measured
no gain (with the draw, four discards and holding back weighed, 40 deals each, it won 99 of 197
games of the ladder's), so it is off by default.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import partial

from .actions import Action, DiscardCard, DrawCard
from .bot import choose_discard, discard_scores, draw_source, makes_meld, next_play
from .cards import CARDS
from .knowledge import Knowledge, Table, as_game, play_out, read_view
from .state import DRAW, RummyState

HANDS = 100  # the next player's possible hands weighed
FEED = 20  # what making the next player a meld costs, in points of C6.3's discard score
DEALS = 40  # the deals of the unseen cards each choice is played out in
LATE = 4  # another hand this small may go out soon: melds are no longer held back
CANDIDATES = 1  # the discards weighed
MARGIN = 0.5  # how much more than C6's choice another must be worth on average, in points
Outcome = tuple[int | None, int]  # the seat that went out (None: a void hand) and what it scored

GAME = 50  # what winning or losing the game is worth beside the hand's points


class StrongPlayer:
    """The strong computer player (see the module's docstring)."""

    def __init__(self, hands: int = HANDS, feed: int = FEED, deals: int = DEALS, candidates: int = CANDIDATES,
                 hold: bool = False, rummy: bool = True, draws: bool = False):
        self.hold = hold
        self.rummy = rummy
        self.draws = draws
        self.hands = hands
        self.feed = feed
        self.deals = deals
        self.candidates = candidates

    def choose(self, game: RummyState, seat: int) -> Action:
        moves = game.legal(seat)
        knowledge = read_view(game.view(seat), seat)
        dealt = knowledge.deal(random.Random(0))  # (the hidden cards play no part but in the play-outs)
        table = as_game(dealt)
        if knowledge.phase == DRAW:
            sources = sorted({dict(move.params)["source"] for move in moves if move.action == "draw"})
            if not sources:
                raise ValueError("it is not this seat's turn")
            usual = draw_source(table, seat)
            if len(sources) == 1 or usual not in sources or not self.draws:
                return DrawCard(usual if usual in sources else sources[0])
            other = next(source for source in sources if source != usual)
            plays = [partial(self.after_draw, knowledge, source) for source in (usual, other)]
            return DrawCard([usual, other][self.best(knowledge, plays)])
        play = next_play(table, seat)
        if play is not None:
            kept = self.held_discard(knowledge, dealt) if self.rummy else None
            if kept is not None:
                return DiscardCard(CARDS[kept])  # its melds held back, for a rummy (C5.2)
            if self.hold and knowledge.seats == 2:
                held = choose_discard(table, seat)
                plays = [partial(self.after_plays, knowledge), partial(self.after_discard, knowledge, held)]
                if self.best(knowledge, plays) == 1:
                    return DiscardCard(CARDS[held])  # holding its melds back (see the docstring)
            return play
        feeds = self.feeds(knowledge)
        ranked = sorted(((score - self.feed * feeds(card), card) for score, card in discard_scores(table, seat)),
                        reverse=True)
        first = choose_discard(table, seat) if self.feed == 0 else ranked[0][1]
        candidates = [first] + [card for _score, card in ranked if card != first][:self.candidates - 1]
        if len(candidates) == 1 or self.candidates <= 1:
            return DiscardCard(CARDS[first])
        plays = [partial(self.after_discard, knowledge, card) for card in candidates]
        return DiscardCard(CARDS[candidates[self.best(knowledge, plays)]])

    def held_discard(self, knowledge: Knowledge, table: Table) -> int | None:
        """The card to discard holding back every meld and lay-off, for a rummy (C5.2): while the
        bonus is on, the seat has not opened its hand, no other hand is down to ``LATE`` cards,
        and playing everything would not take it out; None to play as C6.2 does."""
        seat = knowledge.seat
        if (not knowledge.rummy_bonus or knowledge.opened[seat]
                or any(owner == seat for owner, _kind, _mask in knowledge.melds)
                or any(size <= LATE for other, size in enumerate(knowledge.hand_sizes) if other != seat)):
            return None
        trial = table.copy()
        game = as_game(trial)
        while (play := next_play(game, seat)) is not None:
            trial.play(play)
        left = trial.players[seat].hand.mask
        if left.bit_count() <= 1:
            return None  # it can go out now
        feeds = self.feeds(knowledge)
        scores = [(score - self.feed * feeds(card), card) for score, card in discard_scores(as_game(table), seat)
                  if left >> card & 1]
        return max(scores)[1] if scores else None

    def best(self, knowledge: Knowledge, choices: Sequence[Callable[[Table], Outcome]]) -> int:
        """The index of the choice worth most, each played out (``choice(table)``) in the same
        deals: the first unless another is worth ``MARGIN`` more on average."""
        rng = random.Random(knowledge.seed)
        deals = [knowledge.deal(rng) for _ in range(self.deals)]
        totals = []
        for choice in choices:
            totals.append(sum(self.value(knowledge, choice(deal.copy())) for deal in deals))
        best = 0
        for index in range(1, len(choices)):
            if totals[index] > totals[best] + (MARGIN * len(deals) if best == 0 else 0):
                best = index
        return best

    @staticmethod
    def after_draw(knowledge: Knowledge, source: str, table: Table) -> Outcome:
        """Draw from ``source`` and play the hand out."""
        if not table.draw(source):
            return None, 0
        return play_out(table, drawn=True)

    @staticmethod
    def after_plays(knowledge: Knowledge, table: Table) -> Outcome:
        """Meld and lay off everything (C6.2), then play the hand out."""
        seat = knowledge.seat
        game = as_game(table)
        while (play := next_play(game, seat)) is not None:
            table.play(play)
            if not table.players[seat].hand.mask:
                return seat, table.went_out()
        return play_out(table, drawn=True)

    @staticmethod
    def after_discard(knowledge: Knowledge, card: int, table: Table) -> Outcome:
        """Discard ``card`` and play the hand out."""
        seat = knowledge.seat
        # Melds of its own not yet counted as opening its hand were laid down in this turn (C5.2).
        table.played = any(owner == seat for owner, _kind, _mask in knowledge.melds) and not knowledge.opened[seat]
        table.discard_card(card)
        if not table.players[seat].hand.mask:
            return seat, table.went_out()
        table.turn = (seat + 1) % knowledge.seats
        table.taken = None
        return play_out(table, drawn=False)

    @staticmethod
    def value(knowledge: Knowledge, outcome: Outcome) -> float:
        """What the end of a hand is worth to the seat: the points it scores less those another
        scores (C5.1), and ``GAME`` more when they end the game (C5.3)."""
        winner, points = outcome
        if winner is None:
            return 0.0
        sign = 1 if winner == knowledge.seat else -1
        ends = knowledge.scores[winner] + points >= knowledge.target
        return sign * (points + (GAME if ends else 0))

    def feeds(self, knowledge: Knowledge) -> Callable[[int], float]:
        """The share of the next player's possible hands with which a card makes a new meld."""
        following = (knowledge.seat + 1) % knowledge.seats
        rng = random.Random(knowledge.seed)
        hands = [knowledge.deal(rng).players[following].hand.mask for _ in range(self.hands)]

        def share(card: int) -> float:
            return sum(1 for hand in hands if makes_meld(card, hand)) / len(hands)

        return share

    def __repr__(self) -> str:
        return "StrongPlayer()"
