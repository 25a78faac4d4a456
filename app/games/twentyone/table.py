"""The user's ``Player`` and ``Table`` (T3, T4): hands, the deal, hits, the dealer's automatic
play, who won, and clearing the table onto the discard pile.

The table speaks, it does not print: what the original program displayed becomes *events*
(``{"seat", "text", "cards", "kind"}``) collected in ``Table.events``, which the game state moves
into its log and the terminal prints. Their texts are the original's lines (T4, T5, T6.4). With
one player the table is "Player" against the dealer, word for word; with several (T7) each hand
line and result line names its player instead.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from app.core.cards import Card as CoreCard
from app.core.protocol import Event, Said, said
from app.core.saved import texts, whole

from .cards import DECK, Card, Deck, face

BUST_LIMIT = 21  # over 21 is bust (T3.2)
TWENTY_ONE = 21  # exactly 21 after a hit ends the turn (T3.3)
DEALER_STANDS_ON = 17  # the dealer takes cards while 16 or less (T3.4)
ACE_BONUS = 10  # T8.1: an ace may count 11, ten more than its 1

# who_won's answers
PLAYER_WINS, DEALER_WINS, TIE = "player", "dealer", "tie"

# event kinds: what the terminal prints (every kind but ACTION, which only the web's log shows)
ROUND, DEAL, REFILL, HAND, ACTION, DEALER_TAKES, RESULT, END = (
    "round", "deal", "refill", "hand", "action", "dealer", "result", "end")

DEALING_ONE = "Dealing cards to player and dealer..."  # T6.1
DEALING_SEVERAL = "Dealing cards to players and dealer..."
REPOPULATING = "Repopulating deck with cards..."  # T6.4
DEALER_MUST_TAKE = "Dealer must take a card..."  # T5.2


def event(seat: int | None, text: str, cards: Iterable[Card] = (), kind: str = ACTION,
          say: Said | None = None, deck: int = 0) -> Event:
    """A log entry: only face-up cards are ever named (T3.2, T7.2). ``say``: the line in players'
    words, for the web's log (None: the web leaves the line out, as it only repeats the table).
    ``deck``: the deck's refills before it (T3.6), which tell the deck it was dealt from."""
    return {"seat": seat, "text": text, "cards": [card.id for card in cards if card.face_up], "kind": kind,
            "deck": deck, "say": say}


class Player:
    """A hand of cards and its value (T1.2). The dealer is a ``Player`` too, named "Dealer".

    ``str(player)`` is T4.1: ``hand:[ 9S ][ AD ], value = 10``, the value only when every card
    is face up. ``hand_value`` counts every card, face down too (the rules need it; what a
    seat may see is ``shown_value``)."""

    def __init__(self, name: str = "Player", aces_high: bool = False):
        self.name = name
        self.aces_high = aces_high  # T8.1: an ace counts 11 when that does not go over 21
        self._hand: list[Card] = []
        self._value = 0

    @property
    def hand(self) -> tuple[Card, ...]:
        return tuple(self._hand)

    @property
    def hand_value(self) -> int:
        return self._value + ACE_BONUS if self.soft else self._value

    @property
    def soft(self) -> bool:
        """T8.1: an ace of the hand counts 11 (so the hand is "soft")."""
        return (self.aces_high and self._value + ACE_BONUS <= BUST_LIMIT
                and any(card.rank == "A" for card in self._hand))

    @property
    def shown_value(self) -> int:
        """The value of the face-up cards: what everybody at the table can add up."""
        up = [card for card in self._hand if card.face_up]
        value = sum(card.value for card in up)
        if self.aces_high and value + ACE_BONUS <= BUST_LIMIT and any(card.rank == "A" for card in up):
            return value + ACE_BONUS
        return value

    @property
    def all_face_up(self) -> bool:
        return all(card.face_up for card in self._hand)

    def add_to_hand(self, card: Card) -> None:
        if not isinstance(card, Card):
            raise TypeError(f"{card!r} is not a Card")
        self._hand.append(card)
        self._value += card.value

    def clear_hand(self) -> list[Card]:
        """Empty the hand; return the cards it held (as they lie, face up or down)."""
        cards, self._hand, self._value = self._hand, [], 0
        return cards

    def reveal_all_cards(self) -> None:
        for card in self._hand:
            face(card, True)

    def __str__(self) -> str:
        text = "hand:" + "".join(str(card) for card in self._hand)
        if self.all_face_up:
            text += f", value = {self.hand_value}"
        return text

    def __repr__(self) -> str:
        return f"Player({self.name!r}, {self})"


