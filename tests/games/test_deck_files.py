"""The one deck-file parser (app/core/decks.py), for decks of any shape: the precise messages of
R2.2 with the deck's own size, one code a line where a game asks for it (T2.1), and copies."""

from __future__ import annotations

import pytest

from app.core.cards import InvalidCardError, standard_deck
from app.core.decks import DeckError, parse_deck

POINTS = {rank: 1 for rank in "A23456789TJQK"}
SMALL = standard_deck("test-52", ace="low", points=POINTS)
DOUBLE = standard_deck("test-106", ace="low", points=POINTS, copies=2, jokers=2)


def codes(deck) -> list[str]:
    return [card.code for card in deck.cards]


def test_a_whole_deck_reads_top_first_in_any_case_and_whitespace():
    text = "\n".join(" ".join(codes(SMALL)[i:i + 7]).lower() for i in range(0, 52, 7))
    assert parse_deck(text, SMALL) == list(SMALL.cards)


def test_one_code_a_line_reads_every_line_and_skips_blank_ones():
    text = "\n\n".join(f"  {code}\t" for code in codes(SMALL))
    assert parse_deck(text, SMALL, one_per_line=True) == list(SMALL.cards)


def test_one_code_a_line_refuses_a_line_with_two_codes():
    lines = codes(SMALL)
    lines[3] = lines[3] + " " + lines[4]
    del lines[4]
    with pytest.raises(DeckError, match="line 4 holds 2 codes"):
        parse_deck("\n".join(lines), SMALL, one_per_line=True)


@pytest.mark.parametrize("change, message", [
    (lambda c: c[:-1], "the deck holds 51 card codes; it needs exactly 52 (missing: KS)"),
    (lambda c: c[:5] + ["ZZ"] + c[6:], "code 6 of the deck, 'ZZ', is not a card (a card is a rank A 2-9 T J Q K"),
    (lambda c: c[:9] + [c[2]] + c[10:], "3C appears twice, at codes 3 and 10: every card must appear exactly once"),
    (lambda c: c + ["AC"], "AC appears twice, at codes 1 and 53: every card must appear exactly once "
                           "(and the deck holds 53 card codes, not 52)"),
])
def test_a_wrong_deck_is_refused_with_what_is_wrong(change, message):
    with pytest.raises(DeckError) as error:
        parse_deck(" ".join(change(codes(SMALL))), SMALL)
    assert message in str(error.value)


@pytest.mark.parametrize("change, message", [
    (lambda c: ["", "  "] + c[:5] + ["", "ZZ"] + c[6:], "line 9, 'ZZ', is not a card (a card is a rank A 2-9 T J Q K"),
    (lambda c: ["\t"] + c[:9] + ["", c[2]] + c[10:],
     "3C appears twice, at lines 4 and 12: every card must appear exactly once"),
])
def test_one_code_a_line_names_each_code_by_its_line(change, message):
    """T2.1 with T2.2: a deck of one code a line names a wrong code by its line, as the editor
    the file was written in shows it: blank lines count."""
    with pytest.raises(DeckError) as error:
        parse_deck("\n".join(change(codes(SMALL))), SMALL, one_per_line=True)
    assert message in str(error.value)


def test_a_third_copy_on_its_own_line_is_named_by_the_lines_of_all_three():
    with pytest.raises(DeckError, match="QH appears 3 times, at lines 39, 91 and 108: the deck holds it twice"):
        parse_deck("\n".join([""] + codes(DOUBLE) + ["qh"]), DOUBLE, one_per_line=True)


def ten_a_line(codes_: list[str], newline: str = "\n") -> str:
    return newline.join(" ".join(codes_[i:i + 10]) for i in range(0, len(codes_), 10))


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_a_deck_of_several_lines_names_a_wrong_code_by_its_place_and_its_line(newline):
    """R2.2 (the first bad code and its position; the first duplicate): in a file of several
    lines, the line an editor shows is named too, whatever ends the file's lines."""
    bad = codes(SMALL)[:24] + ["ZZ"] + codes(SMALL)[25:]
    with pytest.raises(DeckError, match=r"^code 25 of the deck \(line 3\), 'ZZ', is not a card \("):
        parse_deck(ten_a_line(bad, newline), SMALL)
    doubled = codes(SMALL)[:40] + [codes(SMALL)[2]] + codes(SMALL)[41:]
    with pytest.raises(DeckError, match=r"^3C appears twice, at codes 3 and 41 \(lines 1 and 5\): "):
        parse_deck(ten_a_line(doubled, newline), SMALL)
    with pytest.raises(DeckError, match=r"^QH appears 3 times, at codes 38, 90 and 107 \(lines 4, 9 and 11\): "):
        parse_deck(ten_a_line(codes(DOUBLE) + ["qh"], newline), DOUBLE)


