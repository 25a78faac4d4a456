"""The one set-up form of every game: each seat played by a person on this device, a person on
their own device (a join code) or the computer at a strength (easy, normal, strong) with the
ladder's line beside it; Mason Rummy's new or returning players inside it (R3.1-R3.4). A computer
seat's strength is kept with the seat: its computer player plays it, its badge and the results
show it, a rematch keeps it, its results are counted apart. A rematch is offered live to every
device at the finished table."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.games import game_count, play_game, score_rows, seed_scores, text
from support.pages import Page
from support.web import new_game_slug

from app import store
from app.core import registry
from app.core.protocol import EASY, NORMAL, STRONG
from app.tables.play import computer_players, seat_bot

ROOT_DECKS = Path(__file__).resolve().parents[2] / "decks"


def form_page(player, key: str, **query) -> Page:
    response = player.get(f"/setup/{key}", query_string=query)
    assert response.status_code == 200
    return Page(text(response))


def seat_fields(number: int, played_by: str, name: str = "", strength: str | None = None, **more) -> dict:
    fields = {f"device{number}": played_by, f"name{number}": name}
    if strength:
        fields[f"strength{number}"] = strength
    fields.update({f"{key}{number}": value for key, value in more.items()})
    return fields


def post_setup(player, key: str, *seats: dict, **options):
    data = {"seats": str(len(seats))}
    for fields in seats:
        data.update(fields)
    data.update({key_: str(value) for key_, value in options.items()})
    return player.post(f"/setup/{key}", data)


def seats_of(app, slug: str) -> list[tuple[str, bool, str, str | None]]:
    with app.app_context():
        return [(seat.name, seat.is_ai, seat.device, seat.strength) for seat in store.find_game(slug).seats]


# -- 1. one form for every game, Mason Rummy's included --------------------------------------------


def test_every_game_is_set_up_by_the_one_form_each_seat_chosen_from_a_control(player):
    games = registry.games()
    assert games  # (every registered game, however many)
    for definition in games:
        page = form_page(player, definition.key, seats=definition.max_seats)
        assert len(page.find_all("fieldset", "seat-setup")) == definition.max_seats, definition.key
        for number in range(definition.max_seats):
            choices = [radio.get("value") for radio in page.find_all("input", name=f"device{number}")]
            assert choices == ["here", "own"] + (["computer"] if definition.strengths else []), definition.key
            strengths = [radio.get("value") for radio in page.find_all("input", name=f"strength{number}")]
            assert strengths == list(definition.strengths), definition.key


def test_mason_s_menu_a_leads_to_the_one_form_and_its_menus_keep_their_routes(player):
    """R9 Menu A option 3: the one form with three seats; Menu B's route still answers (R3.1)."""
    response = player.post("/menus/mason", {"choice": "3"})
    assert response.status_code == 303 and response.headers["Location"] == "/setup/mason?seats=3"
    page = Page(text(player.get(response.headers["Location"])))
    assert len(page.find_all("fieldset", "seat-setup")) == 3
    seat_menu = player.get("/setup/seat")
    assert seat_menu.status_code == 200 and "Who plays this seat?" in text(seat_menu)


def test_r3_mason_s_seats_in_one_form_new_returning_and_computer(app, player):
    """R3.2 a new name, R3.3 a returning player picked from the score table's names (its computer
    rows are no person's), R3.4 the computer."""
    seed_scores(app, [("Doris", 3, 1, 42), ("AI", 1, 3, 50), ("AI (strong)", 2, 0, 10)])
    page = form_page(player, "mason", seats=3)
    assert [radio.get("value") for radio in page.find_all("input", name="kind0")] == ["new", "returning"]
    listed = [option.text for option in page.find("select", name="returning0").find_all("option")]
    assert listed == ["Doris"]
    response = post_setup(player, "mason", seat_fields(0, "here", kind="returning", returning="Doris"),
                          seat_fields(1, "own", "Sam", kind="new"), seat_fields(2, "computer", strength=STRONG))
    slug = new_game_slug(response)
    assert seats_of(app, slug) == [("Doris", False, "here", None), ("Sam", False, "own", None), ("AI", True, "here", STRONG)]


