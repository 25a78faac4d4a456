"""Take-backs and house rules at the web table: the set-up form offers them, the table shows the
house rules it plays by, a "Take back" button comes from ``legal()`` when allowed, the other player
accepts with one tap, and the replay, the export and the statistics keep working."""

from __future__ import annotations

import json
import re

import sqlalchemy as sa
from support.games import admin_login, import_file
from support.pages import statistics_rows
from support.web import Page

from app.extensions import db
from app.store.models import GameStat

QUICK = "quick_rummy.deck"


def set_up(player, devices, **options):
    return player.set_up("rummy", ["Ann", "Bob"], devices, target=100, rummy_bonus=["0", "1"], deck=QUICK,
                         **options)


def join_bob(player, bob, slug):
    code = re.search(r'<code class="join-code">(\w+)</code>', player.table(slug).html).group(1)
    assert bob.post("/join", {"code": code}).status_code == 303


def press(browser, slug, value, cards=(), name="move"):
    page = browser.table_past_handover(slug)
    data = {"version": str(page.version), "seat": "" if page.seat is None else str(page.seat), name: value,
            "cards": list(cards)}
    response = browser.post(f"/games/{slug}/act", data, htmx=True)
    assert response.status_code == 200, Page(response.get_data(as_text=True)).alerts
    return Page(response.get_data(as_text=True))


def test_the_set_up_form_offers_the_house_rules_and_take_backs(player):
    html = player.get("/setup/rummy").get_data(as_text=True)
    for field in ("must_discard", "discard_back", "stock_out", "deal_size", "take_backs"):
        assert f'name="{field}"' in html, field


def test_the_table_shows_its_house_rules_and_none_at_the_rule_books_game(player):
    slug = set_up(player, None, must_discard=["0", "1"], stock_out="end_hand")
    html = player.table_past_handover(slug).html
    assert "House rules" in html and "Go out by discarding" in html and "The hand ends, no score" in html
    plain = set_up(player, None)
    assert "House rules" not in player.table_past_handover(plain).html


def test_asked_a_take_back_offered_asked_and_accepted(player, make_player):
    bob = make_player()
    slug = set_up(player, ["here", "own"], take_backs="asked")
    join_bob(player, bob, slug)
    press(player, slug, "draw|source=discard")
    page = player.table_past_handover(slug)
    assert page.has_button("Ask to take back your draw")
    hand = page.hand
    page = press(player, slug, "discard", [hand[0]], name="action")
    assert page.has_button("Ask to take back your discard")
    page = press(player, slug, "take_back", name="action")
    assert "Ann asks to take back their discard." in page.log
    bobs = bob.table(slug)
    assert bobs.has_button("Let Ann take back their discard")
    press(bob, slug, "accept_take_back", name="action")
    page = player.table_past_handover(slug)
    assert page.log[-1] == "Ann took back their discard." and hand[0] in page.hand
    export = player.get(f"/games/{slug}/export")
    if export.status_code == 200:
        assert b"take_back" in export.get_data()


def test_off_no_take_back_button(player, make_player):
    slug = set_up(player, None)
    press(player, slug, "draw|source=discard")
    assert not any("take back" in text.lower() for _name, _value, text in player.table_past_handover(slug).buttons)


def play_quick_rummy_with_a_take_back(player):
    """quick_rummy.deck against the computer, take-backs free, house rule: seven cards each is
    not chosen (the deck deals Ann her quick hand): Ann draws the 7H from the discard pile,
    takes the draw back, then draws the 2D and goes out in one turn (C5.2): the game is over."""
    slug = player.set_up("rummy", ["Ann", "AI"], None, target=100, rummy_bonus=["0", "1"], deck=QUICK,
                         take_backs="free", discard_back=["0", "1"])
    press(player, slug, "draw|source=discard")
    page = press(player, slug, "take_back", name="action")
    assert page.log[-1] == "Ann took back their draw." and "7H" not in page.hand
    press(player, slug, "draw|source=stock")
    for meld in (["AC", "2C", "3C", "4C"], ["5D", "5H", "5S"], ["9S", "TS", "JS"]):
        press(player, slug, "meld", meld, name="action")
    press(player, slug, "discard", ["2D"], name="action")
    return slug


