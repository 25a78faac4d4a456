"""Admin: logging in (with rate limiting), logging out, and the stacked decks in decks/: upload
(validated by R2 before anything is stored, under a safe name), list with previews, delete."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from support.games import (
    BAD_DECK_REASONS, QUICK_OUT_SEAT_1, QUICK_OUT_SEAT_2, admin_login, copy_test_decks, deck_text, page,
    text, upload,
)
from support.web import database_dump

WRONG = "not-the-password"


def upload_deck(player, filename: str, data, **extra):
    return upload(player, "/admin/decks", "deck", filename, data, **extra)


def deck_files(folder) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def deck_preview(html: str, name: str) -> str:
    for article in html.split('<article class="deck-preview">')[1:]:
        if f'<code class="deck-file">{name}</code>' in article:
            return article.split("</article>", 1)[0]
    raise AssertionError(f"{name} is not listed")


# -- logging in -------------------------------------------------------------------------------------------


def test_admin_pages_send_everyone_else_to_the_login_page(player):
    for url in ("/admin", "/admin/scores/import"):
        response = player.get(url)
        assert response.status_code == 303
        assert response.headers["Location"] == f"/admin/login?next={url}"
    login = player.page("/admin/login?next=/admin")
    assert 'type="password"' in login.html and login.value("next") == "/admin"


def test_admin_posts_from_everyone_else_are_forbidden_and_change_nothing(app, player, decks_folder):
    files = deck_files(decks_folder)
    before = database_dump(app)
    assert upload_deck(player, "new.deck", deck_text("quick_out.deck")).status_code == 403
    for url in ("/admin/decks/quick_out.deck/delete", "/admin/scores/import", "/admin/scores/import/token"):
        assert player.post(url).status_code == 403, url
    assert deck_files(decks_folder) == files
    assert database_dump(app) == before


def test_login_with_the_configured_password(app, player):
    response = player.post("/admin/login", {"password": app.config["ADMIN_PASSWORD"], "next": "/admin"})
    assert response.status_code == 303 and response.headers["Location"] == "/admin"
    admin = player.get("/admin")
    assert admin.status_code == 200
    assert "Stacked decks" in text(admin)


@pytest.mark.parametrize("password", [WRONG, "", "TEST-ADMIN-PASSWORD", "test-admin-password "])
def test_a_wrong_password_is_401(player, password):
    response = player.post("/admin/login", {"password": password, "next": "/admin"})
    assert response.status_code == 401
    assert page(response).alerts == ["That is not the admin password."]
    response = player.get("/admin")  # still not logged in: sent to the login page
    assert response.status_code == 303 and response.headers["Location"] == "/admin/login?next=/admin"


@pytest.mark.parametrize("target, expected", [
    ("/admin/scores/import", "/admin/scores/import"),
    ("https://evil.example/admin", "/admin"),
    ("//evil.example/admin", "/admin"),
    ("/\\evil.example/admin", "/admin"),
    ("/scores", "/admin"),  # a page that asks for no password
    ("/finished/import", "/finished/import"),  # the page that sent the admin to log in
    ("", "/admin"),
])
def test_login_goes_back_only_to_this_sites_pages(app, player, target, expected):
    response = player.post("/admin/login", {"password": app.config["ADMIN_PASSWORD"], "next": target})
    assert response.status_code == 303
    assert response.headers["Location"] == expected
    assert player.get(expected).status_code == 200  # logged in: the admin page it went back to opens


def test_after_five_wrong_passwords_logins_are_refused_for_a_while(app, player):
    for _ in range(5):
        assert player.post("/admin/login", {"password": WRONG}).status_code == 401
    response = player.post("/admin/login", {"password": app.config["ADMIN_PASSWORD"]})
    assert response.status_code == 429
    assert "Too many wrong passwords" in page(response).alerts[0]
    response = player.get("/admin")  # not logged in
    assert response.status_code == 303 and response.headers["Location"] == "/admin/login?next=/admin"
    # Another device is not locked out: it logs in and lands on the admin page.
    other = player.post("/admin/login", {"password": app.config["ADMIN_PASSWORD"]},
                        environ_base={"REMOTE_ADDR": "10.0.0.99"})
    assert other.status_code == 303 and other.headers["Location"] == "/admin"
    admin = player.get("/admin", environ_base={"REMOTE_ADDR": "10.0.0.99"})
    assert admin.status_code == 200 and "Stacked decks" in text(admin)


def test_old_wrong_passwords_no_longer_count(app, player):
    from app.extensions import db
    from app.store.models import AdminFailure, utcnow

    window = app.config["ADMIN_FAILURE_WINDOW_SECONDS"]
    with app.app_context():
        for _ in range(5):
            db.session.add(AdminFailure(address="127.0.0.1", at=utcnow() - timedelta(seconds=window + 60)))
        db.session.commit()
    response = player.post("/admin/login", {"password": app.config["ADMIN_PASSWORD"]})
    assert response.status_code == 303 and response.headers["Location"] == "/admin"
    admin = player.get("/admin")
    assert admin.status_code == 200 and "Stacked decks" in text(admin)


def test_logout_ends_admin_rights(player, decks_folder):
    admin_login(player)
    assert player.get("/admin").status_code == 200
    response = player.post("/admin/logout")
    assert response.status_code == 303 and response.headers["Location"] == "/"
    response = player.get("/admin")
    assert response.status_code == 303 and response.headers["Location"] == "/admin/login?next=/admin"
    files = deck_files(decks_folder)
    assert upload_deck(player, "new.deck", deck_text("quick_out.deck")).status_code == 403
    assert deck_files(decks_folder) == files


def test_admin_rights_belong_to_one_browser(make_player, player):
    admin_login(player)
    response = make_player().get("/admin")
    assert response.status_code == 303 and response.headers["Location"] == "/admin/login?next=/admin"
    assert player.get("/admin").status_code == 200  # the browser that logged in still is admin


# -- decks: the list ------------------------------------------------------------------------------------------


def test_the_deck_list_previews_each_seats_first_hand(player, decks_folder):
    admin_login(player)
    html = text(player.get("/admin"))
    for name in sorted(p.name for p in decks_folder.glob("*.deck")):
        assert f'<code class="deck-file">{name}</code>' in html
    preview = deck_preview(html, "quick_out.deck")
    hands = [re.findall(r'data-card="(\w\w)"', part) for part in preview.split('<span class="deck-seat">')[1:]]
    from app.games.mason.definition import MASON
    from app.tables.decks import read_deck_file

    seat_3 = [card.code for card in read_deck_file(decks_folder / "quick_out.deck", MASON)[20:30]]
    # R4.2: 10 cards a seat, file order; then the face-up card with 2 and with 3 players
    assert hands == [QUICK_OUT_SEAT_1, QUICK_OUT_SEAT_2, seat_3, ["9C"], ["5H"]]
    assert "Face up first with 2 players" in preview and "Face up first with 3 players" in preview


def test_an_invalid_deck_in_the_folder_is_listed_with_what_is_wrong(player, decks_folder):
    copy_test_decks(decks_folder, ["duplicate.deck"])
    admin_login(player)
    preview = deck_preview(text(player.get("/admin")), "duplicate.deck")
    assert "7H appears twice" in preview
    assert "data-card" not in preview


def test_the_admin_page_lists_unfinished_games(player):
    slug = player.start_game(["Doris", "AI"], deck="quick_out.deck")
    admin_login(player)
    html = text(player.get("/admin"))
    assert f'href="/games/{slug}/watch">Doris, AI</a>' in html


# -- decks: upload --------------------------------------------------------------------------------------------


def test_r2_a_valid_deck_upload_is_stored(player, decks_folder):
    admin_login(player)
    response = upload_deck(player, "mine.deck", deck_text("quick_out.deck"))
    assert response.status_code == 200
    assert page(response).value("csrf_token")  # the admin page again
    assert "mine.deck was checked and stored for Mason Rummy." in text(response)
    assert (decks_folder / "mine.deck").read_text() == deck_text("quick_out.deck")
    assert '<code class="deck-file">mine.deck</code>' in text(response)
    assert not [n for n in deck_files(decks_folder) if n.startswith(".upload-")]  # no temporary left
    # It can be played at once.
    slug = player.start_game(["Doris", "AI"], deck="mine.deck")
    assert player.table(slug).hand == QUICK_OUT_SEAT_1


@pytest.mark.parametrize("name", sorted(BAD_DECK_REASONS))
def test_r2_2_an_invalid_deck_upload_is_refused_with_the_reason_and_not_stored(player, decks_folder, name):
    from support.games import BAD_DECKS

    admin_login(player)
    files = deck_files(decks_folder)
    response = upload_deck(player, name, (BAD_DECKS / name).read_bytes())
    assert response.status_code == 400
    alerts = page(response).alerts
    assert len(alerts) == 1 and alerts[0].startswith(f"The deck {name} for Mason Rummy was not stored:")  # the file and the game
    if name == "empty.deck":
        assert "The file is empty." in alerts[0]
    else:
        for words in BAD_DECK_REASONS[name]:
            assert words in alerts[0]
    assert deck_files(decks_folder) == files


def test_a_deck_that_is_not_text_is_refused(player, decks_folder):
    admin_login(player)
    files = deck_files(decks_folder)
    response = upload_deck(player, "bin.deck", b"\xff\xfe\x00\x01" * 10)
    assert response.status_code == 400
    assert "not UTF-8" in page(response).alerts[0]
    assert deck_files(decks_folder) == files


@pytest.mark.parametrize("filename, stored_as", [
    ("../evil.deck", "evil.deck"),
    ("../../evil.deck", "evil.deck"),
    ("/tmp/evil.deck", "tmp_evil.deck"),
    ("sub/dir/evil.deck", "sub_dir_evil.deck"),
    ("my deck.deck", "my_deck.deck"),
    ("..\\evil.deck", "evil.deck"),
])
def test_uploaded_deck_names_are_made_safe_and_stay_inside_the_decks_folder(player, decks_folder, filename,
                                                                              stored_as):
    admin_login(player)
    outside = set(decks_folder.parent.iterdir())
    response = upload_deck(player, filename, deck_text("quick_out.deck"))
    assert response.status_code == 200
    assert f"{stored_as} was checked and stored for Mason Rummy." in text(response)
    assert (decks_folder / stored_as).read_text() == deck_text("quick_out.deck")
    assert set(decks_folder.parent.iterdir()) == outside  # nothing was written next to decks/
    assert not (decks_folder.parent / "evil.deck").exists()


@pytest.mark.parametrize("filename", ["evil.txt", "/etc/passwd", "deck", ".deck", "x.deck.txt", "x.DECKS"])
def test_only_deck_files_are_accepted(player, decks_folder, filename):
    admin_login(player)
    files = deck_files(decks_folder)
    response = upload_deck(player, filename, deck_text("quick_out.deck"))
    assert response.status_code == 400
    assert page(response).alerts == [f"The deck {filename} for Mason Rummy was not stored: Only .deck files can be "
                                     "uploaded here."]
    assert deck_files(decks_folder) == files


def test_an_upload_without_a_file_is_refused(player, decks_folder):
    admin_login(player)
    files = deck_files(decks_folder)
    response = player.post("/admin/decks", {}, content_type="multipart/form-data")
    assert response.status_code == 400
    assert page(response).alerts == ["The deck for Mason Rummy was not stored: Choose a file to upload."]
    assert deck_files(decks_folder) == files


def test_replacing_a_deck_needs_the_checkbox(player, decks_folder):
    admin_login(player)
    original = (decks_folder / "quick_out.deck").read_text()
    replacement = deck_text("run_or_meld.deck")
    response = upload_deck(player, "quick_out.deck", replacement)
    assert response.status_code == 409
    assert "Mason Rummy has a deck named quick_out.deck already" in page(response).alerts[0]
    assert (decks_folder / "quick_out.deck").read_text() == original
    response = upload_deck(player, "quick_out.deck", replacement, replace="1")
    assert response.status_code == 200
    assert (decks_folder / "quick_out.deck").read_text() == replacement


def test_a_refused_replacement_leaves_the_old_deck(player, decks_folder):
    from support.games import BAD_DECKS

    admin_login(player)
    original = (decks_folder / "quick_out.deck").read_text()
    response = upload_deck(player, "quick_out.deck", (BAD_DECKS / "too_few.deck").read_bytes(), replace="1")
    assert response.status_code == 400
    assert (decks_folder / "quick_out.deck").read_text() == original


# -- decks: delete ------------------------------------------------------------------------------------------------


def test_a_deck_can_be_deleted(player, decks_folder):
    admin_login(player)
    response = player.post("/admin/decks/quick_out.deck/delete")
    assert response.status_code == 200
    assert "quick_out.deck was deleted from the decks of Mason Rummy." in text(response)
    assert not (decks_folder / "quick_out.deck").exists()
    assert '<code class="deck-file">quick_out.deck</code>' not in text(response)


@pytest.mark.parametrize("name", ["nosuch.deck", "..%2Fdecks%2Fquick_out.deck", "%2E%2E", "README.md"])
def test_deleting_a_deck_that_is_not_listed_is_refused(player, decks_folder, name):
    (decks_folder / "README.md").write_text("not a deck")
    admin_login(player)
    files = deck_files(decks_folder)
    response = player.post(f"/admin/decks/{name}/delete")
    assert response.status_code == 404
    assert deck_files(decks_folder) == files
