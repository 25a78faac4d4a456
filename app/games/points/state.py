"""Points Rummy as a state machine (P2-P6).

``PointsState.apply(seat, action)`` is the only way a game changes. The core's template checks
that the game is not over, that the action is one of this game's, and that it is the seat's turn
(for the turn's actions), or between deals (for the next deal), or a seat's own (arranging);
``_step`` checks the moment, that the cards are the seat's own and what the rule asks, then
applies the action whole, or raises an ``IllegalAction`` having changed nothing.

Piles: ``closed[0]`` is the top of the closed deck; ``open_pile[-1]`` is the face-up top of the
open pile. Each seat keeps its own *arrangement*: groups of its cards (private to that seat),
which the server labels (P3) and a declaration uses (P5.1). Cards outside every group are
*ungrouped*.

Privacy (P6.3): the log names only the cards everyone saw (the indicator, the open pile's
first card, a discard, a card taken from the open pile, the finish card), in its text and in the
event's ``cards``. Everything the log of this deal shows is public; the other hands and the closed
deck are not, until the deal ends and every hand is shown. An earlier deal's line may name a card
that is hidden again in this deal: ``shown_log`` shows it as ``??`` to whoever may not see it.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from app.core.cards import RANK_NAMES, SORT_KEY, Card, DeckSpec, ids
from app.core.decks import shuffled
from app.core.protocol import (
    EVERYONE, NOBODY, BadSelection, CardNotInHand, Event, GameDefinition, GameState, IllegalAction, Move, Outcome,
    TAKE_BACK_LINES, TOOK_BACK, PileEmpty, Said, SeatResult, View, WrongPhase,
    Zone, copy_said, filled, hide_cards, read_said, refused, said,
)
from app.core.saved import flag, reading, whole

from .actions import (
    ARRANGING, CLOSED, OPEN, Action, Declare, Discard, Draw, Drop, MakeGroup, MoveToGroup, NextDeal, SortBySuit,
    Ungroup,
)
from .cards import SUITS, card_points, deck_for_seats, is_joker, wild_rank_for
from .evaluator import Evaluation, HandContext, evaluate, ordered_group
from .groups import INVALID, PURE, SET, judge_declaration, judge_group

HAND_SIZE = 13  # P2.1
FIRST_DROP = 20  # P4.3
MIDDLE_DROP = 40  # P4.3
WRONG_DECLARATION = 80  # P5.3
MOST_POINTS = 80  # P5.4: a loser counts at most 80
# The house rules of P8 (the definition's options), each the rule book's figure by default.
RULE_BOOK: dict[str, Any] = {"first_drop": FIRST_DROP, "middle_drop": MIDDLE_DROP, "most_points": MOST_POINTS,
                             "wrong_declaration": WRONG_DECLARATION, "joker_pickup": False}

DRAW = "draw"  # the seat to move draws (or drops)
DISCARD = "discard"  # the seat to move has drawn: it discards or declares
BETWEEN = "between"  # a deal is over and the next one waits (its summary shows)
OVER = "over"  # the last deal is over

IN = "in"
DROPPED = "dropped"
WRONG = "wrong"
STATUS_WORDS = {IN: "in the deal", DROPPED: "dropped", WRONG: "wrong declaration"}
# The refusal of a selection that is not one card, by what the card is for.
ONE_CARD = {"to discard": "Choose exactly one card to discard.",
            "for the finish slot": "Choose exactly one card for the finish slot."}

KIND_KEYS = {PURE: "pure", "impure sequence": "impure", SET: "set", INVALID: "invalid"}
STATE_FORMAT = 1

# The log line that starts a deal (a replay jumps to it: the definition's ``round_lines``).
DEAL_DEALT = ("Deal {deal} of {deals}: {player} plays first. The wild joker indicator is the {card}: "
              "the {wild} are jokers this deal, besides the printed jokers.")


def plural_rank(rank: str) -> str:
    word = RANK_NAMES[rank]
    return word + ("es" if word.endswith("x") else "s")


# The ranks' plurals as the web's log says them ("the nines are jokers"), in the catalogue.
RANK_PLURALS = {"A": "aces", "2": "twos", "3": "threes", "4": "fours", "5": "fives", "6": "sixes", "7": "sevens",
                "8": "eights", "9": "nines", "T": "tens", "J": "jacks", "Q": "queens", "K": "kings"}
RANK_PLURALS_LEADING = {"A": "Aces", "2": "Twos", "3": "Threes", "4": "Fours", "5": "Fives", "6": "Sixes",
                        "7": "Sevens", "8": "Eights", "9": "Nines", "T": "Tens", "J": "Jacks", "Q": "Queens",
                        "K": "Kings"}  # (leading a sentence)


class PointsView(View):
    """What a seat sees of a Points Rummy game (P6.3): the shared keys and the table's."""

    phase: str
    deal: int
    deals: int
    indicator: str | None
    wild_rank: str
    wild_text: str
    wild_text_say: Said | None
    open_top: str | None
    open_top_takeable: bool
    open_count: int
    closed_count: int
    taken_from_open: str | None
    drawn: str | None
    jokers: list[str]
    groups: list[dict[str, Any]]
    ungrouped: list[str]
    hand_points: int | None
    hand_points_text: str
    hand_points_text_say: Said | None
    declaration: dict[str, Any] | None
    notice: str | None
    notice_say: Said | None
    totals: list[int]


