"""Promise 9: scores.csv (R7.5) and spreadsheet formulas.

The export neutralises names that a spreadsheet would run as a formula (cells starting with
``=``, ``+``, ``-``, ``@``, tab or carriage return get a leading ``'``) while ordinary names are
written exactly as R7.5 says; an import rejects a bad file whole, saying why and on which line;
export -> import -> export gives the same file (Hypothesis over score tables, in the rules module
and through the admin import and the /scores.csv download).
"""

from __future__ import annotations

import csv
import io
import re

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from support.figures import record_figures
from support.games import admin_player
from support.web import Page, database_dump

from app import store
from app.records import scores_file
from app.records import score_table
from app.games.mason import ScoreRow, ScoresFileError, ScoreTable
from app.games.mason.players import is_computer_name
from app.games.mason.scores import check_player_name

HEADER = '"name","games won","games lost","best score"\n'
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def import_csv(admin, text: str):
    """Upload a scores.csv, then apply its preview; returns (preview response, apply response)."""
    preview = admin.post("/admin/scores/import", {"scores": (io.BytesIO(text.encode("utf-8")), "scores.csv")},
                         content_type="multipart/form-data")
    if preview.status_code != 200:
        return preview, None
    token = re.search(r"/admin/scores/import/([\w-]+)", preview.get_data(as_text=True)).group(1)
    return preview, admin.post(f"/admin/scores/import/{token}", {})


def cells(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline="")))


def test_ordinary_names_are_exported_exactly_as_r7_5(app, player):
    """R7.5: a header, then one row per name, every field in double quotes."""
    with app.app_context():
        score_table.replace(ScoreTable([ScoreRow("Doris", 3, 1, 42), ScoreRow("Ed", 0, 2, None),
                                         ScoreRow("AI", 1, 0, 57)]))
        store.db.session.commit()
    response = player.get("/scores.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    assert response.get_data(as_text=True) == (
        HEADER + '"AI","1","0","57"\n"Doris","3","1","42"\n"Ed","0","2",""\n')


def test_the_export_neutralises_spreadsheet_formulas_in_names(app, player):
    """Names starting with = + - @ (importable) and tab or CR (only if a table ever held them)
    are exported with a leading ' so no spreadsheet runs them; import takes the ' off again."""
    names = ["=1+1", "+SUM(A1)", "-5", "@cmd", "'quoted", "=HYPERLINK(\"x\")"]
    with app.app_context():
        score_table.replace(ScoreTable(ScoreRow(name, 1, 0, 30) for name in names + ["Plain"]))
        store.db.session.commit()
    text = player.get("/scores.csv").get_data(as_text=True)
    exported = {row[0] for row in cells(text)[1:]}
    assert exported == {"'" + name for name in names} | {"Plain"}
    assert not any(cell.startswith(FORMULA_STARTS) for row in cells(text) for cell in row)
    assert ScoreTable.from_csv(text).names() == sorted(names + ["Plain"], key=lambda n: (n.casefold(), n))
    # tab and carriage return cannot be in a valid name (R3.2), but the writer guards them too
    table = ScoreTable([ScoreRow("\tcmd", 1, 0, 3), ScoreRow("\r=cmd", 1, 0, 3), ScoreRow("x", 0, 1, None)])
    assert {row[0] for row in cells(table.to_csv())[1:]} == {"'\tcmd", "'\r=cmd", "x"}


BAD_FILES = [
    ("a count that is not a number", HEADER + '"Doris","3","1","42"\n"Ed","x","2",""\n', 3, "whole number"),
    ("a name twice, in another case", HEADER + '"Doris","3","1","42"\n"doris","0","2",""\n', 3, "twice"),
    ("a best score without a win", HEADER + '"Doris","3","1","42"\n"Ed","0","2","40"\n', 3, "no games won"),
    ("wins without a best score", HEADER + '"Doris","3","1",""\n', 2, "no best score"),
    ("too few fields", HEADER + '"Doris","3","1","42"\n"Ed","0"\n', 3, "expected 4 fields"),
    ("a wrong header", '"name","won","lost","best"\n"Doris","3","1","42"\n', 1, "header"),
    ("an empty name", HEADER + '"Doris","3","1","42"\n"","0","2",""\n', 3, "name"),
    ("a name of 25 characters", HEADER + '"' + "N" * 25 + '","0","2",""\n', 2, "at most 24"),
    ("a negative count", HEADER + '"Doris","3","-1","42"\n', 2, "whole number"),
    ("a broken quote", HEADER + '"Doris","3","1","42"\n"Ed,"0","2",""\n', 3, "CSV|fields"),
]


