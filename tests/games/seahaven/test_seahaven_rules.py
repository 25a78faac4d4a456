"""The rules of Seahaven Towers, S1-S3, each test named after the rule it checks."""

from __future__ import annotations

import pytest
from seahaven_helpers import DECK, Layout, cards, deal_cards, layout, stacked_state, state_with, table

from app.core import IllegalAction
from app.core.decks import DeckError, parse_deck
from app.games.seahaven import DEFINITION, MoveCard
from app.games.seahaven.rules import IllegalMove, NotAPlace, parse_place


def refusal(table_: Layout, source: str, target: str) -> IllegalMove:
    before = table_.copy()
    with pytest.raises(IllegalMove) as caught:
        table_.move(source, target)
    assert table_ == before, "a refused move changed the layout (S3.5)"
    return caught.value


# -- S1 cards ---------------------------------------------------------------------------------------------


def test_s1_1_a_standard_deck_ace_low_read_in_either_case():
    assert DECK.size == 52
    assert DECK.ranks == "A23456789TJQK" and DECK.suits == "CDHS"
    assert DECK.parse("AH").order < DECK.parse("2H").order < DECK.parse("KH").order
    assert DECK.parse("th") is DECK.parse("TH")
    assert parse_deck(" ".join(card.code.lower() for card in DECK.cards), DECK) == list(DECK.cards)


# -- S2 the layout and the deal -------------------------------------------------------------------------------


def test_s2_1_ten_columns_four_cells_four_foundations_every_card_face_up():
    state = DEFINITION.new_state(["Ann"], options={"deal": 7})
    view = state.view(0)
    assert len(view["columns"]) == 10 and len(view["cells"]) == 4 and len(view["foundations"]) == 4
    assert state.hidden_from(0) == set() and state.hidden_from(None) == set()
    shown = [card for column in view["columns"] for card in column]
    assert sorted(shown) == sorted(card.id for card in DECK.cards)
    assert state.view(None)["columns"] == view["columns"]


def test_s2_1_only_the_bottom_card_the_last_dealt_moves():
    deck = deal_cards(3)
    state = stacked_state(deck)
    last_of_column_4 = deck[43]  # positions 3, 13, 23, 33, 43 go to column 4
    state.apply(0, MoveCard("t4", "c1"))
    assert state.layout.cells[0] is last_of_column_4
    assert state.layout.columns[3] == [deck[3], deck[13], deck[23], deck[33]]


def test_s2_2_card_i_goes_to_column_i_mod_10_plus_1():
    """S2.2: card i to column (i mod 10) + 1, each covering the one before."""
    deck = deal_cards(11)
    dealt = Layout.deal(deck)
    for position, card in enumerate(deck):
        column = dealt.columns[position % 10]
        assert card in column and column.index(card) == position // 10


def test_s2_2_every_source_of_a_deck_order_deals_card_i_to_column_i_mod_10_plus_1():
    """S2.2: whether the deck order comes from the seeded generator, a deal number or a deck file
    (codes separated by any whitespace), card i goes to column (i mod 10) + 1 and covers the card
    dealt there before it."""
    seeded = DEFINITION.new_state(["Ann"], seed=31)
    assert DEFINITION.new_state(["Bo"], seed=31).dealt == seeded.dealt  # the seed decides the order
    assert DEFINITION.new_state(["Ann"], seed=32).dealt != seeded.dealt
    numbered = DEFINITION.new_state(["Ann"], options={"deal": 77})
    order = deal_cards(20)
    text = "\n".join("\t ".join(card.code for card in order[row:row + 7]) for row in range(0, 52, 7))
    from_file = stacked_state(DEFINITION.parse_deck(text))
    assert from_file.dealt == order
    for state in (seeded, numbered, from_file):
        deck = state.dealt
        assert sorted(card.id for card in deck) == sorted(card.id for card in DECK.cards)
        assert state.layout.columns == [deck[column::10] for column in range(10)]
        # the bottom card (the one that moves, S2.1) is the last dealt to the column
        assert state.layout.card_at("t1") is deck[50] and state.layout.card_at("t3") is deck[42]


def test_s2_2_deck_files_are_validated_with_precise_messages():
    """S2.2: 52 valid codes, each card once, or a message that says what is wrong."""
    text = " ".join(card.code for card in DECK.cards)
    assert DEFINITION.parse_deck(text) == list(DECK.cards)
    with pytest.raises(DeckError, match="'1X', is not a card"):
        DEFINITION.parse_deck(text.replace("AC", "1X"))
    with pytest.raises(DeckError, match="AH appears twice"):
        DEFINITION.parse_deck(text.replace("2H", "AH"))
    with pytest.raises(DeckError, match=r"holds 51 card codes; it needs exactly 52 \(missing: KS\)"):
        DEFINITION.parse_deck(text.replace("KS", ""))


