"""Checks every game's state must pass, from where its cards are (``GameState.zones``), never from
the game's own view code: the generic property test, the rules tests and the games' own tests
call these.

- ``check_zones``: every card of the deck lies in exactly one zone, and each zone says who may
  see it (everyone, nobody, or seats of the game); once the game is over, everyone sees every card.
- ``check_privacy``: no view (any seat's, or a spectator's) names a card its reader may not see:
  the view's plain data is walked, keys and values, for the ids of the game's deck, and its
  texts (the log) for card codes; given the game's whole log, the same of every line of it as
  the whole game's log page shows it to that reader (``shown_log``).
- ``check_log``: given the game's whole log (every line since the deal), the state counts it,
  its views show its last lines, and a state read back from its saved data shows every line
  and hides every card as the state that played.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from app.core.cards import Card
from app.core.protocol import EVERYONE, LOG_KEPT, Event, GameState

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
        # Once the game is over every card is public: every hand is shown in its results and replay.
        assert not state.is_over() or zone.visible_to is EVERYONE or not zone.cards, \
            f"the game is over, but zone {zone.name!r} is still hidden"


def hidden_cards(state: GameState, seat: int | None) -> set[Card]:
    """The cards ``seat`` may not see, read from the zones."""
    return {card for zone in state.zones() if not zone.visible(seat) for card in zone.cards}


def check_privacy(state: GameState, whole_log: list[Event] | None = None) -> None:
    deck_ids = {card.id for card in state.deck.cards}
    for seat in [*range(len(state.names)), None]:
        hidden = hidden_cards(state, seat)
        if not hidden:
            continue
        strings = strings_in(state.view(seat))
        if whole_log is not None:
            strings_in(state.shown_log(seat, whole_log, 0), strings)
        leaked = strings & deck_ids & {card.id for card in hidden}
        assert not leaked, f"seat {seat}'s view shows {sorted(leaked)}, which it may not see"
        # In texts (the log), a code gives a card away only if every copy of it is hidden.
        fully_hidden = {card.code for card in hidden
                        if all(copy in hidden for copy in state.deck.copies_of(card.code))}
        for text in strings:
            if " " in text:
                named = set(WORD.findall(text)) & fully_hidden
                assert not named, f"seat {seat}'s view names {sorted(named)} in {text!r}"


def check_log(state: GameState, again: GameState, whole_log: list[Event]) -> None:
    """``whole_log``: every line of the game's log since the deal; ``again``: ``state`` read back
    from its saved data (which keeps the last ``LOG_KEPT`` lines only)."""
    assert state.log_total == again.log_total == len(whole_log), "the state does not count every line of the log"
    assert len(again.log) == min(LOG_KEPT, len(whole_log)), "the saved state does not keep the log's last lines"
    for seat in [*range(len(state.names)), None]:
        whole = state.shown_log(seat, whole_log, 0)
        assert len(whole) == len(whole_log)
        view_log = state.view(seat)["log"]
        assert view_log == whole[len(whole) - len(view_log):], f"seat {seat}'s view is not the log's last lines"
        assert again.shown_log(seat, whole_log, 0) == whole, f"seat {seat} reads the log otherwise once saved"
        assert again.hidden_from(seat) == state.hidden_from(seat), f"seat {seat} sees other cards once saved"
