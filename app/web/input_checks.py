"""Input every route shares, checked once before any view runs: no text field or query string
holds a control character (a NUL, which PostgreSQL refuses in text, is the worst of them), and
whole numbers read from a query string stay within bounds a database can hold.

A refused request gets 400 and a page that says what was wrong, before any query is made."""

from __future__ import annotations

import re
from typing import overload

from flask import Flask, request
from flask.typing import ResponseReturnValue

from .error_pages import render_error

# C0 controls and DEL. Tab, line feed and carriage return are text a form may carry (a pasted
# line); everything else here is nothing a person types.
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
# The largest whole number a query string gives a view: far beyond any page, step or version
# (a game keeps at most store.MAX_ACTIONS actions), far below a 64-bit integer.
MAX_NUMBER = 10**9


def bad_field() -> str | None:
    """The name of the first query or form field (or field name) holding a control character,
    or None. File uploads are not text fields: each upload is checked by what reads it."""
    for source in (request.args, request.form if request.method == "POST" else None):
        if source is None:
            continue
        for key, values in source.lists():
            if CONTROL.search(key):
                return "a field's name"
            for value in values:
                if CONTROL.search(value):
                    return f"“{CONTROL.sub('', key)[:40]}”"
    return None


@overload
def whole_number(name: str, default: int, *, low: int = -MAX_NUMBER, high: int = MAX_NUMBER) -> int: ...


@overload
def whole_number(name: str, default: None = None, *, low: int = -MAX_NUMBER,
                 high: int = MAX_NUMBER) -> int | None: ...


def whole_number(name: str, default: int | None = None, *, low: int = -MAX_NUMBER,
                 high: int = MAX_NUMBER) -> int | None:
    """The query string's whole number ``name``, clamped to ``low``..``high`` (``default`` if it
    is missing or not a number): a page number of 20 digits is the last page asked for, not an
    integer the database cannot hold."""
    value = request.args.get(name, type=int)
    if value is None:
        return default
    return max(low, min(high, value))


def local_path(target: object) -> str | None:
    """``target`` if it is a path of this site (a "next" or "back" field), else None: an address
    elsewhere, or one a browser could read as elsewhere (``//host``, ``/\\host``), is none."""
    if not isinstance(target, str) or not target.startswith("/") or target.startswith(("//", "/\\")):
        return None
    if "\\" in target or len(target) > 300 or any(char.isspace() for char in target):
        return None
    return target


def register(app: Flask) -> None:
    @app.before_request
    def refuse_control_characters() -> ResponseReturnValue | None:
        try:
            where = bad_field()
        except UnicodeDecodeError:  # a raw byte that is no UTF-8 in the query (a browser escapes it)
            return render_error(400, "The address holds a character this table cannot read as text. "
                                     "Nothing was changed.")
        if where is not None:
            return render_error(400, f"What was sent holds an invisible control character (in {where}), "
                                     "which this table does not read. Type it again as plain text; "
                                     "nothing was changed.")
        return None