class Table:
    """Players and the dealer, the deck, and the discard pile (T3).

    ``names`` are the players' names as lines show them ("Player" alone at the table, T6);
    ``deck`` is the deck the table deals from (a shuffled one from ``seed`` if None, T2.4);
    ``seed`` and ``refills`` (how many times the discard pile became the deck) make each refill's
    shuffle (T3.6): ``random.Random(f"{seed}/refill/{refills}")``, so a saved table refills the
    same way again.
    """

    def __init__(self, names: Sequence[str] = ("Player",), deck: Deck | None = None, *,
                 seed: int | str = 0, refills: int = 0, aces_high: bool = False,
                 dealer_stands_on: int = DEALER_STANDS_ON, dealer_hits_soft_17: bool = False):
        if not names:
            raise ValueError("a table needs at least one player")
        self.players = [Player(name, aces_high) for name in names]
        self.dealer = Player("Dealer", aces_high)
        self.dealer_stands_on = dealer_stands_on  # T3.4; T8.2
        self.dealer_hits_soft_17 = dealer_hits_soft_17  # T8.3
        self.deck = deck if deck is not None else Deck.shuffled(random.Random(f"{seed}/deck"))
        self.discard_pile: list[Card] = []
        self.seed = seed
        self.refills = refills
        self.dealer_turn: list[dict[str, Any]] = []  # the dealer's hand after turning over and after each card
        self.events: list[Event] = []

    # -- the events ------------------------------------------------------------------------------------

    def note(self, seat: int | None, text: str, cards: Iterable[Card] = (), kind: str = ACTION,
             say: Said | None = None) -> None:
        self.events.append(event(seat, text, cards, kind, say, self.refills))

    def take_events(self) -> list[Event]:
        events, self.events = self.events, []
        return events

    def hand_line(self, seat: int | None) -> str:
        """T4.1: ``Player's hand:[ 9S ][ AD ], value = 10`` (seat None: the dealer's line)."""
        player = self.dealer if seat is None else self.players[seat]
        return f"{player.name}'s {player}"

    def show_hand(self, seat: int | None, say: Said | None = None) -> None:
        player = self.dealer if seat is None else self.players[seat]
        self.note(seat, self.hand_line(seat), player.hand, HAND, say)

    def show_table(self, labels: Sequence[str] | None = None) -> None:
        """T4.2: every player's line, then the dealer's. ``labels``: the players' names, to say
        in players' words what each was dealt (the web's log); without them the lines only
        repeat the table."""
        for seat, player in enumerate(self.players):
            self.show_hand(seat, said("{player} was dealt {cards}: {value}.", player=labels[seat],
                                      cards=[card.id for card in player.hand], value=player.hand_value)
                           if labels is not None else None)
        shown = [card for card in self.dealer.hand if card.face_up]
        self.show_hand(None, said("The dealer shows the {card}; the other card lies face down.", card=shown[0].id)
                       if labels is not None and len(shown) == 1 else None)

    def show_after(self, seat: int | None, say: Said | None = None) -> None:
        """The table after a change to one hand: the whole table when one player sits (T6.2,
        as the original shows it); with several, the line of the hand that changed. ``say``:
        what changed, in players' words, on that hand's line."""
        if len(self.players) == 1:
            for player_seat in range(len(self.players)):
                self.show_hand(player_seat, say if seat == player_seat else None)
            self.show_hand(None, say if seat is None else None)
        else:
            self.show_hand(seat, say)

    # -- dealing ----------------------------------------------------------------------------------------

    def _next_card(self) -> Card:
        """The front card of the deck; an empty deck is first refilled from the discard pile
        (T3.6), with T6.4's message at that very moment."""
        if not len(self.deck) and self.discard_pile:
            self.note(None, REPOPULATING, kind=REFILL, say=said("The discard pile is shuffled to make a new deck."))
            rng = random.Random(f"{self.seed}/refill/{self.refills}")
            self.refills += 1
            cards, self.discard_pile = self.discard_pile, []
            self.deck.repopulate(cards, rng)
        return self.deck.deal()  # EmptyDeckException when nothing can refill it

    def _deal_to(self, player: Player, face_up: bool = True) -> Card:
        card = face(self._next_card(), face_up)
        player.add_to_hand(card)
        return card

    def deal_hands(self) -> None:
        """T3.1: every player in seat order, then the dealer, face up; again, the dealer's second
        card face down."""
        if any(player.hand for player in self.players) or self.dealer.hand:
            raise ValueError("the table must be cleared before a new deal")
        self.note(None, DEALING_ONE if len(self.players) == 1 else DEALING_SEVERAL, kind=DEAL)
        for dealer_face_up in (True, False):
            for player in self.players:
                self._deal_to(player)
            self._deal_to(self.dealer, dealer_face_up)

    def player_hit(self, seat: int = 0) -> bool:
        """T3.2: one more card face up to the player; True if the player went bust."""
        self._deal_to(self.players[seat])
        return self.players[seat].hand_value > BUST_LIMIT

    def player_natural(self, seat: int = 0) -> bool:
        """T3.3: the player's hand is worth exactly 21."""
        return self.players[seat].hand_value == TWENTY_ONE

    def dealer_hit(self) -> bool:
        """T3.4/T5.2: the dealer turns the hidden card over, then takes cards while 16 or less,
        each announced by ``Dealer must take a card...`` and shown. True if the dealer went
        bust."""
        hidden = [card for card in self.dealer.hand if not card.face_up]
        self.dealer.reveal_all_cards()
        self._dealer_step(said("The dealer turns over the {card}: {value}.", card=hidden[0].id,
                               value=self.dealer.hand_value) if hidden else None)
        while self.dealer_takes():
            self.note(None, DEALER_MUST_TAKE, kind=DEALER_TAKES)
            card = self._deal_to(self.dealer)
            self._dealer_step(said("The dealer takes the {card}: {value}.", card=card.id, value=self.dealer.hand_value))
        return self.dealer.hand_value > BUST_LIMIT

    def dealer_takes(self) -> bool:
        """T3.4: the dealer takes a card while below the value it stands on (17; T8.2), and on a
        soft 17 at a table where the dealer hits it (T8.3)."""
        value = self.dealer.hand_value
        if value < self.dealer_stands_on:
            return True
        return self.dealer_hits_soft_17 and value == DEALER_STANDS_ON and self.dealer.soft

    def _dealer_step(self, say: Said | None) -> None:
        self.show_after(None, say)
        self.dealer_turn.append({"cards": [card.id for card in self.dealer.hand],
                                 "value": self.dealer.hand_value})

    def who_won(self, seat: int = 0) -> str:
        """T3.4 for one player against the dealer: ``PLAYER_WINS``, ``DEALER_WINS`` or ``TIE``."""
        player = self.players[seat].hand_value
        dealer = self.dealer.hand_value
        if player > BUST_LIMIT:
            return DEALER_WINS
        if dealer > BUST_LIMIT or player > dealer:
            return PLAYER_WINS
        return DEALER_WINS if dealer > player else TIE

    def clear_table(self) -> None:
        """T3.5: every card on the table goes to the discard pile, as it lies (a hidden card that
        was never turned over stays face down there)."""
        for player in self.players + [self.dealer]:
            self.discard_pile.extend(player.clear_hand())
        self.dealer_turn = []

    # -- reading ----------------------------------------------------------------------------------------

    def cards_on_table(self) -> list[Card]:
        return [card for player in self.players + [self.dealer] for card in player.hand]

    def __str__(self) -> str:
        """T4.2: the players' lines, then the dealer's."""
        return "\n".join([self.hand_line(seat) for seat in range(len(self.players))] + [self.hand_line(None)])

    # -- plain data -------------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Cards as ids; ``face_down`` lists the cards off the deck lying face down (the dealer's
        hidden card, on the table or in the discard pile); every card in the deck is face down."""
        off_deck = self.cards_on_table() + self.discard_pile
        return {
            "deck": [card.id for card in self.deck],
            "discard": [card.id for card in self.discard_pile],
            "hands": [[card.id for card in player.hand] for player in self.players],
            "dealer": [card.id for card in self.dealer.hand],
            "face_down": [card.id for card in off_deck if not card.face_up],
            "refills": self.refills,
            "dealer_turn": [{"cards": list(step["cards"]), "value": step["value"]} for step in self.dealer_turn],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], names: Sequence[str], seed: int | str,
                  **rules: Any) -> Table:
        """A table from ``to_dict`` data; ``ValueError`` if a card is unknown, missing or in two
        places, or the data is malformed."""
        face_down = {DECK.parse(card_id) for card_id in texts(data["face_down"])}
        placed: set[CoreCard] = set()

        def cards(ids: Any) -> list[Card]:
            result = []
            for card_id in texts(ids):
                core = DECK.parse(card_id)
                if core in placed:
                    raise ValueError(f"{core.id} is in two places")
                placed.add(core)
                result.append(Card(core, core not in face_down))
            return result

        deck_cards = cards(data["deck"])
        if face_down & {card.core for card in deck_cards}:
            raise ValueError("a card of the deck is listed among the face-down cards off the deck")
        deck = Deck(deck_cards)
        discard = cards(data["discard"])
        hands = data["hands"]
        if not isinstance(hands, list) or len(hands) != len(names):
            raise ValueError("one hand a player")
        table = cls(names, deck, seed=seed, refills=whole(data["refills"]), **rules)
        for player, hand in zip(table.players, hands):
            for card in cards(hand):
                player.add_to_hand(card)
        for card in cards(data["dealer"]):
            table.dealer.add_to_hand(card)
        table.discard_pile = discard
        if len(placed) != DECK.size:
            raise ValueError(f"the table holds {len(placed)} cards, not {DECK.size}")
        steps = data["dealer_turn"]
        if not isinstance(steps, list):
            raise ValueError("dealer_turn is a list")
        for step in steps:
            table.dealer_turn.append({"cards": [DECK.parse(card_id).id for card_id in texts(step["cards"])],
                                      "value": whole(step["value"])})
        return table
