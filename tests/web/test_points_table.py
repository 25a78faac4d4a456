"""Points Rummy's web table through the test client: set-up through /setup/points, the board from
the view (P2.2, P2.3, P6.3), arranging the hand into groups the server labels (P3), drawing,
discarding, dropping and declaring through the forms (P4, P5), refusals that change nothing,
privacy of the other hands and the closed deck in every page and fragment, every hand after a
deal, and the statistics after a game (P6.2).

The stacked deck ``tests/decks/points/declare_after_one_draw.deck`` (2 players, nines wild): seat 1
holds 5C 6C 7C AD 7D QD KD AH 2H 3H 8H 9H 7S, the open pile starts with 6S, the closed deck's
top card is 4H; with it, seat 1 declares with the finish card 8H.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from support.games import is_fragment, text
from support.web import Page, database_dump, table_rows

DECK = "declare_after_one_draw.deck"
SEAT_1 = ["5C", "6C", "7C", "AD", "7D", "QD", "KD", "AH", "2H", "3H", "8H", "9H", "7S"]
WINNING = [["AH", "2H", "3H", "4H"], ["QD", "KD", "AD"], ["5C", "6C", "9H"], ["7C", "7D", "7S"]]
# A card id standing alone in the page: "7D", "JK", "QH-2" (a second deck's copy).
CARD_TOKEN = re.compile(r"(?<![A-Za-z0-9])((?:[2-9TJQKA][CDHS]|JK)(?:-2)?)(?![A-Za-z0-9])")
NOT_SHOWN_ATTRIBUTES = {"hx-headers", "src", "content", "href", "hx-get", "hx-post", "action", "sse-connect"}


# -- helpers -----------------------------------------------------------------------------------


def set_up(player, names, deck: str | None = DECK, deals: int = 1, devices=None) -> str:
    """The generic set-up form, as a browser posts it (``devices``: {seat: "own"}); returns the new
    game's slug."""
    on = [(devices or {}).get(number, "here") for number in range(len(names))]
    return player.set_up("points", names, on, deals=deals, deck=deck or "", setup_token="")


def act(player, slug, htmx: bool = True, confirmed: bool = True, **fields):
    """Post the table's form like its buttons do: ``move="draw|source=closed"`` or
    ``action="group"``, with ``cards`` ticked; version and seat as the page shows them.
    ``confirmed``: a move that asks first (a drop, a declaration) was answered yes."""
    shown = player.table(slug)
    data = {"version": str(shown.version), "seat": "" if shown.seat is None else str(shown.seat)}
    if confirmed:
        data["confirmed"] = "1"
    for key, value in fields.items():
        data[key] = list(value) if key == "cards" else value
    return player.post(f"/games/{slug}/act", data, htmx=htmx)


def ok(response) -> Page:
    assert response.status_code == 200, Page(text(response)).alerts or text(response)[:2000]
    return Page(text(response))


