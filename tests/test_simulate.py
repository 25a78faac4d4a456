"""``python -m app.simulate``: AI-only games through the rules module, and their statistics."""

from __future__ import annotations

import io
import os
import random
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

import pytest

from app.games.mason import FULL_DECK, GAME_OVER, ROUNDS
from app.games.mason.decks import format_deck
from app.core.protocol import EASY, STRONG
from app.simulate import Stats, ladder, main, mean_interval, play_ai_game, play_bot_game, play_pairing, wilson

ROOT = Path(__file__).resolve().parents[1]


def run_simulate(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    environment = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "app.simulate", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=120, env=environment)


def without_speed(output: str) -> str:
    """The output minus the one line that depends on the machine."""
    return "\n".join(line for line in output.splitlines() if not line.startswith("games per second"))


def stacked_deck_file(folder: Path, seed: int = 3) -> Path:
    deck = list(FULL_DECK)
    random.Random(seed).shuffle(deck)
    path = folder / "stacked.deck"
    path.write_text(format_deck(deck), encoding="utf-8")
    return path


@pytest.mark.parametrize("players", [2, 3])
def test_an_ai_game_is_played_to_the_end_by_the_rules(players):
    game = play_ai_game(players, seed="t/1")
    assert game.phase == GAME_OVER and game.round_number == ROUNDS  # R4.1: exactly 3 rounds
    assert len(game.round_scores) == ROUNDS and all(len(points) == players for points in game.round_scores)
    totals = [sum(points[seat] for points in game.round_scores) for seat in range(players)]
    assert [player.score for player in game.players] == totals
    assert game.card_locations() == Counter(FULL_DECK)
    assert game.winners()  # R7.3: somebody always wins


def test_the_same_seed_gives_the_same_game_and_another_seed_another():
    first = play_ai_game(3, seed=11).to_dict()
    assert play_ai_game(3, seed=11).to_dict() == first
    assert play_ai_game(3, seed=12).to_dict() != first


def test_random_discard_seats_are_reproducible_with_a_seeded_generator():
    def game():
        return play_ai_game(2, seed=5, random_seats=[1], rng=random.Random("r")).to_dict()

    assert game() == game()
    assert game() != play_ai_game(2, seed=5).to_dict()


def test_stats_count_every_seat_tied_for_the_lowest_score_as_a_winner():
    from app.core.protocol import SeatResult

    stats = Stats(3)
    results = [SeatResult(0, "AI", True, 10), SeatResult(1, "AI", False, 30), SeatResult(2, "AI", True, 10)]
    tied = SimpleNamespace(results=lambda: results,
                           round_turns=[20, 30, 40], round_scores=[[0, 10, 5], [5, 10, 5], [5, 10, 0]])
    stats.add(tied)
    assert stats.wins == [1, 0, 1]
    assert stats.scores == [10, 30, 10]
    assert stats.totals["turns"] == 90 and stats.totals["rounds"] == 3
    assert stats.totals["blocked"] == 1  # the round where nobody scored 0 (R7.2)


