"""Players' words: how the web names a card, and a game's ``said`` texts (its log lines, the
words of a move that names a card: ``app.core.protocol.said``) rendered for a page, as HTML with
each card named as a card, or as plain text (an announcement, a paced step's caption). The one
place that turns a game's templates and fields into words, in the reader's language: every
template, label and refusal of a game is looked up in the ``games`` catalogue
(translations/<language>/LC_MESSAGES/games.po, which scripts/games_catalogue.py extracts), the
English kept where it has none."""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from typing import Any

from babel.support import NullTranslations
from flask import Flask
from flask_babel import Domain, gettext, lazy_gettext
from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup, escape

from ..core.cards import Card, InvalidCardError, deck_by_key
from ..core.protocol import Move, Option, Said, is_card_field, is_cards_field
from ..core.refusal import Refusal
from . import languages

GAMES = Domain(domain="games")  # the games' words: their own catalogue, beside the web's ``messages``
# A card in words, in the reader's language: a face card's own sentence (a queen's words may
# differ from a king's: "हुकुम की बेगम", "हुकुम का बादशाह"), and the suits' names.
FACE_WORDS = {"J": lazy_gettext("jack of %(suit)s"), "Q": lazy_gettext("queen of %(suit)s"),
              "K": lazy_gettext("king of %(suit)s"), "A": lazy_gettext("ace of %(suit)s")}
SUIT_WORDS = {"Clubs": lazy_gettext("Clubs"), "Diamonds": lazy_gettext("Diamonds"), "Hearts": lazy_gettext("Hearts"),
              "Spades": lazy_gettext("Spades"), "Patriots": lazy_gettext("Patriots")}
FIELD = re.compile(r"\{(\w+)\}")
HIDDEN = "?"  # a card the reader may not see now (``hide_cards``)


def catalogue() -> NullTranslations:
    """The games' catalogue in the language of this request (English, as written, outside one)."""
    translations: NullTranslations = GAMES.get_translations()
    return translations


def game_words(text: str | None) -> str:
    """A game's words with no variable parts (a move's label, a prompt, an option's label or
    help, a refusal) in the reader's language: the catalogue's translation, else as written.
    The templates' ``game_words``."""
    return catalogue().gettext(text) if text else ""


def game_plural(pair: tuple[str, str] | list[str], count: int) -> str:
    """A game's pair of words (one, many: a ``score_unit``) for ``count``, in the reader's
    language. The templates' ``game_plural``."""
    return str(catalogue().ngettext(str(pair[0]), str(pair[1]), count))


def rank_shown(card: Card) -> str:
    """A card's rank as players write it: 2-10, J, Q, K, A ("Joker" for a printed joker)."""
    if card.is_joker:
        return game_words("Joker")
    return "10" if card.rank == "T" else card.rank


def suit_sign(card: Card) -> str:
    return card.deck.suit_symbols.get(card.suit, card.suit)


def card_words(card: Card) -> str:
    """A card in words, for a screen reader, in the reader's language: "10 of Hearts", "queen of
    Spades", "joker"."""
    if card.is_joker:
        return gettext("joker")
    suit = card.deck.suit_names.get(card.suit, card.suit)
    suit = str(SUIT_WORDS.get(suit, suit))
    face = FACE_WORDS.get(card.rank)
    if face is not None:
        return str(face) % {"suit": suit}
    return gettext("%(rank)s of %(suit)s", rank=rank_shown(card), suit=suit)


def card_spoken(card: Card) -> str:
    """A card's words led by its index as its face shows it ("Q♥, queen of Hearts"; "10 of
    Hearts"), for a control that shows the card and is named in words: the name holds what is
    seen."""
    words = card_words(card)
    return words if words.split()[0].lower() == rank_shown(card).lower() else f"{card_short(card)}, {words}"


def card_short(card: Card) -> str:
    """A card in a line of plain text: "10♥", "Q♠", "joker"."""
    return gettext("joker") if card.is_joker else rank_shown(card) + suit_sign(card)


def card_name(deck_key: str, card_id: str) -> Markup:
    """A card named in a sentence: its rank and suit sign in its suit's colour, read aloud in
    words (the reader's language). An id its deck does not know is shown as it is."""
    return card_name_in(deck_key, card_id, languages.page_language())


@functools.cache
def card_name_in(deck_key: str, card_id: str, language: str) -> Markup:
    """``card_name`` in ``language`` (the page's: the words are made in it), kept per language."""
    try:
        card = deck_by_key(deck_key).parse(card_id)
    except (InvalidCardError, KeyError):
        return escape(card_id)
    return Markup('<span class="cn suit-{}" role="img" aria-label="{}">{}</span>').format(
        card.suit or "joker", card_words(card), card_short(card))


def short_name(deck_key: str, card_id: str | None) -> str:
    if card_id is None:
        return HIDDEN
    try:
        return card_short(deck_by_key(deck_key).parse(card_id))
    except (InvalidCardError, KeyError):
        return card_id


def template_of(say: Said) -> str:
    """The message template of ``say`` in the reader's language, the plural chosen by its field
    ``count`` (as the language's plural rules choose)."""
    template = say[0]
    if isinstance(template, str):
        return str(catalogue().gettext(template))
    count = say[1].get("count")
    return str(catalogue().ngettext(str(template[0]), str(template[1]), count if isinstance(count, int) else 2))