@pytest.mark.parametrize("seat, message", [
    (seat_fields(0, "here", "doris", kind="new"), "Seat 1: The name doris is already taken: choose Returning player to use it, or another name."),
    (seat_fields(0, "here", kind="returning", returning="Nobody"), "Seat 1: choose one of the returning players listed."),
    (seat_fields(0, "here", kind="returning", returning="AI (strong)"), "Seat 1: choose one of the returning players listed."),
    (seat_fields(0, "here", "AI (easy)", kind="new"), "Seat 1: The name AI (easy) is a computer player's: choose a computer player for this seat instead."),
])
def test_r3_2_r3_3_mason_s_form_refuses_a_taken_new_name_and_an_unlisted_returning_one(app, player, seat, message):
    seed_scores(app, [("Doris", 3, 1, 42), ("AI (strong)", 2, 0, 10)])
    response = post_setup(player, "mason", seat, seat_fields(1, "computer"))
    assert response.status_code == 422
    assert Page(text(response)).alerts == [message]
    assert game_count(app) == 0


def test_r3_4_typing_ai_as_a_name_still_makes_a_computer_player_of_the_strength_chosen(app, player):
    slug = player.set_up("rummy", ["Ann", "ai"], target=100)  # (the form as the older tests post it)
    assert seats_of(app, slug) == [("Ann", False, "here", None), ("AI", True, "here", NORMAL)]
    response = post_setup(player, "rummy", seat_fields(0, "here", "Ann"), seat_fields(1, "here", "AI", strength=EASY),
                          target=100)
    assert seats_of(app, new_game_slug(response))[1] == ("AI", True, "here", EASY)


# -- 2. stacked decks in players' words, the test decks with the tests ---------------------------------


def test_the_form_names_decks_in_players_words_and_the_shipped_folder_holds_no_test_deck(player):
    page = form_page(player, "rummy")
    labels = [" ".join(label.text.split()) for label in page.find("fieldset", "deck-choice").find_all("label")]
    assert labels[0] == "Shuffled a fresh shuffle every time"
    assert all(".deck" not in label for label in labels)
    assert "Quick rummy a stacked deck: the same cards in the same order every time" in labels
    shipped = sorted(path.relative_to(ROOT_DECKS).as_posix() for path in ROOT_DECKS.rglob("*.deck"))
    assert shipped == [], shipped  # the tests' decks live in tests/decks/, never where players choose


# -- 3. a computer seat's strength ---------------------------------------------------------------------


def test_points_shows_each_strength_with_the_ladder_s_line(player):
    definition = registry.get("points")
    page = form_page(player, "points")
    notes = page.texts("span", "strength-note")
    assert notes[:len(definition.strengths)] == [definition.strength_note(s) for s in definition.strengths]
    assert notes[2] == "beats normal in 3 of 5 games"


def test_each_computer_seat_plays_its_own_strength_and_its_badge_says_which(app, player):
    response = post_setup(player, "rummy", seat_fields(0, "here", "Ann"), seat_fields(1, "computer", strength=EASY),
                          seat_fields(2, "computer", strength=STRONG), target=100)
    slug = new_game_slug(response)
    assert [seat[3] for seat in seats_of(app, slug)] == [None, EASY, STRONG]
    definition = registry.get("rummy")
    with app.app_context():
        record = store.find_game(slug)
        bots = computer_players(record)
        assert bots(0) is None and bots(1) is definition.bot_of(EASY) and bots(2) is definition.bot_of(STRONG)
        assert definition.bot_of(EASY) is not definition.bot_of(STRONG)
    page = player.table_past_handover(slug)
    badges = page.texts("span", "computer")
    assert "Computer (easy)" in badges and "Computer (strong)" in badges


def test_an_idle_person_s_stand_in_plays_normal(app, player):
    response = post_setup(player, "rummy", seat_fields(0, "here", "Ann"), seat_fields(1, "computer", strength=STRONG),
                          target=100)
    slug = new_game_slug(response)
    definition = registry.get("rummy")
    with app.app_context():
        record = store.find_game(slug)
        record.seats[0].ai_standin = True
        assert seat_bot(record, 0) is definition.bot_of(NORMAL) and seat_bot(record, 1) is definition.bot_of(STRONG)


