"""The game's log for the whole game (every round), the discard pile's top card with who discarded
it, and every hand left shown with its points once a round is over (R7.1). A saved game keeps the
log's last lines and what the rules need of the older ones."""

from rules_test_helpers import NAMES3, finish_round_by_ai, go_out_quickly, quick_game

from app.games.mason.bot import play_computer_turn

from app.core.protocol import LOG_KEPT
from app.games.mason import DISCARD_PILE, GAME_OVER, ROUND_OVER, STOCK, Discard, Draw, Game, NextRound


def test_the_log_keeps_every_round_and_each_event_says_its_round():
    game = quick_game(NAMES3)
    go_out_quickly(game)
    first_round = list(game.log)
    game.apply(None, NextRound())
    assert game.log[:len(first_round)] == first_round  # round 1 is still there
    assert game.round_log()[0]["text"] == "Round 2 dealt; Bob starts."
    assert {event["round"] for event in game.log} == {1, 2}
    view = game.view(0)
    assert [e["text"] for e in view["log"]] == [e["text"] for e in game.log]
    earlier = [e for e in view["log"] if e["round"] == 1]
    assert earlier and all(e["cards"] == [] for e in earlier)  # those cards are in play again
    assert view["log"][-1]["cards"] == game.log[-1]["cards"]


def test_a_game_saved_before_the_log_kept_every_round_still_loads():
    """The stored format without event rounds: this round's events, read as this round's."""
    game = quick_game(NAMES3)
    data = game.to_dict()
    for event in data["log"]:
        del event["round"]
    loaded = Game.from_dict(data)
    assert [e["round"] for e in loaded.log] == [1] * len(loaded.log)
    assert loaded.view(None)["log"] == game.view(None)["log"]


def test_the_discard_pile_says_who_discarded_its_top_card():
    game = quick_game(NAMES3)
    assert game.view(None)["discard_top_by"] is None  # turned up at the deal
    game.apply(0, Draw(STOCK))
    card = game.players[0].hand.cards[0]
    game.apply(0, Discard(card))
    view = game.view(2)
    assert view["discard_top"] == card.code and view["discard_top_by"] == "Ann"
    game.apply(1, Draw(DISCARD_PILE))  # Bob takes it: the top is the turned-up card again
    assert game.view(None)["discard_top_by"] is None


def saved_and_read(game: Game) -> Game:
    return Game.from_dict(game.to_dict())


def test_the_discard_pile_says_who_discarded_a_card_deep_in_it_once_saved():
    """The line that named the top card last may be older than the lines a saved game keeps:
    the saved game knows who it was all the same."""
    game = quick_game(NAMES3)
    game.apply(0, Draw(STOCK))
    deep = game.players[0].hand.cards[0]
    game.apply(0, Discard(deep))  # Ann's card, soon under another
    game.apply(1, Draw(STOCK))
    game.apply(1, Discard(game.players[1].hand.cards[0]))
    for seat in [2, 0, 1] * 5:  # each takes the top card and discards it again: two lines a turn
        game = saved_and_read(game)
        game.apply(seat, Draw(DISCARD_PILE))
        game.apply(seat, Discard(game.drawn))
    game = saved_and_read(game)
    game.apply(2, Draw(DISCARD_PILE))  # Ann's card is on top again
    assert saved_and_read(game).log_before > 3  # the line of its discard is not held
    for shown in (game, saved_and_read(game)):
        view = shown.view(None)
        assert view["discard_top"] == deep.code and view["discard_top_by"] == "Ann"


def test_a_saved_game_keeps_the_logs_last_lines_and_hides_and_shows_as_the_game_that_played():
    game = Game.new(NAMES3, seed="saved")
    finish_round_by_ai(game)
    game.apply(None, NextRound())
    for _turn in range(6):
        for _outcome in play_computer_turn(game, game.turn):
            pass
    assert game.log_total > LOG_KEPT + 10 and game.round_number == 2 and game.to_move() is not None
    loaded = saved_and_read(game)
    assert loaded.log == game.log[-LOG_KEPT:] and loaded.log_total == game.log_total
    assert loaded.log_before == game.log_total - LOG_KEPT
    for seat in (0, 1, 2, None):
        assert loaded.view(seat) == game.view(seat)
        assert loaded.hidden_from(seat) == game.hidden_from(seat)
    assert saved_and_read(loaded).to_dict() == loaded.to_dict()


