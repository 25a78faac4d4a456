"""The table in each browser's language: the catalogues are complete (every message the code
words through the catalogue has a Spanish and a Hindi translation, with the English one's
placeholders), each compiled .mo says what its .po says, and no word of a page escapes the
catalogue (a pseudo-language renders every page: any text outside its marks is a word that did
not pass through it). Accept-Language and the language menu choose the language; the page's lang
follows; the seats stay."""

from __future__ import annotations

import ast
import html.parser
import json
import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po
from babel.messages.catalog import Catalog

from app.core import guides, registry
from support.games import admin_login, import_file, play_turn_like_ai
from support.web import Player

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "translations"
LANGUAGES = ("es", "hi")
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]|\{(\w+)\}")


def extracted() -> dict[str, tuple[str, ...]]:
    """Every message of the ``messages`` domain the code has now (babel.cfg, as `make
    translations` extracts them): msgid -> its forms (one, or singular and plural)."""
    with open(ROOT / "babel.cfg", encoding="utf-8") as handle:
        method_map, options_map = parse_mapping_cfg(handle)
    found: dict[str, tuple[str, ...]] = {}
    for _file, _line, message, _comments, _context in extract_from_dir(
            str(ROOT), method_map, options_map, keywords={"_": None, "gettext": None, "ngettext": (1, 2),
                                                          "lazy_gettext": None}):
        forms = (message,) if isinstance(message, str) else tuple(message)
        found[forms[0]] = forms
    return found


def catalogue(language: str, domain: str = "messages") -> Catalog:
    with open(TRANSLATIONS / language / "LC_MESSAGES" / f"{domain}.po", "rb") as handle:
        return read_po(handle, locale=language)


def placeholders(text: str) -> list[str]:
    return sorted(a or b for a, b in PLACEHOLDER.findall(text))


# -- (a) the catalogues ------------------------------------------------------------------------------


def catalogue_problems(messages: dict[str, tuple[str, ...]], po: Catalog) -> list[str]:
    """What a language's catalogue lacks: a message missing, fuzzy or untranslated, or a
    translation whose placeholders are not the English one's (a plural form may leave out the
    count, as "one card" does)."""
    problems = []
    for msgid, forms in messages.items():
        entry = po.get(forms if len(forms) > 1 else msgid) or po.get(msgid)
        if entry is None:
            problems.append(f"missing: {msgid!r}")
            continue
        if entry.fuzzy:
            problems.append(f"fuzzy: {msgid!r}")
        strings = entry.string if isinstance(entry.string, (list, tuple)) else (entry.string,)
        wanted = placeholders(forms[-1])
        for string in strings:
            if not string:
                problems.append(f"untranslated: {msgid!r}")
            elif placeholders(string) != wanted and not (len(forms) > 1 and set(placeholders(string)) <= set(wanted)):
                problems.append(f"placeholders {placeholders(string)} != {wanted}: {msgid!r}")
    return problems


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_of_the_code_is_translated_with_the_same_placeholders(language):
    messages = extracted()
    assert len(messages) > 300  # (the house's pages: a check that found nothing would pass)
    assert catalogue_problems(messages, catalogue(language)) == []


def test_each_compiled_catalogue_says_what_its_po_says():
    """The .mo files are committed (serving needs no compile step): each matches its .po."""
    pos = sorted(TRANSLATIONS.glob("*/LC_MESSAGES/*.po"))
    assert {po.parent.parent.name for po in pos} >= set(LANGUAGES)
    for po_path in pos:
        with open(po_path, "rb") as handle:
            po = read_po(handle)
        with open(po_path.with_suffix(".mo"), "rb") as handle:
            mo = read_mo(handle)
        def entries(catalog: Catalog) -> dict:
            return {tuple(m.id) if isinstance(m.id, (list, tuple)) else m.id:
                    tuple(m.string) if isinstance(m.string, (list, tuple)) else m.string
                    for m in catalog if m.id and m.string and not m.fuzzy}

        assert entries(mo) == entries(po), po_path


