"""Promise 8: uploads are safe.

A request over MAX_CONTENT_LENGTH gets 413; only .deck and .csv files are taken, under safe names
inside decks/ (no path traversal); only the admin may upload; random bytes, BOMs, CRLF, empty
files and 1 MB files get a 400 with a clear message, never a 500. Hypothesis fuzzes the deck
parser (R2) and the scores.csv parser (R7.5) directly - only their own ValueError subclasses
(DeckError, ScoresFileError) may come out - and the upload routes (never a 5xx).
"""

from __future__ import annotations

import io
import os
import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from support.figures import record_figures
from support.games import admin_player
from support.web import Page, Player, database_dump

from app.settings import COMPILED_TEMPLATES
from app.games.mason import (
    FULL_DECK, DeckError, ScoresFileError, ScoreTable, parse_deck,
)
from app.games.mason.decks import decode_deck_bytes
from app.games.mason.scores import decode_scores_bytes
from app.web.admin import MAX_DECK_BYTES, MAX_SCORES_BYTES

ROOT = Path(__file__).resolve().parents[2]
DECK_TEXT = (ROOT / "tests" / "decks" / "quick_out.deck").read_text()
CSV_TEXT = '"name","games won","games lost","best score"\n"Doris","3","1","42"\n"Ed","0","2",""\n'
MB = 1024 * 1024
SAFE_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]*\.deck$")
ALL_CODES = [card.code for card in FULL_DECK]


def upload_deck(player, data: bytes, name: str = "new.deck", replace: bool = False):
    form = {"deck": (io.BytesIO(data), name)}
    if replace:
        form["replace"] = "1"
    return player.post("/admin/decks", form, content_type="multipart/form-data")


def upload_scores(player, data: bytes, name: str = "scores.csv"):
    return player.post("/admin/scores/import", {"scores": (io.BytesIO(data), name)},
                       content_type="multipart/form-data")


def message(response) -> str:
    return " ".join(Page(response.get_data(as_text=True)).alerts)


def files_under(folder: Path) -> dict:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


# -- limits and messages --------------------------------------------------------------------------


