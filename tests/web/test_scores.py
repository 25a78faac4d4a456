"""The score table page (R7.4), the scores.csv download (R7.5), and importing a scores.csv as
admin: upload, preview, then apply all or nothing (or cancel)."""

from __future__ import annotations

import re

import pytest

from support.games import admin_login, page, score_rows, seed_scores, text, upload
from support.web import database_dump, table_rows

HEADER = '"name","games won","games lost","best score"\n'
IMPORT = "/admin/scores/import"


def preview(player, csv_text: str | bytes, filename: str = "scores.csv"):
    return upload(player, IMPORT, "scores", filename, csv_text)


def preview_token(response) -> str:
    match = re.search(r'action="/admin/scores/import/([^"]+)"', text(response))
    assert match, text(response)
    return match.group(1)


# -- the page and the download -------------------------------------------------------------------------


def test_the_scores_page_says_when_there_are_no_scores(player):
    response = player.get("/scores")
    assert response.status_code == 200
    html = text(response)
    assert "No scores yet" in html
    assert 'href="/scores.csv"' in html and 'href="/"' in html


def test_r7_4_the_scores_page_lists_every_row_sorted_with_an_empty_best_until_a_win(app, player):
    seed_scores(app, [("bob", 0, 2, None), ("Alice", 3, 1, 42), ("AI", 1, 4, 17)])
    html = text(player.get("/scores"))
    rows = table_rows(html)
    assert rows == [("AI", "1", "4", "17"), ("Alice", "3", "1", "42"), ("bob", "0", "2", "")]


def test_r7_5_the_download_is_exactly_the_scores_csv_format(app, player):
    seed_scores(app, [("Doris", 3, 1, 42), ("bob", 0, 2, None), ('Al "Ace", Jr', 1, 0, 9)])
    response = player.get("/scores.csv")
    assert response.status_code == 200
    assert response.mimetype == "text/csv"
    assert response.headers["Content-Disposition"] == 'attachment; filename="scores.csv"'
    assert response.get_data() == (HEADER
                                   + '"Al ""Ace"", Jr","1","0","9"\n'
                                   + '"bob","0","2",""\n'
                                   + '"Doris","3","1","42"\n').encode()


def test_r7_5_an_empty_table_downloads_as_the_header_only(player):
    assert player.get("/scores.csv").get_data(as_text=True) == HEADER


def test_the_download_neutralises_spreadsheet_formulas_and_they_import_back_unchanged(app, player):
    seed_scores(app, [("=HYPERLINK(1)", 1, 0, 5), ("+x", 0, 1, None)])
    csv_text = player.get("/scores.csv").get_data(as_text=True)
    assert csv_text == HEADER + '"\'+x","0","1",""\n"\'=HYPERLINK(1)","1","0","5"\n'
    admin_login(player)
    seed_scores(app, [])
    response = preview(player, csv_text)
    assert response.status_code == 200
    assert player.post(f"{IMPORT}/{preview_token(response)}").status_code == 303
    assert score_rows(app) == [("+x", 0, 1, None), ("=HYPERLINK(1)", 1, 0, 5)]


# -- importing: admin only -----------------------------------------------------------------------------------


def test_importing_is_for_the_admin_only(app, player):
    seed_scores(app, [("Doris", 1, 0, 10)])
    before = database_dump(app)
    response = player.get(IMPORT)
    assert response.status_code == 303
    assert response.headers["Location"] == "/admin/login?next=/admin/scores/import"
    assert preview(player, HEADER).status_code == 403
    assert player.post(f"{IMPORT}/sometoken").status_code == 403
    assert database_dump(app) == before


def test_the_import_form_is_a_file_upload(player):
    admin_login(player)
    html = text(player.get(IMPORT))
    assert 'enctype="multipart/form-data"' in html and 'type="file" name="scores"' in html