def test_a_missing_translation_or_a_changed_placeholder_is_found():
    """The check itself: a message left out, one left empty and one whose placeholder differs."""
    messages = {"Seats": ("Seats",), "Game over": ("Game over",), "Your turn, %(name)s": ("Your turn, %(name)s",)}
    broken = Catalog(locale="es")
    broken.add("Seats", "")
    broken.add("Your turn, %(name)s", "Tu turno, %(nombre)s")
    assert catalogue_problems(messages, broken) == [
        "untranslated: 'Seats'", "missing: 'Game over'",
        "placeholders ['nombre'] != ['name']: 'Your turn, %(name)s'"]
    whole = Catalog(locale="es")
    whole.add("Game over", "Fin de la partida")
    whole.add("Seats", "Asientos")
    whole.add("Your turn, %(name)s", "Tu turno, %(name)s")
    assert catalogue_problems(messages, whole) == []


# -- (c) which language a browser reads ---------------------------------------------------------------


def lang_of(page: str) -> str:
    found = re.search(r'<html lang="([^"]+)"', page)
    assert found
    return found.group(1)


def test_accept_language_chooses_the_language_and_english_is_the_default(client):
    assert lang_of(client.get("/").get_data(as_text=True)) == "en"
    spanish = client.get("/", headers={"Accept-Language": "es-MX,es;q=0.9,en;q=0.5"}).get_data(as_text=True)
    assert lang_of(spanish) == "es" and ">Jugar<" in spanish and "Idioma" in spanish
    hindi = client.get("/", headers={"Accept-Language": "hi-IN,hi;q=0.9"}).get_data(as_text=True)
    assert lang_of(hindi) == "hi" and ">खेलें<" in hindi
    unknown = client.get("/", headers={"Accept-Language": "fr-FR,fr;q=0.9"}).get_data(as_text=True)
    assert lang_of(unknown) == "en"


def test_the_menu_keeps_the_browser_s_choice_and_its_seat(player):
    slug = player.set_up("twentyone", ["Ann"])
    english = player.get(f"/games/{slug}").get_data(as_text=True)
    assert lang_of(english) == "en"
    response = player.post("/language", {"language": "hi", "next": f"/games/{slug}"})
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/games/{slug}")
    page = player.get(f"/games/{slug}", headers={"Accept-Language": "es"}).get_data(as_text=True)
    assert lang_of(page) == "hi"  # the menu's choice over the browser's Accept-Language
    assert 'name="seat"' in page  # still this browser's seat: its hand and moves
    assert 'aria-current="true">हिन्दी' in page
    # another site's address is never where the menu returns
    away = player.post("/language", {"language": "es", "next": "//evil.example/"})
    assert away.headers["Location"] == "/"
    assert lang_of(player.get("/").get_data(as_text=True)) == "es"


def test_every_device_at_one_table_reads_its_own_language(app):
    """The live stream carries versions only: each browser fetches its table under its own
    language."""
    host = Player(app)
    slug = host.set_up("twentyone", ["Ann"])
    watcher = Player(app)
    watcher.post("/language", {"language": "hi", "next": "/"})
    fragment = watcher.get(f"/games/{slug}/table?watch=1", htmx=True).get_data(as_text=True)
    assert "डीलर" in fragment
    assert "Dealer" in host.get(f"/games/{slug}/table", htmx=True).get_data(as_text=True)


# -- (b) the pseudo-language --------------------------------------------------------------------------

PSEUDO = "eo"  # a language the table does not speak, for this test only
OPEN, CLOSE = "⟦", "⟧"
NAMES = ("Ann", "Bob", "AI")


def pseudo_catalogue(template: Catalog) -> Catalog:
    pseudo = Catalog(locale=PSEUDO)
    for message in template:
        if not message.id:
            continue
        if isinstance(message.id, (list, tuple)):
            pseudo.add(message.id, tuple(OPEN + form + CLOSE for form in message.id))
        else:
            pseudo.add(message.id, OPEN + message.id + CLOSE)
    return pseudo


