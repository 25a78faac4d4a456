"""The `flask` commands for the admin chores (app/serving/cli.py): scores export/import (R7.5), deck check
(R2.2), admin set-password."""

from __future__ import annotations

import pytest

from support.games import BAD_DECK_REASONS, BAD_DECKS, SAMPLE_DECKS, admin_login, score_rows, seed_scores
from support.web import Player, database_dump

HEADER = '"name","games won","games lost","best score"\n'


@pytest.fixture
def cli(app):
    return app.test_cli_runner()


# -- scores export / import ----------------------------------------------------------------------------


def test_scores_export_prints_the_table_as_scores_csv(app, cli):
    seed_scores(app, [("Doris", 3, 1, 42), ("bob", 0, 2, None)])
    result = cli.invoke(args=["scores", "export"])
    assert result.exit_code == 0, result.output
    assert result.output == HEADER + '"bob","0","2",""\n"Doris","3","1","42"\n'


def test_scores_export_to_a_file(app, cli, tmp_path):
    seed_scores(app, [("Doris", 3, 1, 42)])
    target = tmp_path / "out.csv"
    result = cli.invoke(args=["scores", "export", str(target)])
    assert result.exit_code == 0, result.output
    assert "Wrote 1 rows" in result.output
    assert target.read_text() == HEADER + '"Doris","3","1","42"\n'


def test_scores_import_with_yes_replaces_the_table(app, cli, tmp_path):
    seed_scores(app, [("Doris", 3, 1, 42), ("Bob", 0, 2, None)])
    source = tmp_path / "scores.csv"
    source.write_text(HEADER + '"Doris","4","1","40"\n"Eve","0","1",""\n')
    result = cli.invoke(args=["scores", "import", str(source), "--yes"])
    assert result.exit_code == 0, result.output
    assert "1 added, 1 changed, 1 removed, 0 unchanged." in result.output
    assert "Imported." in result.output
    assert score_rows(app) == [("Doris", 4, 1, 40), ("Eve", 0, 1, None)]
    with open(app.config["SCORES_CSV_PATH"], encoding="utf-8", newline="") as handle:
        assert handle.read() == source.read_text()


def test_scores_import_asks_first_and_no_changes_nothing(app, cli, tmp_path):
    seed_scores(app, [("Doris", 3, 1, 42)])
    source = tmp_path / "scores.csv"
    source.write_text(HEADER + '"Eve","0","1",""\n')
    result = cli.invoke(args=["scores", "import", str(source)], input="n\n")
    assert result.exit_code == 0, result.output
    assert "Nothing was changed." in result.output
    assert score_rows(app) == [("Doris", 3, 1, 42)]


@pytest.mark.parametrize("body, reason", [
    (HEADER + '"Doris","1","0","7"\n"Bob","x","0",""\n', "line 3: 'x' is not a whole number of games won"),
    ('"name","won"\n', "line 1: the first row must be the header"),
    ("", "the file is empty"),
])
def test_scores_import_of_a_bad_file_fails_and_changes_nothing(app, cli, tmp_path, body, reason):
    seed_scores(app, [("Doris", 3, 1, 42)])
    before = database_dump(app)
    source = tmp_path / "bad.csv"
    source.write_text(body)
    result = cli.invoke(args=["scores", "import", str(source), "--yes"])
    assert result.exit_code != 0
    assert "was not imported" in result.output and reason in result.output
    assert database_dump(app) == before


def test_scores_import_of_a_missing_file_fails(app, cli, tmp_path):
    result = cli.invoke(args=["scores", "import", str(tmp_path / "nope.csv"), "--yes"])
    assert result.exit_code == 2
    assert score_rows(app) == []


# -- deck check ----------------------------------------------------------------------------------------------