def test_an_import_shows_a_preview_of_what_changes_and_changes_nothing_yet(app, player):
    seed_scores(app, [("Doris", 3, 1, 42), ("Bob", 0, 2, None), ("Cy", 1, 1, 30)])
    admin_login(player)
    before = score_rows(app)
    csv_text = HEADER + '"Doris","4","1","40"\n"Cy","1","1","30"\n"Eve","0","1",""\n'
    response = preview(player, csv_text)
    assert response.status_code == 200
    html = text(response)
    assert "The file holds 3 rows; 1 of them is unchanged." in html
    assert "<h2>Added (1)</h2><ul><li>Eve: 0 won, 1 lost, best -</li></ul>" in html
    assert "<h2>Changed (1)</h2><ul><li>Doris: 3 won, 1 lost, best 42 &rarr; 4 won, 1 lost, best 40</li></ul>" in html
    assert "<h2>Removed (1)</h2><ul><li>Bob: 0 won, 2 lost, best -</li></ul>" in html
    assert score_rows(app) == before  # nothing applied yet

    response = player.post(f"{IMPORT}/{preview_token(response)}")
    assert response.status_code == 303
    assert response.headers["Location"] == "/scores?imported=1"
    assert score_rows(app) == [("Cy", 1, 1, 30), ("Doris", 4, 1, 40), ("Eve", 0, 1, None)]
    assert "The scores were imported." in text(player.get("/scores?imported=1"))
    # The instance folder's scores.csv follows the table (R7.5), written in the background.
    from app.records import scores_file

    assert scores_file.wait_until_written(app)
    with open(app.config["SCORES_CSV_PATH"], encoding="utf-8", newline="") as handle:
        assert handle.read() == HEADER + '"Cy","1","1","30"\n"Doris","4","1","40"\n"Eve","0","1",""\n'


def test_a_preview_with_nothing_to_change_says_so(app, player):
    seed_scores(app, [("Doris", 3, 1, 42)])
    admin_login(player)
    response = preview(player, HEADER + '"Doris","3","1","42"\n')
    assert response.status_code == 200
    assert "Nothing would change." in text(response)


def test_an_import_with_a_byte_order_mark_and_crlf_lines_is_read(app, player):
    admin_login(player)
    data = ("\ufeff" + HEADER + '"Doris","1","0","7"\n').replace("\n", "\r\n").encode("utf-8")
    response = preview(player, data)
    assert response.status_code == 200
    assert player.post(f"{IMPORT}/{preview_token(response)}").status_code == 303
    assert score_rows(app) == [("Doris", 1, 0, 7)]


@pytest.mark.parametrize("body, reason", [
    ('"name","won","lost","best"\n"Doris","1","0","7"\n', 'line 1: the first row must be the header'),
    (HEADER + '"Doris","1","0","7"\n"Bob","x","0",""\n', "line 3: 'x' is not a whole number of games won"),
    (HEADER + '"Doris","1","0","7"\n"Bob","0","1"\n', "line 3: expected 4 fields"),
    (HEADER + '"Doris","1","0","7"\n"doris","0","1",""\n', "line 3: the name 'doris' appears twice"),
    (HEADER + '"Doris","0","0","7"\n', "line 2: 'Doris' has a best score but no games won"),
    (HEADER + '"Doris","2","0",""\n', "line 2: 'Doris' has won games but no best score"),
    (HEADER + '"","1","0","7"\n', "line 2: bad name: A name cannot be empty."),
    (HEADER + '"' + "x" * 25 + '","1","0","7"\n', "line 2: bad name: A name can have at most 24 characters."),
    (HEADER + '"Doris","-1","0",""\n', "line 2: '-1' is not a whole number of games won"),
    (HEADER + '"Doris","1","0","7"\n"Bob","0","1",""\n"Cy","1","0","abc"\n',
     "line 4: 'abc' is not a whole number of points for the best score"),
    (HEADER + '"Doris,"1","0","7"\n', "not valid CSV"),
    (" , , ,\n\n", "the file is empty: it needs at least the header row"),
])
def test_a_broken_file_is_rejected_whole_with_the_reason_and_the_line(app, player, body, reason):
    seed_scores(app, [("Doris", 3, 1, 42), ("Bob", 0, 2, None)])
    admin_login(player)
    before = database_dump(app)
    response = preview(player, body)
    assert response.status_code == 400
    alerts = page(response).alerts
    assert len(alerts) == 1
    assert alerts[0].startswith("The file was not imported: ")
    assert reason in alerts[0]
    assert database_dump(app) == before  # not even a pending import was stored


