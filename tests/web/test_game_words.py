"""The games' words in the players' languages: the ``games`` catalogue (translations/games.pot,
extracted by scripts/games_catalogue.py; translations/<language>/LC_MESSAGES/games.po and .mo),
which the web reads through app/web/words.py, and each game's How to play page in its language.

The terminals stay in English word for word: tests/terminal/, tests/games/*/test_*terminal*.py and
the rule books' differentials (tests/rules/) check their text, unchanged."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from babel.support import Translations
from flask_babel import force_locale

import app.games  # noqa: F401  (registers every game: the list of games the tests are made for)
from app.core import registry
from app.core.protocol import ONE_FORM, BadAction, IllegalAction, OptionError
from app.tables.errors import refusal
from app.web import words

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "translations"
LANGUAGES = ("es", "hi")
FIELD = re.compile(r"\{(\w+)\}")
KEYS = [definition.key for definition in registry.games()]


def catalogue_script():
    spec = importlib.util.spec_from_file_location("games_catalogue", ROOT / "scripts" / "games_catalogue.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def message_ids(catalogue) -> set:
    return {message.id if isinstance(message.id, str) else tuple(message.id) for message in catalogue if message.id}


def kept(language: str):
    with (TRANSLATIONS / language / "LC_MESSAGES" / "games.po").open("rb") as file:
        return read_po(file, locale=language)


def test_the_template_holds_every_word_the_games_give_now():
    """games.pot is what the extraction finds in the games' code today (run
    scripts/games_catalogue.py after changing a game's words)."""
    with (TRANSLATIONS / "games.pot").open("rb") as file:
        template = read_po(file)
    assert message_ids(catalogue_script().catalogue()) == message_ids(template)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_is_translated_with_the_english_placeholders(language):
    with (TRANSLATIONS / "games.pot").open("rb") as file:
        template = read_po(file)
    translated = kept(language)
    assert message_ids(translated) == message_ids(template)
    with (TRANSLATIONS / language / "LC_MESSAGES" / "games.mo").open("rb") as file:
        compiled = Translations(file, domain="games")
    for message in translated:
        if not message.id:
            continue
        if isinstance(message.id, str):
            assert message.string, message.id
            assert set(FIELD.findall(message.string)) == set(FIELD.findall(message.id)), message.id
            assert compiled.gettext(message.id) == message.string, f"games.mo is older than games.po: {message.id}"
        else:
            one, many = message.id
            fields = set(FIELD.findall(many)) | set(FIELD.findall(one))
            for form in message.string:
                assert form, message.id
                # a form may leave the count out ("one card"), never another field
                assert set(FIELD.findall(form)) | {"count"} >= fields - {"count"}, (message.id, form)
                assert set(FIELD.findall(form)) <= fields | {"count"}, (message.id, form)
            assert compiled.ngettext(one, many, 5) == message.string[-1], f"games.mo is older: {message.id}"


def translation(language: str, template: str) -> str:
    return next(message.string for message in kept(language) if message.id == template)


def first_words(definition, state):
    """The first move of the seat to move (or the table's) made, with the log line it added."""
    for _step in range(40):
        seat = state.to_move()
        if seat is None:
            move = state.legal(None)[0]
            action = definition.action_from_dict(move.as_dict())
        else:
            action = definition.bot.choose(state, seat)
        outcome = state.apply(seat, action)
        said = [event["say"] for event in outcome.events if event.get("say")]
        if said:
            return said[0]
    raise AssertionError(f"{definition.key}: no log line in 40 moves")


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("key", KEYS)
def test_a_game_speaks_the_readers_language(app, key, language):
    """A log line, a move's label, the stage, a refusal and a card's name of every registered
    game come out in Spanish and in Hindi, each the catalogue's own words."""
    definition = registry.get(key)
    names = ["Ann"] + ["AI"] * (definition.min_seats - 1)
    state = definition.new_state(names, options=definition.validate_options({}), seed=7)
    deck_key = definition.deck.key
    say = first_words(definition, state)
    seat = state.to_move()
    move = state.legal(seat)[0]
    stage = state.view(seat)
    card = definition.deck.cards[-1]
    with pytest.raises(IllegalAction) as refused:
        state.apply(0, object())  # no action of any game
    assert isinstance(refused.value, BadAction)
    table_refusal = refusal(refused.value, definition)
    with app.test_request_context():
        with force_locale("en"):
            english = (words.render(say, deck_key, html=False), words.move_words(move, deck_key, html=False),
                       words.view_words(stage, "stage"), words.refusal_words(table_refusal),
                       words.card_words(card))
        with force_locale(language):
            shown = (words.render(say, deck_key, html=False), words.move_words(move, deck_key, html=False),
                     words.view_words(stage, "stage"), words.refusal_words(table_refusal),
                     words.card_words(card))
            line_template = words.template_of(say)
    assert english[3] == str(refused.value)  # the English is the rules' own message
    for english_words, translated in zip(english, shown, strict=True):
        assert translated and translated != english_words, (english_words, translated)
    if isinstance(say[0], str):
        assert line_template == translation(language, say[0])
    if language == "hi":
        assert all(re.search("[\u0900-\u097f]", translated) for translated in shown), shown  # Devanagari


SUITS = {"es": ("picas", "corazones", "diamantes", "tréboles"), "hi": ("हुकुम", "पान", "ईंट", "चिड़ी")}


