"""Checks every game's state must pass, from where its cards are (``GameState.zones``), never from
the game's own view code: the generic property test, the rules tests and the games' own tests
call these.

- ``check_zones``: every card of the deck lies in exactly one zone, and each zone says who may
  see it (everyone, nobody, or seats of the game).
- ``check_privacy``: no view (any seat's, or a spectator's) names a card its reader may not see:
  the view's plain data is walked, keys and values, for the ids of the game's deck, and its
  texts (the log) for card codes.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from app.core.cards import Card
from app.core.protocol import EVERYONE, GameState

WORD = re.compile(r"[A-Za-z0-9]{2}(?:-\d)?")


def strings_in(value: Any, found: set[str] | None = None) -> set[str]:
    """Every string of plain data (dict keys too), however deep."""
    found = set() if found is None else found
    if isinstance(value, str):
        found.add(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            strings_in(key, found)
            strings_in(item, found)
    elif isinstance(value, (list, tuple)):
        for item in value:
            strings_in(item, found)
    return found


def check_zones(state: GameState) -> None:
    zones = state.zones()
    found = Counter(card for zone in zones for card in zone.cards)
    assert found == Counter(state.deck.cards), "the zones do not hold every card of the deck exactly once"
    seats = set(range(len(state.names)))
    for zone in zones:
        assert zone.visible_to is EVERYONE or (isinstance(zone.visible_to, frozenset) and zone.visible_to <= seats), \
            f"zone {zone.name!r} is visible to {zone.visible_to!r}"


def hidden_cards(state: GameState, seat: int | None) -> set[Card]:
    """The cards ``seat`` may not see, read from the zones."""
    return {card for zone in state.zones() if not zone.visible(seat) for card in zone.cards}


def check_privacy(state: GameState) -> None:
    deck_ids = {card.id for card in state.deck.cards}
    for seat in [*range(len(state.names)), None]:
        hidden = hidden_cards(state, seat)
        if not hidden:
            continue
        strings = strings_in(state.view(seat))
        leaked = strings & deck_ids & {card.id for card in hidden}
        assert not leaked, f"seat {seat}'s view shows {sorted(leaked)}, which it may not see"
        # In texts (the log), a code gives a card away only if every copy of it is hidden.
        fully_hidden = {card.code for card in hidden
                        if all(copy in hidden for copy in state.deck.copies_of(card.code))}
        for text in strings:
            if " " in text:
                named = set(WORD.findall(text)) & fully_hidden
                assert not named, f"seat {seat}'s view names {sorted(named)} in {text!r}"