def test_s2_2_a_deal_number_always_deals_the_same_cards_and_a_seed_picks_a_deal_number():
    """S2.2: a deal number is always the same deck order; a seed picks one."""
    first = DEFINITION.new_state(["Ann"], options={"deal": 123})
    again = DEFINITION.new_state(["Bob"], options={"deal": "123"})
    assert first.dealt == again.dealt and first.deal == 123
    assert DEFINITION.new_state(["Ann"], options={"deal": 124}).dealt != first.dealt
    seeded = DEFINITION.new_state(["Ann"], seed=99)
    assert seeded.deal == DEFINITION.new_state(["Cy"], seed=99).deal
    replayed = DEFINITION.new_state(["Di"], options={"deal": seeded.deal})
    assert replayed.dealt == seeded.dealt, "the deal number shown must reproduce the deal"


def test_s2_3_the_open_deal_is_the_default_every_card_in_the_columns():
    """S2.3: by default all 52 cards in the columns (6, 6, then 5 each), the cells empty."""
    state = DEFINITION.new_state(["Ann"], options={"deal": 5})
    assert [len(column) for column in state.layout.columns] == [6, 6, 5, 5, 5, 5, 5, 5, 5, 5]
    assert state.layout.cells == [None] * 4 and not state.classic
    assert state.view(0)["stage"] == "Deal 5, open deal"


def test_s2_4_the_classic_deal_puts_cards_51_and_52_in_cells_2_and_3():
    deck = deal_cards(5)
    state = DEFINITION.new_state(["Ann"], options={"deal": 5, "classic": True})
    assert [len(column) for column in state.layout.columns] == [5] * 10
    assert state.layout.cells == [None, deck[50], deck[51], None]
    assert state.layout.columns[0] == [deck[0], deck[10], deck[20], deck[30], deck[40]]
    assert state.view(0)["stage"] == "Deal 5, classic deal"


# -- S3 moves ---------------------------------------------------------------------------------------------


def test_s3_1_one_card_moves_from_a_column_bottom_or_a_cell():
    board = table(["5C 9H", "TH"], cells="AS -- -- --")
    assert board.move("t1", "t2") is DECK.parse("9H")
    assert board.columns[0] == cards("5C") and board.columns[1] == cards("TH 9H")
    assert board.move("c1", "f1") is DECK.parse("AS")
    assert board.cells[0] is None


def test_s3_1_an_empty_place_a_foundation_or_the_same_place_give_nothing_to_move():
    board = table(["5C 9H"], home="2D")
    assert refusal(board, "t3", "c1").rule == "S3.1"
    assert "column 3 is empty: there is no card to move" in str(refusal(board, "t3", "c1"))
    assert "cell 2 is empty" in str(refusal(board, "c2", "t1"))
    assert refusal(board, "t1", "t1").rule == "S3.1"


def test_s3_2_an_empty_foundation_takes_any_ace_then_only_that_suit_upwards():
    board = table(["AH", "AC", "2H", "3C"])
    refused = refusal(board, "t3", "f1")
    assert str(refused) == "2H cannot go onto empty foundation 1: an empty foundation takes only an ace"
    assert {target for source, target in board.legal_moves() if source == "t1" and target[0] == "f"} == \
        {"f1", "f2", "f3", "f4"}
    board.move("t1", "f3")  # any empty foundation
    refused = refusal(board, "t2", "f3")
    assert str(refused) == "AC cannot go onto AH: a foundation takes the next higher card of its own suit"
    assert refused.cards == ("AC", "AH")
    board.move("t3", "f3")
    assert [card.code for card in board.foundations[2]] == ["AH", "2H"]
    board.move("t2", "f1")
    assert str(refusal(board, "t4", "f3")) == \
        "3C cannot go onto 2H: a foundation takes the next higher card of its own suit"


def test_s3_2_a_foundation_takes_only_the_next_rank():
    board = table(["4H"], home="2H")
    assert "a foundation takes the next higher card of its own suit" in str(refusal(board, "t1", "f1"))