@pytest.mark.parametrize("label,text,line,reason", BAD_FILES, ids=[b[0] for b in BAD_FILES])
def test_an_import_rejects_a_bad_file_whole_with_the_reason_and_the_line(app, label, text, line, reason):
    admin = admin_player(app)
    with app.app_context():
        score_table.replace(ScoreTable([ScoreRow("Old", 1, 1, 50)]))
        store.db.session.commit()
    before = database_dump(app)
    preview, applied = import_csv(admin, text)
    assert preview.status_code == 400 and applied is None
    message = " ".join(Page(preview.get_data(as_text=True)).alerts)
    assert f"line {line}" in message, message
    assert re.search(reason, message), message
    assert "not imported" in message
    assert database_dump(app) == before  # not even the good rows before the bad one
    with pytest.raises(ScoresFileError) as error:
        ScoreTable.from_csv(text)
    assert error.value.line == line


# -- export -> import -> export ------------------------------------------------------------------


def valid_name(name: str) -> bool:
    try:
        ok = check_player_name(name) == name
    except ValueError:
        return False
    return ok and (not is_computer_name(name) or name == "AI")


NAMES = st.one_of(
    st.text(min_size=1, max_size=24).filter(valid_name),
    st.tuples(st.sampled_from(["=", "+", "-", "@", "'", "''", '"', ","]), st.text(min_size=1, max_size=20))
    .map("".join).filter(valid_name),
    st.sampled_from(["AI", "Doris", "O'Neil", 'Say "hi"', "a,b", "Zoë", "Straße", "名前"]),
)


@st.composite
def score_tables(draw) -> ScoreTable:
    rows = {}
    for name in draw(st.lists(NAMES, max_size=8)):
        won, lost = draw(st.integers(0, 999)), draw(st.integers(0, 999))
        best = draw(st.integers(0, 600)) if won else None
        rows.setdefault(name.casefold(), ScoreRow(name, won, lost, best))
    return ScoreTable(rows.values())


FIGURES = {}


@pytest.mark.slow
@settings(max_examples=300, deadline=None, database=None)
@given(table=score_tables())
def test_export_import_export_is_unchanged_in_the_rules_module(table):
    FIGURES["rules_round_trips"] = FIGURES.get("rules_round_trips", 0) + 1
    exported = table.to_csv()
    again = ScoreTable.from_csv(exported)
    assert again == table
    assert again.to_csv() == exported
    assert not any(cell.startswith(FORMULA_STARTS) for row in cells(exported) for cell in row)


def test_export_import_export_is_unchanged_through_the_web(app):
    """The admin imports a file the app exported; the next download is the same file."""
    admin = admin_player(app)
    count = {"n": 0}

    @settings(max_examples=20, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
    @given(table=score_tables())
    def run(table):
        count["n"] += 1
        exported = table.to_csv()
        preview, applied = import_csv(admin, exported)
        assert preview.status_code == 200, Page(preview.get_data(as_text=True)).alerts
        assert applied.status_code == 303
        assert admin.get("/scores.csv").get_data(as_text=True) == exported
        # the scores.csv file in the instance folder is the same file (R7.5), once written
        assert scores_file.wait_until_written(app)
        with open(app.config["SCORES_CSV_PATH"], encoding="utf-8", newline="") as handle:
            assert handle.read() == exported

    run()
    FIGURES["web_round_trips"] = count["n"]
    record_figures(app.config["SQLALCHEMY_DATABASE_URI"], "csv_round_trips", **FIGURES)