@pytest.mark.parametrize("language", LANGUAGES)
def test_cards_are_named_as_players_of_the_language_name_them(app, language):
    deck = registry.get(KEYS[0]).deck
    by_suit = {"S": "Spades", "H": "Hearts", "D": "Diamonds", "C": "Clubs"}
    with app.test_request_context(), force_locale(language):
        named = {suit: words.card_words(deck.parse(f"Q{suit}")) for suit in by_suit}
        ace = words.card_words(deck.parse("AS"))
    for suit, word in zip(by_suit, SUITS[language], strict=True):
        assert word in named[suit]
    assert ace == {"es": "as de picas", "hi": "हुकुम का इक्का"}[language]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("key", KEYS)
def test_how_to_play_is_in_the_browsers_language(player, key, language):
    """Every game's How to play page has a file of its own in each language, with every
    paragraph, list item and heading of the English one, and the page a Spanish or Hindi
    browser gets is that one."""
    folder = ROOT / "templates" / "games" / key
    english = (folder / "_how_to_play.html").read_text(encoding="utf-8")
    source = (folder / f"_how_to_play.{language}.html").read_text(encoding="utf-8")
    for tag in ("<h2>", "<p>", "<li>", "<strong>"):
        assert source.count(tag) == english.count(tag), (key, tag)
    page = player.get(f"/how-to-play/{key}", headers={"Accept-Language": f"{language},en;q=0.5"})
    assert page.status_code == 200
    shown = page.get_data(as_text=True)
    first_heading = re.search(r"<h2>(.*?)</h2>", source).group(1)
    english_heading = re.search(r"<h2>(.*?)</h2>", english).group(1)
    assert f"<h2>{first_heading}</h2>" in shown and f"<h2>{english_heading}</h2>" not in shown
    assert english_heading in player.get(f"/how-to-play/{key}", headers={"Accept-Language": "en"}).get_data(
        as_text=True)


@pytest.mark.parametrize("key", KEYS)
def test_set_up_options_strengths_and_guides_are_in_the_readers_language(app, player, key):
    """A game's set-up options (labels, help, choices), its computer players' measured lines and
    its guided first game's words, in Spanish."""
    definition = registry.get(key)
    with app.test_request_context(), force_locale("es"):
        options = [words.option_words(option) for option in definition.options]
        strengths = [words.render(say, None, html=False) for say in map(definition.strength_words, definition.strengths)
                     if say is not None]
    for option, shown in zip(definition.options, options, strict=True):
        assert shown["label"] != option.label and (not option.help or shown["help"] != option.help)
    for strength, shown in zip(definition.strengths, strengths, strict=False):
        assert shown != definition.strength_note(strength)
    if definition.setup_flow == ONE_FORM:
        page = player.get(f"/setup/{key}", headers={"Accept-Language": "es"}).get_data(as_text=True)
        assert all(shown["label"] in page for shown in options if "'" not in shown["label"])
    guide = getattr(definition, "guide", None)
    if guide is not None:
        page = player.get(f"/learn/{key}", headers={"Accept-Language": "es"}).get_data(as_text=True)
        assert translation("es", guide.welcome) in page and guide.welcome not in page


@pytest.mark.parametrize("key", [key for key in KEYS if registry.get(key).setup_flow == ONE_FORM
                                 and any(option.kind == "int" for option in registry.get(key).options)])
def test_a_refused_set_up_option_says_why_in_the_readers_language(app, key):
    definition = registry.get(key)
    option = next(option for option in definition.options if option.kind == "int")
    with pytest.raises(OptionError) as english:
        option.read("many")
    assert str(english.value).startswith(f"{option.label}: type a whole number")  # the terminal's words
    with app.test_request_context(), force_locale("hi"):
        shown = words.render(english.value.say, None, html=False)
    assert shown.startswith(translation("hi", option.label)) and re.search("[\u0900-\u097f]{3}", shown)


def said_templates(say) -> list[str]:
    """The templates of a said text and of the said texts within it (a place, a reason)."""
    if not (isinstance(say, list) and len(say) == 2 and isinstance(say[1], dict)):
        return []
    template = say[0] if isinstance(say[0], str) else say[0][0]
    inner = [found for value in say[1].values() for found in said_templates(value)]
    if isinstance(say[0], str) and re.fullmatch(r"(\{c\d+\}(, )?)+", say[0]):
        return inner  # a list of choices, each a word of its own
    return [template, *inner]


@pytest.mark.parametrize("key", KEYS)
def test_every_word_a_game_gives_the_web_in_play_is_in_the_catalogue(key):
    """Games of computer players, each seat's moves, its view's words and every log line: each
    template and label is a message of the catalogue (so extraction misses none of them)."""
    known = {message if isinstance(message, str) else message[0] for message in message_ids(kept("es"))}
    definition = registry.get(key)
    missing: set[str] = set()

    def need(words) -> None:
        for template in (said_templates(words) if isinstance(words, list) else [words] if words else []):
            if template not in known:
                missing.add(template)

    for seed in range(2):
        seats = min(definition.max_seats, max(definition.min_seats, 2 + seed))
        state = definition.new_state(["AI"] * seats, options=definition.validate_options({}), seed=seed)
        for _step in range(300):
            if state.is_over():
                break
            for seat in [*range(seats), None]:
                for move in state.legal(seat):
                    need(move.say or move.label)
                    need(move.confirm_say or move.confirm)
                    need(move.yes_say or move.confirm_label)
                view = state.view(seat)
                for part, key_name in ((view, "stage"), (view, "prompt"), (view.get("summary"), "title")):
                    if isinstance(part, dict):
                        need(part.get(key_name + "_say") or part.get(key_name))
            seat = state.to_move()
            action = definition.bot.choose(state, seat) if seat is not None else \
                definition.action_from_dict(state.legal(None)[0].as_dict())
            for event in state.apply(seat, action).events:
                need(event.get("say"))
    assert not missing, sorted(missing)
