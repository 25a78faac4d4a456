"""How the web words a game's lines (app/web/words.py): the template's words with its fields, a
card as a card (its rank as players write it and its suit's sign, read aloud in words), plurals
by ``count``, a hidden card as "?", and an old line (stored before lines had a say) as its text."""

from __future__ import annotations

import app.games  # noqa: F401  (registers every game)
from app.core.protocol import said
from app.web.words import card_name, card_spoken, card_words, event_words, render, shown_lines
from app.core.cards import deck_by_key


def test_a_line_in_words_names_its_cards_as_cards():
    say = said("{player} laid down a run: {cards}.", player="Ann <b>", cards=["TC", "JC", "QC"])
    assert render(say, "rummy", html=False) == "Ann <b> laid down a run: 10\u2663 J\u2663 Q\u2663."
    html = str(render(say, "rummy"))
    assert html.startswith("Ann &lt;b&gt; laid down a run: ")  # a name is text, never markup
    assert '<span class="cn suit-C" role="img" aria-label="10 of Clubs">10\u2663</span>' in html
    assert str(card_name("mason", "TP")) == '<span class="cn suit-P" role="img" aria-label="10 of Patriots">10\u2605</span>'


def test_plurals_follow_count_and_a_hidden_card_is_a_question_mark():
    pair = ("{count} card went home.", "{count} cards went home.")
    assert render(said(pair, count=1), None, html=False) == "1 card went home."
    assert render(said(pair, count=0), None, html=False) == "0 cards went home."
    assert render(said("{player} took the {card}.", player="Bo", card=None), "rummy", html=False) == "Bo took the ?."


def test_cards_in_words_for_a_screen_reader():
    assert [card_words(deck_by_key("rummy").parse(code)) for code in ("TS", "QH", "AC", "7D")] == [
        "10 of Spades", "queen of Hearts", "ace of Clubs", "7 of Diamonds"]
    assert card_words(next(card for card in deck_by_key("points2").cards if card.is_joker)) == "joker"


def test_a_control_showing_a_card_is_named_with_what_it_shows():
    """axe's label-content-name-mismatch: the visible "Q♥" is part of the name."""
    deck = deck_by_key("seahaven")
    assert [card_spoken(deck.parse(code)) for code in ("QH", "JD", "AS", "TC", "7D")] == [
        "Q\u2665, queen of Hearts", "J\u2666, jack of Diamonds", "A\u2660, ace of Spades", "10 of Clubs", "7 of Diamonds"]


def test_a_line_without_say_shows_its_text_and_a_silent_line_nothing():
    old = {"seat": 0, "text": "Ann discarded 7H.", "cards": ["7H"]}
    assert event_words(old, "rummy", html=False) == "Ann discarded 7H."
    silent = {"seat": None, "text": "Dealing cards to player and dealer...", "cards": [], "say": None}
    assert event_words(silent, "twentyone") is None
    assert shown_lines([old, silent]) == [old]
