"""Every numbered rule of every game's rule book (docs/RULES.md and docs/rules/*.md, one book a
registered game) is cited by a test: its number stands in the docstring or a comment of a test
that fails if the rule breaks. A rule added to a book, or a citation lost, fails here by the
rule's number."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import app.games  # noqa: F401  (registers every game)
from app.core import registry

ROOT = Path(__file__).resolve().parents[1]
BOOKS = [ROOT / "docs" / "RULES.md", *sorted((ROOT / "docs" / "rules").glob("*.md"))]
# A rule's line in a book: "- R4.4 A player sees: ...".
RULE_LINE = re.compile(r"^\s*-\s+([A-Z]\d+\.\d+)\s", re.MULTILINE)
CITATION = re.compile(r"\b([A-Z]\d+\.\d+)(?![\d.]*\d)")


def cited_in_tests() -> set[str]:
    """The rule numbers the test files cite (this file cites none)."""
    cited: set[str] = set()
    for path in (ROOT / "tests").rglob("*.py"):
        if path.resolve() != Path(__file__).resolve():
            cited.update(CITATION.findall(path.read_text(encoding="utf-8")))
    return cited


def test_the_books_are_found_and_numbered():
    """One book a registered game, its title beginning with the game's name ("# Classic Rummy:
    the rules this project implements")."""
    names = sorted(definition.name for definition in registry.games())
    titles = [book.read_text(encoding="utf-8").splitlines()[0].removeprefix("# ") for book in BOOKS]
    assert sorted(name for title in titles for name in names if title.startswith(name)) == names, titles
    assert len(BOOKS) == len(names)
    for book in BOOKS:
        assert len(RULE_LINE.findall(book.read_text(encoding="utf-8"))) >= 15, book.name


@pytest.mark.parametrize("book", BOOKS, ids=lambda book: book.name)
def test_every_rule_of_the_book_is_cited_by_a_test(book: Path):
    cited = cited_in_tests()
    rules = RULE_LINE.findall(book.read_text(encoding="utf-8"))
    missing = [number for number in rules if number not in cited]
    assert not missing, f"{book.name}: no test cites {', '.join(missing)}"
