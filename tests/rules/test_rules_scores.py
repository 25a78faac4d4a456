"""R7.4 / R7.5: the score table and scores.csv; R3.2 names; formula escaping; the ScoreTable class."""

import pytest
from rules_test_helpers import NAMES3, go_out_quickly, quick_game

from app.games.mason import NextRound, ScoreRow, ScoresFileError, ScoreTable
from app.games.mason.scores import check_player_name

HEADER = '"name","games won","games lost","best score"\n'


def table_of(*rows):
    return ScoreTable(ScoreRow(*row) for row in rows)


# -- R3.2 names -----------------------------------------------------------------------------------

@pytest.mark.parametrize("raw, name", [("Doris", "Doris"), ("  Doris \t", "Doris"), ("x" * 24, "x" * 24),
                                       ("Anne Marie", "Anne Marie"), ("Zoë", "Zoë")])
def test_r3_2_names_are_trimmed_and_1_to_24_printable_characters(raw, name):
    assert check_player_name(raw) == name


@pytest.mark.parametrize("raw, message", [
    ("", "^A name cannot be empty.$"), ("   ", "^A name cannot be empty.$"),
    ("x" * 25, "^A name can have at most 24 characters.$"),
    ("Bad\x07Name", "^A name can only hold printable characters.$"),
    ("tab\there", "^A name can only hold printable characters.$"),
])
def test_r3_2_bad_names_are_refused_with_a_message(raw, message):
    with pytest.raises(ValueError, match=message):
        check_player_name(raw)


def test_r3_2_names_in_the_table_are_found_case_insensitively():
    table = table_of(("Doris", 1, 0, 40))
    assert "doris" in table and "DORIS" in table and "Dor" not in table
    assert table.get("dORIS").name == "Doris"


# -- R7.4 the table -------------------------------------------------------------------------------

def test_r7_4_record_game_counts_wins_losses_and_best_is_the_lowest_winning_score():
    table = ScoreTable()
    table.record_game([("Doris", 60, True), ("Ahmed", 80, False)])
    assert table.get("Doris") == ScoreRow("Doris", 1, 0, 60)
    assert table.get("Ahmed") == ScoreRow("Ahmed", 0, 1, None)  # best stays empty until a win
    table.record_game([("doris", 75, True), ("Ahmed", 90, True)])  # a worse win does not replace the best
    assert table.get("Doris") == ScoreRow("Doris", 2, 0, 60)
    assert table.get("Ahmed") == ScoreRow("Ahmed", 1, 1, 90)
    table.record_game([("Doris", 10, False), ("Ahmed", 30, True)])  # a low losing score is not a best
    assert table.get("Doris") == ScoreRow("Doris", 2, 1, 60)
    assert table.get("Ahmed") == ScoreRow("Ahmed", 2, 1, 30)
    assert len(table) == 2


def test_r7_4_several_ai_seats_are_the_one_ai_row():
    table = ScoreTable()
    table.record_game([("AI", 50, True), ("ai", 70, False), ("Bharat", 50, True)])
    assert table.names() == ["AI", "Bharat"]
    assert table.get("AI") == ScoreRow("AI", 1, 1, 50)


def test_r3_4_ai_seats_in_any_case_are_the_one_row_spelt_ai():
    """R3.4 / R7.4: seats named ``ai`` or ``Ai`` count on the one row ``AI``, also when the table
    has no ``AI`` row yet (the row is not named after the first spelling met)."""
    table = ScoreTable()
    table.record_game([("ai", 70, False), ("Ai", 50, True), ("Bharat", 60, False)])
    assert table.names() == ["AI", "Bharat"]
    assert table.get("AI") == ScoreRow("AI", 1, 1, 50)
    assert '"AI","1","1","50"' in table.to_csv()


def test_r7_4_r7_3_a_played_game_recorded_tied_winners_both_win():
    game = quick_game(NAMES3)
    for round_number in (1, 2, 3):
        go_out_quickly(game)
        if round_number < 3:
            game.apply(None, NextRound())
    winners = game.winners()
    table = ScoreTable()
    table.record_game((p.name, p.score, seat in winners) for seat, p in enumerate(game.players))
    assert table.get("Ann") == ScoreRow("Ann", 1, 0, 128)
    assert table.get("Bob") == ScoreRow("Bob", 1, 0, 128)
    assert table.get("Cy") == ScoreRow("Cy", 0, 1, None)


# -- R7.5 scores.csv ------------------------------------------------------------------------------

def test_r7_5_exact_csv_text():
    table = table_of(("Doris", 3, 1, 42), ("Ahmed", 0, 2, None))
    assert table.to_csv() == HEADER + '"Ahmed","0","2",""\n' + '"Doris","3","1","42"\n'