@pytest.mark.parametrize("filename, data, reason", [
    ("scores.txt", HEADER, "Only .csv files can be uploaded here."),
    ("scores.csv", b"   \n", "The file is empty."),
    ("scores.csv", b"\xff\xfe\x00n", "the file is not UTF-8 text"),
    ("", HEADER, "Choose a file to upload."),
])
def test_a_file_that_is_not_a_scores_csv_is_rejected(app, player, filename, data, reason):
    admin_login(player)
    before = database_dump(app)
    response = preview(player, data, filename=filename)
    assert response.status_code == 400
    assert reason in page(response).alerts[0]
    assert database_dump(app) == before


def rows_of_size(size: int) -> str:
    """A valid scores.csv of just over ``size`` bytes."""
    body, length, n = [HEADER], len(HEADER), 0
    while length <= size:
        row = f'"P{n}","0","1",""\n'
        body.append(row)
        length += len(row)
        n += 1
    return "".join(body)


def test_an_import_larger_than_a_scores_csv_may_be_is_refused_with_a_message(app, player):
    from app.web.admin import MAX_SCORES_BYTES

    assert MAX_SCORES_BYTES + 4096 < app.config["MAX_CONTENT_LENGTH"]  # config.py: 400 with a reason
    admin_login(player)
    before = database_dump(app)
    response = preview(player, rows_of_size(MAX_SCORES_BYTES + 10))
    assert response.status_code == 400
    assert "The file is too large" in page(response).alerts[0]
    assert database_dump(app) == before


def test_a_request_over_the_upload_limit_is_refused(app, player):
    admin_login(player)
    before = database_dump(app)
    response = preview(player, rows_of_size(app.config["MAX_CONTENT_LENGTH"] + 10))
    assert response.status_code == 413
    assert page(response).alerts == ["That file is too large."]
    assert database_dump(app) == before


def test_applying_a_stale_preview_is_refused_and_the_newer_table_is_kept(app, player):
    seed_scores(app, [("Doris", 3, 1, 42)])
    admin_login(player)
    response = preview(player, HEADER + '"Eve","0","1",""\n')
    token = preview_token(response)
    seed_scores(app, [("Doris", 4, 1, 40)])  # a game ended meanwhile
    response = player.post(f"{IMPORT}/{token}")
    assert response.status_code == 409
    assert "The score table changed since the preview" in page(response).alerts[0]
    assert score_rows(app) == [("Doris", 4, 1, 40)]
    assert player.post(f"{IMPORT}/{token}").status_code == 409  # the stale preview is gone


def test_cancelling_a_preview_changes_nothing_and_the_preview_cannot_be_applied_later(app, player):
    seed_scores(app, [("Doris", 3, 1, 42)])
    admin_login(player)
    response = preview(player, HEADER + '"Eve","0","1",""\n')
    token = preview_token(response)
    assert ("cancel", "1", "Cancel") in page(response).buttons
    response = player.post(f"{IMPORT}/{token}", {"cancel": "1"})
    assert response.status_code == 303 and response.headers["Location"] == "/admin"
    assert score_rows(app) == [("Doris", 3, 1, 42)]
    response = player.post(f"{IMPORT}/{token}")
    assert response.status_code == 409
    assert page(response).alerts == ["That import was already applied or cancelled."]
    assert score_rows(app) == [("Doris", 3, 1, 42)]


def test_a_preview_is_applied_once(app, player):
    admin_login(player)
    token = preview_token(preview(player, HEADER + '"Eve","0","1",""\n'))
    assert player.post(f"{IMPORT}/{token}").status_code == 303
    seed_scores(app, [("Zed", 1, 0, 3)])
    assert player.post(f"{IMPORT}/{token}").status_code == 409
    assert score_rows(app) == [("Zed", 1, 0, 3)]


def test_an_unknown_preview_token_is_refused(app, player):
    admin_login(player)
    response = player.post(f"{IMPORT}/not-a-token")
    assert response.status_code == 409
    assert score_rows(app) == []


def test_an_import_then_a_download_round_trips(app, player):
    admin_login(player)
    csv_text = HEADER + '"AI","2","5","31"\n"Doris","3","1","42"\n"zed","0","0",""\n'
    assert player.post(f"{IMPORT}/{preview_token(preview(player, csv_text))}").status_code == 303
    assert player.get("/scores.csv").get_data(as_text=True) == csv_text