def _field(name: str, value: Any, deck_key: str | None, html: bool) -> str:
    if is_said(value):  # words of the game within the text (a place, what was taken back)
        return render(value, deck_key, html)
    if deck_key is not None and (is_card_field(name) or is_cards_field(name)):
        cards = value if is_cards_field(name) else [value]
        if html:
            return Markup(" ").join(Markup('<span class="cn">{}</span>').format(HIDDEN) if card is None
                                    else card_name(deck_key, card) for card in cards or [])
        return " ".join(short_name(deck_key, card) for card in cards or [])
    if is_cards_field(name) and isinstance(value, list):  # no deck to name them by: their codes
        return escape(" ".join(map(str, value))) if html else " ".join(map(str, value))
    return escape(value) if html else str(value)


def render(say: Said, deck_key: str | None, html: bool = True) -> str:
    """``say`` in words: HTML (``Markup``) with its cards named as cards, or plain text."""
    fields: Mapping[str, Any] = say[1]
    parts = FIELD.split(template_of(say))
    words = []
    for index, part in enumerate(parts):
        if index % 2 == 0:
            words.append(escape(part) if html else part)
        else:
            words.append(_field(part, fields.get(part), deck_key, html))
    return Markup("").join(words) if html else "".join(words)


def is_said(value: Any) -> bool:
    return isinstance(value, list) and len(value) == 2 and isinstance(value[1], dict)


def move_words(move: Move, deck_key: str | None, html: bool = True) -> str:
    """A move's button words: its ``say`` where it has one, else its label, in the reader's
    language."""
    if move.say is not None:
        return render(move.say, deck_key, html)
    words = game_words(move.label)
    return escape(words) if html else words


def view_words(part: Mapping[str, Any] | None, key: str) -> str:
    """The words a view (or its summary) holds at ``key`` (its ``stage``, ``prompt``, ``title``)
    in the reader's language: from its ``said`` text at ``<key>_say`` where it has one."""
    if not part:
        return ""
    say = part.get(key + "_say")
    if say is not None:
        return render(say, None, html=False)
    text = part.get(key)
    return game_words(text) if isinstance(text, str) else ""


def yes_words(move: Move, deck_key: str | None) -> str:
    """The words of the button that answers a move's ``confirm`` yes, in the reader's language."""
    if move.yes_say is not None:
        return render(move.yes_say, deck_key, html=False)
    if move.confirm_label:
        return game_words(move.confirm_label)
    label = move_words(move, deck_key, html=False)
    return catalogue().gettext("Yes, {action}").format(action=label[:1].lower() + label[1:])


def option_words(option: Option) -> dict[str, Any]:
    """An option's label, help and choices' labels in the reader's language."""
    return {"label": game_words(option.label), "help": game_words(option.help),
            "choices": [(value, game_words(label)) for value, label in option.choices]}


def refusal_words(error: Refusal) -> str:
    """A refusal's message in the reader's language: a game's refusal from its ``said`` text
    (its cards in players' words), any other as written (the web's own catalogue's)."""
    if error.say is None:
        return error.message
    words = render(error.say, error.deck_key, html=False)
    return words[:1].upper() + words[1:]


def event_words(event: Mapping[str, Any], deck_key: str | None, html: bool = True) -> str | None:
    """A log line in players' words: its ``say``; None for a line the web leaves out (its
    ``say`` is None); its ``text`` for a line stored before lines had a ``say``."""
    if "say" not in event:
        text = str(event.get("text", ""))
        return escape(text) if html else text
    say = event["say"]
    if say is None:
        return None
    return render(say, deck_key, html)


def shown_lines(events: list[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The lines of ``events`` the web's log shows (not those whose ``say`` is None)."""
    return [event for event in events if event.get("say", "") is not None]


def register(app: Flask) -> None:
    """The templates' words: ``said(event_or_said)`` (HTML, None for a line left out; the
    table's deck), ``said_text`` (plain text), ``card_name(id)``; the filters ``rank_shown``,
    ``suit_sign``, ``card_words`` and ``card_spoken`` of a card (the face macro's,
    templates/table/_card.html)."""

    @pass_context
    def said(context: Context, thing: Any, deck_key: str | None = None) -> str | None:
        deck = deck_key or context.get("deck_key")
        if isinstance(thing, list):
            return render(thing, deck)
        return event_words(thing, deck)

    @pass_context
    def said_text(context: Context, thing: Any, deck_key: str | None = None) -> str | None:
        deck = deck_key or context.get("deck_key")
        if isinstance(thing, list):
            return render(thing, deck, html=False)
        return event_words(thing, deck, html=False)

    @pass_context
    def name_of(context: Context, card_id: str, deck_key: str | None = None) -> Markup:
        return card_name(deck_key or context["deck_key"], card_id)

    @pass_context
    def yes_label(context: Context, move: Move, deck_key: str | None = None) -> str:
        return yes_words(move, deck_key or context.get("deck_key"))

    app.jinja_env.globals.update(said=said, said_text=said_text, card_name=name_of, game_words=game_words,
                                 game_plural=game_plural,
                                 option_words=option_words, yes_words=yes_label,
                                 view_words=view_words)
    app.jinja_env.filters.update(rank_shown=rank_shown, suit_sign=suit_sign, card_words=card_words,
                                 card_spoken=card_spoken)
