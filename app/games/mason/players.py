"""Hands and players (R3.4): a live player chooses through ``Controls`` (the terminal's menus,
a test script); a computer player (``AI``) through the strategy of ``bot.py``. Both only act
through ``Game.apply``, so every rule is checked in one place."""

from __future__ import annotations

import bisect
from typing import TYPE_CHECKING, Iterable, Protocol, Sequence

from app.core.names import COMPUTER_NAME, is_computer_name

from .actions import Discard, Draw, LayDown, LayDownRefused, PileEmpty, RoundOver
from .bot import play_computer_turn
from .cards import SORT_KEY, Card, parse_card, points_of, sort_cards
from .melds import CardSet

if TYPE_CHECKING:  # pragma: no cover
    from .game import Game, Outcome


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
        bisect.insort(self.cards, card, key=SORT_KEY)

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
        hand = Hand((parse_card(code) for code in data["hand"]), (CardSet.from_dict(s) for s in data["sets"]))
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
    """The ``AI`` seat (R8): its choices come from the strategy in ``bot.py``, one action at a
    time, until its turn (or the round) is over."""

    is_computer = True

    def take_turn(self, game: "Game", controls: Controls | None = None) -> None:
        seat = game.seat_of(self)
        for outcome in play_computer_turn(game, seat):
            if controls is not None:
                controls.done(game, seat, outcome)
            if outcome.round_over:
                raise RoundOver(outcome.went_out)


__all__ = ["COMPUTER_NAME", "ComputerPlayer", "Controls", "DISCARD_CHOICE", "Hand", "LAY_DOWN_CHOICE",
           "LivePlayer", "Player", "is_computer_name"]