def test_deck_check_accepts_valid_decks(cli):
    paths = [str(SAMPLE_DECKS / "quick_out.deck"), str(BAD_DECKS / "lowercase.deck")]
    result = cli.invoke(args=["deck", "check", *paths])
    assert result.exit_code == 0, result.output
    assert f"{paths[0]}: valid; seat 1 starts with 2C 3C 4C 5C 7D 7H 7S 9P TP JP" in result.output


@pytest.mark.parametrize("name", sorted(BAD_DECK_REASONS))
def test_r2_2_deck_check_rejects_invalid_decks_with_exit_status_1(cli, name):
    path = str(BAD_DECKS / name)
    result = cli.invoke(args=["deck", "check", path])
    assert result.exit_code == 1
    assert f"{path}: invalid:" in result.output
    for words in BAD_DECK_REASONS[name]:
        assert words in result.output


def test_deck_check_of_several_files_fails_if_any_is_bad(cli, tmp_path):
    result = cli.invoke(args=["deck", "check", str(SAMPLE_DECKS / "quick_out.deck"), str(tmp_path / "missing.deck")])
    assert result.exit_code == 1
    assert "valid; seat 1 starts with" in result.output
    assert "there is no deck file named 'missing.deck'" in result.output


def test_deck_check_needs_a_file(cli):
    assert cli.invoke(args=["deck", "check"]).exit_code == 2


# -- admin set-password ------------------------------------------------------------------------------------------


@pytest.fixture
def app_without_password(database_url, decks_folder, tmp_path):
    """The app as `make run` builds it with no ADMIN_PASSWORD: the password hash lives in the
    instance folder (generated at first start, printed once)."""
    from app.factory import create_app
    from app.extensions import db
    from config import TestConfig

    application = create_app(TestConfig, instance_path=str(tmp_path / "instance-nopw"),
                             SQLALCHEMY_DATABASE_URI=database_url, DECKS_FOLDER=str(decks_folder),
                             ADMIN_PASSWORD=None)
    yield application
    with application.app_context():
        db.session.remove()
        db.engine.dispose()


def test_a_generated_password_is_stored_hashed_and_printed_once(app_without_password, capfd):
    from app.factory import create_app
    from config import TestConfig

    stored = (app_without_password.instance_path + "/admin_password.hash")
    with open(stored, encoding="utf-8") as handle:
        digest = handle.read().strip()
    assert digest and ":" in digest  # a werkzeug hash, never the password itself
    capfd.readouterr()
    again = create_app(TestConfig, instance_path=app_without_password.instance_path,
                       SQLALCHEMY_DATABASE_URI=app_without_password.config["SQLALCHEMY_DATABASE_URI"],
                       ADMIN_PASSWORD=None)
    assert "admin password" not in capfd.readouterr().err  # printed only when generated
    from app.extensions import db

    with again.app_context():
        db.engine.dispose()
    with open(stored, encoding="utf-8") as handle:
        assert handle.read().strip() == digest


def test_admin_set_password_then_logging_in_with_it_works(app_without_password):
    cli = app_without_password.test_cli_runner()
    result = cli.invoke(args=["admin", "set-password", "--password", "correct horse battery"])
    assert result.exit_code == 0, result.output
    assert "The admin password was changed." in result.output
    browser = Player(app_without_password)
    assert browser.post("/admin/login", {"password": "test-admin-password"}).status_code == 401
    admin_login(browser, "correct horse battery")
    assert browser.get("/admin").status_code == 200


def test_admin_set_password_refuses_short_passwords(app_without_password):
    cli = app_without_password.test_cli_runner()
    result = cli.invoke(args=["admin", "set-password", "--password", "short"])
    assert result.exit_code != 0
    assert "at least 8 characters" in result.output
    browser = Player(app_without_password)
    assert browser.post("/admin/login", {"password": "short"}).status_code == 401


def test_admin_set_password_asks_twice_when_not_given(app_without_password):
    cli = app_without_password.test_cli_runner()
    result = cli.invoke(args=["admin", "set-password"], input="a long password\na long password\n")
    assert result.exit_code == 0, result.output
    admin_login(Player(app_without_password), "a long password")
