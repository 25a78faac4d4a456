"""Promise 7: CSRF on every POST, no XSS, safe cookies and security headers.

- Every POST route of app.url_map (actions, uploads, import, admin, seats, menus) refuses a
  missing or wrong CSRF token with 400 and changes nothing: not the database, not decks/, not
  scores.csv, not the browser's session. A route added later without a case here fails the test.
- Player names, deck names and CSV content such as ``<script>a(1)</script>`` and attribute
  breakers appear escaped on every page that shows them; no page has inline scripts, inline
  event handlers or inline styles, so the content security policy holds with htmx from static/.
- The session cookie is HttpOnly and SameSite=Lax; every response says nosniff, forbids framing
  and carries a content security policy without 'unsafe-inline' or 'unsafe-eval' for scripts.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

from support.web import Page, Player, database_dump

from app import store
from app.games.mason import ScoreRow, ScoreTable

ROOT = Path(__file__).resolve().parents[2]
VALID_CSV = '"name","games won","games lost","best score"\n"Doris","3","1","42"\n'
CSRF_MESSAGE = "did not come from this site"


def snapshot(app, decks_folder) -> tuple:
    scores = Path(app.config["SCORES_CSV_PATH"])
    decks = sorted((str(p.relative_to(decks_folder)), p.read_bytes()) for p in decks_folder.rglob("*") if p.is_file())
    return (database_dump(app), decks,
            scores.read_bytes() if scores.exists() else None)


def deck_upload(name="fresh.deck"):
    text = (ROOT / "tests" / "decks" / "quick_out.deck").read_bytes()
    return {"deck": (io.BytesIO(text), name), "replace": "1"}


def post_cases(slug: str, import_token: str) -> dict:
    """For every POST endpoint: a URL and a form that would change something if accepted."""
    return {
        "menu.choose": ("/menus/mason", {"choice": "2"}),
        "menu.quit_session": ("/quit", {}),
        "languages.choose": ("/language", {"language": "es", "next": "/"}),
        "guides.start_learning": ("/learn/rummy", {}),
        "setup.choose_deck": ("/setup/deck", {"deck": "quick_out.deck"}),
        "setup.add_seat": ("/setup/seat", {"kind": "1", "name": "Zed", "device": "here"}),
        "setup.cancel": ("/setup/cancel", {}),
        "setup.start_other_game": ("/setup/rummy", {"seats": "2", "name0": "Zed", "name1": "AI"}),
        "play.act": (f"/games/{slug}/act", {"action": "draw_stock", "seat": "0", "version": None}),
        "play.reveal": (f"/games/{slug}/reveal", {"version": None}),
        "play.rematch": (f"/games/{slug}/rematch", {}),
        "play.follow": (f"/games/{slug}/follow", {}),
        "play.abandon": (f"/games/{slug}/abandon", {}),
        "play.preferences": (f"/games/{slug}/preferences", {"auto_home": "1"}),
        "history.import_game": ("/finished/import", {}),
        "lan.claim": ("/join", {"code": None}),
        "lan.release": (f"/games/{slug}/seats/1/release", {}),
        "lan.restore": (f"/games/{slug}/seats/1/restore", {}),
        "lan.standin": (f"/games/{slug}/seats/1/standin", {"on": "1"}),
        "admin.do_login": ("/admin/login", {"password": "test-admin-password"}),
        "admin.logout": ("/admin/logout", {}),
        "admin.upload_deck": ("/admin/decks", None),
        "admin.delete_deck": ("/admin/decks/quick_out.deck/delete", {}),
        "admin.import_preview": ("/admin/scores/import", None),
        "admin.import_apply": (f"/admin/scores/import/{import_token}", {}),
    }


def test_every_post_route_refuses_a_missing_or_wrong_csrf_token(app, decks_folder):
    assert app.config.get("WTF_CSRF_ENABLED", True) is True
    admin = Player(app)
    assert admin.post("/admin/login", {"password": app.config["ADMIN_PASSWORD"]}).status_code == 303
    slug = admin.start_game(["Ann", "Bob"], deck="quick_out.deck", devices=["here", "own"])
    response = admin.post("/admin/scores/import", {"scores": (io.BytesIO(VALID_CSV.encode()), "scores.csv")},
                          content_type="multipart/form-data")
    assert response.status_code == 200
    import_token = re.search(r"/admin/scores/import/([\w-]+)", response.get_data(as_text=True)).group(1)
    with app.app_context():
        record = store.find_game(slug)
        version, code = record.version, record.seats[1].join_code
    cases = post_cases(slug, import_token)

    post_endpoints = {rule.endpoint for rule in app.url_map.iter_rules() if "POST" in rule.methods}
    assert post_endpoints == set(cases), "a POST route has no CSRF case here (or a case has no route)"

    other = Player(app)
    foreign_token = other.csrf_token()  # a real token, but of another browser's session
    refused = 0
    for endpoint, (url, form) in sorted(cases.items()):
        for token in (None, "", "not-a-token", foreign_token):
            if form is None:
                data = deck_upload() if endpoint == "admin.upload_deck" else {
                    "scores": (io.BytesIO(VALID_CSV.encode()), "scores.csv")}
            else:
                data = {k: (str(version) if k == "version" else code if k == "code" else v) for k, v in form.items()}
            if token is not None:
                data["csrf_token"] = token
            before = snapshot(app, decks_folder)
            for htmx in (False, True):
                response = admin.client.post(url, data=data, headers={"HX-Request": "true"} if htmx else {},
                                             content_type="multipart/form-data" if form is None else None)
                assert response.status_code == 400, (endpoint, token, response.status_code)
                assert CSRF_MESSAGE in " ".join(Page(response.get_data(as_text=True)).alerts), endpoint
                refused += 1
                if form is None:  # the file stream was read: make it again for the htmx round
                    data = deck_upload() if endpoint == "admin.upload_deck" else {
                        "scores": (io.BytesIO(VALID_CSV.encode()), "scores.csv")}
                    if token is not None:
                        data["csrf_token"] = token
            assert snapshot(app, decks_folder) == before, endpoint

    # a wrong token in htmx's X-CSRFToken header is refused the same way
    response = admin.client.post(f"/games/{slug}/act", data={"action": "draw_stock", "seat": "0", "version": str(version)},
                                 headers={"HX-Request": "true", "X-CSRFToken": foreign_token})
    assert response.status_code == 400
    # the session was not changed by any refused POST: still admin, still holding the seat, ...
    assert admin.get("/admin").status_code == 200
    assert len(admin.table(slug).hand) == 10
    # ... and the same posts with the right token do change things (the cases are real)
    assert admin.act(slug, "draw_stock").status_code == 200
    assert admin.post("/admin/decks/quick_out.deck/delete", {}).status_code == 200
    assert not (decks_folder / "quick_out.deck").exists()
    assert admin.post("/admin/logout", {}).status_code == 303
    assert admin.get("/admin").status_code in (302, 303)
    assert refused == 2 * 4 * len(cases)


# -- XSS --------------------------------------------------------------------------------------------

EVIL_NAMES = ["<script>a(1)</script>", "'><img src=x onerror=a>", "\"><svg onload=a()>"]
EVIL_DECK = "\"><img src=x onerror=a()>.deck"
RAW_MARKERS = ["<script>a(1)", "<img src=x", "<svg onload"]


def assert_safe_page(html: str, where: str) -> None:
    markup = Page(html)
    for marker in RAW_MARKERS:
        assert marker not in html, f"{where}: unescaped {marker!r}"
    assert not markup.handlers, f"{where}: {markup.handlers}"
    assert not markup.inline_script, f"{where}: an inline script"
    assert all(s.get("src", "").startswith("/static/") for s in markup.scripts), f"{where}: {markup.scripts}"
    assert not markup.styles, f"{where}: inline styles break the CSP: {markup.styles}"
    assert "x" not in markup.image_sources, where
    assert "svg" not in markup.tags, where


def test_names_deck_names_and_csv_content_are_escaped_everywhere(app, player, decks_folder):
    """R3.2 names of up to 24 characters that try to be HTML, in every page that shows them."""
    (decks_folder / EVIL_DECK).write_text((decks_folder / "quick_out.deck").read_text())
    escaped_shown = set()

    def check(response, where, expect=()):
        body = response.get_data(as_text=True)
        assert_safe_page(body, where)
        for text in expect:
            escaped = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            escaped = escaped.replace('"', "&#34;").replace("'", "&#39;")
            if escaped in body:
                escaped_shown.add((where, text))
        return body

    # names arriving through a scores.csv import (CSV content), shown in the preview
    admin = Player(app)
    assert admin.post("/admin/login", {"password": app.config["ADMIN_PASSWORD"]}).status_code == 303
    csv_text = ScoreTable(ScoreRow(name, 1, 0, 30) for name in EVIL_NAMES).to_csv()  # as exported (R7.5)
    response = admin.post("/admin/scores/import", {"scores": (io.BytesIO(csv_text.encode()), "s.csv")},
                          content_type="multipart/form-data")
    assert response.status_code == 200
    check(response, "import preview", EVIL_NAMES)
    token = re.search(r"/admin/scores/import/([\w-]+)", response.get_data(as_text=True)).group(1)
    assert admin.post(f"/admin/scores/import/{token}", {}).status_code == 303
    check(admin.get("/scores"), "scores", EVIL_NAMES)

    # a bad CSV whose bad row holds markup: the error message shows it escaped
    bad = '"name","games won","games lost","best score"\n"<script>a(1)</script>","x","0",""\n'
    response = admin.post("/admin/scores/import", {"scores": (io.BytesIO(bad.encode()), "bad.csv")},
                          content_type="multipart/form-data")
    assert response.status_code == 400
    check(response, "import error")

    # the deck prompt lists the evil deck name and echoes a typed evil answer
    assert player.post("/menus/mason", {"choice": "4"}).status_code == 303
    check(player.get("/setup/deck"), "deck prompt", [EVIL_DECK])
    response = player.post("/setup/deck", {"deck": "<script>a(1)</script>"})
    assert response.status_code == 422
    check(response, "deck prompt error", ["<script>a(1)</script>"])
    response = player.post("/setup/deck", {"deck": "<script>a(1)</script>"}, htmx=True)
    check(response, "deck prompt error fragment")
    assert player.post("/setup/deck", {"deck": EVIL_DECK}).status_code == 303
    # Menu C lists the imported names; a typed evil new name is refused and echoed escaped
    check(player.get("/setup/seat?kind=2"), "menu C", EVIL_NAMES)
    response = player.post("/setup/seat", {"kind": "1", "name": EVIL_NAMES[0], "device": "here"})
    assert response.status_code == 422
    check(response, "seat error", [EVIL_NAMES[0]])
    response = player.post("/setup/seat", {"kind": "1", "name": "<b>x</b>" * 5, "device": "here"})
    check(response, "seat error (too long)")
    assert player.post("/setup/seat", {"kind": "2", "name": EVIL_NAMES[0], "device": "here"}).status_code == 303
    response = player.post("/setup/seat", {"kind": "2", "name": EVIL_NAMES[1], "device": "own"})
    assert response.status_code == 303, Page(response.get_data(as_text=True)).alerts
    slug = response.headers["Location"].rsplit("/", 1)[1]

    with app.app_context():
        code = store.find_game(slug).seats[1].join_code
    pages = {
        "table": player.get(f"/games/{slug}"), "fragment": player.get(f"/games/{slug}/table", htmx=True),
        "watch": player.get(f"/games/{slug}/watch"), "menu A": player.get("/"),
        "invite": player.get(f"/games/{slug}/seats/1/invite"), "join": player.get(f"/join?code={code}"),
        "join link": player.get(f"/join/{code}"), "admin": admin.get("/admin"),
    }
    for where, response in pages.items():
        assert response.status_code == 200, where
        check(response, where, EVIL_NAMES[:2] + [EVIL_DECK])
    guest = Player(app)
    assert guest.post("/join", {"code": code}).status_code == 303
    assert player.act(slug, "draw_stock").status_code == 200
    for where, response in {"table after a move": player.get(f"/games/{slug}"),
                            "guest table": guest.get(f"/games/{slug}")}.items():
        check(response, where, EVIL_NAMES[:2])

    # every evil text was really shown somewhere (escaped), so the checks above saw it
    shown = {text for _where, text in escaped_shown}
    assert set(EVIL_NAMES) | {EVIL_DECK, "<script>a(1)</script>"} <= shown, shown


# -- cookies and headers -------------------------------------------------------------------------


def test_session_cookie_is_httponly_and_samesite_lax(app):
    browser = Player(app)
    response = browser.get("/")  # the CSRF token starts the session
    cookies = [value for name, value in response.headers if name == "Set-Cookie" and value.startswith("session=")]
    assert cookies, "no session cookie was set"
    slug = browser.start_game(["Ann", "AI"], deck="quick_out.deck")
    response = browser.get(f"/games/{slug}")
    cookies += [value for name, value in response.headers if name == "Set-Cookie" and value.startswith("session=")]
    for cookie in cookies:
        attributes = [part.strip().lower() for part in cookie.split(";")]
        assert "httponly" in attributes, cookie
        assert "samesite=lax" in attributes, cookie


def test_security_headers_on_every_kind_of_response(app, player):
    slug = player.start_game(["Ann", "AI"], deck="quick_out.deck")
    responses = {
        "page": player.get("/"), "table": player.get(f"/games/{slug}"),
        "fragment": player.get(f"/games/{slug}/table", htmx=True), "404": player.get("/nothing-here"),
        "400 csrf": player.client.post("/menus/mason", data={"choice": "2"}), "redirect": player.post("/menus/mason", {"choice": "1"}),
        "csv": player.get("/scores.csv"), "static": player.get("/static/css/app.css"),
        "admin login": player.get("/admin/login"),
    }
    for where, response in responses.items():
        headers = response.headers
        assert headers.get("X-Content-Type-Options") == "nosniff", where
        assert headers.get("X-Frame-Options") in ("DENY", "SAMEORIGIN"), where
        policy = headers.get("Content-Security-Policy", "")
        directives = {part.split()[0]: part.split()[1:] for part in policy.split(";") if part.strip()}
        scripts = directives.get("script-src", directives.get("default-src"))
        assert scripts is not None, where
        assert "'unsafe-inline'" not in scripts and "'unsafe-eval'" not in scripts, where
        assert "'self'" in scripts, where
        assert "'unsafe-inline'" not in directives.get("style-src", []), where
        assert directives.get("frame-ancestors") == ["'none'"], where
        assert directives.get("object-src") == ["'none'"], where
        response.close()
    assert responses["csv"].mimetype == "text/csv"
    assert "attachment" in responses["csv"].headers.get("Content-Disposition", "")


def test_pages_pass_the_content_security_policy_with_htmx_from_static(app, player):
    """htmx is vendored under static/ and configured not to eval, not to run inline scripts and
    not to inject its indicator style; no page needs anything the policy forbids."""
    slug = player.start_game(["Ann", "Bob"], deck="quick_out.deck")  # hot-seat: the hand-over screen
    pages = {"/": player.get("/"), "table": player.get(f"/games/{slug}"), "scores": player.get("/scores"),
             "join": player.get("/join"), "admin login": player.get("/admin/login"),
             "404": player.get("/games/nothing")}
    for where, response in pages.items():
        body = response.get_data(as_text=True)
        assert_safe_page(body, where)
        sources = [s.get("src") for s in Page(body).scripts]
        assert any("/static/js/htmx" in (src or "") for src in sources), where
        for src in sources:
            assert player.get(src.split("?")[0]).status_code == 200, src
        config = re.search(r'<meta name="htmx-config" content=\'([^\']*)\'', body)
        assert config, where
        assert '"allowEval":false' in config.group(1) and '"allowScriptTags":false' in config.group(1)
        assert '"includeIndicatorStyles":false' in config.group(1)
    app_js = (ROOT / "static" / "js" / "app.js").read_text()
    assert "eval(" not in app_js and "new Function" not in app_js and "innerHTML" not in app_js