def test_r7_5_empty_table_is_just_the_header():
    assert ScoreTable().to_csv() == HEADER


def test_r7_5_quotes_and_commas_in_names_survive():
    table = table_of(('Jo "JJ", Jr', 1, 0, 7))
    text = table.to_csv()
    assert text == HEADER + '"Jo ""JJ"", Jr","1","0","7"\n'
    assert ScoreTable.from_csv(text) == table


def test_r7_5_reading_the_format_row_order_does_not_matter():
    text = HEADER + '"Doris","3","1","42"\n"Ahmed","0","2",""\n'
    table = ScoreTable.from_csv(text)
    assert table == table_of(("Ahmed", 0, 2, None), ("Doris", 3, 1, 42))


def test_r7_5_missing_file_is_an_empty_table():
    """The terminal reads a missing scores.csv as no text at all (None)."""
    table = table_of(("Doris", 3, 1, 42))
    table.read_scores(None)
    assert len(table) == 0 and str(table) == "No scores yet."


def test_r7_5_save_and_read_round_trip():
    table = table_of(("Doris", 3, 1, 42), ("Ahmed", 0, 2, None), ("AI", 5, 9, 12))
    text = table.save_scores()
    assert text == table.to_csv() and text.startswith(HEADER)
    again = ScoreTable()
    again.read_scores(text)
    assert again == table


def test_scores_csv_is_written_atomically_with_no_temporary_file_left(tmp_path):
    from app.core.terminal import write_atomically

    path = tmp_path / "scores.csv"
    table = table_of(("Doris", 3, 1, 42), ("AI", 5, 9, 12))
    write_atomically(path, table.save_scores(), prefix=".scores-")
    assert path.read_text(encoding="utf-8") == table.to_csv()
    assert [p.name for p in tmp_path.iterdir()] == ["scores.csv"]


@pytest.mark.parametrize("text", [
    "",
    '"name","won","lost","best"\n',
    HEADER + '"Doris","3","1"\n',
    HEADER + '"Doris","three","1","42"\n',
    HEADER + '"Doris","3","1","42"\n"doris","1","1","5"\n',
    HEADER + '"Doris","0","1","42"\n',
    HEADER + '"Doris","2","1",""\n',
    HEADER + '"","1","0","5"\n',
])
def test_r7_5_unreadable_files_are_refused_whole(text):
    with pytest.raises(ScoresFileError):
        ScoreTable.from_csv(text)


def test_r7_5_a_bad_row_names_its_line():
    table = table_of(("Doris", 3, 1, 42))
    with pytest.raises(ScoresFileError) as error:
        table.read_scores(HEADER + '"Doris","3","1","42"\n"Ahmed","x","2",""\n')
    assert table == table_of(("Doris", 3, 1, 42))  # refused whole: the table is as it was
    assert error.value.line == 3


def test_r7_5_the_ai_row_reads_back_as_ai():
    assert ScoreTable.from_csv(HEADER + '"ai","1","0","30"\n').names() == ["AI"]


# -- formula escaping (the project's own export protection) -------------------------------------------

@pytest.mark.parametrize("name", ["=SUM(A1)", "+1", "-2", "@cmd", "'quoted", "''twice"])
def test_scores_csv_formula_names_get_a_leading_quote_on_export_and_lose_it_on_import(name):
    table = table_of((name, 1, 0, 9))
    text = table.to_csv()
    assert text == HEADER + f'"\'{name}","1","0","9"\n'
    back = ScoreTable.from_csv(text)
    assert back.names() == [name]
    assert back.to_csv() == text  # export -> import -> export is unchanged


def test_scores_csv_plain_names_are_not_escaped():
    assert table_of(("A=B", 0, 1, None)).to_csv() == HEADER + '"A=B","0","1",""\n'


# -- the ScoreTable class -------------------------------------------------------------------------

def test_score_table_str_lists_every_row_sorted():
    table = table_of(("doris", 3, 1, 42), ("Ahmed", 0, 2, None), ("Bharat", 10, 0, 7))
    lines = str(table).splitlines()
    assert lines[0].split() == ["Name", "Won", "Lost", "Best"]
    assert [line.split() for line in lines[1:]] == [
        ["Ahmed", "0", "2"], ["Bharat", "10", "0", "7"], ["doris", "3", "1", "42"]]


def test_score_table_clear_scores():
    table = table_of(("Doris", 3, 1, 42))
    table.clear_scores()
    assert len(table) == 0 and "Doris" not in table and table.to_csv() == HEADER


def test_r3_3_names_are_sorted_case_insensitively():
    table = table_of(("doris", 1, 0, 5), ("Ahmed", 0, 1, None), ("bharat", 0, 1, None))
    assert table.names() == ["Ahmed", "bharat", "doris"]