def test_main_in_process_prints_every_figure(capsys):
    assert main(["--games", "4", "--players", "3", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("4 AI-only games, 3 players, shuffled decks, seed 2\n")
    rows = re.findall(r"^\s+(\d)\s+(\d+)\s+([\d.]+)\s+([\d.]+)$", out, re.MULTILINE)
    assert [int(row[0]) for row in rows] == [1, 2, 3]
    assert sum(int(row[1]) for row in rows) >= 4  # every game has a winner, ties give more
    assert re.search(r"^average turns per round: \d+\.\d$", out, re.MULTILINE)
    assert re.search(r"^blocked rounds: \d+ of 12$", out, re.MULTILINE)
    assert re.search(r"^games per second: \d+\.\d$", out, re.MULTILINE)


def test_the_command_is_reproducible_for_a_seed():
    first = run_simulate("--games", "5", "--players", "2", "--seed", "9")
    second = run_simulate("--games", "5", "--players", "2", "--seed", "9")
    assert first.returncode == 0 and first.stderr == ""
    assert "5 AI-only games, 2 players, shuffled decks, seed 9" in first.stdout
    assert "games per second:" in first.stdout
    assert without_speed(first.stdout) == without_speed(second.stdout)
    other = run_simulate("--games", "5", "--players", "2", "--seed", "10")
    assert without_speed(other.stdout) != without_speed(first.stdout)


def test_random_discard_seats_are_marked_and_summed(capsys):
    assert main(["--games", "6", "--players", "3", "--random-discard", "2,3"]) == 0
    out = capsys.readouterr().out
    assert len(re.findall(r"\(random discards\)$", out, re.MULTILINE)) == 2
    assert re.search(r"^\s+1\s.*\d$", out, re.MULTILINE)  # seat 1 is not marked
    assert re.search(r"^strategy discards, per seat: [\d.]+% wins, [\d.]+ average score$", out, re.MULTILINE)
    assert re.search(r"^random discards, per seat: [\d.]+% wins, [\d.]+ average score$", out, re.MULTILINE)


def test_a_stacked_deck_plays_the_same_game_every_time(tmp_path):
    path = stacked_deck_file(tmp_path)
    result = run_simulate("--games", "3", "--players", "2", "--deck", str(path))
    assert result.returncode == 0, result.stderr
    assert f"3 AI-only games, 2 players, stacked deck {path}" in result.stdout
    # Without random seats every game is the same one: one seat (or a tie) wins all three.
    wins = [int(w) for w in re.findall(r"^\s+\d\s+(\d+)\s", result.stdout, re.MULTILINE)]
    assert sorted(set(wins)) in ([0, 3], [3])
    assert result.stdout.count("\n") >= 6


@pytest.mark.parametrize("args, message", [
    (["--players", "2"], "the following arguments are required: --games"),
    (["--games", "3"], "the following arguments are required: --players"),
    (["--games", "0", "--players", "2"], "0 is not a positive number of games"),
    (["--games", "many", "--players", "2"], "'many' is not a whole number"),
    (["--games", "2", "--players", "4"], "invalid choice: 4"),
    (["--games", "2", "--players", "2", "--seed", "x"], "invalid int value: 'x'"),
    (["--games", "2", "--players", "2", "--random-discard", "3"], "seats are numbered 1 to 2"),
    (["--games", "2", "--players", "3", "--random-discard", "two"], "not a list of seat numbers"),
])
def test_bad_arguments_give_a_message_and_status_2(args, message, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(args)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "usage:" in err


def test_bad_arguments_on_the_command_line_are_not_a_traceback():
    result = run_simulate("--games", "-1", "--players", "2")
    assert result.returncode == 2
    assert "is not a positive number of games" in result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""


def test_a_missing_deck_file_is_a_clear_message_and_status_2(tmp_path):
    result = run_simulate("--games", "1", "--players", "2", "--deck", str(tmp_path / "nope.deck"))
    assert result.returncode == 2
    assert "argument --deck: there is no deck file named 'nope.deck'" in result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""


@pytest.mark.parametrize("text, message", [
    ("2C 3C 4C\n", "the deck holds 3 card codes; it needs exactly 65"),
    ("2C 1C " + " ".join(card.code for card in FULL_DECK[2:]), "code 2 of the deck, '1C', is not a card"),
])
def test_an_invalid_deck_file_is_a_clear_message_and_status_2(tmp_path, text, message, capsys):
    path = tmp_path / "bad.deck"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SystemExit) as exit_:
        main(["--games", "1", "--players", "2", "--deck", str(path)])
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err


# -- strengths and the ladder ----------------------------------------------------------------------


class Timid:
    """A High card player that always passes (a weak player for the ladder's machinery)."""

    def choose(self, state, seat):
        from sample_game.actions import Pass

        return Pass()


def high_card(returns: bool = False):
    """The sample game with a player of each strength (easy: ``Timid``, strong: the normal one
    again), and, if ``returns``, a round's return a game as a game against the house says it."""
    from support.sample import SAMPLE

    sample = type(SAMPLE)  # (its name is the sample's own: tests/web/test_sixth_game.py)

    class Ladder(sample):  # type: ignore[misc, valid-type]
        other_bots = {EASY: Timid(), STRONG: sample.bot}

        def round_returns(self, state, seat):
            if not returns:
                return None
            return [1 if result.won else -1 for result in state.results() if result.seat == seat]

    return Ladder()


def test_the_wilson_interval_of_known_shares():
    low, high = wilson(0.6, 1000)
    assert (round(low, 4), round(high, 4)) == (0.5693, 0.6299)
    low, high = wilson(1.0, 10)
    assert round(low, 4) == 0.7225 and high == pytest.approx(1.0)
    assert wilson(0.0, 0) == (0.0, 1.0)


def test_strengths_seat_each_named_player_in_seat_order(capsys):
    assert main(["--game", "rummy", "--games", "2", "--players", "3", "--seed", "4",
                 "--strengths", "easy,random,strong"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^\s+1\s.*\(easy\)$", out, re.MULTILINE)
    assert re.search(r"^\s+2\s.*\(random discards\)$", out, re.MULTILINE)
    assert re.search(r"^\s+3\s.*\(strong\)$", out, re.MULTILINE)
    for name in ("easy", "random discards", "strong"):
        assert re.search(rf"^{name}, per seat: [\d.]+% wins, [\d.]+ average score$", out, re.MULTILINE)


def test_a_seat_named_normal_plays_the_rule_books_player():
    """--strengths normal,normal is the plain simulation: the same games."""
    from app.core import registry

    rummy = registry.get("rummy")
    plain = play_bot_game(rummy, 2, seed="n/1").to_dict()
    assert play_bot_game(rummy, 2, seed="n/1", strengths=["normal", "normal"]).to_dict() == plain
    assert play_bot_game(rummy, 2, seed="n/1", strengths=["strong", "normal"]).to_dict() != plain


@pytest.mark.parametrize("args, message", [
    (["--games", "2", "--players", "2", "--strengths", "easy"], "name one player for each of the 2 seats"),
    (["--games", "2", "--players", "2", "--strengths", "easy,wizard"], "has no 'wizard' player"),
    (["--games", "2", "--players", "2", "--strengths", "easy,strong", "--random-seats", "2"],
     "not with --random-seats"),
    (["--games", "3", "--ladder"], "give an even number"),
    (["--games", "2", "--ladder", "--players", "3"], "plays 2 seats"),
    (["--games", "2", "--ladder", "--strengths", "easy,strong"], "it seats its own players"),
    (["--games", "2"], "the following arguments are required: --players"),
])
def test_bad_strength_and_ladder_arguments_give_a_message_and_status_2(args, message, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(args)
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err


def test_a_pairing_plays_each_deal_twice_the_seats_swapped_and_counts_a_tie_half(monkeypatch):
    import app.simulate as simulate_module

    played = []
    outcomes = iter([(True, False), (True, False), (True, True), (False, True)])

    def fake_game(definition, players, *, seed=None, rng=None, options=None, strengths=()):
        played.append((seed, list(strengths)))
        first, second = next(outcomes)
        from app.core.protocol import SeatResult

        return SimpleNamespace(results=lambda: [SeatResult(0, "AI", first, 0), SeatResult(1, "AI", second, 0)])

    monkeypatch.setattr(simulate_module, "play_bot_game", fake_game)
    pairing = play_pairing(SimpleNamespace(), "strong", "normal", 4, seed=9)
    assert played == [("9/0", ["strong", "normal"]), ("9/0", ["normal", "strong"]),
                      ("9/1", ["strong", "normal"]), ("9/1", ["normal", "strong"])]
    # deal 0: strong won in seat 1, lost in seat 2; deal 1: a tie, then strong (seat 2) won
    assert (pairing.won, pairing.lost, pairing.tied) == (2, 1, 1)
    assert pairing.share == 2.5 / 4


def test_the_ladder_measures_each_neighbouring_pair_weakest_first():
    out = io.StringIO()
    measured = ladder(high_card(), 6, seed=3, out=out)
    assert [(m.stronger, m.weaker) for m in measured] == [("easy", "random"), ("normal", "easy"),
                                                          ("strong", "normal")]
    lines = out.getvalue().splitlines()
    assert [line.split(":")[0] for line in lines] == ["easy against random play", "normal against easy",
                                                      "strong against normal"]
    for line, pairing in zip(lines, measured):
        low, high = wilson(pairing.share, 6)
        assert line.endswith(f"wins {100 * pairing.share:.1f}% [{100 * low:.1f}%, {100 * high:.1f}%] of 6 games "
                             f"({pairing.won} won, {pairing.lost} lost, {pairing.tied} tied)")
    # The same player on both sides: each deal's two games are one game seen from either seat, so
    # what the seat gives one side it gives the other.
    assert measured[2].won == measured[2].lost and measured[2].share == 0.5


def test_a_game_against_the_house_is_measured_one_strength_at_a_time():
    out = io.StringIO()
    measured = ladder(high_card(returns=True), 5, seed=1, out=out)
    assert [m.strength for m in measured] == ["random", "easy", "normal", "strong"]
    for line, alone in zip(out.getvalue().splitlines(), measured):
        assert len(alone.returns) == 5
        mean, low, high = mean_interval(alone.returns)
        assert line.endswith(f": {mean:+.3f} a round [{low:+.3f}, {high:+.3f}] over 5 rounds of 5 games")


def test_the_mean_interval_of_returns():
    mean, low, high = mean_interval([1, -1, 1, 1])
    assert mean == 0.5 and low == pytest.approx(0.5 - 1.959964 * 1 / 2) and high == pytest.approx(0.5 + 0.979982)


def test_the_ladder_command_prints_its_lines(capsys):
    assert main(["--game", "mason", "--games", "2", "--ladder", "--seed", "5"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == ("Mason Rummy: the ladder, 2 games for each pair of players at two seats (1 deals, each "
                      "played twice, the seats swapped), shuffled decks, seed 5")
    assert out[1].startswith("each line: the stronger player's share of the games, a tie counting half")
    assert [line.split(":")[0] for line in out[2:5]] == ["easy against random discards", "normal against easy",
                                                         "strong against normal"]
    assert re.match(r"^seconds: \d+$", out[5])
