"""Players' words at every table: a game of each of the five games is played through the table's
forms to its end, then its whole log is read as the web shows it (the table's last lines and
every page of the whole game's log): short sentences in players' words that name their cards as
cards ("the 7♥"), and no line of the terminal's (no card code such as "7H" or "TS", no
"hand:[ 5C ]", no menu). The terminal's texts stay as they were: each logged line keeps its
``text``, word for word as the rule books write it, beside the web's ``say``. Buttons carry no
menu letter or option number, hands no index numbers."""

from __future__ import annotations

import re

import pytest

from support.games import play_game

from app.core import registry


CODE = re.compile(r"(?<![A-Za-z0-9])(?:[2-9TJQKA][CDHSP]|JK)(?![A-Za-z0-9])")  # a card as the terminal writes it
SIGNS = "\u2663\u2666\u2665\u2660\u2605"  # clubs, diamonds, hearts, spades, Patriots
TERMINAL = ("hand:", "value =", "...", "Menu ", "[ ")
# A line of each game's log as its terminal prints it (the rule books' words), unchanged.
TERMINAL_TEXT = {
    "mason": re.compile(r"^(Round \d dealt; .+ starts\.|.+ (drew from the stock pile|took [2-9TJQKA][CDHSP] from the "
                        r"discard pile|discarded [2-9TJQKA][CDHSP])\.)$"),
    "rummy": re.compile(r"^(Hand \d+ dealt: .+|.+ (drew from the stock pile|took [2-9TJQKA][CDHS] from the discard "
                        r"pile|discarded [2-9TJQKA][CDHS])\.)$"),
    "twentyone": re.compile(r"^(Round \d+|Dealing cards to players and dealer\.\.\.|.+'s hand:(\[ (\w\w|xx) \])+"
                            r"(, value = \d+)?)$"),
    "seahaven": re.compile(r"^Moved [2-9TJQKA][CDHS] from (column|cell) \d+ to (column|cell|foundation) \d+$"),
    "points": re.compile(r"^(Deal \d+ of \d+: .+|The open pile starts with (\w\w)\.|.+ (draws from the closed deck|"
                         r"takes \w\w from the open pile|discards \w\w)\.)$"),
}


def set_up(player, key: str) -> str:
    definition = registry.get(key)
    if key == "mason":
        return player.start_game(["Ann", "AI"], deck="ai_showcase.deck")
    names = ["Ann", "AI"] if definition.max_seats > 1 else ["Ann"]
    form = {"seats": str(len(names)), **{f"name{n}": name for n, name in enumerate(names)},
            **{option.key: str(option.default) for option in definition.options}}
    if key == "seahaven":
        form["deal"] = "1234"
    response = player.post(f"/setup/{key}", form)
    assert response.status_code == 303, response.get_data(as_text=True)[:300]
    return response.headers["Location"].rsplit("/", 1)[1]


def whole_log(player, slug: str) -> list[str]:
    """Every line of the whole game's log, as its pages show them to this browser."""
    pages = [player.page(f"/games/{slug}/log?page=1")]
    while (later := pages[-1].find("a", rel="next")) is not None:
        pages.append(player.page(later.get("href").replace("&amp;", "&")))
    return [line for page in pages for line in page.log]


def check_words(lines: list[str], where: str) -> None:
    assert lines, f"{where}: no line"
    for line in lines:
        assert not CODE.search(line), f"{where}: a card written as a code in {line!r}"
        assert not any(word in line for word in TERMINAL), f"{where}: a terminal line {line!r}"
        assert line[:1].isupper() or line[:1].isdigit(), f"{where}: not a sentence {line!r}"
        assert line.endswith((".", "!")), f"{where}: not a sentence {line!r}"


@pytest.mark.parametrize("key", ["mason", "rummy", "twentyone", "seahaven", "points"])
def test_the_web_log_of_a_played_game_names_its_cards_in_sentences_and_the_terminal_keeps_its_text(player, key):
    slug = set_up(player, key)
    play_game(player, slug)
    state, _version = player.state(slug)
    assert state.is_over()
    lines = whole_log(player, slug)
    check_words(lines, f"{key}'s whole log")
    assert any(sign in line for line in lines for sign in SIGNS), f"{key}: no card named as a card"
    table = player.table(slug)
    check_words(table.log, f"{key}'s table")
    assert table.log == lines[-len(table.log):]  # the table's last lines are the whole log's
    # the terminal's lines are the game's, unchanged: the web only shows them in other words
    from app import store

    with player.app.app_context():
        record = store.find_game(slug)
        logged = store.log_lines(record, 0, state.log_total)
    texts = [event["text"] for event in logged]
    pattern = TERMINAL_TEXT[key]
    assert any(pattern.match(text) for text in texts), f"{key}: none of the terminal's lines"
    assert any(CODE.search(text) for text in texts), f"{key}: the terminal names no card by its code"
    carded = {text for text in texts if CODE.search(text) or "hand:" in text}
    assert carded and not carded & set(lines), f"{key}: a terminal line in the web's log"
    assert all("say" in event for event in logged)


def test_buttons_carry_no_menu_letter_or_number_and_hands_no_index_numbers(player):
    slug = player.start_game(["Ann", "AI"], deck="quick_out.deck")
    page = player.table(slug)
    menu = [text for _name, value, text in page.buttons if value in ("draw_stock", "draw_discard")]
    assert menu[-2:] == ["Draw from stock pile", "Take the 9\u2663 from the discard pile"]  # (the piles first)
    assert "Menu D" not in page.html and "menu-title" not in page.html
    player.act(slug, "draw_stock")
    page = player.table(slug)
    assert ["Play down cards", "Discard"] == [text for _name, value, text in page.buttons
                                              if value in ("lay_down", "discard")]
    assert 'class="num"' not in page.html and not re.search(r'aria-label="\d+\. ', page.html)
    rummy = player.set_up("rummy", ["Ann", "AI"], target=100, rummy_bonus="0", deck="")
    page = player.table(rummy)
    assert 'class="num"' not in page.html and not re.search(r'aria-label="\d+\. ', page.html)
    assert not any(re.match(r"\d+\. ", text) for text in page.button_texts())
    assert "Draw menu" not in page.html and "Play menu" not in page.html


def test_a_card_is_drawn_as_a_card_in_every_game(player):
    """The same face everywhere: the rank as players write it (10, not T), the suit's sign, read
    aloud in words; a hidden card is a back."""
    slug = player.start_game(["Ann", "AI"], deck="quick_out.deck")
    page = player.table(slug)
    assert '<b aria-hidden="true">10<i>\u2605</i></b>' in page.html  # TP, the ten of Patriots, in Ann's hand
    face = page.find("span", "card", data_card="9C")  # the discard pile's top
    assert face.get("role") == "img" and face.get("aria-label") == "9 of Clubs" and face.text == "9\u2663"
    assert page.find("span", "back") is not None and page.find("span", "back").get("aria-hidden") == "true"
    assert not re.search(r">\s*[2-9TJQKA][CDHSP]\s*<", page.html)  # no card written as its code
    seahaven = player.set_up("seahaven", ["Ann"], deal="1234", classic="0", deck="")
    page = player.table(seahaven)
    tens = [element for element in page.find_all(data_card=True) if element.get("data-card", "").startswith("T")]
    assert len(tens) == 4 and all(element.text.startswith("10") for element in tens)
    assert not re.search(r">\s*T[CDHS]\s*<", page.html)
