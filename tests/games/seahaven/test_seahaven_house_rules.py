"""S7: the house rules of Seahaven Towers, each default the rule book's rule."""

from __future__ import annotations

import io

import pytest

from app.core.protocol import IllegalAction, OptionError
from app.games.seahaven import DEFINITION
from app.games.seahaven.__main__ import main
from app.games.seahaven.actions import MoveCard


def game(**options):
    return DEFINITION.new_state(["Player"], options={"deal": 1, **options})


def test_s7_every_house_rule_defaults_to_the_rule_book_and_is_numbered():
    rules = [o for o in DEFINITION.options if o.house]
    assert [o.rule for o in rules] == ["S7.1", "S7.2"]
    assert DEFINITION.house_rules(DEFINITION.validate_options({})) == []


def test_s7_1_fewer_cells_no_card_goes_beyond_them():
    two = game(cells="2")
    assert len(two.view(0)["cells"]) == 2
    assert all(target not in ("c3", "c4") for _source, target in two.layout.legal_moves())
    with pytest.raises(IllegalAction, match="2 cells"):
        two.apply(0, MoveCard("t1", "c3"))
    two.apply(0, MoveCard("t1", "c1"))
    two.apply(0, MoveCard("t2", "c2"))
    assert not any(target.startswith("c") for _source, target in two.layout.legal_moves())
    rule_book = game()
    assert len(rule_book.view(0)["cells"]) == 4
    rule_book.apply(0, MoveCard("t1", "c3"))  # S2.1: four cells


def test_s7_1_the_classic_deal_needs_three_cells_and_the_solver_is_not_offered():
    with pytest.raises(OptionError):
        game(cells="2", classic="on")
    assert len(game(cells="3", classic="on").view(0)["cells"]) == 3
    with pytest.raises(OptionError):
        game(cells="3", winnable_only="on")
    three = game(cells="3")
    assert DEFINITION.analyst.question(three) is None and DEFINITION.analyst.start_question(three) is None
    assert DEFINITION.analyst.question(game()) is not None  # S5.2


def test_s7_2_any_card_fills_an_empty_column():
    state = game(kings_only="off")
    layout = state.layout
    layout.columns[9] = []  # a layout set by hand: column 10 empty, every other card where dealt
    card = layout.columns[0][-1]
    assert ("t1", "t10") in layout.legal_moves()
    layout.move("t1", "t10")
    assert layout.columns[9] == [card]
    rule_book = game().layout
    rule_book.columns[9] = []
    not_king = rule_book.columns[0][-1]
    if not_king.rank != "K":
        assert ("t1", "t10") not in rule_book.legal_moves()
        with pytest.raises(IllegalAction):
            rule_book.move("t1", "t10")  # S3.3


def test_s7_house_rules_survive_saving_and_old_games_read_as_the_rule_book():
    state = game(cells="2", kings_only="off")
    state.apply(0, MoveCard("t1", "c1"))
    again = DEFINITION.from_dict(state.to_dict())
    assert (again.cells, again.kings_only) == (2, False) and again.layout.open_cells == 2
    old = state.to_dict()
    del old["cells"], old["kings_only"]
    assert DEFINITION.from_dict(old).layout.rule_book


def test_s7_the_computer_player_plays_by_the_house_rules():
    state = game(cells="1", kings_only="off")
    steps = 0
    while not state.is_over() and steps < 200:
        state.apply(0, DEFINITION.bot.choose(state, 0))
        steps += 1
    assert state.is_over()


def test_s7_the_terminal_takes_the_house_rules_and_says_them():
    out = io.StringIO()
    assert main(["--deal", "1", "--cells", "2"], io.StringIO("q\n"), out) == 0
    lines = out.getvalue().splitlines()
    assert lines[1] == "House rules: Cells: 2."
    assert lines[2].startswith("Cells: 1 empty, 2 empty") and "3 empty" not in lines[2]
    plain = io.StringIO()
    main(["--deal", "1"], io.StringIO("q\n"), plain)
    assert plain.getvalue().splitlines()[1].startswith("Cells: 1 empty, 2 empty, 3 empty, 4 empty")
