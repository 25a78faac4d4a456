"""Checks every game's state must pass, from where its cards are (``GameState.zones``), never from
the game's own view code: the generic property test, the rules tests and the games' own tests
call these.

- ``check_zones``: every card of the deck lies in exactly one zone, and each zone says who may
  see it (everyone, nobody, or seats of the game); once the game is over, everyone sees every card.
- ``check_privacy``: nothing a seat (or a spectator) reads names a card it may not see: every
  string of its view (keys and values, however deep) and of its ``legal()`` moves (labels,
  questions, targets, params), and, given the game's whole log, every line of it as the whole
  game's log page shows it to that reader (``shown_log``; but for the lines of an earlier deal,
  whose cards were shuffled again since), is read for a hidden card in any
  spelling (``card_spellings``: its id, its code inside a longer string, its rank and suit in
  words or symbols, or as two fields of one dict).
- ``check_swaps``: nothing a seat reads depends on *which* hidden cards lie where (a hidden hand's
  total, the next card of the stock in a button's words): the cards hidden from the seat are
  shuffled among their places, and two of them in different places swap (each through
  ``to_dict``/``from_dict``, where every game writes its cards by their ids), and the seat's view
  and moves must stay exactly the same.
- ``check_log``: given the game's whole log (every line since the deal), the state counts it,
  its views show its last lines, and a state read back from its saved data shows every line
  and hides every card as the state that played.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import fields
from typing import Any

from card_spellings import Mention, Spellings, spellings_of

from app.core.cards import Card
from app.core.protocol import EVERYONE, LOG_KEPT, Event, GameState, Move


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


def strings_and_fields(value: Any, spellings: Spellings, strings: set[str], fields: set[Mention]) -> None:
    """Every string of plain data (dict keys too), however deep, into ``strings``; and every card
    a dict of it spells as rank and suit fields, into ``fields`` (one walk: it reads every view)."""
    if isinstance(value, str):
        strings.add(value)
    elif isinstance(value, dict):
        fields |= spellings.in_fields(value)
        for key, item in value.items():
            if isinstance(key, str):
                strings.add(key)
            strings_and_fields(item, spellings, strings, fields)
    elif isinstance(value, (list, tuple)):
        for item in value:
            strings_and_fields(item, spellings, strings, fields)


def move_data(move: Move) -> dict[str, Any]:
    """A move as plain data, every field of it (its params as a dict)."""
    data = {field.name: getattr(move, field.name) for field in fields(move)}
    data["params"] = dict(move.params)
    return data


def check_privacy(state: GameState, whole_log: list[Event] | None = None) -> None:
    spellings = spellings_of(state.deck)
    for seat in [*range(len(state.names)), None]:
        hidden = hidden_cards(state, seat)
        if not hidden:
            continue
        view = state.view(seat)
        read = {"view": dict(view, log=this_deals(state, view["log"])),
                "moves": [move_data(move) for move in state.legal(seat)]}
        if whole_log is not None:
            read["whole log"] = this_deals(state, state.shown_log(seat, whole_log, 0))
        hidden_ids = {card.id for card in hidden}
        # A code (not an id) gives a card away only if every copy of it is hidden: in a two-deck
        # game "QH" may be the one the seat sees.
        hidden_copies = Counter(card.code for card in hidden)
        fully_hidden = {code for code, count in hidden_copies.items() if count == len(state.deck.copies_of(code))}
        for part, data in read.items():
            strings: set[str] = set()
            in_fields: set[Mention] = set()
            strings_and_fields(data, spellings, strings, in_fields)
            leaked = strings & hidden_ids
            assert not leaked, f"seat {seat}'s {part} shows {sorted(leaked)}, which it may not see"
            for text in strings:
                mentions = spellings.in_text(text)
                named = named_cards(mentions, hidden_ids, fully_hidden) if mentions else None
                assert not named, f"seat {seat}'s {part} names {sorted(named)} in {text!r}, which it may not see"
            named = named_cards(in_fields, hidden_ids, fully_hidden)
            assert not named, f"seat {seat}'s {part} spells {sorted(named)} as a rank and a suit in the fields " \
                              f"of one dict, which it may not see"


def this_deals(state: GameState, lines: list[Event]) -> list[Event]:
    """The log lines that tell of the cards as they lie now: a line of an earlier deal names
    where a card was before the deck was shuffled again (``tells_of_an_earlier_deal``)."""
    return [line for line in lines if not state.tells_of_an_earlier_deal(line)]


def named_cards(mentions: Iterable[Mention], hidden_ids: set[str], fully_hidden: set[str]) -> set[str]:
    """Of the cards a string or dict names, those it gives away: a copy named as such ("QH-2")
    that is hidden, or a code every copy of which is hidden."""
    named = set()
    for code, copy in mentions:
        card_id = code if copy in (None, 1) else f"{code}-{copy}"
        if copy is not None and card_id in hidden_ids or code in fully_hidden:
            named.add(card_id if copy is not None and card_id in hidden_ids else code)
    return named


# -- nothing a seat reads depends on which hidden card lies where -----------------------------------------


def relabelled(value: Any, swap: dict[str, str]) -> tuple[Any, int]:
    """Plain data with every string that is a key of ``swap`` (a card's id, a dict key or a value)
    written as its value instead, and how many were."""
    if isinstance(value, str):
        return (swap[value], 1) if value in swap else (value, 0)
    if isinstance(value, dict):
        data, count = {}, 0
        for key, item in value.items():
            new_key, keys = relabelled(key, swap)
            new_item, items = relabelled(item, swap)
            data[new_key] = new_item
            count += keys + items
        return data, count
    if isinstance(value, (list, tuple)):
        items = [relabelled(item, swap) for item in value]
        return type(value)(item for item, _count in items), sum(count for _item, count in items)
    return value, 0


def rearranged(state: GameState, relabelling: dict[str, str]) -> GameState | None:
    """``state`` with each card of ``relabelling`` where the card it maps to lay (in its saved
    data, where a game writes cards by their ids), or None if the game's own checks of saved
    data refuse the result (a hidden hand that it would make bust, say)."""
    data = state.to_dict()
    lines = data.pop("log", [])
    data, count = relabelled(data, relabelling)
    data["log"] = []
    for line in lines:  # a line of an earlier deal tells where a card was then: it stays as it was
        moved, times = (line, 0) if state.tells_of_an_earlier_deal(line) else relabelled(line, relabelling)
        data["log"].append(moved)
        count += times
    assert count >= len(relabelling), (
        f"{state.definition.name}'s to_dict does not write {', '.join(sorted(relabelling))} by their ids: the "
        f"swap check needs a helper that moves cards in its saved data")
    try:
        return state.definition.from_dict(data)
    except ValueError:
        return None


def hidden_pair(state: GameState, seat: int | None, rng: random.Random) -> tuple[Card, Card] | None:
    """Two cards hidden from ``seat``: from two different places (another hand and the stock, the
    dealer's hidden card and the deck) where there are two, else from the one place."""
    places = [list(zone.cards) for zone in state.zones() if not zone.visible(seat) and zone.cards]
    if len(places) >= 2:
        first, second = rng.sample(places, 2)
        return rng.choice(first), rng.choice(second)
    if places and len(places[0]) >= 2:
        first_card, second_card = rng.sample(places[0], 2)
        return first_card, second_card
    return None


def shuffled_hidden(state: GameState, seat: int | None, rng: random.Random) -> dict[str, str]:
    """Every card hidden from ``seat`` moved to the place of another hidden card (at random), as
    a relabelling of ids: the seat cannot tell any such deal from the real one."""
    hidden = [card.id for card in sorted(hidden_cards(state, seat), key=lambda card: card.id)]
    moved = rng.sample(hidden, len(hidden))
    return {card: other for card, other in zip(hidden, moved) if card != other}


def check_swaps(state: GameState, rng: random.Random, seats: list[int | None] | None = None,
                pairs: int = 1) -> int:
    """For each of ``seats`` (every seat and a spectator if None): the cards hidden from it
    shuffled among their places, then ``pairs`` swaps of two of them (from different places):
    its view and its moves (labels and all) must not change. How many rearrangements were
    checked (one the game's saved-data checks refuse is not one)."""
    checked = 0
    for seat in [*range(len(state.names)), None] if seats is None else seats:
        view, moves = state.view(seat), [move_data(move) for move in state.legal(seat)]
        rearrangements = [("shuffled", shuffled_hidden(state, seat, rng))]
        for _pair in range(pairs):
            pair = hidden_pair(state, seat, rng)
            if pair is not None:
                one, two = pair[0].id, pair[1].id
                rearrangements.append((f"{one} and {two} swapped", {one: two, two: one}))
        for what, relabelling in rearrangements:
            if not relabelling:
                continue
            other = rearranged(state, relabelling)
            if other is None:
                continue
            checked += 1
            difference = first_difference(view, other.view(seat))
            assert difference is None, f"seat {seat}'s view gives a hidden card away: with the cards it may not " \
                                       f"see {what}, {difference}"
            difference = first_difference(moves, [move_data(move) for move in other.legal(seat)])
            assert difference is None, f"seat {seat}'s moves give a hidden card away: with the cards it may not " \
                                       f"see {what}, {difference}"
    return checked


def first_difference(before: Any, after: Any, path: str = "") -> str | None:
    """Where two pieces of plain data first differ, in words; None if they are equal."""
    if before == after:
        return None
    if isinstance(before, dict) and isinstance(after, dict):
        for key in [*before, *(key for key in after if key not in before)]:
            if key not in before or key not in after:
                return f"{path}[{key!r}] is in one and not the other"
            found = first_difference(before[key], after[key], f"{path}[{key!r}]")
            if found:
                return found
    if isinstance(before, (list, tuple)) and isinstance(after, (list, tuple)) and len(before) == len(after):
        for index, (one, two) in enumerate(zip(before, after)):
            found = first_difference(one, two, f"{path}[{index}]")
            if found:
                return found
    return f"{path or 'the whole'} was {before!r} and becomes {after!r}"


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
