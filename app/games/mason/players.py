"""Hands and players (R3.4): a live player chooses through ``Controls`` (the terminal's menus,
a test script); a computer player (``AI``) through the game's computer player (``bot.py``), by
the one autoplay loop. Both only act through the game's ``apply``, so every rule is checked in
one place. A player knows the game only as the protocol's ``GameState``."""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, Protocol

from app.core.autoplay import autoplay, one_seat
from app.core.names import COMPUTER_NAME, is_computer_name
from app.core.protocol import GameState, Outcome

from .actions import Discard, Draw, LayDown, LayDownRefused, PileEmpty, RoundOver
from .cards import SORT_KEY, Card, parse_card, points_of, sort_cards
from .melds import CardSet


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

    def copy(self) -> Hand:
        clone = Hand.__new__(Hand)
        clone.cards = list(self.cards)
        clone.laid_down = [card_set.copy() for card_set in self.laid_down]
        return clone

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __contains__(self, card: object) -> bool:
        return card in self.cards

    def __str__(self) -> str:
        return " ".join(card.code for card in self.cards)

    def __repr__(self) -> str:
        return f"Hand({self})"


class Controls(Protocol):
    """Where a live player's choices come from (the terminal's menus, or a script in tests);
    ``game`` is the ``MasonState`` the player sits at."""

    def choose_draw(self, game: Any, seat: int) -> str: ...
    def choose_action(self, game: Any, seat: int) -> str: ...  # "lay_down" or "discard"
    def choose_lay_down(self, game: Any, seat: int) -> Sequence[Card]: ...
    def choose_discard(self, game: Any, seat: int) -> Card: ...
    def refused(self, game: Any, seat: int, message: str) -> None: ...
    def done(self, game: Any, seat: int, outcome: Any) -> None: ...


LAY_DOWN_CHOICE = "lay_down"
DISCARD_CHOICE = "discard"


class Player:
    """A seat's player: a name, a hand and the score of the game so far (R3, R7); ``seat`` is
    where the game seated them."""

    is_computer = False

    def __init__(self, name: str, hand: Hand | None = None, score: int = 0):
        self.name = name
        self.hand = hand if hand is not None else Hand()
        self.score = score
        self.seat: int | None = None

    @staticmethod
    def create(name: str) -> Player:
        """A ``ComputerPlayer`` for ``AI`` in any case (R3.4), else a ``LivePlayer``."""
        if is_computer_name(name):
            return ComputerPlayer(COMPUTER_NAME)
        return LivePlayer(name)

    def take_turn(self, game: GameState, controls: Controls | None = None) -> None:
        """Play one whole turn: draw, lay down as chosen, discard. Raises ``RoundOver`` if the
        round ended during this turn."""
        raise NotImplementedError

    def _seat(self) -> int:
        if self.seat is None:
            raise ValueError(f"{self.name} is not seated in a game")
        return self.seat

    def _round_over(self) -> RoundOver:
        """The round ended during this player's turn: they went out (R5.7), or it was blocked."""
        return RoundOver(None if self.hand.cards else self._seat())

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "computer": self.is_computer,
            "hand": [card.code for card in self.hand.cards],
            "sets": [card_set.to_dict() for card_set in self.hand.laid_down],
            "score": self.score,
        }

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> Player:
        cls = ComputerPlayer if data["computer"] else LivePlayer
        hand = Hand((parse_card(code) for code in data["hand"]), (CardSet.from_dict(s) for s in data["sets"]))
        score = data["score"]
        if not isinstance(score, int) or isinstance(score, bool) or score < 0:
            raise ValueError(f"bad score {score!r}")
        return cls(str(data["name"]), hand, score)

    def copy(self) -> Player:
        return type(self)(self.name, self.hand.copy(), self.score)

    def __str__(self) -> str:
        cards = "card" if len(self.hand) == 1 else "cards"
        return f"{self.name}: {len(self.hand)} {cards} in hand, {self.score} points"


class LivePlayer(Player):
    """A person at the table, choosing through ``controls``."""

    def take_turn(self, game: GameState, controls: Controls | None = None) -> None:
        if controls is None:
            raise ValueError("a live player needs controls to choose with")
        seat = self._seat()
        outcome: Outcome
        while True:  # Menu D until a pile gives a card (R5.3)
            try:
                outcome = game.apply(seat, Draw(controls.choose_draw(game, seat)))
                break
            except PileEmpty as refusal:
                controls.refused(game, seat, str(refusal))
        controls.done(game, seat, outcome)
        if outcome.round_over:  # the draw found the round blocked (R5.3, STALL_REBUILDS)
            raise self._round_over()
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
                raise self._round_over()
            if not isinstance(outcome.action, LayDown):
                return


class ComputerPlayer(Player):
    """The ``AI`` seat (R8): the game's computer player (``bot.py``) plays its turn through the
    one autoplay loop, one action at a time, until its turn (or the round) is over."""

    is_computer = True

    def take_turn(self, game: GameState, controls: Controls | None = None) -> None:
        seat = self._seat()
        bot = game.definition.bot
        if bot is None:
            raise ValueError(f"{game.definition.name} has no computer player")

        def show(outcome: Outcome) -> None:
            if controls is not None:
                controls.done(game, seat, outcome)

        outcomes = autoplay(game, one_seat(seat, bot), on_outcome=show)
        if outcomes and outcomes[-1].round_over:
            raise self._round_over()


__all__ = ["COMPUTER_NAME", "ComputerPlayer", "Controls", "DISCARD_CHOICE", "Hand", "LAY_DOWN_CHOICE",
           "LivePlayer", "Player", "is_computer_name"]