def games_catalogue() -> Catalog | None:
    """The ``games`` domain's messages (the games' own words: another catalogue, Flask-Babel's
    ``Domain(domain="games")``), from translations/games.pot or else a language's games.po; None
    while the games have no catalogue."""
    found = [TRANSLATIONS / "games.pot", *sorted(TRANSLATIONS.glob("*/LC_MESSAGES/games.po"))]
    for path in found:
        if path.exists():
            with open(path, "rb") as handle:
                return read_po(handle)
    return None


@pytest.fixture
def pseudo_app(tmp_path, database_url, decks_folder):
    from app.factory import create_app  # (imported where the app is made, as tests/conftest.py's app fixture does)
    from config import TestConfig

    folder = tmp_path / "translations" / PSEUDO / "LC_MESSAGES"
    folder.mkdir(parents=True)
    template = Catalog()
    for msgid, forms in extracted().items():
        template.add(forms if len(forms) > 1 else msgid)
    with open(folder / "messages.mo", "wb") as handle:
        write_mo(handle, pseudo_catalogue(template))
    games = games_catalogue()
    if games is not None:  # the games' own words, wrapped too once their catalogue exists
        with open(folder / "games.mo", "wb") as out:
            write_mo(out, pseudo_catalogue(games))
    application = create_app(TestConfig, instance_path=str(tmp_path / "instance"), SQLALCHEMY_DATABASE_URI=database_url,
                             DECKS_FOLDER=str(decks_folder), LANGUAGES={"en": "English", PSEUDO: "Pseudo"},
                             BABEL_TRANSLATION_DIRECTORIES=str(tmp_path / "translations"))
    yield application
    from app.extensions import db

    with application.app_context():
        db.session.remove()
        db.engine.dispose()


class Texts(html.parser.HTMLParser):
    """The visible text of a page's body (one string: a message with a link inside spans several
    text nodes) and the words of its attributes that are read out or shown (each on its own)."""

    READ = ("aria-label", "title", "alt", "placeholder", "data-confirm", "data-confirm-yes", "data-none", "data-tag",
            "data-reveal", "data-playing-words")
    # Not words of the table: code and keys (commands, key names), the known names' list, a
    # time the browser rewrites in its own words, <option>s of names and numbers; and a game's How
    # to play text, written whole in each language (templates/games/<key>/_how_to_play.<language>.html,
    # marked data-language-file: tests/web/test_game_words.py checks each language has all of it).
    SKIPPED = ("script", "style", "code", "kbd", "datalist", "time", "head")

    def __init__(self):
        super().__init__()
        self.body: list[str] = []
        self.attributes: list[str] = []
        self.skipping: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in self.SKIPPED or (tag == "div" and any(name == "data-language-file" for name, _value in attrs)):
            self.skipping.append(tag)
        for name, value in attrs:
            if name in self.READ and value:
                self.attributes.append(value)
            elif name == "data-words" and value:  # the scripts' words (static/js), each its own
                self.attributes.extend(json.loads(value).values())

    def handle_endtag(self, tag):
        if self.skipping and self.skipping[-1] == tag:
            self.skipping.pop()

    def handle_data(self, data):
        if not self.skipping and data.strip():
            self.body.append(data)

    @property
    def texts(self) -> list[str]:
        return [" ".join(self.body), *self.attributes]