def test_a_game_with_a_take_back_replays_exports_imports_and_keeps_its_statistics_apart(app, player, job_runner):
    slug = play_quick_rummy_with_a_take_back(player)
    state, _version = player.state(slug)
    assert state.is_over()
    replay = player.get(f"/games/{slug}/replay?step=2")
    assert replay.status_code == 200 and "House rules" in replay.get_data(as_text=True)
    exported = json.loads(player.get(f"/games/{slug}/export.json").get_data(as_text=True))
    assert exported["actions"][:3] == [{"seat": 0, "action": {"action": "draw", "source": "discard"}},
                                       {"seat": 0, "action": {"action": "take_back"}},
                                       {"seat": 0, "action": {"action": "draw", "source": "stock"}}]
    assert exported["options"]["take_backs"] == "free" and exported["options"]["discard_back"] is True
    assert exported["house_rules"] == ["Discard the card just taken: yes"]
    admin_login(player)
    done = import_file(player, job_runner, json.dumps(exported))
    assert done.slug is not None, done.alerts
    imported, _version = player.state(done.slug)
    assert imported.to_dict() == state.to_dict()
    with app.app_context():
        rows = {(row.game, row.name) for row in db.session.scalars(sa.select(GameStat))}
    assert ("rummy", "Ann") not in rows  # played by a house rule: kept apart from the rule book's game
    assert any(game.startswith("rummy~") and name == "Ann" for game, name in rows)
    # ... and shown apart (C9): the rule book's page has no Ann, a link names the house rule and
    # its page (and its file) has her row
    scores = Page(player.get("/scores/rummy").get_data(as_text=True))
    assert "Ann" not in statistics_rows(scores.html, "rummy")
    links = {element.text: element.get("href") for element in scores.find("nav", "rule-sets").iter()
             if element.tag == "a"}
    assert set(links) == {"The rule book's", "Discard the card just taken: yes"}, links
    kept = Page(player.get(links["Discard the card just taken: yes"].replace("&amp;", "&")).get_data(as_text=True))
    assert kept.texts("p", "house-rules-shown") == ["House rules: Discard the card just taken: yes."]
    assert sorted(statistics_rows(kept.html, "rummy")) == ["AI", "Ann"]
    digest = re.search(r"rules=([0-9a-f]{6})", links["Discard the card just taken: yes"]).group(1)
    download = player.get(f"/scores/rummy/statistics.csv?rules={digest}")
    assert download.headers["Content-Disposition"].endswith(f'rummy-{digest}-statistics.csv"')
    assert '"Ann"' in download.get_data(as_text=True)
    assert '"Ann"' not in player.get("/scores/rummy/statistics.csv").get_data(as_text=True)
    rematch = player.post(f"/games/{slug}/rematch", {})
    assert rematch.status_code == 303, Page(rematch.get_data(as_text=True)).alerts
    again = rematch.headers["Location"].rsplit("/", 1)[-1]
    state_again, _version = player.state(again)
    assert state_again.take_backs == "free" and state_again.discard_back is True


def test_seahaven_with_two_cells_shows_two_cells_and_its_house_rules(player):
    slug = player.set_up("seahaven", ["Sam"], None, deal="1", classic="0", winnable_only="0", cells="2",
                         kings_only=["0"])
    page = player.table_past_handover(slug)
    cells = page.find("ol", "sh-cells")
    assert cells is not None and len(cells.find_all("li")) == 2
    assert "House rules: Cells: 2; Only kings fill an empty column: no." in re.sub(r"\s+", " ", page.html)
    assert 'value="t1|c3"' not in page.html and "t1|c3" not in page.html


def test_hot_seat_the_player_who_just_played_takes_it_back_on_the_hand_over_screen(player):
    slug = set_up(player, None, take_backs="free")
    press(player, slug, "draw|source=discard")
    hand = player.table_past_handover(slug).hand
    press(player, slug, "discard", [hand[0]], name="action")
    page = player.table(slug)
    assert page.has_button("show my hand") and page.has_button("Take back your discard")
    assert f'data-card="{hand[1]}"' not in page.html  # the hand-over screen shows no cards
    data = {"version": str(page.version), "seat": "0", "action": "take_back", "cards": []}
    assert player.post(f"/games/{slug}/act", data, htmx=True).status_code == 200
    page = player.table_past_handover(slug)
    assert page.log[-1] == "Ann took back their discard." and hand[0] in page.hand