def test_r4_4_a_game_played_on_in_memory_hides_what_the_same_game_read_again_hides():
    """What each seat may see (R4.4) follows the log's lines as they are added: asked at every
    step of a whole game, the game in memory (which keeps what its log named, and reads only the
    lines added since) and the same game saved and read again hide the same cards."""
    game = Game.new(NAMES3, seed="hidden-as-read")
    steps = 0
    while game.phase != GAME_OVER:
        for seat in (0, 1, 2, None):
            assert game.hidden_from(seat) == saved_and_read(game).hidden_from(seat), (steps, seat)
        if game.phase == ROUND_OVER:
            game.apply(None, NextRound())
        else:
            for _outcome in play_computer_turn(game, game.turn):
                pass
        steps += 1
    assert steps > 30 and game.round_number == 3
    assert all(not game.hidden_from(seat) for seat in (0, 1, 2, None))  # over: nothing hidden


def round_record_from_the_whole_log(game: Game, seat_count: int) -> tuple[list[str], list[int], list[set[str]]]:
    """What every player saw happen this round, read from the game's whole log as a person
    watching would keep it: the discard pile, each seat's turns begun, the cards each was seen
    taking and still holds."""
    pile: list[str] = []
    turns = [0] * seat_count
    taken: list[set[str]] = [set() for _ in range(seat_count)]
    for event in game.round_log():
        seat, text, cards = event["seat"], event["text"], event["cards"]
        if text.startswith("The stock pile ran out"):  # (a line of the drawing seat's turn)
            pile = pile[-1:]  # R5.2: the top stays, the rest turned over into the stock
        elif seat is None:
            if " dealt; " in text:
                pile = list(cards)
        elif " drew from the stock" in text:
            turns[seat] += 1
        elif " took " in text:
            turns[seat] += 1
            pile.pop()
            taken[seat].add(cards[0])
        elif " discarded " in text:
            pile.append(cards[0])
            taken[seat].discard(cards[0])
        elif " laid " in text:
            taken[seat].difference_update(cards)
    return pile, turns, taken


def test_r4_4_a_views_round_record_is_what_every_player_saw_and_survives_a_save():
    """A view carries the round's public record (the strong player reads it): the whole discard
    pile, each seat's turns begun and the cards it was seen taking from the discard pile. At every
    step of a whole game it is what the round's whole log says, and the same once the game is
    saved and read again (the saved game keeps only the log's last lines). The game's stock runs
    out once (R5.2)."""
    game = Game.new(NAMES3, seed="round-record/2")
    steps = 0
    while game.phase != GAME_OVER:
        if game.phase == ROUND_OVER:
            game.apply(None, NextRound())
            continue
        pile, turns, taken = round_record_from_the_whole_log(game, 3)
        read_again = saved_and_read(game)
        for seat in (0, 1, 2, None):
            view = game.view(seat)
            assert view["discard_pile"] == pile == [card.code for card in game.discard]
            assert [player["turns"] for player in view["players"]] == turns
            assert [set(player["seen_taken"]) for player in view["players"]] == taken
            again = read_again.view(seat)
            assert (again["discard_pile"], again["players"]) == (view["discard_pile"], view["players"])
        for _outcome in play_computer_turn(game, game.turn):
            pass
        steps += 1
    assert steps > 30 and len(game.log) > 2 * LOG_KEPT
    assert any(event["text"].startswith("The stock pile ran out") for event in game.log)


def test_r7_1_a_round_over_shows_every_hand_left_with_its_points():
    game = quick_game(NAMES3)
    starter = game.turn
    go_out_quickly(game)
    summary = game.view(None)["summary"]
    hands = {hand["seat"]: hand for hand in summary["hands"]}
    assert hands[starter]["cards"] == [] and hands[starter]["points"] == 0
    for seat, player in enumerate(game.players):
        assert hands[seat]["cards"] == [c.code for c in player.hand.cards]
        assert hands[seat]["points"] == game.round_scores[-1][seat] == player.hand.hand_point_value()
    assert game.hidden_from(None) == set(game.stock)  # the hands are shown to everyone now


def test_the_last_round_summary_is_there_at_game_over():
    game = quick_game(NAMES3)
    for _ in range(3):
        go_out_quickly(game)
        if game.phase != GAME_OVER:
            game.apply(None, NextRound())
    assert game.view(None)["summary"]["hands"] and len({e["round"] for e in game.log}) == 3