class Arrangement(HTMLParser):
    """The hand as the page shows it: each group's number, server label and cards, the
    ungrouped cards, and which cards are marked as jokers."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.groups: list[dict] = []
        self.ungrouped: list[str] = []
        self.jokers: list[str] = []
        self._zone = None
        self._label_depth = 0
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        classes = (attributes.get("class") or "").split()
        if tag == "section" and "group" in classes:
            if "ungrouped" in classes:
                self._zone = "ungrouped"
            else:
                self._zone = {"label": "", "cards": [], "valid": "valid" in classes}
                self.groups.append(self._zone)
        elif tag == "span" and "group-label" in classes:
            self._label_depth = 1
        elif self._label_depth and tag == "span":
            self._label_depth += 1
        if tag == "label" and "data-card" in attributes and self._zone is not None:
            card = attributes["data-card"]
            if "joker" in classes:
                self.jokers.append(card)
            if self._zone == "ungrouped":
                self.ungrouped.append(card)
            else:
                self._zone["cards"].append(card)

    def handle_endtag(self, tag):
        if self._label_depth and tag == "span":
            self._label_depth -= 1

    def handle_data(self, data):
        if self._label_depth and isinstance(self._zone, dict):
            self._zone["label"] = (self._zone["label"] + data).replace("\u2713", "").replace("\u2717", "").strip()

    def labelled(self) -> list[tuple[str, list[str]]]:
        return [(group["label"], group["cards"]) for group in self.groups]


def shown_cards(html: str) -> tuple[set[str], set[str]]:
    """The card ids the HTML names (data-card, form values, element ids) and the card codes it
    shows anywhere else (text, titles, labels; a second deck's copy shows the same code)."""

    class Shown(HTMLParser):
        def __init__(self):
            super().__init__(convert_charrefs=True)
            self.ids: set[str] = set()
            self.codes: set[str] = set()

        def handle_starttag(self, tag, attrs):
            attributes = dict(attrs)
            for name, value in attrs:
                if value is None or name in NOT_SHOWN_ATTRIBUTES:
                    continue
                if name == "value" and attributes.get("name") == "csrf_token":
                    continue
                found = CARD_TOKEN.findall(value)
                if name in ("data-card", "value", "id"):
                    self.ids.update(found)
                else:
                    self.codes.update(token.split("-")[0] for token in found)

        def handle_data(self, data):
            self.codes.update(token.split("-")[0] for token in CARD_TOKEN.findall(data))

    parser = Shown()
    parser.feed(html)
    return parser.ids, parser.codes


def assert_private(html: str, state, seat) -> None:
    """P6.3: nothing of ``hidden_from(seat)`` (the other hands, the closed deck) is in the HTML:
    not its id, and not its code unless a card the seat may see (the other copy of a two-deck
    game's card, discarded and now under the open pile, say) has the same code: the log names
    every discard, as the generic privacy check allows."""
    hidden = state.hidden_from(seat)
    assert hidden, "the test would prove nothing"
    ids, codes = shown_cards(html)
    leaked = {card.id for card in hidden} & ids
    assert not leaked, f"the page for seat {seat} names hidden cards {sorted(leaked)}"
    visible_codes = {card.code for card in state.deck.cards if card not in hidden}
    leaked_codes = ({card.code for card in hidden} & codes) - visible_codes
    assert not leaked_codes, f"the page for seat {seat} shows the codes of hidden cards {sorted(leaked_codes)}"


def draw_and_arrange(player, slug, groups=WINNING) -> Page:
    ok(act(player, slug, move="draw|source=closed"))
    for cards in groups:
        page = ok(act(player, slug, action="group", cards=cards))
    return page


@pytest.fixture
def solo(player):
    """Ann (seat 1, this browser) against the computer, on the stacked deck."""
    return set_up(player, ["Ann", "AI"])


# -- set-up and the board (P2, P6.3) -----------------------------------------------------------------


def test_the_set_up_form_lists_the_options_and_the_sample_decks(player):
    html = text(player.get("/setup/points"))
    assert "Points Rummy" in html and 'name="deals"' in html
    assert 'value="declare_after_one_draw.deck"' in html and 'value="three_players_two_decks.deck"' in html
    assert '<option value="6"' in html  # 2 to 6 seats


def test_p2_the_board_shows_the_piles_the_indicator_the_players_and_the_own_hand(player, solo):
    view = player.table(solo)
    html = view.html
    assert "<html" in html and 'class="table game-points"' in html
    assert Arrangement(html).ungrouped == SEAT_1  # no groups yet: every card ungrouped, in hand order
    assert view.seat == 0 and view.hand == SEAT_1
    assert "Nines are jokers this deal, and the printed jokers" in html  # P2.2
    assert 'data-card="9S"' in html.split('class="pile indicator"')[1].split("</div>")[0]
    assert re.search(r'Open pile</span> <span><strong>1</strong> card', html)  # P2.3
    assert re.search(r'Closed deck</span> <span><strong>25</strong> cards', html)  # 53 - 26 - 2
    assert html.count("<span class=\"count\">13 cards</span>") == 2 and "Your hand counts 8 now" in html
    assert Arrangement(html).jokers == ["9H"]  # P2.2: marked in words too
    assert 'aria-label="9 of Hearts, a joker"' in html and ">joker</span>" in html
    assert "Your turn, Ann: Draw from the closed deck or the open pile, or drop." in html


def test_p4_1_the_draw_moves_are_buttons_and_the_piles_themselves(player, solo):
    view = player.table(solo)
    assert ("move", "draw|source=closed", "Draw from the closed deck") in view.buttons
    assert ("move", "draw|source=open", "Take the 6\u2660 from the open pile") in view.buttons
    assert ("action", "drop", "Drop (20 points)") in view.buttons  # P4.3
    # dropping is a row of its own, apart from the draws, and asks first
    rows = re.findall(r'<div class="actions turn-actions[^"]*" role="group" aria-label="([^"]*)">(.*?)</div>',
                      view.html, re.S)
    assert [label for label, _row in rows] == ["Your turn", "Leave the deal"]
    assert "Drop" not in rows[0][1] and "Drop (20 points)" in rows[1][1]
    assert 'data-confirm="Drop out of this deal? It costs you 20 points."' in rows[1][1]
    # the closed deck and the open pile are submit buttons of the hand's form
    assert re.search(r'<button type="submit" class="pile pile-button" form="act-form" name="move" '
                     r'value="draw\|source=closed"', view.html)
    assert 'form="act-form" name="move" value="draw|source=open"' in view.html
    form = view.posting_to(f"/games/{solo}/act")[0]
    assert form["method"] == "post" and form["inputs"]["seat"] == ["0"]
    assert form["inputs"]["cards"] == SEAT_1  # keyboard-reachable checkboxes, one a card


def test_p4_1_drawing_from_the_closed_deck_as_a_plain_form_post(player, solo):
    response = act(player, solo, htmx=False, move="draw|source=closed")
    assert response.status_code == 303 and response.headers["Location"] == f"/games/{solo}"
    view = player.table(solo)
    assert "4H" in view.hand and len(view.hand) == 14
    assert re.search(r'Closed deck</span> <span><strong>24</strong> cards', view.html)
    assert ("action", "discard", "Discard") in view.buttons
    assert view.log[-1] == "Ann drew from the closed deck."
    # the card drawn is marked for its drawer, as Classic Rummy and Mason Rummy mark it
    assert 'class="card suit-H new" data-card="4H"' in view.html and 'aria-label="4 of Hearts, just drawn"' in view.html
    assert not any(value and value.startswith("draw") for _name, value, _text in view.buttons)


def test_p4_1_p4_2_taking_the_open_card_marks_it_and_it_may_not_be_discarded(app, player, solo):
    view = ok(act(player, solo, move="draw|source=open"))
    assert "6S" in view.hand
    assert 'class="card suit-S taken"' in view.html and ">taken</span>" in view.html
    before = database_dump(app)
    refused = act(player, solo, action="discard", cards=["6S"])
    assert refused.status_code == 422
    assert Page(text(refused)).alerts == ["6S was taken from the open pile this turn: it may not be discarded this turn."]
    assert database_dump(app) == before


# -- arranging (P3): every action is a post, every label the server's ------------------------------------


def test_p3_arranging_changes_the_groups_and_their_server_labels(player, solo):
    page = ok(act(player, solo, move="draw|source=closed"))
    page = ok(act(player, solo, action="group", cards=["AH", "2H", "3H", "4H"]))
    assert Arrangement(page.html).labelled() == [("pure sequence", ["AH", "2H", "3H", "4H"])]
    page = ok(act(player, solo, action="group", cards=["5C", "6C"]))
    shown = Arrangement(page.html)
    assert shown.labelled()[1] == ("not a valid group", ["5C", "6C"])
    assert page.texts("p", "group-reason") == ["5\u2663 6\u2663: a group needs at least 3 cards"]  # the cards as cards
    # "Add to group 2": the group's own button carries the group's number
    assert ("move", "move|group=2", "+Add to group 2") in page.buttons
    page = ok(act(player, solo, move="move|group=2", cards=["9H"]))
    assert Arrangement(page.html).labelled()[1] == ("impure sequence", ["5C", "6C", "9H"])
    page = ok(act(player, solo, action="group", cards=["AD", "QD", "KD"]))
    assert Arrangement(page.html).labelled()[2] == ("pure sequence", ["QD", "KD", "AD"])  # reading order
    page = ok(act(player, solo, action="group", cards=["7C", "7D", "7S", "8H"]))
    assert Arrangement(page.html).labelled()[3][0] == "not a valid group"
    page = ok(act(player, solo, action="ungroup", cards=["8H"]))
    shown = Arrangement(page.html)
    assert shown.labelled()[3] == ("set", ["7C", "7D", "7S"])
    assert shown.ungrouped == ["8H"]
    assert "Finish card" in page.html  # the one card left out is the finish card to be
    assert page.find("p", "declaration").text.endswith("Your groups make a valid declaration with the 8\u2665 as the finish card.")
    # P5.1: the one card left out is the finish card: the declaration needs no card selected
    assert ("move", "declare|finish=8H", "Declare with the 8\u2665 as the finish card") in page.buttons
    assert not page.has_button("Declare (the selected card is the finish card)")


def test_p3_group_by_suit_and_taking_cards_out(player, solo):
    page = ok(act(player, solo, action="sort"))  # before drawing: arranging works at any time
    shown = Arrangement(page.html)
    assert [group["cards"] for group in shown.groups] == [
        ["5C", "6C", "7C"], ["AD", "7D", "QD", "KD"], ["AH", "2H", "3H", "8H"], ["7S"], ["9H"]]
    assert shown.groups[0]["label"] == "pure sequence" and shown.ungrouped == []
    page = ok(act(player, solo, action="ungroup", cards=["8H", "7S"]))
    shown = Arrangement(page.html)
    assert shown.groups[2] == {"label": "pure sequence", "cards": ["AH", "2H", "3H"], "valid": True}
    assert shown.ungrouped == ["8H", "7S"] and len(shown.groups) == 4


def test_arranging_refusals_show_the_message_and_change_nothing(app, player, solo):
    ok(act(player, solo, action="group", cards=["AH", "2H", "3H"]))
    for fields, message in (
            ({"action": "group", "cards": []}, "Select one or more of your cards first."),
            ({"move": "move|group=9", "cards": ["8H"]}, "There is no group 9: you have 1 group."),
            ({"action": "group", "cards": ["4H"]}, "4H is not in your hand."),
    ):
        before = database_dump(app)
        response = act(player, solo, **fields)
        assert response.status_code == 422, fields
        refused = Page(text(response))
        assert refused.alerts == [message]
        assert database_dump(app) == before
        assert Arrangement(refused.html).labelled() == [("pure sequence", ["AH", "2H", "3H"])]


def test_a_refused_action_keeps_the_selected_cards_ticked(player, solo):
    response = act(player, solo, action="discard", cards=["8H"])  # P4.2: not before drawing
    assert response.status_code == 422
    refused = Page(text(response))
    assert refused.alerts == ["Draw a card first: from the closed deck or the open pile."]
    assert 'value="8H" checked' in refused.html


# -- a turn: discard, drop, declare (P4, P5) ------------------------------------------------------------


def test_p4_2_a_discard_goes_to_the_open_pile_and_the_computer_plays_at_once(player, solo):
    ok(act(player, solo, move="draw|source=closed"))
    page = ok(act(player, solo, action="discard", cards=["7S"]))
    assert "7S" not in page.hand and len(page.hand) == 13
    assert "Ann discarded the 7\u2660." in page.log
    assert "AI drew from the closed deck." in page.log or any(line.startswith("AI took the ") for line in page.log)
    assert "Your turn, Ann" in page.html  # the computer played its turn within the request
    latest = page.find("ol", "recent").text
    assert "AI discarded the " in latest  # the latest moves, with the card everyone saw named


def test_p4_3_dropping_before_the_first_draw_costs_20_and_ends_a_two_player_deal(app, player):
    slug = set_up(player, ["Ann", "AI"], deals=2)
    page = ok(act(player, slug, action="drop"))
    assert "Deal 1 of 2 is over" in page.html
    assert "AI</strong> wins deal 1 (last player in the deal) and collects <strong>20</strong> points" in page.html
    assert re.search(r"first drop</span>\s*<span class=\"deal-points\">20 points", page.html)
    assert page.has_button("Deal 2 of 2")
    # Between deals the table deals on: a form without a seat (a table move)
    response = player.post(f"/games/{slug}/act", {"version": str(page.version), "action": "deal"}, htmx=True)
    page = ok(response)
    assert "Deal 2 of 2" in page.html and "Your hand counts" in page.html
    assert 'class="deal-hands"' not in page.html
    assert re.search(r'AI</span>.*?<span class="badge" title="Plays first this deal">first</span>', page.html, re.S)  # P2.4


def test_p5_1_p5_2_declaring_with_the_finish_card_wins_the_deal_and_shows_every_hand(app, player, solo):
    page = draw_and_arrange(player, solo)
    state, _version = player.state(solo)
    computer_hand = [card.id for card in state.hands[1]]
    page = ok(act(player, solo, action="declare", cards=["8H"]))
    assert "Game over" in page.html and "Ann wins with a net total of 80!" in page.html
    assert "Ann</strong> wins deal 1 (declared) and collects <strong>80</strong> points" in page.html
    # P6.3: every hand in its groups with its points; the computer's 83 capped at 80 (P5.4)
    for card_id in computer_hand + ["8H"] + [card for group in WINNING for card in group]:
        assert f'data-card="{card_id}"' in page.html
    assert "(83, at most 80)" in page.html and "80 points" in page.html
    assert page.html.count("pure sequence") >= 3 and "finish card</span>" in page.html
    assert "Rematch with the same players" in page.html
    assert 'name="cards"' not in page.html  # no hand form after the game


def test_p4_3_a_drop_asks_first_and_changes_nothing_until_answered(app, player, solo):
    before = database_dump(app)
    asked = ok(act(player, solo, action="drop", confirmed=False))  # as a script that did not ask
    assert "Drop out of this deal? It costs you 20 points." in asked.html
    assert asked.has_button("Yes, drop (20 points)") and "No, go back" in asked.html
    assert database_dump(app) == before
    # the move is known by the action posted, however a hand-made button's value spells it
    for spelling in ("drop|x=1", "drop|", "x|action=drop", "DROP", " Drop "):
        asked = ok(act(player, solo, move=spelling, confirmed=False))
        assert "Drop out of this deal? It costs you 20 points." in asked.html, spelling
    assert database_dump(app) == before
    # without JavaScript: the post is answered with the table's confirmation step, then yes
    response = act(player, solo, htmx=False, action="drop", confirmed=False)
    assert response.status_code == 303 and "confirm=drop" in response.headers["Location"]
    step = player.page(response.headers["Location"])
    assert database_dump(app) == before
    (form,) = [form for form in step.posting_to(f"/games/{solo}/act") if "confirmed" in form["inputs"]]
    assert form["inputs"]["confirmed"] == ["1"] and form["inputs"]["action"] == ["drop"]
    response = player.post(f"/games/{solo}/act", {key: values[0] for key, values in form["inputs"].items()})
    assert response.status_code == 303
    assert "AI</strong> wins deal 1 (last player in the deal)" in text(player.get(f"/games/{solo}"))


def test_p5_1_p5_3_declare_asks_first_and_warns_when_the_declaration_is_not_valid_yet(app, player, solo):
    groups = [["AH", "2H", "3H", "4H"], ["QD", "KD", "AD"], ["5C", "6C", "9H"], ["7C", "7D", "8H"]]
    page = draw_and_arrange(player, solo, groups)
    (declare,) = [button for button in page.buttons if (button[1] or "").startswith("declare")]
    assert declare == ("move", "declare|finish=7S", "Declare with the 7\u2660 as the finish card")
    assert re.search(r'value="declare\|finish=7S" data-confirm="Not a valid declaration yet: group 4 '
                     r'\(7\u2663 7\u2666 8\u2665\) is not a valid group[^"]*\. Declaring now costs you 80 points\. '
                     r'Declare anyway\?" data-confirm-yes="Yes, declare anyway"', page.html)
    before = database_dump(app)
    asked = ok(act(player, solo, move="declare|finish=7S", confirmed=False))
    assert "Declare anyway?" in asked.html and asked.has_button("Yes, declare anyway")
    for fields in ({"move": "declare|finish=7S|x=1"}, {"action": "declare", "finish": "7S"},
                   {"move": "DECLARE|finish=7s"}, {"move": "declare|finish=7S", "groups": "AH 2H 3H 4H|QD KD AD"}):
        asked = ok(act(player, solo, confirmed=False, **fields))
        assert "Declare anyway?" in asked.html, fields
    assert database_dump(app) == before


def test_p5_1_a_ready_declaration_takes_the_card_left_out_whatever_is_selected(player, solo):
    draw_and_arrange(player, solo)
    page = player.table(solo)
    assert 'data-confirm="Declare with the 8\u2665 as the finish card? Your groups make a valid declaration."' in page.html
    page = ok(act(player, solo, move="declare|finish=8H", cards=["AH"]))  # a card left ticked: not the finish
    assert "Ann wins with a net total of 80!" in page.html
    # the results keep the joker marked in the declared groups (P2.2: nines are wild), as the
    # hand marked it, and Ann's 14 cards are counted: 13 in groups and the finish card (P5.2)
    joker = page.find("span", "joker", data_card="9H")
    assert joker is not None and joker.get("aria-label") == "9 of Hearts, a joker" and joker.text == "9\u2665joker"
    assert re.search(r'<span class="player-name">Ann</span>.*?<span class="count">14 cards</span>', page.html, re.S)


def test_p5_1_declare_needs_every_other_card_in_a_group(app, player, solo):
    page = draw_and_arrange(player, solo)
    before = database_dump(app)
    response = act(player, solo, action="declare", cards=["AH"])  # a card in group 1: 8H is in no group
    assert response.status_code == 422
    refused = Page(text(response))
    assert refused.alerts == ["Put every card but the finish card in a group before declaring: 8H is in no group."]
    assert database_dump(app) == before
    assert 'value="AH" checked' in refused.html


def test_p5_3_a_wrong_declaration_costs_80_and_says_why(app, player, solo):
    groups = [["AH", "2H", "3H", "4H"], ["QD", "KD", "AD"], ["5C", "6C", "9H"], ["7C", "7D", "8H"]]
    page = draw_and_arrange(player, solo, groups)
    labels = [label for label, _cards in Arrangement(page.html).labelled()]
    assert labels == ["pure sequence", "pure sequence", "impure sequence", "not a valid group"]
    assert "Not a valid declaration yet: group 4 (7\u2663 7\u2666 8\u2665) is not a valid group" in page.find(
        "p", "declaration").text
    page = ok(act(player, solo, move="declare|finish=7S"))  # the game offers it; it is wrong
    assert "AI wins with a net total of 80!" in page.html
    assert "Your declaration was wrong: group 4 (7C 7D 8H) is not a valid group" in page.html
    assert re.search(r"wrong declaration</span>\s*<span class=\"deal-points\">80 points", page.html)


# -- privacy (P6.3) ------------------------------------------------------------------------------------


def test_p6_3_no_other_hand_and_no_closed_card_in_any_page_fragment_or_refusal(make_player, player):
    slug = set_up(player, ["Ann", "AI", "AI"], deck="three_players_two_decks.deck")
    spectator = make_player()
    for step in range(6):
        state, version = player.state(slug)
        if not state.in_deal():
            break
        seat = state.to_move()
        assert seat == 0
        pages = {
            "page": text(player.get(f"/games/{slug}")),
            "fragment": text(player.get(f"/games/{slug}/table", htmx=True)),
            "refusal": text(act(player, slug, action="discard", cards=[]) if step % 2 == 0
                            else act(player, slug, move="move|group=7", cards=[state.hands[0][0].id])),
        }
        assert is_fragment(pages["fragment"])
        for name, html in pages.items():
            assert_private(html, state, 0)
        for url in (f"/games/{slug}/watch", f"/games/{slug}/table?watch=1"):
            html = text(spectator.get(url, htmx=url.endswith("1")))
            assert 'name="cards"' not in html and "You are watching: no hands are shown." in html
            assert_private(html, state, None)
        ok(act(player, slug, action="group", cards=[state.hands[0][0].id, state.hands[0][1].id]))
        ok(act(player, slug, move="draw|source=closed"))
        state, _version = player.state(slug)
        assert_private(text(player.get(f"/games/{slug}")), state, 0)
        ok(act(player, slug, action="discard", cards=[state.hands[0][-1].id]))


def test_p6_3_after_the_deal_every_hand_is_shown_to_players_and_spectators(make_player, player, solo):
    draw_and_arrange(player, solo)
    ok(act(player, solo, action="declare", cards=["8H"]))
    state, _version = player.state(solo)
    watcher = make_player()
    html = text(watcher.get(f"/games/{solo}/watch"))
    for card in state.hands[1] + state.hands[0]:
        assert f'data-card="{card.id}"' in html


def test_a_hot_seat_hand_over_shows_no_hand_until_the_button(player):
    slug = set_up(player, ["Ann", "Bob"])
    html = text(player.get(f"/games/{slug}"))
    assert "Pass the device to Ann" in html and 'name="cards"' not in html
    state, _version = player.state(slug)
    assert_private(html, state, None)
    ok(player.reveal(slug))
    assert Arrangement(text(player.get(f"/games/{slug}"))).ungrouped == SEAT_1


def test_an_own_device_player_arranges_while_another_plays(app, make_player, player):
    """Arranging is not a turn's move: Bob, on his own device, groups cards during Ann's turn."""
    from app import store

    slug = set_up(player, ["Ann", "Bob"], devices={1: "own"})
    with app.app_context():
        code = store.find_game(slug).seats[1].join_code
    bob = make_player()
    assert bob.post("/join", {"code": code}).status_code == 303
    view = bob.table(slug)
    assert view.seat == 1 and not view.has_button("Draw from the closed deck")
    bob_hand = view.hand
    page = ok(act(bob, slug, action="group", cards=bob_hand[:3]))
    assert [group["cards"] for group in Arrangement(page.html).groups] == [bob_hand[:3]]
    assert "Waiting for Ann" in page.html or "Ann's turn" in page.html
    state, _version = player.state(slug)
    assert_private(text(player.get(f"/games/{slug}")), state, 0)
    assert_private(page.html, state, 1)


# -- the end: rematch and statistics (P6.1, P6.2) ---------------------------------------------------------


def test_p6_2_the_statistics_after_a_game_are_on_the_scores_page(player, solo):
    draw_and_arrange(player, solo)
    ok(act(player, solo, action="declare", cards=["8H"]))
    html = text(player.get("/scores/points"))
    section = html.split('id="stats-points"')[1].split("</table>")[0]
    for label in ("Deals played", "Deals won", "Net points", "Best deal"):
        assert label in section
    figures = {name: list(cells) for name, *cells in table_rows(section)}
    assert figures == {"AI": ["1", "0", "-80", "-80"], "Ann": ["1", "1", "80", "80"]}


def test_a_rematch_deals_the_same_stacked_deck_again(player, solo):
    draw_and_arrange(player, solo)
    ok(act(player, solo, action="declare", cards=["8H"]))
    response = player.post(f"/games/{solo}/rematch")
    assert response.status_code == 303
    slug = response.headers["Location"].rsplit("/", 1)[1]
    assert slug != solo
    assert Arrangement(text(player.get(f"/games/{slug}"))).ungrouped == SEAT_1