def game_sentences() -> re.Pattern[str] | None:
    """While the games' own catalogue (the ``games`` domain, ``games_catalogue``) does not
    exist, what the games themselves say is theirs to translate, and exempt here: each string
    literal of app/core and app/games (names, summaries, stages, prompts, move labels, log lines;
    its fields ``{name}``, ``%s`` match anything) and each sentence of a game's How to play page,
    matched whole. Once that catalogue exists, nothing is exempt: its messages are wrapped in the
    pseudo-language too."""
    if games_catalogue() is not None:
        return None
    literals: set[str] = set()
    for folder in ("app/core", "app/games"):
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    literals.update(part.strip() for part in re.split(r"\{[^{}]*\}|%\(\w+\)[sd]|%[sd]|\n", node.value))
    for path in (ROOT / "templates" / "games").glob("*/_how_to_play.html"):
        shown = re.sub(r"\{#.*?#\}", " ", path.read_text(), flags=re.S)
        literals.update(part.strip() for part in re.split(r"<[^>]*>|\{\{.*?\}\}|\{%.*?%\}|\s*\n\s*", shown))
    # a rank's name made plural by a game ("the jacks are jokers this deal")
    ranks = ("twos threes fours fives sixes sevens eights nines tens jacks queens kings aces").split()
    literals.update(ranks + [rank.capitalize() for rank in ranks])
    # (each piece between a literal's fields, of a word at least; the longest tried first)
    pieces = sorted((re.escape(piece) for piece in literals if re.search(r"[A-Za-z]{2}", piece)), key=len, reverse=True)
    return re.compile(r"(?<![A-Za-z'])(?:" + "|".join(pieces) + r")(?![A-Za-z])")


# What may show outside the catalogue's marks, each for its reason: the players' names (Ann, Bob,
# AI) and the stacked decks' titles (their files' names); card indexes (J Q K A) and suit signs,
# numbers and punctuation; each language's own name in the language menu; the footer's version
# ("1.1.0 (commit abc1234)"); the example code in the join box (ABC234) and a seat's join code
# (six capitals and digits); the addresses a spectator or a joining player opens.
EXEMPT_TEXT = re.compile(r"\(commit [0-9a-f]+\)|/games/\w+/watch|\bABC234\b|https?://\S+|\b[A-Z2-9]{6}\b")
EXEMPT_WORDS = {"Ann", "Bob", "AI", "Ann's", "Bob's", "J", "Q", "K", "A", "English", "Pseudo"}


def deck_words() -> set[str]:
    """The stacked decks' titles (names made of their files' names), and, while the games'
    catalogue does not exist, every word of the How to play pages (the games helper's: their
    sentences are split by markup, so they are exempt word by word)."""
    words: set[str] = set()
    if games_catalogue() is None:
        for path in (ROOT / "templates" / "games").glob("*/_how_to_play.html"):
            words.update(re.findall(r"[A-Za-z][A-Za-z']*", path.read_text()))
    for path in (ROOT / "tests" / "decks").rglob("*.deck"):
        words.update(word.capitalize() for word in re.split(r"[\W_]+", path.stem) if word)
        words.update(word for word in re.split(r"[\W_]+", path.stem) if word)
    return words


def outside_marks(text: str) -> str:
    """``text`` without what the catalogue marked, marks inside marks too (a game's name in a
    house sentence: "⟦How to play ⟦Points Rummy⟧⟧")."""
    kept, depth = [], 0
    for char in text:
        if char == OPEN:
            depth += 1
        elif char == CLOSE and depth:
            depth -= 1
            kept.append(" ")
        elif not depth:
            kept.append(char)
    return "".join(kept)


def unmarked(texts: list[str], exempt: set[str], games: re.Pattern[str] | None) -> list[str]:
    found = []
    for text in texts:
        rest = outside_marks(EXEMPT_TEXT.sub(" ", text))
        rest = " ".join(rest.split())
        if games is not None:
            rest = games.sub(" ", rest)
        words = [w for w in re.findall(r"[A-Za-z][A-Za-z']*", rest) if w not in EXEMPT_WORDS and w not in exempt]
        if words:
            found.append(f"{rest.strip()[:120]!r}: {words}")
    return found