def test_a_form_feed_is_no_line_break_of_a_deck():
    """Lines as an editor shows them: codes parted by a form feed are on one line (codes 1-20
    here, then 21-30 on line 2)."""
    bad = codes(SMALL)[:22] + ["ZZ"] + codes(SMALL)[23:]
    text = " ".join(bad[:10]) + "\f" + ten_a_line(bad[10:])
    with pytest.raises(DeckError, match=r"^code 23 of the deck \(line 2\), 'ZZ'"):
        parse_deck(text, SMALL)


def test_two_copies_of_a_card_are_two_cards_first_appearance_first_copy():
    cards = parse_deck(" ".join(codes(DOUBLE)), DOUBLE)
    assert cards == list(DOUBLE.cards)
    assert [card.id for card in cards if card.code == "QH"] == ["QH", "QH-2"]
    assert [card.id for card in cards if card.is_joker] == ["JK", "JK-2"]


def test_a_third_copy_is_refused():
    with pytest.raises(DeckError, match="QH appears 3 times, at codes 38, 90 and 107: the deck holds it twice"):
        parse_deck(" ".join(codes(DOUBLE) + ["qh"]), DOUBLE)


@pytest.mark.parametrize("token, shown", [
    ("2C,3C,4C,5C,6C,7C", "'2C,3C,4C,5C,...'"),  # a comma-separated deck: one long word
    ("<script>", "'<script>'"),
    ("A\x00", "'A\\x00'"),
    ("it's", "'it's'"),
])
def test_a_word_that_is_no_card_is_quoted_once_cut_short_and_printable(token, shown):
    """What the player wrote, as they wrote it: one pair of quotes, at most 12 characters, an
    unprintable character as an escape (in a deck file and at a table alike)."""
    with pytest.raises(DeckError) as refused:
        parse_deck(" ".join([token] + codes(SMALL)[1:]), SMALL)
    assert str(refused.value).startswith(f"code 1 of the deck, {shown}, is not a card (")
    assert SMALL.not_a_card(token).startswith(f"{shown} is not a card: ")


@pytest.mark.parametrize("one_per_line", [False, True])
def test_a_code_is_ascii_letters_and_digits_only(one_per_line):
    """R1.3, T1.1, S1.1: either letter case, but of the code's own letters: a long s ("ſ", which
    Unicode's upper case turns into S) is no S."""
    words = codes(SMALL)
    words[2] = "A\u017f"
    place = "line 3" if one_per_line else "code 3 of the deck"
    with pytest.raises(DeckError, match=f"{place}, 'A\u017f', is not a card"):
        parse_deck(("\n" if one_per_line else " ").join(words), SMALL, one_per_line=one_per_line)
    with pytest.raises(InvalidCardError):
        SMALL.parse("K\u017f")


def test_one_code_a_line_breaks_lines_only_at_line_ends():
    """T2.1, T2.2: a line as an editor shows it (LF, CRLF or CR ends it); a form feed between two
    codes leaves them on one line, and no space or tab parts them: the line is refused."""
    lines = codes(SMALL)
    assert parse_deck("\r\n".join(lines), SMALL, one_per_line=True) == list(SMALL.cards)
    assert parse_deck("\r".join(lines), SMALL, one_per_line=True) == list(SMALL.cards)
    joined = lines[:3] + [lines[3] + "\f" + lines[4]] + lines[5:]
    with pytest.raises(DeckError, match=r"'\w\w\\x0c\w\w', is not a card"):
        parse_deck("\n".join(joined), SMALL, one_per_line=True)
