"""Where Mason Rummy's cards are, read from a stored game by the tests' oracle (not by the game's
own view code): a seat's hand, the cards on the table, the cards anyone may know, and the cards
a seat must never see (R4.4)."""

from __future__ import annotations

from collections import Counter


def hand_of(game, seat: int) -> list[str]:
    return [card.code for card in game.players[seat].hand.cards]


def table_cards(game) -> set[str]:
    """The cards lying face up: the discard top and every laid-down set; once a round is over,
    every hand left (R7.1: shown with its points)."""
    cards = {game.discard[-1].code} if game.discard else set()
    for player in game.players:
        for card_set in player.hand.laid_down:
            cards.update(card.code for card in card_set.cards)
        if game.to_move() is None:
            cards.update(card.code for card in player.hand.cards)
    return cards


def public_cards(game) -> set[str]:
    """What every browser at the table may know: the table cards and the cards the game's log
    names (a discard, a card taken from the discard pile, a lay-down; every round's)."""
    cards = table_cards(game)
    for event in game.log:
        cards.update(event["cards"])
    return cards


def allowed_cards(game, seat: int | None) -> set[str]:
    """R4.4: the table cards plus ``seat``'s own hand (``None``: a spectator)."""
    cards = table_cards(game)
    if seat is not None:
        cards.update(hand_of(game, seat))
    return cards


def secret_cards(game, seat: int | None) -> set[str]:
    """Cards ``seat`` must never see: the others' hands and the stock, unless made public."""
    hidden = {card.code for card in game.stock}
    for other, player in enumerate(game.players):
        if other != seat:
            hidden.update(card.code for card in player.hand.cards)
    return hidden - public_cards(game)


def check_65_cards(game) -> None:
    """Every one of the 65 cards is in exactly one place (stock, discard, a hand, a set)."""
    from app.games.mason import FULL_DECK

    assert game.card_locations() == Counter(FULL_DECK)