def test_every_page_of_every_game_speaks_only_through_the_catalogue(pseudo_app):
    player = Player(pseudo_app)
    player.client.set_cookie("card_table_language", PSEUDO)
    exempt, games = deck_words(), game_sentences()
    pages: dict[str, str] = {}

    def visit(label: str, url: str) -> None:
        response = player.get(url)
        assert response.status_code in (200, 404), (label, response.status_code)
        pages[label] = response.get_data(as_text=True)

    visit("front door", "/")
    visit("scores", "/scores")
    visit("finished", "/finished")
    visit("not found", "/no-such-page")
    visit("admin login", "/admin/login")
    for definition in registry.games():
        visit(f"set-up {definition.key}", f"/setup/{definition.key}")
        visit(f"how to play {definition.key}", f"/how-to-play/{definition.key}")
        visit(f"scores {definition.key}", f"/scores/{definition.key}")
        names = ["Ann", "AI", "AI"][:max(definition.min_seats, 1)] if definition.min_seats > 1 else ["Ann"]
        slug = player.set_up(definition.key, names)
        visit(f"table {definition.key}", f"/games/{slug}")
        if "show my hand" not in pages[f"table {definition.key}"]:
            play_turn_like_ai(player, slug)
            visit(f"table {definition.key} after a turn", f"/games/{slug}")
            visit(f"log {definition.key}", f"/games/{slug}/log")
    visit("join", "/join")
    visit("join, a wrong code", "/join/ZZZZZZ")
    for definition in registry.games():
        if guides.guide_of(definition) is not None:
            visit(f"learn {definition.key}", f"/learn/{definition.key}")
    mason = registry.get("mason")
    visit("menu A", f"/menus/{mason.key}")
    hot_seat = player.set_up("rummy", ["Ann", "Bob"])
    visit("hand-over", f"/games/{hot_seat}")
    visit("watching", f"/games/{hot_seat}/watch")
    own_device = player.set_up("twentyone", ["Ann", "Bob"], devices=["here", "own"])
    visit("invitation", f"/games/{own_device}/seats/1/invite")
    visit("a table waiting for a seat", f"/games/{own_device}")
    player.post(f"/games/{own_device}/abandon", {})
    visit("abandoned", f"/games/{own_device}")
    seahaven = player.set_up("seahaven", ["Ann"])
    player.act(seahaven, "give_up", htmx=False)
    visit("results seahaven", f"/games/{seahaven}")
    visit("replay seahaven", f"/games/{seahaven}/replay?step=1")
    visit("solution seahaven", f"/games/{seahaven}/solution")
    visit("statistics of a name", "/scores/seahaven/names/Ann")
    visit("finished, with a game", "/finished")
    admin_login(player)
    visit("admin", "/admin")
    visit("admin, import scores", "/admin/scores/import")
    visit("finished, import", "/finished/import")
    problems = []
    for label, page in pages.items():
        assert lang_of(page) == PSEUDO, label
        parser = Texts()
        parser.feed(page)
        assert any(OPEN in text for text in parser.texts), label
        problems += [f"{label}: {found}" for found in unmarked(parser.texts, exempt, games)]
    assert problems == [], "\n".join(problems)


def test_an_imported_file_s_refusal_reads_in_the_admin_s_language(player, job_runner):
    """The checks of an exported game's file say why it is refused in the reader's language: at
    once (not JSON), and from the job runner's verdict (actions that do not finish the game)."""
    admin_login(player)
    player.post("/language", {"language": "es", "next": "/"})
    at_once = import_file(player, job_runner, "not json")
    assert at_once.status == 422
    assert at_once.alerts == ["La partida no se importó: El archivo no es JSON: exporta una partida terminada desde "
                              "su página de repetición."], at_once.alerts
    slug = player.set_up("twentyone", ["Ann"], None, rounds="1")
    page = player.table_past_handover(slug)
    while page.has_button("Plantarse"):
        player.post(f"/games/{slug}/act", {"version": str(page.version), "seat": "0", "action": "stay"}, htmx=True)
        page = player.table_past_handover(slug)
    exported = json.loads(player.get(f"/games/{slug}/export.json").get_data(as_text=True))
    exported["actions"] = exported["actions"][:-1]
    later = import_file(player, job_runner, json.dumps(exported))
    assert later.slug is None and any("no terminan la partida" in alert for alert in later.alerts), later.alerts