def test_s3_2_cards_never_leave_a_foundation():
    board = table([], home="5H")
    refused = refusal(board, "f1", "c1")
    assert refused.rule == "S3.2" and "cards never leave a foundation: 5H stays on foundation 1" in str(refused)
    state = state_with(table([], home="5H"))
    with pytest.raises(IllegalAction):
        state.apply(0, DEFINITION.action_from_dict({"action": "move", "from": "f1", "to": "t1"}))


def test_s3_3_a_column_takes_the_next_lower_card_of_its_own_suit():
    board = table(["JS", "9H", "8S", "2D", "3H", "TH"])
    refused = refusal(board, "t2", "t1")
    assert str(refused) == "9H cannot go onto JS: a column takes the next lower card of its own suit"
    assert refused.rule == "S3.3" and refused.cards == ("9H", "JS")
    # same colour is not enough: the rule book builds by suit
    assert refusal(board, "t4", "t5").rule == "S3.3"
    assert refusal(board, "t3", "t1").rule == "S3.3"  # same suit, but not one lower
    board.move("t2", "t6")
    assert board.columns[5] == cards("TH 9H")


def test_s3_3_an_empty_column_takes_only_a_king():
    board = table(["QD", "KD"])
    refused = refusal(board, "t1", "t3")
    assert str(refused) == "QD cannot go into empty column 3: an empty column takes only a king"
    board.move("t2", "t3")
    board.move("t1", "t3")
    assert board.columns[2] == cards("KD QD")


def test_s3_4_a_cell_takes_any_card_when_empty():
    board = table(["QD", "7C"], cells="5C -- -- --")
    refused = refusal(board, "t1", "c1")
    assert str(refused) == "QD cannot go into cell 1: it holds 5C, and a cell holds one card"
    board.move("t1", "c2")
    board.move("c2", "c4")  # cell to cell is a legal move too
    assert board.cells == [DECK.parse("5C"), None, None, DECK.parse("QD")]


def test_s3_5_an_illegal_move_changes_nothing_and_names_the_rule_and_cards():
    state = state_with(table(["JS", "9H"]))
    before = state.to_dict()
    with pytest.raises(IllegalMove) as caught:
        state.apply(0, MoveCard("t2", "t1"))
    assert str(caught.value) == "9H cannot go onto JS: a column takes the next lower card of its own suit"
    assert state.to_dict() == before


def test_s3_5_a_move_naming_a_card_no_longer_there_is_refused():
    state = state_with(table(["JS", "9H"]))
    with pytest.raises(IllegalMove, match="8C is not the card in column 2"):
        state.apply(0, DEFINITION.action_from_dict({"action": "move", "from": "t2", "to": "c1", "cards": ["8c"]}))
    state.apply(0, DEFINITION.action_from_dict({"action": "move", "from": "t2", "to": "c1", "cards": ["9h"]}))
    assert state.layout.cells[0] is DECK.parse("9H")


def test_s3_6_the_game_is_won_when_all_52_cards_are_home():
    state = state_with(layout(["KS"], home="KC KD KH QS"))
    assert not state.layout.is_won()
    outcome = state.apply(0, MoveCard("t1", "f4"))
    assert state.layout.is_won() and state.is_over() and outcome.game_over
    assert state.view(0)["status"] == "won"
    assert outcome.events[-1]["text"].startswith("You won!")


def test_s3_6_no_legal_move_is_lost_but_not_over_and_undo_is_offered():
    state = DEFINITION.new_state(["Ann"], options={"deal": 242})
    for column in range(1, 4):
        state.apply(0, MoveCard(f"t{column}", f"c{column}"))
        assert not state.is_stuck()
    outcome = state.apply(0, MoveCard("t4", "c4"))
    assert state.is_stuck() and not state.is_over() and state.to_move() == 0
    assert outcome.events[-1]["text"].startswith("No legal moves")
    assert [move.action for move in state.legal(0)] == ["undo", "give_up"]
    assert state.view(0)["status"] == "stuck"
    state.apply(0, DEFINITION.action_from_dict({"action": "undo"}))
    assert not state.is_stuck()


def test_places_are_read_in_either_case_and_refused_out_of_range():
    assert parse_place(" T10 ") == "t10" and parse_place("c4") == "c4"
    with pytest.raises(NotAPlace, match="there is no column 11: columns are numbered 1 to 10"):
        parse_place("t11")
    with pytest.raises(NotAPlace, match="there is no cell 5"):
        parse_place("c5")
    with pytest.raises(NotAPlace, match="is not a place"):
        parse_place("x1")
