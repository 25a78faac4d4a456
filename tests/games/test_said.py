"""The log's lines in players' words (``app.core.protocol.said``): a message template with named
fields beside each line's terminal text, plain JSON data a translation catalogue can take; cards
are fields of their own (ids), hidden by ``hide_cards`` where a reader may not see them now."""

from __future__ import annotations

import json

import pytest

import app.games  # noqa: F401  (registers every game)
from app.core import registry
from app.core.protocol import copy_log, hide_cards, read_said, said


def test_a_said_text_is_a_template_and_its_fields_as_plain_data():
    say = said("{player} took the {card} from the discard pile.", player="Ann", card="7H")
    assert say == ["{player} took the {card} from the discard pile.", {"player": "Ann", "card": "7H"}]
    assert json.loads(json.dumps(say)) == say
    plural = said(("{count} card went home.", "{count} cards went home."), count=3)
    assert plural == [["{count} card went home.", "{count} cards went home."], {"count": 3}]


def test_hide_cards_writes_a_hidden_card_as_none_and_leaves_the_rest():
    say = said("{player} laid off the {card} on meld {meld}: {meld_cards}.", player="Ann", card="QH", meld=3,
               meld_cards=["9H", "TH", "JH", "QH"])
    hidden = hide_cards(say, {"QH", "TH"})
    assert hidden == ["{player} laid off the {card} on meld {meld}: {meld_cards}.",
                      {"player": "Ann", "card": None, "meld": 3, "meld_cards": ["9H", None, "JH", None]}]
    assert say[1]["card"] == "QH"  # the line itself is unchanged


def test_a_saved_line_keeps_its_say_and_an_older_line_has_none():
    line = {"seat": 0, "text": "Ann discarded 7H.", "cards": ["7H"],
            "say": said("{player} discarded the {card}.", player="Ann", card="7H")}
    assert read_said(line) == {"say": line["say"]} and read_said(line)["say"] is not line["say"]
    assert read_said({"seat": 0, "text": "Ann discarded 7H.", "cards": ["7H"]}) == {}
    assert read_said({"say": None}) == {"say": None}  # a line the web leaves out
    for bad in ("words", ["{a}"], [7, {}], [["one"], {}], ["{a}", []]):
        with pytest.raises(ValueError):
            read_said({"say": bad})
    copied = copy_log([line])[0]
    assert copied == line and copied["say"][1] is not line["say"][1]


@pytest.mark.parametrize("key", ["mason", "rummy", "twentyone", "seahaven", "points"])
def test_every_line_of_every_game_has_a_say_and_its_card_fields_name_only_cards_of_the_line(key):
    """Each game's pure code writes its lines' players' words beside their texts; a card field
    names a card the line shows (in ``cards``, or in its text), never another."""
    definition = registry.get(key)
    seats = 1 if definition.max_seats == 1 else 2
    state = definition.new_state(["Ann", "AI"][:seats], options=definition.validate_options({}), seed=5)
    lines = list(state.log)
    for _ in range(3000):
        if state.is_over():
            break
        seat = state.to_move()
        action = (definition.bot.choose(state, seat) if seat is not None
                  else definition.action_from_dict(state.legal(None)[0].as_dict()))
        lines += state.apply(seat, action).events
    assert state.is_over() and lines
    shown = 0
    for line in lines:
        assert "say" in line, line
        if line["say"] is None:
            continue
        shown += 1
        template, fields = line["say"]
        for name, value in fields.items():
            cards = value if name == "cards" or name.endswith("_cards") else [value] if name == "card" or name.endswith(
                "_card") else []
            for card in cards:
                assert card in line["cards"] or state.deck.parse(card).code in line["text"], (line, name)
        assert json.loads(json.dumps(line["say"])) == line["say"]
    assert shown > len(lines) / 3