class PointsState(GameState):
    """One game of Points Rummy: a number of deals (P6.1) at a table of 2 to 6 seats."""

    def __init__(self, definition: GameDefinition, names: Sequence[str], *, deals: int, seed: int | str | None,
                 stacked: Sequence[Card] | None, rules: Mapping[str, Any] | None = None):
        super().__init__(definition, names)
        self.rules = {**RULE_BOOK, **{key: value for key, value in (rules or {}).items() if key in RULE_BOOK}}
        self.deck: DeckSpec = deck_for_seats(len(self._names))
        self.deals = deals
        self.seed = seed
        self.stacked = list(stacked) if stacked is not None else None
        seats = len(self._names)
        self.deal_number = 0
        self.phase = BETWEEN
        self.turn: int | None = None
        self.closed: list[Card] = []
        self.open_pile: list[Card] = []
        self.indicator: Card | None = None
        # The open pile's first card of the deal while it lies there untouched (P4.1); None
        # once it has left the pile.
        self.first_open: Card | None = None
        self.hands: list[list[Card]] = [[] for _ in range(seats)]
        self.arrangements: list[list[list[Card]]] = [[] for _ in range(seats)]
        self.status = [IN] * seats
        self.penalty = [0] * seats
        self.has_drawn = [False] * seats
        self.taken_open: Card | None = None
        self.drawn: Card | None = None  # the card the seat to move drew this turn (its own eyes only)
        self.finish: Card | None = None
        self.declared: list[list[Card]] | None = None  # the winner's declared groups
        self.declared_wrong: list[list[list[Card]] | None] = [None] * seats
        self.reshuffles = 0
        self.notices: list[str | None] = [None] * seats
        self.notice_says: list[Said | None] = [None] * seats  # the notices as said texts, for the web
        self.totals = [0] * seats
        self.deal_results: list[dict[str, Any]] = []
        # What the game's log lines before ``log`` showed (``log_facts``): the cards everyone saw
        # in the deal of the last of them.
        self._seen_before: set[str] = set()
        self._seen_before_deal = 0

    # -- the protocol -------------------------------------------------------------------------------

    @property
    def seats(self) -> int:
        return len(self._names)

    @property
    def wild_rank(self) -> str:
        return wild_rank_for(self.indicator) if self.indicator is not None else ""

    def to_move(self) -> int | None:
        return self.turn if self.phase in (DRAW, DISCARD) else None

    def is_over(self) -> bool:
        return self.phase == OVER

    def in_deal(self) -> bool:
        return self.phase in (DRAW, DISCARD)

    def active_seats(self) -> list[int]:
        return [seat for seat in range(self.seats) if self.status[seat] == IN]

    def open_card_takeable(self) -> bool:
        """P4.1: a joker on the open pile may not be taken, but for the pile's first card of the
        deal, while it has not left the pile."""
        if not self.open_pile:
            return False
        top = self.open_pile[-1]
        return top is self.first_open or not is_joker(top, self.wild_rank) or self.rules["joker_pickup"]  # P8.5

    def can_draw_closed(self) -> bool:
        return bool(self.closed) or len(self.open_pile) > 1  # P4.4 rebuilds it

    def legal(self, seat: int | None) -> list[Move]:
        if self.phase == OVER:
            return []
        if self.phase == BETWEEN:
            return [Move("deal", f"Deal {self.deal_number + 1} of {self.deals}",
                         say=said("Deal {deal} of {deals}", deal=self.deal_number + 1, deals=self.deals))]
        if seat is None or not isinstance(seat, int) or not 0 <= seat < self.seats or self.status[seat] != IN:
            return []
        moves: list[Move] = []
        if seat == self.turn:
            if self.phase == DRAW:
                if self.can_draw_closed():
                    moves.append(Move("draw", "Draw from the closed deck", params=(("source", CLOSED),), menu="Draw"))
                if self.open_card_takeable():
                    moves.append(Move("draw", f"Take {self.open_pile[-1].code} from the open pile",
                                      params=(("source", OPEN),), menu="Draw",
                                      say=said("Take the {card} from the open pile", card=self.open_pile[-1].id)))
                points = self.drop_points(seat)
                # P4.3: dropping costs points, so it asks first, and it is a menu of its own (not
                # one tap away from a draw).
                moves.append(Move("drop", f"Drop ({points} points)", menu="Leave the deal", primary=False,
                                  confirm=f"Drop out of this deal? It costs you {points} points.",
                                  confirm_label=f"Yes, drop ({points} points)",
                                  say=said("Drop ({points} points)", points=points),
                                  confirm_say=said("Drop out of this deal? It costs you {points} points.",
                                                   points=points),
                                  yes_say=said("Yes, drop ({points} points)", points=points)))
            else:
                moves.append(Move("discard", "Discard", pick=(1, 1), menu="Play"))
                moves.append(self.declare_move(seat))
        moves.extend(self.arranging_moves(seat))
        return moves

    def drop_points(self, seat: int) -> int:
        """P4.3: a first drop's points, or a middle drop's once the seat has drawn (P8.1, P8.2)."""
        points: int = self.rules["middle_drop"] if self.has_drawn[seat] else self.rules["first_drop"]
        return points

    @property
    def wrong_declaration(self) -> int:
        """P5.3: what a wrong declaration costs (P8.4)."""
        points: int = self.rules["wrong_declaration"]
        return points

    def declare_move(self, seat: int) -> Move:
        """P5.1: a seat may declare whenever it holds 14 cards. When its own arrangement leaves
        exactly one card out, that card is the finish card (no selection needed) and the move
        leads; it asks first, saying whether the groups make a valid declaration (a wrong one
        costs 80 points, P5.3)."""
        finish = self.finish_card(seat)
        if finish is None:
            return Move("declare", "Declare (the selected card is the finish card)", pick=(1, 1), menu="Play",
                        primary=False,
                        confirm=f"Declare with the selected card as the finish card? If your groups do not make "
                                f"a valid declaration, it costs you {self.wrong_declaration} points.",
                        confirm_say=said("Declare with the selected card as the finish card? If your groups do not "
                                         "make a valid declaration, it costs you {points} points.",
                                         points=self.wrong_declaration),
                        confirm_label="Yes, declare")
        judgement = judge_declaration(self.arrangements[seat], self.wild_rank)
        if judgement.valid:
            question = f"Declare with {finish.code} as the finish card? Your groups make a valid declaration."
            asked: Said | None = said("Declare with the {card} as the finish card? Your groups make a valid "
                                      "declaration.", card=finish.id)
        else:
            question = (f"Not a valid declaration yet: {judgement.reason}. Declaring now costs you "
                        f"{self.wrong_declaration} points. Declare anyway?")
            asked = _within("Not a valid declaration yet: {reason}. Declaring now costs you {points} points. "
                            "Declare anyway?", judgement.say, points=self.wrong_declaration)
        return Move("declare", f"Declare with {finish.code} as the finish card", params=(("finish", finish.id),),
                    menu="Play", primary=judgement.valid,
                    say=said("Declare with the {card} as the finish card", card=finish.id),
                    confirm=question, confirm_say=asked,
                    confirm_label="Yes, declare" if judgement.valid else "Yes, declare anyway")

    def finish_card(self, seat: int) -> Card | None:
        """The one card of the seat's 14 its arrangement leaves outside groups, when there is
        exactly one: the finish card to be (P5.1)."""
        hand = self.hands[seat]
        if len(hand) != HAND_SIZE + 1 or not self.ready_to_declare(seat):
            return None
        grouped = {card for group in self.arrangements[seat] for card in group}
        return next(card for card in hand if card not in grouped)

    def ready_to_declare(self, seat: int) -> bool:
        """The seat's arrangement leaves one card of its 14 outside groups, the finish card to be
        (P5.1): then the declaration is the move ``legal`` puts first, with that finish card, the
        only one ``apply`` takes then (groups given in the action may differ from the seat's)."""
        grouped = sum(len(group) for group in self.arrangements[seat])
        return grouped == len(self.hands[seat]) - 1

    def arranging_moves(self, seat: int | None) -> list[Move]:
        """The moves that arrange a seat's own cards into groups, at any time of a deal in which
        the seat plays (its turn or not). They change nothing of the game but that seat's private
        arrangement (which a declaration uses, P5.1) and end no turn: ``private`` moves, which
        ``legal`` lists after the turn's."""
        if not self.in_deal() or seat is None or not 0 <= seat < self.seats or self.status[seat] != IN:
            return []
        hand = len(self.hands[seat])
        groups = self.arrangements[seat]
        moves = [Move("group", "Make a new group", pick=(1, hand), menu="Arrange", primary=False, private=True)]
        if groups:
            moves.append(Move("move", "Add to group", pick=(1, hand), target="group",
                              targets=tuple(str(number) for number in range(1, len(groups) + 1)),
                              menu="Arrange", primary=False, private=True))
            moves.append(Move("ungroup", "Take out of its group", pick=(1, hand), menu="Arrange", primary=False,
                              private=True))
        moves.append(Move("sort", "Group by suit", menu="Arrange", primary=False, private=True))
        return moves

    def out_of_turn_refusal(self, seat: int | None) -> Said:
        if seat is None:
            return said("Only a player at the table can do that.")
        if self.status[seat] != IN:
            return said("{player} has left this deal ({how}).", player=self.label(seat),
                        how=said(STATUS_WORDS[self.status[seat]]))
        return said("It is {player}'s turn, not {other}'s.", player=self.label(self.turn),  # type: ignore[arg-type]
                    other=self.label(seat))

    def between_rounds_refusal(self) -> Said:
        return said("Deal {deal} is over: deal the next one first.", deal=self.deal_number)

    def mid_round_refusal(self) -> Said:
        return said("Deal {deal} is still being played.", deal=self.deal_number)

    def _step(self, seat: int | None, action: Action) -> Outcome:
        if isinstance(action, NextDeal):  # between deals (the core checked), anyone at the table
            return self._deal()
        assert seat is not None  # the core let through a seat's own actions and the turn's only
        if isinstance(action, ARRANGING):  # a seat's own cards, at any moment of a deal it plays in
            if self.phase == BETWEEN:
                raise refused(WrongPhase, self.between_rounds_refusal())
            if self.status[seat] != IN:
                raise refused(WrongPhase, said("{player} has left this deal ({how}).", player=self.label(seat),
                                               how=said(STATUS_WORDS[self.status[seat]])))
            return self._arrange(seat, action)
        if isinstance(action, Draw):
            return self._draw(seat, action)
        if isinstance(action, Drop):
            return self._drop(seat)
        if isinstance(action, Discard):
            return self._discard(seat, action)
        return self._declare(seat, action)

    # -- the deal (P2) ------------------------------------------------------------------------------

    def start(self) -> None:
        self._deal()

    def _deal(self) -> Outcome:
        self.deal_number += 1
        seats = self.seats
        first = (self.deal_number - 1) % seats  # P2.4
        if self.stacked is not None:
            cards = list(self.stacked)  # a stacked deck deals the same order every deal
        else:
            cards = shuffled(self.deck, random.Random(f"{self.seed}/deal/{self.deal_number}"))
        self.hands = [[] for _ in range(seats)]
        for index in range(HAND_SIZE * seats):  # P2.1: one at a time from the first player
            self.hands[(first + index) % seats].append(cards[index])
        for hand in self.hands:
            hand.sort(key=SORT_KEY)
        dealt = HAND_SIZE * seats
        self.indicator = cards[dealt]  # P2.2
        self.open_pile = [cards[dealt + 1]]  # P2.3
        self.first_open = self.open_pile[0]
        self.closed = cards[dealt + 2:]
        self.arrangements = [[] for _ in range(seats)]
        self.status = [IN] * seats
        self.penalty = [0] * seats
        self.has_drawn = [False] * seats
        self.taken_open = None
        self.drawn = None
        self.finish = None
        self.declared = None
        self.declared_wrong = [None] * seats
        self.reshuffles = 0
        self.notices = [None] * seats
        self.notice_says = [None] * seats
        self.turn = first
        self.phase = DRAW
        outcome = Outcome(NextDeal(), None)
        wild = self.wild_rank
        what = "is a printed joker: the aces" if self.indicator.is_joker else f"makes the {plural_rank(wild)}"
        self._event(outcome, None, f"Deal {self.deal_number} of {self.deals}: {self.label(first)} plays first. "
                                   f"The wild joker indicator {self.indicator.code} {what} jokers this deal, "
                                   f"besides the printed jokers.", [self.indicator],
                    said(DEAL_DEALT, deal=self.deal_number,
                         deals=self.deals, player=self.label(first), card=self.indicator.id,
                         wild=said(RANK_PLURALS[wild])))
        self._event(outcome, None, f"The open pile starts with {self.first_open.code}.", [self.first_open],
                    said("The open pile starts with the {card}.", card=self.first_open.id))
        return outcome

    # -- a turn (P4) ---------------------------------------------------------------------------------

    def _draw(self, seat: int, action: Draw) -> Outcome:
        if self.phase != DRAW:
            raise WrongPhase("You have drawn already: discard a card or declare.")
        outcome = Outcome(action, seat)
        name = self.label(seat)
        if action.source == OPEN:
            if not self.open_pile:
                raise PileEmpty("The open pile is empty.")
            top = self.open_pile[-1]
            if not self.open_card_takeable():
                raise refused(IllegalAction, said("{code} is a joker: a joker on the open pile may not be taken "
                                                  "(only the open pile's first card of the deal may be).",  # P4.1
                                                  code=top.code))
            self.open_pile.pop()
            if top is self.first_open:  # discarded again later, it is a joker like any other
                self.first_open = None
            self.taken_open = top
            card = top
            self._event(outcome, seat, f"{name} takes {top.code} from the open pile.", [top],
                        said("{player} took the {card} from the open pile.", player=name, card=top.id))
        else:
            if not self.closed:
                if len(self.open_pile) < 2:
                    raise PileEmpty("The closed deck is empty and the open pile holds only its top card: "
                                        "take it or drop.")
                self._rebuild_closed(outcome)
            card = self.closed.pop(0)
            self.taken_open = None
            self._event(outcome, seat, f"{name} draws from the closed deck.", [],
                        said("{player} drew from the closed deck.", player=name))
        self.drawn = card
        self.hands[seat].append(card)
        self.hands[seat].sort(key=SORT_KEY)
        self.has_drawn[seat] = True
        self.phase = DISCARD
        return outcome

    def _rebuild_closed(self, outcome: Outcome) -> None:
        """P4.4: the open pile but its top card, shuffled with the game's seeded generator."""
        self.reshuffles += 1
        cards = self.open_pile[:-1]
        random.Random(f"{self.seed}/deal/{self.deal_number}/reshuffle/{self.reshuffles}").shuffle(cards)
        self.closed = cards
        self.open_pile = self.open_pile[-1:]
        # The top card stays; the first card, if still on the pile, lay under it and left with
        # the rest (P4.1).
        self.first_open = None
        self._event(outcome, None, f"The closed deck is empty: the open pile but its top card is shuffled "
                                   f"into a new closed deck of {len(cards)} cards.", [],
                    said(("The closed deck is empty: the open pile but its top card is shuffled into a new closed "
                          "deck of {count} card.", "The closed deck is empty: the open pile but its top card is "
                          "shuffled into a new closed deck of {count} cards."), count=len(cards)))

    def _discard(self, seat: int, action: Discard) -> Outcome:
        if self.phase != DISCARD:
            raise WrongPhase("Draw a card first: from the closed deck or the open pile.")
        card = self._one_card(seat, action.cards, "to discard")
        if card is self.taken_open:  # P4.2
            raise refused(IllegalAction, said("{code} was taken from the open pile this turn: it may not be "
                                              "discarded this turn.", code=card.code))
        outcome = Outcome(action, seat)
        self._remove_from_hand(seat, card)
        self.open_pile.append(card)
        self._event(outcome, seat, f"{self.label(seat)} discards {card.code}.", [card],
                    said("{player} discarded the {card}.", player=self.label(seat), card=card.id))
        self._pass_turn(seat)
        return outcome

    def _drop(self, seat: int) -> Outcome:
        if self.phase != DRAW:
            raise WrongPhase("A player drops before drawing: now discard a card or declare.")  # P4.3
        points = self.drop_points(seat)
        outcome = Outcome(Drop(), seat)
        self.status[seat] = DROPPED
        self.penalty[seat] = points
        self._event(outcome, seat, f"{self.label(seat)} drops ({'middle' if self.has_drawn[seat] else 'first'} "
                                   f"drop, {points} points) and leaves the deal.", [],
                    said("{player} dropped out of the deal (a middle drop: {points} points)." if self.has_drawn[seat]
                         else "{player} dropped out of the deal (a first drop: {points} points).",
                         player=self.label(seat), points=points))
        self._after_leaving(seat, outcome)
        return outcome

    def _after_leaving(self, seat: int, outcome: Outcome) -> None:
        left = self.active_seats()
        if len(left) == 1:  # P4.3, P5.3: the one player left wins the deal
            self._end_deal(left[0], "last", outcome)
        else:
            self._pass_turn(seat)

    def _pass_turn(self, seat: int) -> None:
        self.taken_open = None
        self.drawn = None
        self.phase = DRAW
        following = seat
        for _step in range(self.seats):
            following = (following + 1) % self.seats
            if self.status[following] == IN:
                break
        self.turn = following

    # -- declaring (P5) ---------------------------------------------------------------------------------

    def _declare(self, seat: int, action: Declare) -> Outcome:
        if self.phase != DISCARD:
            raise WrongPhase("Draw a card first: a player declares after drawing, with 14 cards.")
        ready = self.finish_card(seat)
        finish = ready if not action.finish and action.groups is None else None
        if finish is None:
            finish = self._one_card(seat, action.finish, "for the finish slot")
        if ready is not None and finish is not ready and action.groups is not None:
            # P5.1: the seat's own groups leave one card out, and legal() offers the declaration
            # with that finish card alone; another one takes grouping the cards again first.
            # (Without groups given, the seat's own leave that card in no group: refused below.)
            raise refused(IllegalAction, said("Your groups leave {code} out, so {code} is your finish card: to "
                                              "finish with {finish}, group your cards again first.",
                                              code=ready.code, finish=finish.code))
        hand = self.hands[seat]
        if action.groups is not None:
            groups = [self._cards_of(seat, group) for group in action.groups]
            groups = [group for group in groups if group]
        else:
            groups = [[card for card in group if card is not finish] for group in self.arrangements[seat]]
            groups = [group for group in groups if group]
        placed: dict[Card, int] = {}
        for number, group in enumerate(groups, start=1):
            for card in group:
                if card is finish:
                    raise refused(IllegalAction, said("{code} is the finish card: it cannot be in group {group} too.",
                                                      code=card.code, group=number))
                if card in placed:
                    raise refused(IllegalAction, said("{code} is in group {group} and in group {other}: a card goes "
                                                      "in one group.", code=card.code, group=placed[card],
                                                      other=number))
                placed[card] = number
        missing = [card for card in hand if card is not finish and card not in placed]
        if missing:
            raise refused(IllegalAction, said(("Put every card but the finish card in a group before declaring: "
                                               "{codes} is in no group.",
                                               "Put every card but the finish card in a group before declaring: "
                                               "{codes} are in no group."),
                                              codes=" ".join(card.code for card in missing), count=len(missing)))
        judgement = judge_declaration(groups, self.wild_rank)
        # The declaration as made, with its groups: a seat's arrangement is its private data, kept
        # in no log, so the logged action must say which groups were declared (a replay or an
        # export applies it as it was made).
        declared = Declare((finish.id,), tuple(tuple(card.id for card in group) for group in groups))
        outcome = Outcome(declared, seat)
        name = self.label(seat)
        if action.groups is not None:
            self.arrangements[seat] = [list(group) for group in groups]
        if judgement.valid:  # P5.2
            hand.remove(finish)
            self.finish = finish
            self.declared = [list(group) for group in groups]
            self.arrangements[seat] = [list(group) for group in groups]
            self._event(outcome, seat, f"{name} declares with {finish.code} as the finish card: a valid declaration.",
                        [finish], said("{player} declared with the {card} as the finish card: a valid declaration.",
                                       player=name, card=finish.id))
            self._end_deal(seat, "declared", outcome)
        else:  # P5.3
            self.status[seat] = WRONG
            self.penalty[seat] = self.wrong_declaration
            self.declared_wrong[seat] = [list(group) for group in groups]
            self.notices[seat] = f"Your declaration was wrong: {judgement.reason}."
            self.notice_says[seat] = said("Your declaration was wrong: {reason}.",
                                          reason=judgement.say if judgement.say is not None else judgement.reason)
            self._event(outcome, seat, f"{name} declares wrongly ({self.wrong_declaration} points) and leaves the "
                                       f"deal.", [],
                        said("{player} declared wrongly ({points} points) and leaves the deal.", player=name,
                             points=self.wrong_declaration))
            self._after_leaving(seat, outcome)
        return outcome

    def _end_deal(self, winner: int, how: str, outcome: Outcome) -> None:
        """P5.2-P5.5: every loser's points, the winner's sum, the totals, the deal's summary."""
        wild = self.wild_rank
        rows = []
        points = [0] * self.seats
        for seat in range(self.seats):
            hand = self.hands[seat]
            row: dict[str, Any] = {"seat": seat, "finish": None}
            if seat == winner:
                if how == "declared":
                    assert self.declared is not None and self.finish is not None  # (the valid declaration's)
                    row["groups"] = [_group_row(ordered_group(group, wild), wild) for group in self.declared]
                    row["ungrouped"] = []
                    row["finish"] = self.finish.id
                    row["reason"] = "declared"
                else:
                    row.update(_evaluation_rows(evaluate(hand, wild), wild))
                    row["reason"] = "last player in the deal"
            elif self.status[seat] == DROPPED:
                points[seat] = self.penalty[seat]
                row.update(_evaluation_rows(evaluate(hand, wild), wild))
                row["reason"] = "middle drop" if self.has_drawn[seat] else "first drop"
            elif self.status[seat] == WRONG:
                points[seat] = self.penalty[seat]
                groups = self.declared_wrong[seat] or []
                grouped = {card for group in groups for card in group}
                row["groups"] = [_group_row(ordered_group(group, wild), wild) for group in groups]
                row["ungrouped"] = [card.id for card in hand if card not in grouped]
                row["reason"] = "wrong declaration"
            else:  # P5.4
                evaluation = evaluate(hand, wild)
                most = self.rules["most_points"]  # P5.4; P8.3
                points[seat] = min(evaluation.points, most)
                row.update(_evaluation_rows(evaluation, wild))
                row["reason"] = ("cards outside groups" if evaluation.qualifies
                                 else "not two sequences with a pure one: every card counts")
                if evaluation.points > most:
                    row["reason"] += f" ({evaluation.points}, at most {most})"
            row["points"] = points[seat]
            rows.append(row)
        collected = sum(points)
        for row in rows:
            seat = row["seat"]
            row["result"] = collected if seat == winner else -points[seat]  # P5.5
            self.totals[seat] += row["result"]
            row["total"] = self.totals[seat]
        assert self.indicator is not None  # (turned up at the deal)
        self.deal_results.append({"deal": self.deal_number, "winner": winner, "how": how, "collected": collected,
                                  "wild_rank": wild, "indicator": self.indicator.id, "rows": rows})
        self._event(outcome, None, f"Deal {self.deal_number}: {self.label(winner)} wins the deal and collects "
                                   f"{collected} points.", [],
                    said(("Deal {deal}: {player} wins the deal and collects {count} point.",
                          "Deal {deal}: {player} wins the deal and collects {count} points."),
                         deal=self.deal_number, player=self.label(winner), count=collected))
        self.turn = None
        self.taken_open = None
        self.drawn = None
        outcome.round_over = True
        if self.deal_number >= self.deals:
            self.phase = OVER
            outcome.game_over = True
            best = max(self.totals)
            winners = [self.label(seat) for seat in range(self.seats) if self.totals[seat] == best]
            self._event(outcome, None, f"The game is over: {' and '.join(winners)} "
                                       f"{'wins' if len(winners) == 1 else 'win'} with a net total of {best}.", [],
                        said(("The game is over: {players} wins with a net total of {total}.",
                              "The game is over: {players} win with a net total of {total}."),
                             players=" and ".join(winners), count=len(winners), total=best))
        else:
            self.phase = BETWEEN

    # -- arranging ------------------------------------------------------------------------------------

    def _arrange(self, seat: int, action: Any) -> Outcome:
        groups = [list(group) for group in self.arrangements[seat]]
        if isinstance(action, SortBySuit):
            wild = self.wild_rank
            by_suit: dict[str, list[Card]] = {}
            jokers = []
            for card in self.hands[seat]:
                if is_joker(card, wild):
                    jokers.append(card)
                else:
                    by_suit.setdefault(card.suit, []).append(card)
            groups = [by_suit[suit] for suit in SUITS if suit in by_suit] + ([jokers] if jokers else [])
        else:
            cards = self._cards_of(seat, action.cards)
            if not cards:
                raise BadSelection("Select one or more of your cards first.")
            target = None
            if isinstance(action, Ungroup) and not groups:  # (legal() lists it only beside a group)
                raise refused(IllegalAction, said("You have no groups: every card is outside a group already."))
            if isinstance(action, MoveToGroup):
                if not 1 <= action.group <= len(groups):
                    raise refused(IllegalAction, said(("There is no group {group}: you have {count} group.",
                                                       "There is no group {group}: you have {count} groups."),
                                                      group=action.group, count=len(groups)) if groups else
                                  said("There is no group {group}: you have no groups.", group=action.group))
                target = action.group - 1
            chosen = set(cards)
            groups = [[card for card in group if card not in chosen] for group in groups]
            if target is not None:
                groups[target].extend(cards)
            elif isinstance(action, MakeGroup):
                groups.append(list(cards))
            groups = [group for group in groups if group]
        self.arrangements[seat] = groups
        return Outcome(action, seat)

    # -- helpers ----------------------------------------------------------------------------------------

    def _cards_of(self, seat: int, ids: Iterable[str]) -> list[Card]:
        """The seat's own cards these ids name, in order; refused if one is not in the hand or
        is named twice."""
        hand = self.hands[seat]
        cards: list[Card] = []
        for card_id in ids:
            card = self._find(hand, card_id)
            if card is None:
                raise refused(CardNotInHand, said("{code} is not in your hand.", code=card_id))
            if card in cards:
                raise refused(BadSelection, said("{code} is selected twice.", code=card.code))
            cards.append(card)
        return cards

    def _one_card(self, seat: int, ids: Sequence[str], what: str) -> Card:
        if len(ids) != 1:
            raise refused(BadSelection, said(ONE_CARD[what]))
        return self._cards_of(seat, ids)[0]

    @staticmethod
    def _find(hand: list[Card], card_id: str) -> Card | None:
        for card in hand:
            if card.id == card_id:
                return card
        return None

    def _remove_from_hand(self, seat: int, card: Card) -> None:
        self.hands[seat].remove(card)
        groups = [[other for other in group if other is not card] for group in self.arrangements[seat]]
        self.arrangements[seat] = [group for group in groups if group]

    def take_back_fields(self) -> dict[str, Any]:
        return {"deal": self.deal_number}

    def _event(self, outcome: Outcome, seat: int | None, text: str, cards: list[Card], say: Said) -> None:
        self.log_event(outcome, seat, text, cards, deal=self.deal_number, say=say)

    def seen_this_deal(self) -> set[str]:
        """The ids of the cards this deal's log showed everyone."""
        seen: set[str] = set()
        for event in reversed(self.log):
            if event["deal"] != self.deal_number:
                return seen
            seen.update(event["cards"])
        if self._seen_before_deal == self.deal_number:  # this deal began before the lines held
            seen |= self._seen_before
        return seen

    def log_facts(self, older: Sequence[Event]) -> dict[str, Any]:
        seen, deal = set(self._seen_before), self._seen_before_deal
        for event in older:
            if event["deal"] != deal:
                seen, deal = set(), event["deal"]
            seen.update(event["cards"])
        return {"log_seen": sorted(seen), "log_seen_deal": deal}

    # -- what each seat sees (P6.3) ------------------------------------------------------------------------

    def zones(self) -> list[Zone]:
        """P6.3: the closed deck and, during a deal, the other hands are hidden, but for the cards
        this deal's log showed everyone (taken from the open pile, or shuffled back into the
        closed deck from it, P4.4); the open pile, the indicator and a finish card lie face up,
        and once the deal is over every hand is shown."""
        seen = self.seen_this_deal()
        zones = [Zone("closed deck", [card for card in self.closed if card.id not in seen], NOBODY),
                 Zone("closed deck, seen this deal", [card for card in self.closed if card.id in seen], EVERYONE),
                 Zone("open pile", self.open_pile, EVERYONE),
                 Zone("indicator and finish card", [card for card in (self.indicator, self.finish) if card is not None],
                      EVERYONE)]
        playing = self.in_deal()
        for seat, hand in enumerate(self.hands):
            known = [card for card in hand if not playing or card.id in seen]
            name = self.label(seat)
            zones.append(Zone(f"{name}'s hand, seen by everyone", known, EVERYONE, holder=name))
            if playing:
                zones.append(Zone(f"{name}'s hand", [card for card in hand if card.id not in seen],
                                  frozenset({seat}), holder=name))
        return self.public_once_over(zones)

    def stage(self) -> str:
        return filled(self.stage_said())

    def stage_said(self) -> Said:
        return said("Deal {deal} of {deals}", deal=self.deal_number, deals=self.deals)

    def view(self, seat: int | None) -> PointsView:
        if not self.is_seat(seat):
            seat = None
        wild = self.wild_rank
        mine = seat is not None and self.in_deal()
        hand = self.hands[seat] if seat is not None else None
        # a valid declaration put the declarer's finish card face up (P5.2): it still counts as theirs
        declarer = self.deal_results[-1]["winner"] if self.finish is not None and self.deal_results else None
        players = []
        for index in range(len(self._names)):
            players.append({
                **self.seat_view(index),
                "cards": len(self.hands[index]) + (index == declarer), "status": self.status[index],
                "status_text": STATUS_WORDS[self.status[index]], "total": self.totals[index],
                "first": self.deal_number > 0 and index == (self.deal_number - 1) % self.seats,
            })
        view: PointsView = {
            "seat": seat,
            "players": players,
            "turn": self.to_move(),
            "stage": self.stage(),
            "stage_say": self.stage_said(),
            "prompt": filled(prompt := self._prompt(seat)),
            "prompt_say": prompt,
            "hand": [card.id for card in hand] if hand is not None else None,
            "log": self.view_log(seat),
            "summary": self._summary() if self.phase in (BETWEEN, OVER) else None,
            "phase": self.phase,
            "deal": self.deal_number,
            "deals": self.deals,
            "indicator": self.indicator.id if self.indicator is not None else None,
            "wild_rank": wild,
            "wild_text": (f"{plural_rank(wild).capitalize()} are jokers this deal, and the printed jokers"
                          if wild else ""),
            "wild_text_say": said("{wild} are jokers this deal, and the printed jokers",
                                  wild=said(RANK_PLURALS_LEADING[wild])) if wild else None,
            "open_top": self.open_pile[-1].id if self.open_pile and self.in_deal() else None,
            "open_top_takeable": self.in_deal() and self.open_card_takeable(),
            "open_count": len(self.open_pile),
            "closed_count": len(self.closed),
            "taken_from_open": self.taken_open.id if mine and seat == self.turn and self.taken_open else None,
            "drawn": self.drawn.id if mine and seat == self.turn and self.drawn else None,
            "jokers": [card.id for card in hand if is_joker(card, wild)] if hand is not None and wild else [],
            "groups": [],
            "ungrouped": [],
            "hand_points": None,
            "hand_points_text": "",
            "hand_points_text_say": None,
            "declaration": None,
            "notice": self.notices[seat] if seat is not None else None,
            "notice_say": self.notice_says[seat] if seat is not None else None,
            "totals": list(self.totals),
        }
        if mine and seat is not None and self.status[seat] == IN:
            view.update(self._arrangement_view(seat))  # type: ignore[typeddict-item]
        return view

    def _arrangement_view(self, seat: int) -> dict[str, Any]:
        wild = self.wild_rank
        hand = self.hands[seat]
        groups = self.arrangements[seat]
        grouped = {card for group in groups for card in group}
        ungrouped = [card for card in hand if card not in grouped]
        rows = []
        for number, group in enumerate(groups, start=1):
            row = _group_row(group, wild)
            if row["valid"]:  # shown in reading order (an invalid group as placed, as its reason names it)
                row["cards"] = [card.id for card in ordered_group(group, wild)]
            row["number"] = number
            rows.append(row)
        evaluation_points = HandContext(hand, wild).points_without(None)
        counted = min(evaluation_points, MOST_POINTS)
        declaration = None
        if len(ungrouped) == 1 and len(hand) == HAND_SIZE + 1:
            judgement = judge_declaration(groups, wild)
            declaration = {"ready": judgement.valid, "finish": ungrouped[0].id,
                           "text": (f"Your groups make a valid declaration with {ungrouped[0].code} as the finish card."
                                    if judgement.valid else f"Not a valid declaration yet: {judgement.reason}."),
                           "say": (said("Your groups make a valid declaration with the {card} as the finish card.",
                                        card=ungrouped[0].id) if judgement.valid else _within(
                                            "Not a valid declaration yet: {reason}.", judgement.say))}
        return {
            "groups": rows,
            "ungrouped": [card.id for card in ungrouped],
            "hand_points": counted,
            "hand_points_text": f"Your hand counts {counted} now",
            "hand_points_text_say": said("Your hand counts {points} now", points=counted),
            "declaration": declaration,
        }

    def _prompt(self, seat: int | None) -> Said:
        if self.phase == OVER:
            return said("The game is over.")
        if self.phase == BETWEEN:
            return said("Deal {deal} is over: deal the next one.", deal=self.deal_number)
        assert self.turn is not None  # (a deal is being played)
        mover = self.label(self.turn)
        if seat != self.turn:
            if seat is not None and self.status[seat] != IN:
                return said("You have left this deal ({how}); {player} is playing.",
                            how=said(STATUS_WORDS[self.status[seat]]), player=mover)
            return said("Waiting for {player}.", player=mover)
        if self.phase == DRAW:
            return said("Draw from the closed deck or the open pile, or drop.")
        return said("Discard a card, or choose a finish card and declare.")

    def shown_log(self, seat: int | None, lines: Sequence[Event], first: int) -> list[Event]:
        """The log's lines as ``seat`` may read them now (P6.3): the cards of earlier deals are in
        play again, so they are no longer listed beside their lines, and a code an earlier line
        names is ``??`` while every copy of that card is hidden from ``seat``."""
        earlier = any(event["deal"] != self.deal_number for event in lines)
        hidden = self._codes_hidden_from(seat) if earlier else set()
        hidden_ids = {card.id for card in self.hidden_from(seat)} if earlier else set()

        def mask(match: re.Match[str]) -> str:
            return "??" if match.group(0) in hidden else match.group(0)

        shown = []
        for event in lines:
            text = event["text"]
            current = event["deal"] == self.deal_number
            if not current and hidden:
                text = _CODE_PATTERN.sub(mask, text)
            line = {"seat": event["seat"], "text": text, "cards": list(event["cards"]) if current else [],
                    "deal": event["deal"]}
            if "say" in event:
                line["say"] = hide_cards(event["say"], () if current else hidden_ids)
            shown.append(line)
        return shown

    def _codes_hidden_from(self, seat: int | None) -> set[str]:
        """The codes that name no card ``seat`` may see (in a two-deck game, neither copy)."""
        hidden = self.hidden_from(seat)
        return {card.code for card in hidden if all(copy in hidden for copy in self.deck.copies_of(card.code))}

    def _summary(self) -> dict[str, Any] | None:
        if not self.deal_results:
            return None
        last = self.deal_results[-1]
        wild = last["wild_rank"]
        rows = []
        for row in last["rows"]:
            shown = [card for group in row["groups"] for card in group["cards"]] + row["ungrouped"] + \
                [row["finish"]] * (row["finish"] is not None)
            rows.append(dict(row, label=self.label(row["seat"]),
                             groups=[dict(group, cards=list(group["cards"])) for group in row["groups"]],
                             ungrouped=list(row["ungrouped"]),
                             # the jokers of that deal, marked as the hand marked them (P2.2)
                             jokers=[card for card in shown if is_joker(self.deck.parse(card), wild)]))
        return {"title": f"Deal {last['deal']} of {self.deals} is over",  # the status bar's words
                "title_say": said("Deal {deal} of {deals} is over", deal=last["deal"], deals=self.deals),
                "deal": last["deal"], "deals": self.deals, "winner": last["winner"],
                "winner_label": self.label(last["winner"]), "how": last["how"], "collected": last["collected"],
                "indicator": last["indicator"], "wild_rank": last["wild_rank"], "rows": rows,
                "totals": list(self.totals), "game_over": self.phase == OVER,
                "history": [{"deal": result["deal"], "winner": result["winner"],
                             "results": [row["result"] for row in result["rows"]]} for result in self.deal_results]}

    # -- the end (P6) -----------------------------------------------------------------------------------------

    def results(self) -> list[SeatResult]:
        if not self.is_over():
            return []
        best = max(self.totals)
        results = []
        for seat, name in enumerate(self._names):
            per_deal = [result["rows"][seat]["result"] for result in self.deal_results]
            figures = {"deals_played": len(per_deal),
                       "deals_won": sum(1 for result in self.deal_results if result["winner"] == seat),
                       "net_points": self.totals[seat],
                       "best_deal": max(per_deal)}
            results.append(SeatResult(seat, name, self.totals[seat] == best, self.totals[seat], figures))
        return results

    def _opening_card_untouched(self) -> bool:
        """Whether ``first_open`` still lies on the open pile as it was dealt (P4.1), read from
        the pile and the log, since saved data may name the opening card after it left the pile.
        Discards go on top and a rebuilt closed deck (P4.4) takes the bottom, so the untouched
        card is the bottom one, with no rebuild, and no player's line of this deal names it. Once
        taken it can lie alone on the pile again only when discarded onto an emptied pile: the
        next draw comes right after that discard's line, which is among the lines saved."""
        first = self.first_open
        if first is None or self.reshuffles or not self.open_pile or self.open_pile[0] is not first:
            return False
        touched = False
        last: dict[int, bool | None] = {}  # per seat: touched before its last line, if that named the card
        for event in self.log:
            if event["deal"] != self.deal_number or event["seat"] is None:
                continue
            seat, say = event["seat"], event.get("say")
            template = say[0] if say else None
            # (what was taken back: its words as a said text, or as text in a line saved before)
            if template == TOOK_BACK and say is not None and say[1].get("what") in ("draw", said("draw")):
                before = last.get(seat)
                touched = before if before is not None else touched  # the draw that took it, taken back
            elif template not in TAKE_BACK_LINES:
                last[seat] = touched if first.id in event["cards"] else None
                touched = touched or first.id in event["cards"]
        return not touched

    # -- plain data ---------------------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        def card_id(card: Card | None) -> str | None:
            return card.id if card is not None else None

        return {
            "format": STATE_FORMAT,
            "game": "points",
            "names": list(self._names),
            "deals": self.deals,
            "rules": dict(self.rules),
            "seed": self.seed,
            "stacked": ids(self.stacked) if self.stacked is not None else None,
            "deal_number": self.deal_number,
            "phase": self.phase,
            "turn": self.turn,
            "closed": ids(self.closed),
            "open": ids(self.open_pile),
            "indicator": card_id(self.indicator),
            "first_open": card_id(self.first_open),
            "hands": [ids(hand) for hand in self.hands],
            "arrangements": [[ids(group) for group in groups] for groups in self.arrangements],
            "status": list(self.status),
            "penalty": list(self.penalty),
            "has_drawn": list(self.has_drawn),
            "taken_open": card_id(self.taken_open),
            "drawn": card_id(self.drawn),
            "finish": card_id(self.finish),
            "declared": [ids(group) for group in self.declared] if self.declared is not None else None,
            "declared_wrong": [[ids(group) for group in groups] if groups is not None else None
                               for groups in self.declared_wrong],
            "reshuffles": self.reshuffles,
            "notices": list(self.notices),
            "notice_says": [copy_said(say) for say in self.notice_says],
            "totals": list(self.totals),
            "deal_results": _plain(self.deal_results),
            **self.log_to_dict(),
        }

    @classmethod
    def from_dict(cls, definition: GameDefinition, data: Mapping[str, Any]) -> PointsState:
        with reading("Points Rummy game"):
            return cls._from_dict(definition, data)

    @classmethod
    def _from_dict(cls, definition: GameDefinition, data: Mapping[str, Any]) -> PointsState:
        if data.get("format") != STATE_FORMAT or data.get("game") != "points":
            raise ValueError("not a saved Points Rummy game of this version")
        names = [str(name) for name in data["names"]]
        deck = deck_for_seats(len(names))

        def cards(card_ids: Iterable[str]) -> list[Card]:
            return [deck.parse(card_id) for card_id in card_ids]

        def card(card_id: str | None) -> Card | None:
            return deck.parse(card_id) if card_id is not None else None

        stacked = cards(data["stacked"]) if data["stacked"] is not None else None
        rules = data.get("rules", RULE_BOOK)  # (a game saved before the house rules of P8: the rule book's)
        if not isinstance(rules, Mapping) or set(rules) != set(RULE_BOOK):
            raise ValueError("the house rules are the figures of P8")
        read = {key: flag(value) if key == "joker_pickup" else whole(value, 0, 1000) for key, value in rules.items()}
        state = cls(definition, names, deals=int(data["deals"]), seed=data["seed"], stacked=stacked, rules=read)
        state.deal_number = int(data["deal_number"])
        state.phase = str(data["phase"])
        if state.phase not in (DRAW, DISCARD, BETWEEN, OVER):
            raise ValueError(f"unknown phase {state.phase!r}")
        state.turn = data["turn"]
        state.closed = cards(data["closed"])
        state.open_pile = cards(data["open"])
        state.indicator = card(data["indicator"])
        state.first_open = card(data["first_open"])
        state.hands = [cards(hand) for hand in data["hands"]]
        state.arrangements = [[cards(group) for group in groups] for groups in data["arrangements"]]
        state.status = [str(status) for status in data["status"]]
        state.penalty = [int(points) for points in data["penalty"]]
        state.has_drawn = [bool(drawn) for drawn in data["has_drawn"]]
        state.taken_open = card(data["taken_open"])
        state.drawn = card(data.get("drawn"))  # (a game saved before the drawn card was kept: none)
        state.finish = card(data["finish"])
        state.declared = [cards(group) for group in data["declared"]] if data["declared"] is not None else None
        state.declared_wrong = [[cards(group) for group in groups] if groups is not None else None
                                for groups in data["declared_wrong"]]
        state.reshuffles = int(data["reshuffles"])
        state.notices = [str(notice) if notice is not None else None for notice in data["notices"]]
        # (a game saved before notices had said texts: its notices are shown as they were written)
        state.notice_says = [read_said({"say": say}).get("say") for say in data.get("notice_says", [None] * len(names))]
        state.totals = [int(total) for total in data["totals"]]
        state.deal_results = _plain(data["deal_results"])
        state.read_log(data, lambda event: {"seat": event["seat"], "text": str(event["text"]),
                                            "cards": [str(c) for c in event["cards"]], "deal": int(event["deal"]),
                                            **read_said(event)})
        state._seen_before = {str(card) for card in data.get("log_seen", [])}
        state._seen_before_deal = int(data.get("log_seen_deal", 0))
        if not state._opening_card_untouched():
            state.first_open = None
        seats = len(names)
        per_seat = (state.hands, state.arrangements, state.status, state.penalty, state.has_drawn,
                    state.declared_wrong, state.notices, state.notice_says, state.totals)
        if any(len(values) != seats for values in per_seat):
            raise ValueError("the seats do not agree")
        if not set(state.status) <= {IN, DROPPED, WRONG}:
            raise ValueError("a seat's status is unknown")
        if state.turn is not None and not (type(state.turn) is int and 0 <= state.turn < seats):
            raise ValueError("the turn is no seat")
        if state.card_locations() != Counter(deck.cards):
            raise ValueError("the saved cards are not the deck, each card once")
        if state.drawn is not None and (state.phase != DISCARD or state.turn is None
                                        or state.drawn not in state.hands[state.turn]):
            raise ValueError("the card drawn this turn is not in the hand of the seat to move")
        return state


_CODE_PATTERN = re.compile(r"(?<![A-Za-z0-9])(?:[A2-9TJQK][CDHS]|JK)(?![A-Za-z0-9])")


def _within(template: str, say: Said | None, **fields: Any) -> Said | None:
    """A said text holding another (``reason``: why a declaration is not valid)."""
    return None if say is None else said(template, reason=say, **fields)


def _plain(value: Any) -> Any:
    """A deep copy of plain data (dicts, lists, scalars)."""
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    return value


def _group_row(group: Sequence[Card], wild: str) -> dict[str, Any]:
    judgement = judge_group(group, wild)
    return {"cards": [card.id for card in group], "label": judgement.kind, "kind": KIND_KEYS[judgement.kind],
            "valid": judgement.valid, "reason": judgement.reason, "reason_say": judgement.say,
            "points": sum(card_points(card, wild) for card in group)}


def _evaluation_rows(evaluation: Evaluation, wild: str) -> dict[str, Any]:
    return {"groups": [_group_row(cards, wild) for _kind, cards in evaluation.groups],
            "ungrouped": [card.id for card in evaluation.ungrouped]}


__all__ = ["PointsState", "PointsView"]