def test_statistics_keep_each_strength_apart_and_the_rematch_keeps_the_strengths(app, player):
    """21 (T6): a table of two computers, one round: it is played at set-up and ends."""
    response = post_setup(player, "twentyone", seat_fields(0, "computer", strength=EASY),
                          seat_fields(1, "computer", strength=STRONG), rounds=1)
    slug = new_game_slug(response)
    page = player.table(slug)
    assert "Game over" in page.html
    results = page.find("section", "results").text
    assert "Computer (easy)" in results and "Computer (strong)" in results
    stats = player.statistics("twentyone")
    assert set(stats) == {"AI (easy)", "AI (strong)"}
    rematch = player.post(f"/games/{slug}/rematch")
    new_slug = rematch.headers["Location"].rsplit("/", 1)[1]
    assert [seat[3] for seat in seats_of(app, new_slug)] == [EASY, STRONG]
    assert set(player.statistics("twentyone")) == {"AI (easy)", "AI (strong)"}  # two games each, on their own rows


def test_r7_4_mason_s_score_table_keeps_each_computer_strength_on_its_own_row(app, player):
    """R3.4/R7.4: the normal computer's seats are the one row AI; an easy or a strong computer's
    results are rows of their own, never counted as the normal one's."""
    response = post_setup(player, "mason", seat_fields(0, "here", "Doris"), seat_fields(1, "computer", strength=STRONG),
                          seat_fields(2, "computer", strength=EASY), deck="three_players.deck")
    slug = new_game_slug(response)
    play_game(player, slug)
    assert sorted(name for name, *_figures in score_rows(app)) == ["AI (easy)", "AI (strong)", "Doris"]
    response = post_setup(player, "mason", seat_fields(0, "here", kind="returning", returning="Doris"),
                          seat_fields(1, "computer", strength=NORMAL), deck="quick_out.deck")
    play_game(player, new_game_slug(response))
    rows = {name: (won + lost) for name, won, lost, _best in score_rows(app)}
    assert rows == {"AI": 1, "AI (easy)": 1, "AI (strong)": 1, "Doris": 2}


# -- 4. the rematch, offered live --------------------------------------------------------------------


def test_a_rematch_is_announced_to_the_finished_table_and_offered_to_players_and_spectators(app, make_player):
    host, fan = make_player(), make_player()
    slug = new_game_slug(post_setup(host, "twentyone", seat_fields(0, "here", "Ann"),
                                    seat_fields(1, "computer", strength=STRONG), rounds=1))
    while "Game over" not in host.table(slug).html:
        page = host.table_past_handover(slug)
        action = "stay" if "stay" in page.button_values() else page.button_values()[0]
        assert host.act(slug, action).status_code in (200, 303)
    before = host.table(slug)
    version = int(before.table.get("data-version"))
    heard: list[tuple[str, int]] = []

    def listen(sender, version):
        heard.append((sender, version))

    store.game_changed.connect(listen)
    try:
        new_slug = host.post(f"/games/{slug}/rematch").headers["Location"].rsplit("/", 1)[1]
    finally:
        store.game_changed.disconnect(listen)
    assert (slug, version + 1) in heard  # the finished table's streams hear of it after the commit
    # What their stream's "changed" fetches: the table since the version they showed.
    fragment = Page(text(fan.get(f"/games/{slug}/table", htmx=True,
                                 query_string={"since": version, "watch": 1, "changed": 1})))
    offer = fragment.find("section", "rematch-offer")
    assert offer is not None and "A rematch has started" in offer.text
    assert [a.get("href") for a in offer.find_all("a")] == [f"/games/{new_slug}/watch"]
    mine = Page(text(host.get(f"/games/{slug}/table", htmx=True, query_string={"since": version, "changed": 1})))
    offer = mine.find("section", "rematch-offer")
    assert "Join the rematch" in offer.text
    joined = host.post(f"/games/{slug}/follow")
    assert joined.status_code == 303 and joined.headers["Location"] == f"/games/{new_slug}"
