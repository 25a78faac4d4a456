"""R2: deck files (stacked decks) and R2.4 dealing a stacked or shuffled deck every round."""

import re

import pytest
from rules_test_helpers import NAMES2, NAMES3, QUICK_HANDS, codes, finish_round_by_ai, go_out_quickly, quick_game

from app.games.mason import FULL_DECK, MASON, DeckError, Game, NextRound, parse_deck
from app.games.mason.decks import format_deck
from app.tables.decks import read_deck_file

DECK_TEXT = " ".join(c.code for c in FULL_DECK)


def test_r2_1_codes_are_separated_by_any_whitespace():
    codes_ = [c.code for c in FULL_DECK]
    separators = [" ", "\t", "\n", "  \t ", "\r\n", "\n\n"]
    text = "\n  " + "".join(code + separators[i % len(separators)] for i, code in enumerate(codes_))
    assert parse_deck(text) == list(FULL_DECK)


def test_r2_1_ten_codes_a_line_file_reads_back(tmp_path):
    deck = list(reversed(FULL_DECK))
    path = tmp_path / "reversed.deck"
    path.write_text(format_deck(deck), encoding="utf-8")
    assert read_deck_file(path, MASON) == deck
    assert len(path.read_text().splitlines()) == 7  # 10 codes a line


def test_r2_2_lower_case_codes_are_valid():
    assert parse_deck(DECK_TEXT.lower()) == list(FULL_DECK)


@pytest.mark.parametrize("count", [0, 1, 64])
def test_r2_2_too_few_codes_says_how_many_were_found(count):
    text = " ".join(c.code for c in FULL_DECK[:count])
    with pytest.raises(DeckError) as error:
        parse_deck(text)
    message = str(error.value)
    assert re.search(rf"\b{count}\b", message), message
    assert "65" in message


def test_r2_2_too_many_codes_is_rejected():
    with pytest.raises(DeckError) as error:
        parse_deck(DECK_TEXT + " 2C")
    assert "2C" in str(error.value)  # the first duplicate


def test_r2_2_first_bad_code_and_its_position_are_named():
    tokens = [c.code for c in FULL_DECK]
    tokens[4] = "1S"  # code 5
    tokens[8] = "ZZ"  # code 9: a later problem is not the one reported
    with pytest.raises(DeckError) as error:
        parse_deck(" ".join(tokens))
    message = str(error.value)
    assert "1S" in message
    assert re.search(r"\b5\b", message), message
    assert "ZZ" not in message


def test_r2_2_a_bad_code_is_reported_even_when_the_count_is_also_wrong():
    with pytest.raises(DeckError) as error:
        parse_deck("2C 3C 10C 4C")
    message = str(error.value)
    assert "10C" in message and re.search(r"\b3\b", message), message


def test_r2_2_first_duplicate_is_named():
    tokens = [c.code for c in FULL_DECK]
    tokens[9] = tokens[2]  # 4C again at code 10 (TC is missing)
    tokens[30] = tokens[20]  # a second duplicate later: not the one reported
    with pytest.raises(DeckError) as error:
        parse_deck(" ".join(tokens))
    message = str(error.value)
    assert "4C" in message
    assert tokens[20] not in message
    assert re.search(r"\b3\b", message) and re.search(r"\b10\b", message), message


def test_r2_2_missing_file_is_a_deck_error_naming_the_file(tmp_path):
    with pytest.raises(DeckError) as error:
        read_deck_file(tmp_path / "stacked_test1.deck", MASON)
    assert "stacked_test1.deck" in str(error.value)


def test_r2_2_a_folder_or_binary_file_is_a_deck_error(tmp_path):
    with pytest.raises(DeckError):
        read_deck_file(tmp_path, MASON)
    binary = tmp_path / "bin.deck"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(DeckError):
        read_deck_file(binary, MASON)


def test_r2_2_a_deck_file_with_a_bom_reads(tmp_path):
    path = tmp_path / "bom.deck"
    path.write_bytes(b"\xef\xbb\xbf" + DECK_TEXT.encode())
    assert read_deck_file(path, MASON) == list(FULL_DECK)


def test_r2_2_game_refuses_a_stacked_deck_that_is_not_the_65_cards():
    with pytest.raises(ValueError, match="^a stacked deck must hold the 65 cards once each$"):
        Game.new(NAMES2, stacked_deck=list(FULL_DECK[:64]))
    with pytest.raises(ValueError, match="^a stacked deck must hold the 65 cards once each$"):
        Game.new(NAMES2, stacked_deck=list(FULL_DECK[:64]) + [FULL_DECK[0]])


def test_r2_3_first_code_in_the_file_is_dealt_first(tmp_path):
    deck = list(reversed(FULL_DECK))
    path = tmp_path / "top.deck"
    path.write_text(format_deck(deck))
    game = Game.new(NAMES2, stacked_deck=read_deck_file(path, MASON))
    assert deck[0] in game.players[0].hand
    assert set(game.players[0].hand.cards) == set(deck[:10])
    assert set(game.players[1].hand.cards) == set(deck[10:20])
    assert game.discard == [deck[20]]
    assert game.stock == deck[21:]


def test_r2_4_stacked_game_deals_the_same_order_every_round():
    game = quick_game(NAMES3)
    first = (game.players[0].hand.cards[:], game.players[1].hand.cards[:], game.players[2].hand.cards[:],
             game.discard[:], game.stock[:])
    for _round in (2, 3):
        go_out_quickly(game)
        game.apply(None, NextRound())
        again = (game.players[0].hand.cards[:], game.players[1].hand.cards[:], game.players[2].hand.cards[:],
                 game.discard[:], game.stock[:])
        assert again == first
        assert [codes(p.hand.cards) for p in game.players] == [QUICK_HANDS[n] for n in NAMES3]


def _deal_of(game):
    return ([codes(p.hand.cards) for p in game.players], codes(game.discard), codes(game.stock))


def test_r2_4_shuffled_game_reshuffles_every_round_deterministically_for_a_seed():
    deals = []
    for _attempt in range(2):
        game = Game.new(NAMES2, seed=1234)
        per_round = [_deal_of(game)]
        for _round in (2, 3):
            finish_round_by_ai(game)
            game.apply(None, NextRound())
            per_round.append(_deal_of(game))
        deals.append(per_round)
    assert deals[0] == deals[1]  # same seed, same deals
    rounds = deals[0]
    assert rounds[0] != rounds[1] and rounds[1] != rounds[2] and rounds[0] != rounds[2]
    for hands, discard, stock in rounds:  # a fresh full deck each round
        every = " ".join(hands + [discard, stock]).split()
        assert sorted(every) == sorted(c.code for c in FULL_DECK)


def test_r2_4_different_seeds_give_different_deals():
    assert _deal_of(Game.new(NAMES2, seed=1)) != _deal_of(Game.new(NAMES2, seed=2))


def test_r2_4_shuffled_game_needs_a_seed():
    with pytest.raises(ValueError, match="^a shuffled game needs a seed$"):
        Game.new(NAMES2)