def test_a_request_over_the_size_limit_gets_413(app, decks_folder):
    admin = admin_player(app)
    limit = app.config["MAX_CONTENT_LENGTH"]
    before = files_under(decks_folder), database_dump(app)
    for send in (lambda: upload_deck(admin, b"2C " * (limit // 3 + 10)),
                 lambda: upload_scores(admin, b"x" * (limit + 1))):
        response = send()
        assert response.status_code == 413
        assert "too large" in message(response)
    assert (files_under(decks_folder), database_dump(app)) == before
    # the limit leaves room for the per-file limits, so files over those get a clear 400 instead
    assert limit > MAX_SCORES_BYTES + 64 * 1024 and limit > MAX_DECK_BYTES + 64 * 1024


def bad_files() -> list[tuple[str, bytes, str]]:
    rng = random.Random(8)
    noise = bytes(rng.randrange(256) for _ in range(4096))
    return [
        ("random bytes", noise, "not"),
        ("1 MB of random bytes", bytes(rng.randrange(256) for _ in range(MB)), "too large|not"),
        ("1 MB of text", b"2C 3C 4C\n" * (MB // 9 + 1), "too large|holds|twice|header"),
        ("empty", b"", "empty"),
        ("only spaces and newlines", b" \r\n\t\n", "empty"),
        ("a BOM alone", b"\xef\xbb\xbf", "holds 0|empty|header"),
        ("UTF-16 with its BOM", "2C 3C".encode("utf-16"), "not"),
        ("a NUL byte", b"2C\x00 3C", "not a card|not|header|fields"),
        ("CRLF, one card short", " ".join(DECK_TEXT.split()[:-1]).replace(" ", "\r\n").encode(), "holds 64|header"),
        ("a duplicate", (DECK_TEXT.replace("2C", "3C", 1)).encode(), "twice|header"),
    ]


def test_bad_files_get_a_400_with_a_clear_message_never_a_500(app, decks_folder):
    admin = admin_player(app)
    before = files_under(decks_folder), database_dump(app)
    checked = 0
    for label, data, expected in bad_files():
        for send in (upload_deck, upload_scores):
            response = send(admin, data)
            assert response.status_code == 400, (label, send.__name__, response.status_code)
            text = message(response)
            assert re.search(expected, text), (label, send.__name__, text)
            assert "was not" in text  # says nothing was stored or imported
            checked += 1
    assert (files_under(decks_folder), database_dump(app)) == before
    assert checked == 2 * len(bad_files())


def test_bom_and_crlf_files_that_are_valid_are_accepted(app, decks_folder):
    """A UTF-8 BOM and Windows line ends are not errors (R2.1: any whitespace separates codes)."""
    admin = admin_player(app)
    deck = ("\ufeff" + DECK_TEXT.replace("\n", "\r\n")).encode()
    response = upload_deck(admin, deck, "windows.deck")
    assert response.status_code == 200, message(response)
    assert (decks_folder / "windows.deck").read_bytes() == deck
    response = upload_scores(admin, ("\ufeff" + CSV_TEXT.replace("\n", "\r\n")).encode())
    assert response.status_code == 200, message(response)
    assert "Doris" in response.get_data(as_text=True)


def test_only_deck_and_csv_files_under_safe_names_inside_decks(app, decks_folder, tmp_path):
    admin = admin_player(app)
    deck = DECK_TEXT.encode()
    outside = files_under(tmp_path)
    for name in ("game.txt", "game.csv", "game", ".deck", "game.deck.exe", "..", ""):
        response = upload_deck(admin, deck, name)
        assert response.status_code == 400, name
        assert re.search(r"Only \.deck files|Choose a file", message(response)), name
    for name in ("scores.txt", "scores.deck", "scores", ".csv"):
        response = upload_scores(admin, CSV_TEXT.encode(), name)
        assert response.status_code == 400, name
        assert re.search(r"Only \.csv files|Choose a file", message(response)), name
    for name in ("../../evil.deck", "..\\..\\evil2.deck", "/etc/evil3.deck", "a/../../evil4.deck", ".hidden.deck",
                 "<script>x.deck", "ünï.deck", "Game.DECK", "a b.deck", "%2e%2e%2fevil5.deck"):
        response = upload_deck(admin, deck, name, replace=True)
        assert response.status_code == 200, (name, message(response))
        assert "was checked and stored" in response.get_data(as_text=True)
    after = files_under(tmp_path)
    compiled = Path(app.instance_path, COMPILED_TEMPLATES).relative_to(tmp_path)  # (the answers' templates: a cache)
    new_files = {path for path in set(after) - set(outside) if not Path(path).is_relative_to(compiled)}
    assert all(path.startswith("decks/") and "/" not in path[len("decks/"):] for path in new_files), new_files
    names = {path[len("decks/"):] for path in new_files}
    assert all(SAFE_NAME.match(name) for name in names), names
    assert "Game.deck" in names  # the extension is made lower case, so the deck is listed
    listed = admin.get("/admin").get_data(as_text=True)
    assert all(name in listed for name in names)


def test_only_the_admin_can_upload(app, decks_folder):
    stranger = Player(app)
    before = files_under(decks_folder), database_dump(app)
    for response in (upload_deck(stranger, DECK_TEXT.encode(), "mine.deck"), upload_scores(stranger, CSV_TEXT.encode()),
                     stranger.post("/admin/decks/quick_out.deck/delete", {})):
        assert response.status_code == 403
    assert (files_under(decks_folder), database_dump(app)) == before


# -- Hypothesis: the parsers ---------------------------------------------------------------------

FUZZ_FIGURES = {}


def mutated_deck():
    """Near-valid decks: the 65 codes shuffled, then a few codes dropped, doubled, replaced by
    junk or put in lower case, with any whitespace between them."""
    junk = st.sampled_from(["1C", "ZZ", "10H", "AHH", "", "\x00", "\ufeff", "2c", "é", "--", "A", "H"])

    @st.composite
    def build(draw):
        codes = draw(st.permutations(ALL_CODES))
        for _ in range(draw(st.integers(0, 3))):
            kind = draw(st.sampled_from(["drop", "double", "junk", "lower"]))
            at = draw(st.integers(0, max(0, len(codes) - 1)))
            if not codes:
                break
            if kind == "drop":
                codes.pop(at)
            elif kind == "double":
                codes.insert(at, codes[draw(st.integers(0, len(codes) - 1))])
            elif kind == "junk":
                codes[at] = draw(junk)
            else:
                codes[at] = codes[at].lower()
        separators = draw(st.lists(st.sampled_from([" ", "\n", "\r\n", "\t", "  ", "\x0b", "\u00a0", "\u2003"]),
                                   min_size=len(codes), max_size=len(codes)))
        return "".join(code + sep for code, sep in zip(codes, separators))

    return build()


@pytest.mark.slow
@settings(max_examples=400, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.one_of(st.text(max_size=400), mutated_deck()))
def test_fuzz_parse_deck_only_raises_deck_error(text):
    """R2.2: any text is a valid deck (65 distinct codes) or a DeckError with a message."""
    FUZZ_FIGURES["parse_deck"] = FUZZ_FIGURES.get("parse_deck", 0) + 1
    try:
        cards = parse_deck(text)
    except DeckError as error:
        assert str(error)
        return
    assert sorted(card.code for card in cards) == sorted(ALL_CODES)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, database=None)
@given(data=st.one_of(st.binary(max_size=300), mutated_deck().map(lambda t: t.encode("utf-8")),
                      mutated_deck().map(lambda t: "\ufeff".encode() + t.encode("utf-16-le", "surrogatepass"))))
def test_fuzz_decode_deck_bytes_only_raises_deck_error(data):
    FUZZ_FIGURES["decode_deck_bytes"] = FUZZ_FIGURES.get("decode_deck_bytes", 0) + 1
    try:
        text = decode_deck_bytes(data)
    except DeckError as error:
        assert str(error)
        return
    try:
        parse_deck(text)
    except DeckError:
        pass


def csv_cell():
    return st.one_of(st.text(max_size=12), st.integers(-5, 10**12).map(str),
                     st.sampled_from(["", " ", "AI", "ai", "'=1+1", "=cmd", "\t", "Doris", "doris", '"', "x\ny"]))


@st.composite
def near_csv(draw):
    header = draw(st.sampled_from(['"name","games won","games lost","best score"', "name,games won,games lost,best score",
                                   '"name","won","lost","best"', "", '"name","games won","games lost"']))
    rows = draw(st.lists(st.lists(csv_cell(), min_size=2, max_size=5), max_size=6))
    quote = draw(st.booleans())
    lines = [header]
    for row in rows:
        lines.append(",".join('"' + cell.replace('"', '""') + '"' if quote else cell for cell in row))
    return draw(st.sampled_from(["\n", "\r\n", "\r"])).join(lines) + draw(st.sampled_from(["", "\n", '"']))


@pytest.mark.slow
@settings(max_examples=400, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.one_of(st.text(max_size=300), near_csv()))
def test_fuzz_scores_from_csv_only_raises_scores_file_error(text):
    """R7.5: any text is a score table or a ScoresFileError (with the line when there is one)."""
    FUZZ_FIGURES["from_csv"] = FUZZ_FIGURES.get("from_csv", 0) + 1
    try:
        table = ScoreTable.from_csv(text)
    except ScoresFileError as error:
        assert str(error) and error.reason
        return
    assert ScoreTable.from_csv(table.to_csv()) == table  # what was read can be written and read back


@pytest.mark.slow
@settings(max_examples=300, deadline=None, database=None)
@given(data=st.one_of(st.binary(max_size=300), near_csv().map(lambda t: t.encode("utf-8", "surrogatepass")),
                      near_csv().map(lambda t: b"\xef\xbb\xbf" + t.encode("utf-8", "surrogatepass"))))
def test_fuzz_decode_scores_bytes_only_raises_scores_file_error(data):
    FUZZ_FIGURES["decode_scores_bytes"] = FUZZ_FIGURES.get("decode_scores_bytes", 0) + 1
    try:
        text = decode_scores_bytes(data)
    except ScoresFileError as error:
        assert str(error)
        return
    try:
        ScoreTable.from_csv(text)
    except ScoresFileError:
        pass


# -- Hypothesis: the upload routes ---------------------------------------------------------------


def test_fuzz_upload_routes_never_answer_5xx(app, decks_folder):
    admin = admin_player(app)
    counts = {"cases": 0}
    names = st.one_of(st.sampled_from(["x.deck", "x.csv", "../x.deck", "x.DECK", ".deck", "x", "x.deck\x00.csv"]),
                      st.text(max_size=20).map(lambda t: t + ".deck"), st.text(max_size=20))
    contents = st.one_of(st.binary(max_size=2000), mutated_deck().map(str.encode), near_csv().map(
        lambda t: t.encode("utf-8", "surrogatepass")), st.just(b"x" * (MAX_DECK_BYTES + 1)))

    @settings(max_examples=60, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(route=st.sampled_from(["deck", "scores"]), name=names, data=contents, replace=st.booleans())
    def run(route, name, data, replace):
        counts["cases"] += 1
        if route == "deck":
            response = upload_deck(admin, data, name, replace=replace)
        else:
            response = upload_scores(admin, data, name)
        assert response.status_code in (200, 400, 409, 413), (route, name, response.status_code)
        if response.status_code != 200:
            assert message(response)

    run()
    outside = [p for p in decks_folder.parent.iterdir() if p.name not in ("decks", "instance")
               and p.suffix in (".deck", ".csv")]
    assert outside == []
    new_files = set(os.listdir(decks_folder)) - set(os.listdir(ROOT / "tests" / "decks"))
    assert all(SAFE_NAME.match(name) for name in new_files), new_files
    FUZZ_FIGURES["upload_routes"] = counts["cases"]
    record_figures(app.config["SQLALCHEMY_DATABASE_URI"], "upload_fuzz", **FUZZ_FIGURES)
