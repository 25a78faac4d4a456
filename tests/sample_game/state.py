"""High card as a game state of the protocol (H1-H6).

Privacy: the stock is hidden from everyone; a hand is its seat's alone until it is bust (H4) or
the game ends (H5), and then everyone's. No log line names a card while it is hidden.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from app.core.cards import Card, DeckSpec
from app.core.protocol import (
    EVERYONE, NOBODY, Event, Everyone, GameDefinition, GameState, Move, Outcome, PileEmpty, SeatResult, View, Zone,
)
from app.core.saved import flag, reading, text, texts, whole

from .actions import Action, Draw

STATE_FORMAT = 1
# H1: an ace counts 1, every other card its number.
VALUES = {rank: number for number, rank in enumerate("A23456789", start=1)}
DECK = DeckSpec("highcard", ranks="A23456789", suits="CDHS", points=VALUES)

DRAW_MOVE = Move("draw", "Draw a card")
# (Asks first, as a move that ends the game may: the house asks, the game only says what.)
PASS_MOVE = Move("pass", "Pass", primary=False, confirm="Pass? If everybody still in passes, the game ends.",
                 confirm_label="Yes, pass")


def worth_of(cards: Sequence[Card]) -> int:
    return sum(card.points for card in cards)


class HighCardView(View):
    """What a seat sees of a game of High card: the shared keys, the limit, the stock's size,
    and every hand: its cards and worth where the viewer may see them (None where not)."""

    limit: int
    stock: int
    hands: list[dict[str, Any]]


class HighCardState(GameState):
    game_over_text = "The game is over: every hand has been shown."

    def __init__(self, definition: GameDefinition, names: Sequence[str], options: Mapping[str, Any],
                 seed: int | str, stock: list[Card], hands: list[list[Card]]):
        super().__init__(definition, names)
        self.deck = DECK
        self.options = dict(options)
        self.seed = seed
        self.stock = stock  # top first
        self.hands = hands
        self.turn: int | None = 0
        self.passes = 0  # passes in a row since the last draw (H5)
        self.bust = [False] * len(names)
        self.drawn = [0] * len(names)
        self.over = False

    @classmethod
    def new(cls, definition: GameDefinition, names: Sequence[str], options: Mapping[str, Any],
            seed: int | str, stacked_deck: Sequence[Card] | None) -> HighCardState:
        if stacked_deck is not None:
            stock = list(stacked_deck)
            if len(stock) != DECK.size or set(stock) != set(DECK.cards):
                raise ValueError(f"a stacked deck holds the {DECK.size} cards of High card once each")
        else:
            stock = list(DECK.cards)
            random.Random(f"{seed}/deck").shuffle(stock)
        hands = [[stock.pop(0)] for _name in names]  # H2
        state = cls(definition, names, options, seed, stock, hands)
        state.log.append({"seat": None, "text": "Each seat is dealt one card, face down.", "cards": []})
        return state

    # -- reading ------------------------------------------------------------------------------------

    @property
    def limit(self) -> int:
        limit: int = self.options["limit"]
        return limit

    def worth(self, seat: int) -> int:
        """A hand's worth (a bot may ask it of its own seat only: the others are hidden)."""
        return worth_of(self.hands[seat])

    def to_move(self) -> int | None:
        return self.turn

    def is_over(self) -> bool:
        return self.over

    def legal(self, seat: int | None) -> list[Move]:
        if seat is None or seat != self.turn:
            return []
        return [DRAW_MOVE, PASS_MOVE] if self.stock else [PASS_MOVE]

    # -- acting -------------------------------------------------------------------------------------

    def _step(self, seat: int | None, action: Action) -> Outcome:
        assert seat is not None  # (a turn action: the seat to move)
        outcome = Outcome(action, seat)
        if isinstance(action, Draw):
            if not self.stock:
                raise PileEmpty("The stock is empty: you can only pass.")
            self.hands[seat].append(self.stock.pop(0))
            self.drawn[seat] += 1
            self.passes = 0
            self.log_event(outcome, seat, f"{self.label(seat)} draws a card.")
            if self.worth(seat) > self.limit:  # H4
                self.bust[seat] = True
                self.log_event(outcome, seat, f"{self.label(seat)} is bust with {self.worth(seat)}.", self.hands[seat])
        else:
            self.passes += 1
            self.log_event(outcome, seat, f"{self.label(seat)} passes.")
        self._next_turn(seat, outcome)
        return outcome

    def _next_turn(self, seat: int, outcome: Outcome) -> None:
        playing = [other for other in range(len(self._names)) if not self.bust[other]]
        if not playing or self.passes >= len(playing):  # H5
            self._end(outcome)
            return
        self.turn = min((other for other in playing if other > seat), default=playing[0])

    def _end(self, outcome: Outcome) -> None:
        self.over = True
        self.turn = None
        for seat, hand in enumerate(self.hands):
            what = "bust" if self.bust[seat] else "worth"
            self.log_event(outcome, seat, f"{self.label(seat)}'s hand, {what} {self.worth(seat)}.", hand)
        winners = [result.seat for result in self.results() if result.won]
        if winners:
            names = " and ".join(self.label(seat) for seat in winners)
            self.log_event(outcome, None, f"{names} {'wins' if len(winners) == 1 else 'win'} with "
                                       f"{self.worth(winners[0])}.")
        else:
            self.log_event(outcome, None, "Every hand is bust: nobody wins.")
        outcome.game_over = True

    # -- results ------------------------------------------------------------------------------------

    def results(self) -> list[SeatResult]:
        """H6; each seat's figures for the statistics (a bust hand is no best hand)."""
        if not self.over:
            return []
        standing = [self.worth(seat) for seat in range(len(self._names)) if not self.bust[seat]]
        best = max(standing, default=None)
        results = []
        for seat, name in enumerate(self._names):
            won = not self.bust[seat] and self.worth(seat) == best
            figures = {"games_played": 1, "games_won": int(won), "busts": int(self.bust[seat]),
                       "cards_drawn": self.drawn[seat]}
            if not self.bust[seat]:
                figures["best_hand"] = self.worth(seat)
            results.append(SeatResult(seat, name, won, self.worth(seat), figures))
        return results

    # -- what each seat sees --------------------------------------------------------------------------

    def shown_to(self, seat: int) -> Everyone | frozenset[int]:
        """Who may see ``seat``'s hand: its seat, or everyone once it is bust or the game is over."""
        return EVERYONE if self.over or self.bust[seat] else frozenset({seat})

    def zones(self) -> list[Zone]:
        zones = [Zone("stock", list(self.stock), NOBODY)]
        zones += [Zone(f"{self.label(seat)}'s hand", list(hand), self.shown_to(seat))
                  for seat, hand in enumerate(self.hands)]
        return self.public_once_over(zones)

    def view(self, seat: int | None) -> HighCardView:
        own = seat if self.is_seat(seat) else None
        hands = []
        for index, hand in enumerate(self.hands):
            seen = own in self.shown_to(index)
            hands.append({"seat": index, "label": self.label(index), "count": len(hand), "bust": self.bust[index],
                          "cards": [card.id for card in hand] if seen else None,
                          "worth": worth_of(hand) if seen else None})
        return {
            "seat": own,
            "players": [{**self.seat_view(index), "hand_size": len(hand), "bust": self.bust[index]}
                        for index, hand in enumerate(self.hands)],
            "turn": self.turn,
            "stage": self.stage(),
            "prompt": self._prompt(own),
            "hand": [card.id for card in self.hands[own]] if own is not None else None,
            "log": self.view_log(seat),
            "summary": None,
            "limit": self.limit,
            "stock": len(self.stock),
            "hands": hands,
        }

    def stage(self) -> str:
        if self.over:
            return "Game over"
        return f"Stock: {len(self.stock)} card{'' if len(self.stock) == 1 else 's'}"

    def _prompt(self, seat: int | None) -> str:
        if self.turn is None:
            return "The game is over."
        if seat == self.turn:
            return f"draw a card or pass? Your hand is worth {self.worth(seat)}, bust over {self.limit}."
        return f"{self.label(self.turn)} draws or passes."

    # -- plain data -----------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.definition.key,
            "format": STATE_FORMAT,
            "names": list(self._names),
            "options": dict(self.options),
            "seed": self.seed,
            "stock": [card.id for card in self.stock],
            "hands": [[card.id for card in hand] for hand in self.hands],
            "turn": self.turn,
            "passes": self.passes,
            "bust": list(self.bust),
            "drawn": list(self.drawn),
            "over": self.over,
            **self.log_to_dict(),
        }

    @classmethod
    def from_dict(cls, definition: GameDefinition, data: Mapping[str, Any]) -> HighCardState:
        with reading("game of High card"):
            return cls._from_dict(definition, data)

    @classmethod
    def _from_dict(cls, definition: GameDefinition, data: Mapping[str, Any]) -> HighCardState:
        if data["game"] != definition.key or data["format"] != STATE_FORMAT:
            raise ValueError("not a saved game of High card in this format")
        names = texts(data["names"])
        definition.check_seats(names)
        options = definition.validate_options(data["options"])
        seed = data["seed"]
        if not isinstance(seed, (int, str)) or isinstance(seed, bool):
            raise ValueError("the seed is a number or a text")
        stock = [DECK.parse(card_id) for card_id in texts(data["stock"])]
        hands = [[DECK.parse(card_id) for card_id in texts(hand)] for hand in data["hands"]]
        state = cls(definition, names, options, seed, stock, hands)
        turn = data["turn"]
        state.turn = None if turn is None else whole(turn, 0, len(names) - 1)
        state.passes = whole(data["passes"], 0, len(names))
        state.bust = [flag(bust) for bust in data["bust"]]
        state.drawn = [whole(drawn) for drawn in data["drawn"]]
        state.over = flag(data["over"])
        state.read_log(data, cls._event)
        state._check()
        return state

    @staticmethod
    def _event(event: Any) -> Event:
        seat = event["seat"]
        if not (seat is None or type(seat) is int):
            raise ValueError("an event's seat is a number or None")
        return {"seat": seat, "text": text(event["text"]),
                "cards": [DECK.parse(card_id).id for card_id in texts(event["cards"])]}

    def _check(self) -> None:
        """The saved data must be a game the rules could have reached."""
        seats = len(self._names)
        if len(self.hands) != seats or len(self.bust) != seats or len(self.drawn) != seats:
            raise ValueError("one hand, one bust flag and one count of draws a seat")
        cards = self.stock + [card for hand in self.hands for card in hand]
        if len(cards) != DECK.size or set(cards) != set(DECK.cards):
            raise ValueError(f"the game holds {len(cards)} cards, not the {DECK.size} of the deck once each")
        for seat, hand in enumerate(self.hands):
            if len(hand) != 1 + self.drawn[seat]:
                raise ValueError(f"seat {seat} holds {len(hand)} cards after {self.drawn[seat]} draws")
            if self.bust[seat] != (self.worth(seat) > self.limit):
                raise ValueError(f"seat {seat}'s bust flag does not fit its hand")
        playing = [seat for seat in range(seats) if not self.bust[seat]]
        if self.over:
            if self.turn is not None or (playing and self.passes < len(playing)):
                raise ValueError("the game is over but a seat is still to play")
        elif self.turn is None or self.bust[self.turn] or self.passes >= len(playing):
            raise ValueError("the seat to move cannot play")
