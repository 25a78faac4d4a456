"""The game as a state machine (R4, R5, R7): ``MasonState``, the protocol's ``GameState``.

``apply(seat, action)`` is the only way a game changes. The core's template checks that the game
is not over, that the action is one of this game's, and that it is this seat's turn (or, for
the next deal, that the round is over); ``_step`` then checks that the action fits the phase and
that the cards are the seat's own, and applies it whole, or raises an ``IllegalAction`` having
changed nothing. The state is plain data (``to_dict``/``from_dict``); the same deck order and the
same actions always give the same game. Shuffling uses a seed stored in the state, never the
global random generator.

Piles: ``stock[0]`` is the top of the stock; ``discard[-1]`` is the face-up top of the discard
pile and ``discard[0]`` the oldest discard.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeVar

from app.core import registry
from app.core.cards import Card as CoreCard, codes
from app.core.protocol import (
    EVERYONE, NOBODY, Event, GameDefinition, GameState, Move, Outcome as CoreOutcome, Said, SeatResult, View, Zone,
    N_, filled, read_said, refused, said,
)
from app.core.saved import reading

from .actions import (
    DISCARD_PILE, STOCK, Action, BadAction, BadSelection, CardNotInHand, Draw, LayDown, LayDownRefused,
    NextRound, PileEmpty, RoundOver, WrongPhase,
)
from .cards import DECK, FULL_DECK, Card, parse_card, sort_cards
from .decks import DECK_SIZE, shuffled_deck
from .melds import MELD, RUN, CardSet, LayOffs, NewSet, Refusal, judge_lay_down
from .menus import MENU_D, MENU_E
from .phases import DRAW_PHASE, GAME_OVER, PLAY_PHASE, ROUND_OVER
from .players import Player

ROUNDS = 3  # R4.1
HAND_SIZE = 10  # R4.2
MIN_SEATS, MAX_SEATS = 2, 3  # R3.1
# Project decision extending R5.3/R7.2 (RULES.md is silent on endless rounds): when the stock runs
# out for the third time with no card laid down since it first ran out, nobody is able (or willing)
# to go out, and the round is blocked and scored as R7.2. Without it a round can cycle forever.
STALL_REBUILDS = 3

DealtCard = TypeVar("DealtCard", bound=CoreCard)  # Mason Rummy's cards, or any for a preview
TURN_PHASES = frozenset({DRAW_PHASE, PLAY_PHASE})  # a seat is to move
STATE_FORMAT = 1
KEY = "mason"
# The log's lines in players' words (the web's; the terminal prints their texts)
LAID_DOWN = {MELD: "{player} laid down a meld: {cards}.", RUN: "{player} laid down a run: {cards}."}
ADDED_TO = {MELD: "{player} added the {card} to their meld: {set_cards}.",
            RUN: "{player} added the {card} to their run: {set_cards}."}
BLOCKED = {True: "Round {round} is blocked: nobody can go out, so every player counts their hand.",
           False: "Round {round} is blocked: no pile can give a card, so every player counts their hand."}

# The log line that starts a round (a replay jumps to it: the definition's ``round_lines``).
ROUND_DEALT = "Round {round}: {player} starts; the {card} is turned up on the discard pile."


def deal_layout(deck: list[DealtCard], seats: int) -> tuple[list[list[DealtCard]], DealtCard, list[DealtCard]]:
    """R4.2: from the top of ``deck``, 10 cards to seat 1, the next 10 to seat 2 (and seat 3),
    then one face up; the rest, in order, is the stock. (hands, face-up card, stock)"""
    hands = [deck[seat * HAND_SIZE:(seat + 1) * HAND_SIZE] for seat in range(seats)]
    dealt = seats * HAND_SIZE
    return hands, deck[dealt], deck[dealt + 1:]


class Outcome(CoreOutcome):
    """What one applied action did. ``events`` are public log lines (they never name a card
    drawn from the stock); ``drawn`` is the card drawn (for its drawer's eyes only)."""

    __slots__ = ("judgement", "drawn", "went_out")

    def __init__(self, action: Action, seat: int | None = None):
        # The engine makes one per action: the fields are set here rather than through super().
        self.action = action
        self.seat = seat
        self.events: list[Event] = []
        self.round_over = False
        self.game_over = False
        self.judgement: NewSet | LayOffs | None = None
        self.drawn: Card | None = None
        self.went_out: int | None = None

    def __repr__(self) -> str:
        return f"Outcome({self.action!r}, round_over={self.round_over}, events={len(self.events)})"


class MasonView(View):
    """What a seat sees of a Mason Rummy game (R4.4): the shared keys and the board's."""

    round: int
    rounds: int
    turn_name: str
    discard_top: str | None
    discard_top_by: str | None
    discard_size: int
    discard_pile: list[str]
    stock_size: int
    drawn: str | None
    round_scores: list[list[int]]
    went_out: int | None
    winners: list[int]


class MasonState(GameState):
    """A game of Mason Rummy: 2 or 3 seats, 3 rounds (the protocol of ``app.core.protocol``)."""

    deck = DECK

    def __init__(self, definition: GameDefinition, players: list[Player], *,
                 stacked_deck: Iterable[Card] | None = None, seed: int | str | None = None):
        super().__init__(definition, [player.name for player in players])
        if not MIN_SEATS <= len(players) <= MAX_SEATS:
            raise ValueError(f"a game has {MIN_SEATS} or {MAX_SEATS} players, not {len(players)}")
        deck = tuple(stacked_deck) if stacked_deck is not None else None
        if deck is not None and (len(deck) != DECK_SIZE or set(deck) != set(FULL_DECK)):
            raise ValueError("a stacked deck must hold the 65 cards once each")
        if deck is None and seed is None:
            raise ValueError("a shuffled game needs a seed")
        self.players = players
        for seat, player in enumerate(players):
            player.seat = seat
        self.stacked_deck = deck
        self.seed = seed
        self.round_number = 0
        self.phase = DRAW_PHASE
        self.turn = 0
        self.stock: list[Card] = []
        self.discard: list[Card] = []
        self.round_scores: list[list[int]] = []
        self.round_turns: list[int] = []
        self.turns_this_round = 0
        self.went_out: int | None = None
        self.drawn: Card | None = None
        self.stall_rebuilds = 0  # stock rebuilds since the last lay-down
        # What the game's log lines before ``log`` told (``log_facts``): the seat of the last of
        # them to name each card in their last round.
        self._named_by: dict[str, int | None] = {}
        self._named_by_round = 0

    @classmethod
    def new(cls, names: Iterable[str], *, stacked_deck: Iterable[Card] | None = None,
            seed: int | str | None = None, definition: GameDefinition | None = None) -> MasonState:
        """A game with round 1 dealt. ``AI`` names become computer players (R3.4). The
        definition is the registered one unless given."""
        game = cls(definition or registry.get(KEY), [Player.create(name) for name in names],
                   stacked_deck=stacked_deck, seed=seed)
        game._deal(Outcome(NextRound()))
        return game

    # -- reading the state ------------------------------------------------------------------

    @property
    def current_player(self) -> Player:
        return self.players[self.turn]

    def is_over(self) -> bool:
        return self.phase == GAME_OVER

    def to_move(self) -> int | None:
        return self.turn if self.phase in TURN_PHASES else None

    def legal(self, seat: int | None) -> list[Move]:
        """What ``seat`` may do now: Menu D or Menu E on its turn (R5), the next deal between
        rounds (anyone at the table, R9.3)."""
        if self.phase == ROUND_OVER:
            return [Move("next_round", f"Deal round {self.round_number + 1}",
                         say=said("Deal round {round}", round=self.round_number + 1))]
        if seat is None or seat != self.turn or self.phase == GAME_OVER:
            return []
        if self.phase == DRAW_PHASE:
            moves = []
            if self.can_draw(STOCK):
                moves.append(Move("draw_stock", MENU_D[0], menu="Menu D", number=1))
            if self.can_draw(DISCARD_PILE):  # R5.1: its top card, which everyone sees, named
                top = self.discard[-1]
                moves.append(Move("draw_discard", f"Take {top.code} from the discard pile", menu="Menu D", number=2,
                                  say=said("Take the {card} from the discard pile", card=top.id)))
            return moves
        hand = len(self.players[seat].hand.cards)
        return [Move("lay_down", MENU_E[0], pick=(1, hand), menu="Menu E", number=1),
                Move("discard", MENU_E[1], pick=(1, 1), menu="Menu E", number=2, primary=False)]

    def results(self) -> list[SeatResult]:
        """R7.3: the lowest game score wins, every seat tied for it too; R7.4 counts the rest."""
        if not self.is_over():
            return []
        winners = self.winners()
        return [SeatResult(seat, player.name, seat in winners, player.score)
                for seat, player in enumerate(self.players)]

    def zones(self) -> list[Zone]:
        """R4.4: the stock and the other players' hands are hidden, but for the cards this round's
        log names (a card everyone saw taken from the discard pile, or discarded and turned over
        into the stock, R5.2; everyone saw its lines when they happened: the lines the state no
        longer holds count through their facts). An earlier round's lines tell where a card was
        before the round dealt a fresh deck (R2.4), not where it is. The discard pile and
        the sets lie face up. Once a round is over, every hand left is shown with its points
        (R7.1)."""
        seen = self.last_named_by().keys()
        stock_seen = [card for card in self.stock if card.code in seen]
        zones = [Zone("stock", [card for card in self.stock if card.code not in seen], NOBODY),
                 Zone("stock, turned over from the discards", stock_seen, EVERYONE),
                 Zone("discard pile", self.discard, EVERYONE)]
        shown = self.phase in (ROUND_OVER, GAME_OVER)
        for seat, player in enumerate(self.players):
            name = self.label(seat)
            zones.append(Zone(f"{name}'s sets", [card for card_set in player.hand.laid_down for card in card_set.cards],
                              EVERYONE))
            cards = player.hand.cards
            known = cards if shown else [card for card in cards if card.code in seen]
            zones.append(Zone(f"{name}'s hand, seen by everyone", known, EVERYONE, holder=name))
            if not shown:
                zones.append(Zone(f"{name}'s hand", [card for card in cards if card.code not in seen],
                                  frozenset({seat}), holder=name))
        return self.public_once_over(zones)

    def round_log(self) -> list[Event]:
        """This round's lines that the state holds (all of them since it was dealt or read, and
        at least the game's last ``LOG_KEPT``)."""
        start = len(self.log)
        while start and self.log[start - 1]["round"] == self.round_number:
            start -= 1
        return self.log[start:]

    def discarded_by(self) -> int | None:
        """The seat that discarded the discard pile's top card, or None for the card turned up at
        the deal. (The last event of the round that names the top card: it can only be the deal
        or its discard, since a card taken or laid down is no longer on top.)"""
        if not self.discard:
            return None
        top = self.discard[-1].code
        lines = self.round_log()
        for event in reversed(lines):
            if top in event["cards"]:
                seat: int | None = event["seat"]
                return seat
        if len(lines) == len(self.log) and self._named_by_round == self.round_number:
            return self._named_by.get(top)  # named last by a line before the ones the state holds
        return None

    def seat_of(self, player: Player) -> int:
        for seat, seated in enumerate(self.players):
            if seated is player:
                return seat
        raise ValueError(f"{player.name} is not seated in this game")

    def can_draw(self, source: str) -> bool:
        """R5.3: can this pile give a card now (the stock counting its rebuild, R5.2)?"""
        if source == STOCK:
            return bool(self.stock) or len(self.discard) > 1
        if source == DISCARD_PILE:
            return bool(self.discard)
        return False

    def winners(self) -> list[int]:
        """R7.3: the seats with the lowest game score (all of them on a tie)."""
        if not self.is_over():
            return []
        low = min(player.score for player in self.players)
        return [seat for seat, player in enumerate(self.players) if player.score == low]

    def last_named_by(self) -> dict[str, int | None]:
        """Each card this round's log names, with the seat of the last line naming it (None: the
        deal), counting the round's lines before the ones the state holds through their facts."""
        lines = self.round_log()
        named: dict[str, int | None] = {}
        if len(lines) == len(self.log) and self._named_by_round == self.round_number:
            named.update(self._named_by)
        for event in lines:
            for code in event["cards"]:
                named[code] = event["seat"]
        return named

    def seen_taken(self, seat: int, named: Mapping[str, int | None] | None = None) -> list[Card]:
        """The cards of ``seat``'s hand everyone saw it take from the discard pile this round: a
        card stays in a hand until a line names it again (laid down or discarded). ``named``:
        ``last_named_by()``, when the caller has it."""
        named = self.last_named_by() if named is None else named
        return [card for card in self.players[seat].hand.cards if card.code in named and named[card.code] == seat]

    def turns_played(self, seat: int) -> int:
        """The turns ``seat`` has begun this round (R4.3: from the round's starting seat, in
        seat order; a turn begins with its draw)."""
        seats = len(self.players)
        place = (seat - self.starting_seat(self.round_number)) % seats  # its turns are place, place + seats, ...
        return (self.turns_this_round - place + seats - 1) // seats

    def starting_seat(self, round_number: int) -> int:
        """R4.3: round 1 starts with seat 1, round 2 with seat 2, round 3 with seat 3 (or 1)."""
        return (round_number - 1) % len(self.players)

    # -- changing the state -----------------------------------------------------------------

    def out_of_turn_refusal(self, seat: int | None) -> Said:
        return said("It is {player}'s turn, not yours.", player=self.label(self.turn))

    def _step(self, seat: int | None, action: Action) -> Outcome:
        """Apply ``action`` (the core has checked the turn) or raise ``IllegalAction`` with
        nothing changed."""
        outcome = Outcome(action, seat)
        if isinstance(action, NextRound):  # R9.3: the core let it through between rounds only
            self._deal(outcome)
            return outcome
        try:
            if isinstance(action, Draw):
                self._draw(action.source, outcome)
            elif isinstance(action, LayDown):
                self._lay_down(action.cards, outcome)
            else:
                self._discard(action.card, outcome)
        except RoundOver as signal:
            self._finish_round(signal.went_out, outcome)
        return outcome

    def take_back_fields(self) -> dict[str, Any]:
        return {"round": self.round_number}

    def take_back_words(self, what: str) -> str:
        return {"draw_stock": N_("draw"), "draw_discard": N_("draw"), "lay_down": N_("lay-down")}.get(what, what)

    def _log_event(self, outcome: Outcome, text: str, say: Said, cards: Iterable[Card] = (),
                   seat: int | None = None) -> None:
        """``log_event`` for this round, by the seat to move unless said: the engine's hot path
        makes the event itself."""
        event = {"seat": self.turn if seat is None else seat, "text": text, "cards": [card.id for card in cards],
                 "round": self.round_number, "say": say}
        self.log.append(event)
        outcome.events.append(event)

    def _deal(self, outcome: Outcome) -> None:
        """R4.2: 10 cards to each seat in seat order, one face up, the rest is the stock."""
        self.round_number += 1
        if self.stacked_deck is not None:
            deck = list(self.stacked_deck)  # R2.4: the same order every round
        else:
            deck = shuffled_deck(random.Random(f"{self.seed}/round/{self.round_number}"))
        hands, face_up, self.stock = deal_layout(deck, len(self.players))
        for player, hand in zip(self.players, hands):
            player.hand.cards = sort_cards(hand)
            player.hand.laid_down = []
        self.discard = [face_up]
        self.turn = self.starting_seat(self.round_number)
        self.phase = DRAW_PHASE
        self.turns_this_round = 0
        self.went_out = None
        self.drawn = None
        self.stall_rebuilds = 0
        # The log is the whole game's: each event says its round.
        self.log_event(outcome, None, f"Round {self.round_number} dealt; {self.label(self.turn)} starts.", [face_up],
                       round=self.round_number,
                       say=said(ROUND_DEALT,
                                round=self.round_number, player=self.label(self.turn), card=face_up.id))

    def _draw(self, source: str, outcome: Outcome) -> None:
        if self.phase != DRAW_PHASE:
            raise WrongPhase("You have already drawn this turn: play down cards or discard.")  # R5.4
        player, name = self.players[self.turn], self.label(self.turn)
        if source == STOCK:
            if not self.stock:
                if len(self.discard) < 2:
                    raise PileEmpty("The stock pile is empty and cannot be rebuilt: draw from the discard pile.")
                if self.stall_rebuilds + 1 >= STALL_REBUILDS:
                    raise RoundOver(None)  # stalemate: see STALL_REBUILDS
                self.stall_rebuilds += 1
                # R5.2: the top discard stays; the others turn over, oldest on top.
                self.stock = self.discard[:-1]
                self.discard = self.discard[-1:]
                self._log_event(outcome, f"The stock pile ran out: {len(self.stock)} discards were turned over to "
                                         "rebuild it.",
                                said(("The stock pile ran out: {count} discard was turned over to rebuild it.",
                                      "The stock pile ran out: {count} discards were turned over to rebuild it."),
                                     count=len(self.stock)), seat=None)
            card = self.stock.pop(0)
            self._log_event(outcome, f"{name} drew from the stock pile.",
                            said("{player} drew from the stock pile.", player=name))
        elif source == DISCARD_PILE:
            if not self.discard:
                raise PileEmpty("The discard pile is empty: draw from the stock pile.")
            card = self.discard.pop()
            self._log_event(outcome, f"{name} took {card.code} from the discard pile.",
                            said("{player} took the {card} from the discard pile.", player=name, card=card.id), [card])
        else:
            raise BadAction(f"There is no pile called {source!r}.")
        player.hand.add(card)
        self.phase = PLAY_PHASE
        self.drawn = card
        self.turns_this_round += 1
        outcome.drawn = card

    def _check_selection(self, cards: tuple[Card, ...]) -> None:
        if self.phase != PLAY_PHASE:
            raise WrongPhase("Draw a card first.")
        if not cards:
            raise BadSelection("Select at least one card.")
        if len(set(cards)) != len(cards):
            raise BadSelection("A card was selected twice.")
        hand = self.players[self.turn].hand.cards
        for card in cards:
            if card not in hand:
                raise refused(CardNotInHand, said("{code} is not in your hand.", code=card.code))

    def _lay_down(self, cards: tuple[Card, ...], outcome: Outcome) -> None:
        self._check_selection(cards)
        player, name = self.players[self.turn], self.label(self.turn)
        sets = player.hand.laid_down
        judgement = judge_lay_down(cards, sets)  # R6.3: the one judge
        if isinstance(judgement, Refusal):
            raise LayDownRefused(judgement.reason, say=judgement.say)
        for card in cards:
            player.hand.remove(card)
        self.stall_rebuilds = 0
        if isinstance(judgement, NewSet):
            sets.append(CardSet(judgement.kind, judgement.cards))
            laid = sets[-1].cards
            self._log_event(outcome, f"{name} laid down a {judgement.kind}: {' '.join(codes(laid))}.",
                            said(LAID_DOWN[judgement.kind], player=name, cards=[card.id for card in laid]), laid)
        else:
            for card, index in judgement.placements:
                sets[index].add(card)
                self._log_event(outcome, f"{name} laid {card.code} onto their {sets[index].kind} {sets[index]}.",
                                said(ADDED_TO[sets[index].kind], player=name, card=card.id,
                                     set_cards=[other.id for other in sets[index].cards]), [card])
        outcome.judgement = judgement
        if not player.hand.cards:
            raise RoundOver(self.turn)  # R5.7: no discard needed after the last card

    def _discard(self, card: Card, outcome: Outcome) -> None:
        if self.phase != PLAY_PHASE:
            raise WrongPhase("Draw a card first.")
        player, name = self.players[self.turn], self.label(self.turn)
        if card not in player.hand.cards:
            raise refused(CardNotInHand, said("{code} is not in your hand.", code=card.code))
        player.hand.remove(card)
        self.discard.append(card)
        self._log_event(outcome, f"{name} discarded {card.code}.",
                        said("{player} discarded the {card}.", player=name, card=card.id), [card])
        if not player.hand.cards:
            raise RoundOver(self.turn)  # R5.7
        self.turn = (self.turn + 1) % len(self.players)  # R4.3: seat order, wrapping
        self.phase = DRAW_PHASE
        self.drawn = None
        if not self.stock and not self.discard:  # neither pile can give a card (can_draw)
            raise RoundOver(None)  # R5.3 guard: a blocked round (cannot happen with a discard)

    def _finish_round(self, went_out: int | None, outcome: Outcome) -> None:
        """R7.1 / R7.2: the others (everyone, if blocked) add the points left in their hands."""
        points = [0 if seat == went_out else player.hand.hand_point_value()
                  for seat, player in enumerate(self.players)]
        for player, added in zip(self.players, points):
            player.score += added
        self.round_scores.append(points)
        self.round_turns.append(self.turns_this_round)
        self.went_out = went_out
        self.drawn = None
        if went_out is None:
            why = "nobody can go out" if self.stall_rebuilds else "no pile can give a card"
            self._log_event(outcome, f"Round {self.round_number} is blocked ({why}): every player counts their hand.",
                            said(BLOCKED[bool(self.stall_rebuilds)], round=self.round_number), seat=None)
        else:
            self._log_event(outcome, f"{self.label(went_out)} went out and ends round {self.round_number}.",
                            said("{player} went out and ends round {round}.", player=self.label(went_out),
                                 round=self.round_number), seat=went_out)
        self.phase = GAME_OVER if self.round_number >= ROUNDS else ROUND_OVER
        outcome.round_over = True
        outcome.game_over = self.phase == GAME_OVER
        outcome.went_out = went_out

    # -- what a seat may see ------------------------------------------------------------------

    def stage(self) -> str:
        return filled(self.stage_said())

    def stage_said(self) -> Said:
        return said("Round {round} of {rounds}", round=self.round_number, rounds=ROUNDS)

    def view(self, seat: int | None) -> MasonView:
        """R4.4: what ``seat`` may see (``None``: a spectator). Never another seat's hand, never
        the stock's order or the deck."""
        players = []
        named = self.last_named_by()
        for index, player in enumerate(self.players):
            players.append({
                **self.seat_view(index),
                "hand_size": len(player.hand.cards),
                "sets": [card_set.to_dict() for card_set in player.hand.laid_down],
                "score": player.score,
                "round_points": [points[index] for points in self.round_scores],
                # the round's public record, as every player saw it happen (the game's log says it)
                "turns": self.turns_played(index),
                "seen_taken": codes(self.seen_taken(index, named)),
            })
        mine = seat is not None and 0 <= seat < len(self.players)
        to_move = self.to_move()
        summary = None
        if self.phase in (ROUND_OVER, GAME_OVER) and self.round_scores:
            points = self.round_scores[-1]
            summary = {
                "title": f"Round {len(self.round_scores)} is over",
                "title_say": said("Round {round} is over", round=len(self.round_scores)),
                "round": len(self.round_scores),
                "went_out": None if self.went_out is None else self.label(self.went_out),
                "points": list(points),
                # R7.1: every hand left, with the points it added (shown once the round is over)
                "hands": [{"seat": index, "label": self.label(index), "cards": codes(player.hand.cards),
                           "points": points[index]} for index, player in enumerate(self.players)],
            }
        discarder = self.discarded_by() if to_move is not None else None
        prompt = None
        if to_move is not None:
            prompt = N_("draw a card") if self.phase == DRAW_PHASE else N_("play down cards or discard")
        return {
            "round": self.round_number,
            "rounds": ROUNDS,
            "stage": self.stage(),
            "stage_say": self.stage_said(),
            "turn": to_move,
            "turn_name": self.label(self.turn),
            "prompt": prompt,
            "discard_top": self.discard[-1].code if self.discard else None,
            "discard_top_by": None if discarder is None else self.label(discarder),
            "discard_size": len(self.discard),
            "discard_pile": codes(self.discard),  # bottom first: each card seen going down since the stock's rebuild
            "stock_size": len(self.stock),
            "players": players,
            "seat": seat if mine else None,
            "hand": codes(self.players[seat].hand.cards) if seat is not None and mine else None,
            "drawn": self.drawn.code if mine and seat == self.turn and self.drawn else None,
            "log": self.view_log(seat),
            "round_scores": [list(points) for points in self.round_scores],
            "went_out": self.went_out,
            "winners": self.winners(),
            "summary": summary,
        }

    def shown_log(self, seat: int | None, lines: Sequence[Event], first: int) -> list[Event]:
        """The log's lines as everyone reads them now: the cards of earlier rounds are no longer
        listed beside their lines (they are in play again). A line stored before lines kept their
        round (a game stored by the first web version) lists none: its round is not known."""
        return [dict(event, cards=list(event["cards"]) if event.get("round") == self.round_number else [])
                for event in lines]

    def tells_of_an_earlier_deal(self, line: Event) -> bool:
        """R2.4: each round is dealt from a fresh full deck."""
        return bool(line.get("round", self.round_number) < self.round_number)

    def log_facts(self, older: Sequence[Event]) -> dict[str, Any]:
        named_by, named_by_round = dict(self._named_by), self._named_by_round
        for event in older:
            if event["round"] != named_by_round:
                named_by, named_by_round = {}, event["round"]
            for card in event["cards"]:
                named_by[card] = event["seat"]
        return {"log_named_by": named_by, "log_named_round": named_by_round}

    # -- plain data ---------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": STATE_FORMAT,
            "players": [player.to_dict() for player in self.players],
            "stacked_deck": codes(self.stacked_deck) if self.stacked_deck is not None else None,
            "seed": self.seed,
            "round": self.round_number,
            "phase": self.phase,
            "turn": self.turn,
            "stock": codes(self.stock),
            "discard": codes(self.discard),
            **self.log_to_dict(),
            "round_scores": [list(points) for points in self.round_scores],
            "round_turns": list(self.round_turns),
            "turns_this_round": self.turns_this_round,
            "went_out": self.went_out,
            "drawn": self.drawn.code if self.drawn else None,
            "stall_rebuilds": self.stall_rebuilds,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], definition: GameDefinition | None = None) -> MasonState:
        """Rebuild a game; raises ``ValueError`` if the data is not a consistent game. The
        definition is the registered one unless given."""
        with reading("game"):
            if data.get("format") != STATE_FORMAT:
                raise ValueError(f"unknown state format {data.get('format')!r}")
            players = [Player.from_dict(p) for p in data["players"]]
            stacked = data["stacked_deck"]
            game = cls(definition or registry.get(KEY), players,
                       stacked_deck=[parse_card(c) for c in stacked] if stacked is not None else None,
                       seed=data["seed"])
            game.round_number = int(data["round"])
            game.phase = data["phase"]
            game.turn = int(data["turn"])
            game.stock = [parse_card(c) for c in data["stock"]]
            game.discard = [parse_card(c) for c in data["discard"]]
            # A game saved before the log kept every round holds this round's events, unnumbered.
            game.read_log(data, lambda e: {"seat": e["seat"], "text": str(e["text"]), "cards": list(e["cards"]),
                                           "round": int(e.get("round", game.round_number)), **read_said(e)})
            game._named_by = {str(code): seat for code, seat in dict(data.get("log_named_by", {})).items()}
            game._named_by_round = int(data.get("log_named_round", 0))
            game.round_scores = [[int(p) for p in points] for points in data["round_scores"]]
            game.round_turns = [int(t) for t in data["round_turns"]]
            game.turns_this_round = int(data["turns_this_round"])
            game.went_out = data["went_out"]
            game.drawn = parse_card(data["drawn"]) if data["drawn"] else None
            game.stall_rebuilds = int(data["stall_rebuilds"])
        if game.phase not in (DRAW_PHASE, PLAY_PHASE, ROUND_OVER, GAME_OVER):
            raise ValueError(f"unknown phase {game.phase!r}")
        if not 0 <= game.turn < len(players) or not 1 <= game.round_number <= ROUNDS:
            raise ValueError("turn or round out of range")
        if game.card_locations() != Counter(FULL_DECK):
            raise ValueError("the saved game does not hold the 65 cards once each")
        return game


Game = MasonState  # the name most callers know it by
